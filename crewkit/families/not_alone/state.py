"""The typed state of a board-of-places game (:mod:`crewkit.families.not_alone.board`), one block state per concern.

Seats: seat 0 is the lone seat (the rule set's first role), seats 1 to n-1 the others, in the order they are
resolved (from the lone seat's left, clockwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from crewkit.effects.model import RuleBook
from crewkit.engine.phase import BlockState

LONE = 0  # the seat of the lone side (the rule set's first role)


# ------------------------------------------------------------------------------------------------ states


@dataclass(slots=True)
class PilesState(BlockState):
    """Place cards per seat (index = seat; the lone seat's piles stay empty) and the shared reserve."""

    hand: list[list[int]]
    discard: list[list[int]]
    played: list[list[int]]
    reserve: list[int]

    def copy(self) -> PilesState:
        return PilesState(
            [list(p) for p in self.hand],
            [list(p) for p in self.discard],
            [list(p) for p in self.played],
            list(self.reserve),
        )

    def pile(self, seat: int, name: str) -> list[int]:
        if name == "reserve":
            return self.reserve
        pile: list[int] = getattr(self, name)[seat]
        return pile


@dataclass(slots=True)
class ResourceState(BlockState):
    """One counter per seat (the rule set's ``counter:``), from ``start``, never above ``cap`` nor below 0."""

    value: list[int]
    start: int
    cap: int
    lost_last: list[int] = field(default_factory=list)  # seats that lost their last one, not yet reset

    def copy(self) -> ResourceState:
        return ResourceState(list(self.value), self.start, self.cap, list(self.lost_last))


@dataclass(slots=True)
class TracksState(BlockState):
    """Race tracks: how far each counter has moved and how far it must go (its goal)."""

    position: dict[str, int]
    goal: dict[str, int]
    winners: dict[str, tuple[int, ...]]  # the seats that win when the track reaches its goal

    def copy(self) -> TracksState:
        return TracksState(dict(self.position), dict(self.goal), self.winners)


@dataclass(slots=True)
class BoardState(BlockState):
    """The places' grid, the tokens on it, the marker, where each seat stands, powers used this round."""

    tokens: dict[str, list[int]] = field(default_factory=dict)
    marker: bool = False
    positions: dict[int, list[int]] = field(default_factory=dict)  # seat -> places revealed this round
    used_once: set[int] = field(default_factory=set)  # places whose once-a-round power was used
    caught: set[str] = field(default_factory=set)  # tokens that moved the track by a catch this round
    in_resolution: bool = False
    # tokens a card made available this round, to be placed in the token-placement phase: token -> places it covers
    to_place: dict[str, int] = field(default_factory=dict)

    def copy(self) -> BoardState:
        return BoardState(
            {k: list(v) for k, v in self.tokens.items()},
            self.marker,
            {k: list(v) for k, v in self.positions.items()},
            set(self.used_once),
            set(self.caught),
            self.in_resolution,
            dict(self.to_place),
        )


@dataclass(slots=True)
class CardsState(BlockState):
    """Effect cards, by deck (the rule set's ``decks:``): each seat's hand, the draw pile and the discards."""

    hands: dict[str, list[list[str]]]  # deck -> per seat (empty for seats of other roles)
    draw: dict[str, list[str]]  # deck -> the draw pile, top first
    discard: dict[str, list[str]]  # deck -> the discards, oldest first
    played: list[tuple[str, str, int]] = field(default_factory=list)  # (deck, card, seat) this round
    book: RuleBook = field(default_factory=RuleBook)
    shown: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)  # (owner, viewer, cards)
    copies: dict[str, str] = field(default_factory=dict)  # a card played this round that copies -> the card copied

    def copy(self) -> CardsState:
        return CardsState(
            {d: [list(h) for h in hands] for d, hands in self.hands.items()},
            {d: list(p) for d, p in self.draw.items()},
            {d: list(p) for d, p in self.discard.items()},
            list(self.played),
            self.book.copy(),
            list(self.shown),
            dict(self.copies),
        )


def adjacency(rows: Sequence[Sequence[int]]) -> dict[int, tuple[int, ...]]:
    """Places sharing a side in a grid given by rows."""
    out: dict[int, list[int]] = {}
    for r, row in enumerate(rows):
        for c, place in enumerate(row):
            near = out.setdefault(place, [])
            for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr]):
                    near.append(rows[rr][cc])
    return {p: tuple(sorted(v)) for p, v in out.items()}
