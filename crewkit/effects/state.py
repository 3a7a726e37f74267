"""What an effect needs from a game: the :class:`EffectState` protocol, the :class:`Chooser` protocol and
the :class:`Context` of one application.

The real Not Alone game state will implement :class:`EffectState`; the tests use a small fake. Nothing here
knows a card: the protocol speaks of piles, will, tracks, tokens and places by number.

Seats: each Hunted is a seat number (0, 1, ...); the Creature is :data:`~crewkit.effects.model.CREATURE`.
Places are numbers (1 to 10 in the base game). Piles of place cards are named ``hand``, ``discard``,
``played`` (face down in front of the Hunted this round) and ``reserve``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from .model import ActiveRule, Effect

Pile = Literal["hand", "discard", "played", "reserve"]
Track = Literal["rescue", "assimilation"]
Token = Literal["creature", "target", "artemia"]
T = TypeVar("T")


class EffectState(Protocol):
    """The game state effects act on."""

    @property
    def round(self) -> int:
        """The current round, from 1."""
        ...

    def hunted(self) -> Sequence[int]:
        """Every Hunted's seat, in Reckoning order (from the Creature's left)."""
        ...

    def places(self, seat: int, pile: Pile) -> Sequence[int]:
        """The place cards of ``seat`` in ``pile`` (``reserve`` ignores the seat: the shared reserve)."""
        ...

    def move_places(self, seat: int, cards: Sequence[int], src: Pile, dst: Pile) -> None:
        """Move place cards of ``seat`` from one pile to another (``reserve`` is the shared reserve)."""
        ...

    def will(self, seat: int) -> int:
        ...

    def change_will(self, seat: int, delta: int) -> None:
        """Add ``delta`` (negative: lose) to a Hunted's will; the game applies the third-will rule."""
        ...

    def survival_cards(self, seat: int) -> Sequence[str]:
        ...

    def draw_survival(self, seat: int, count: int) -> Sequence[str]:
        """Draw up to ``count`` survival cards into ``seat``'s hand; returns those drawn."""
        ...

    def discard_survival(self, seat: int, cards: Sequence[str]) -> None:
        ...

    def hunt_cards(self) -> Sequence[str]:
        """The Creature's hand of hunt cards."""
        ...

    def discard_hunt(self, cards: Sequence[str]) -> None:
        ...

    def hunt_to_deck_bottom(self, cards: Sequence[str]) -> None:
        """Put hunt cards from the Creature's hand under the hunt deck."""
        ...

    def hunt_discard(self) -> Sequence[str]:
        """The hunt cards discarded so far, oldest first."""
        ...

    def move_track(self, track: Track, by: int) -> None:
        """Move a counter forward; the game ends at once when it reaches its goal."""
        ...

    def marker_on_beach(self) -> bool:
        ...

    def set_marker_on_beach(self, on: bool) -> None:
        ...

    def token_places(self, token: Token) -> Sequence[int]:
        """The places a hunt token stands on (none before it is placed; two for a two-place card)."""
        ...

    def set_token_places(self, token: Token, places: Sequence[int]) -> None:
        ...

    def position(self, seat: int) -> int | None:
        """The place a Hunted is on this round (their played card once revealed), or None."""
        ...

    def set_position(self, seat: int, place: int) -> None:
        ...

    def cards_played(self, kind: Literal["hunt", "survival"]) -> Sequence[str]:
        """The hunt or survival cards played this round, in order."""
        ...

    def adjacent(self, place: int) -> Sequence[int]:
        """The places next to ``place`` (sharing a side)."""
        ...

    def use_power(self, seat: int, place: int) -> None:
        """``seat`` uses the power of ``place`` (the game resolves that place's effects for the seat)."""
        ...

    def play_card_effects(self, card: str, actor: int) -> None:
        """Apply the effects of the hunt or survival card ``card`` as if ``actor`` had played it."""
        ...

    def reveal_places(self, seat: int, cards: Sequence[int], to: int) -> None:
        """Show some of ``seat``'s place cards to one player (``to``) only."""
        ...

    def add_rule(self, effect: Effect, actor: int, card: str, context: Mapping[str, object]) -> ActiveRule:
        """Put a rule in force for its duration (a :class:`~crewkit.effects.model.RuleBook` does the work)."""
        ...

    def rules(self, word: str | None = None) -> Sequence[ActiveRule]:
        """The rules in force this round (only those of ``word`` when given)."""
        ...

    def log(self, text: str) -> None:
        """One line for the players' log (never names a hidden card)."""
        ...


class Chooser(Protocol):
    """Asks a player to choose. ``who`` is the seat that chooses (or the Creature); ``why`` is player text."""

    def pick(self, who: int, options: Sequence[T], count: int, why: str) -> list[T]:
        """``count`` distinct items of ``options`` (fewer only when there are fewer options)."""
        ...


@dataclass
class Context:
    """One application of an effect.

    ``actor`` played the card or uses the place (a seat, or the Creature); ``place`` is the place being
    resolved (``this``); ``affected`` is the Hunted a card acts on (the one on a targeted place) when it is
    not the actor; ``card`` names the card or place for the log and the rule book.
    """

    state: EffectState
    chooser: Chooser
    actor: int
    card: str = ""
    place: int | None = None
    affected: int | None = None
    place_ids: Mapping[str, int] = field(default_factory=dict)
    not_copyable: frozenset[int] = frozenset()
    chosen: dict[str, object] = field(default_factory=dict)
