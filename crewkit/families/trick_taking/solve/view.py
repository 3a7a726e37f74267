"""The engine's view surface over the solver's search state, so that a mission's compiled conditions read the
search as they read a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from crewkit.cards import Card, Deck
from crewkit.families.trick_taking.engine.game import Task, Trick

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch


class StateView:
    """The view surface's parts both search states answer alike (:class:`SearchView`, the adversarial search's
    :class:`~crewkit.families.trick_taking.solve.round_view.RoundView`): seats, the dealer, the mode, tricks
    counted, hands and won cards as masks over the deck, the trick in progress."""

    __slots__ = ("_s", "deck")

    def __init__(self, search: Any) -> None:
        self._s = search
        self.deck: Deck = search.deck

    def seats(self) -> Sequence[int]:
        return range(self._s.n)

    def dealer(self) -> int | None:
        return self._s.dealer

    def mode(self) -> str | None:
        return self._s.mode

    def total_tricks(self) -> int:
        return self._s.total

    def tricks_won(self, seat: int) -> int:
        return self._s.tricks_won[seat]

    def won_cards(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._s.won[seat])

    def hand(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._s.hands[seat])

    def current_plays(self) -> Sequence[tuple[int, Card]]:
        cards = self._s.cards
        return [(seat, cards[cid]) for seat, cid in self._s.plays]

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self._s.n

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self._s.n


class SearchView(StateView):
    """The engine's view surface (``crewkit.dsl.view.View``) over a :class:`TrickSearch` state."""

    __slots__ = ()

    def __init__(self, search: TrickSearch) -> None:
        super().__init__(search)

    def commander(self) -> int | None:
        return self._s.commander

    def role(self, name: str) -> int | None:
        return self._s.roles.get(name)

    def roles(self) -> Mapping[str, int | None]:
        return self._s.roles

    def trick_of(self, card: Card) -> Trick | None:
        return self._s.trick_by_card.get(card.id)

    def tricks(self) -> Sequence[Trick]:
        return self._s.trick_objs

    def tasks(self) -> Sequence[Task]:
        return self._s.task_objs[:self._s.nreal]  # not the compiled conditions' cards

