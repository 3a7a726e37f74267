"""The read-only view of a game that DSL conditions and score formulas are evaluated against."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from crewkit.cards import Card, Deck

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game, Task, Trick


class EngineView:
    """Implements ``crewkit.dsl.view.View`` over a live :class:`Game` (full information: the engine judges)."""

    __slots__ = ("_g", "deck")

    def __init__(self, game: Game) -> None:
        self._g = game
        self.deck: Deck = game.rules.deck

    def seats(self) -> Sequence[int]:
        return range(self._g.n)

    def commander(self) -> int | None:
        return self._g.commander

    def dealer(self) -> int | None:
        return self._g.dealer

    def role(self, name: str) -> int | None:
        return self._g.roles.get(name)

    def roles(self) -> Mapping[str, int | None]:
        return self._g.roles

    def trick_of(self, card: Card) -> Trick | None:
        return self._g.card_trick.get(card.id)

    def mode(self) -> str | None:
        return self._g.mode

    def tricks(self) -> Sequence[Trick]:
        return self._g.tricks

    def total_tricks(self) -> int:
        return self._g.total_tricks

    def tricks_won(self, seat: int) -> int:
        return self._g.tricks_won[seat]

    def won_cards(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._g.won[seat])

    def hand(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._g.hands[seat])

    def current_plays(self) -> Sequence[tuple[int, Card]]:
        return self._g.plays

    def tasks(self) -> Sequence[Task]:
        return self._g.tasks

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self._g.n

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self._g.n
