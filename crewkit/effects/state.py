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
T = TypeVar("T")


class EffectState(Protocol):
    """The game state effects act on."""

    @property
    def round(self) -> int:
        """The current round, from 1."""
        ...

    def other_seats(self) -> Sequence[int]:
        """Every seat but the lone one (each Hunted), in resolution order (from the lone seat's left)."""
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

    def effect_hand(self, seat: int, deck: str) -> Sequence[str]:
        """The effect cards of ``deck`` in ``seat``'s hand (the Creature's hunt cards: deck ``hunt``)."""
        ...

    def draw_effect_cards(self, seat: int, deck: str, count: int) -> Sequence[str]:
        """Draw up to ``count`` cards of ``deck`` into ``seat``'s hand; returns those drawn."""
        ...

    def discard_effect_cards(self, seat: int, deck: str, cards: Sequence[str]) -> None:
        ...

    def effect_cards_to_bottom(self, seat: int, deck: str, cards: Sequence[str]) -> None:
        """Put cards from ``seat``'s hand under their deck."""
        ...

    def effect_discard(self, deck: str) -> Sequence[str]:
        """The cards of ``deck`` discarded so far, oldest first."""
        ...

    def move_track(self, track: str, by: int) -> None:
        """Move a counter forward; the game ends at once when it reaches its goal."""
        ...

    def marker_placed(self) -> bool:
        """Whether the marker counter is on its place (the Beach)."""
        ...

    def set_marker(self, on: bool) -> None:
        ...

    def token_places(self, token: str) -> Sequence[int]:
        """The places a hunt token stands on (none before it is placed; two for a two-place card)."""
        ...

    def set_token_places(self, token: str, places: Sequence[int]) -> None:
        ...

    def position(self, seat: int) -> int | None:
        """The place a Hunted is on this round (their played card once revealed), or None."""
        ...

    def set_position(self, seat: int, place: int) -> None:
        ...

    def cards_played(self, deck: str) -> Sequence[str]:
        """The cards of ``deck`` played this round, in order."""
        ...

    def adjacent(self, place: int) -> Sequence[int]:
        """The places next to ``place`` (sharing a side)."""
        ...

    def use_power(self, seat: int, place: int) -> None:
        """``seat`` uses the power of ``place`` (the game resolves that place's effects for the seat)."""
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

    def pick(self, who: int, options: Sequence[T], count: int, why: str, labels: Sequence[str] = ()) -> list[T]:
        """``count`` distinct items of ``options`` (fewer only when there are fewer options). ``labels``: how a
        player reads each option when the options are ids (a record keeps the id, the player reads the words)."""
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
