"""Golden scenarios of the board family: a game whose shuffled cards and counters are fixed by hand
(``given``), then actions whose every consequence was worked out from the rules (RULES.md §5)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

from crewkit.engine.actions import Action
from crewkit.engine.machine import Pick
from crewkit.families.not_alone.blocks import Pass, PlaceToken, PlayCard, PlayPlaces
from crewkit.families.not_alone.board import BoardGame, load_board_ruleset, with_readings
from crewkit.families.not_alone.state import (
    LONE,
    BoardState,
    CardsState,
    PilesState,
    ResourceState,
    TracksState,
)

F = TypeVar("F", bound=Callable[..., Any])
PINNED: dict[str, set[str]] = {}  # reading id -> the options a golden scenario pins (test_readings.py checks)


def pins(reading: str, expected: Mapping[str, Any]) -> Callable[[F], F]:
    """Parametrize a golden scenario over a reading's options (``option``, ``expected``) and record that the
    reading is pinned; test_readings.py checks every option of every Not Alone reading is."""

    def mark(test: F) -> F:
        PINNED.setdefault(reading, set()).update(expected)
        marked: F = pytest.mark.parametrize(("option", "expected"), list(expected.items()), ids=list(expected))(test)
        return marked

    return mark


def scenario(
    players: int,
    *,
    ruleset: str = "not-alone",
    readings: Mapping[str, str] | None = None,
    hunt: Sequence[str] = (),
    survival: Mapping[int, Sequence[str]] | None = None,
    hand: Mapping[int, Sequence[int]] | None = None,
    discard: Mapping[int, Sequence[int]] | None = None,
    will: Mapping[int, int] | None = None,
    rescue: int = 0,
    assimilation: int = 0,
    marker: bool = False,
    side: str = "a",
    hunt_deck: Sequence[str] | None = None,
    survival_deck: Sequence[str] | None = None,
    hunt_discard: Sequence[str] = (),
) -> BoardGame:
    """A game of ``players`` with its random parts replaced by the given ones, the board side chosen."""
    rs = load_board_ruleset(ruleset)
    g = BoardGame(with_readings(rs, readings) if readings else rs, players, "golden")
    cards = g.state(CardsState)
    cards.hands["hunt"][LONE] = list(hunt)
    if hunt_deck is not None:
        cards.draw["hunt"] = list(hunt_deck)
    cards.discard["hunt"] = list(hunt_discard)
    cards.hands["survival"] = [[] for _ in range(players)]
    for seat, held in (survival or {}).items():
        cards.hands["survival"][seat] = list(held)
    if survival_deck is not None:
        cards.draw["survival"] = list(survival_deck)
    piles = g.state(PilesState)
    for seat, held_places in (hand or {}).items():
        piles.hand[seat] = list(held_places)
    for seat, gone in (discard or {}).items():
        piles.discard[seat] = list(gone)
        piles.hand[seat] = [p for p in piles.hand[seat] if p not in gone]
    for seat, value in (will or {}).items():
        g.state(ResourceState).value[seat] = value
    tracks = g.state(TracksState)
    tracks.position["rescue"], tracks.position["assimilation"] = rescue, assimilation
    g.state(BoardState).marker = marker
    g.apply(Pick(LONE, side))
    return g


def random_play(g: BoardGame, seed: int, steps: int = 5000) -> BoardGame:
    """Play uniformly random legal actions (a random waiting seat each step) until the game ends."""
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over():
            break
        seat = rng.choice(g.waiting())
        g.apply(rng.choice(g.legal_actions(seat)))
    return g


def play(g: BoardGame, *actions: Action) -> None:
    for action in actions:
        g.apply(action)


def places(g: BoardGame, **by_seat: Any) -> None:
    """Every Hunted plays: ``places(g, s1=2, s2=(3, 4))`` (the Creature first passes its phase-1 cards)."""
    while g.waiting() == (LONE,) and Pass(LONE) in g.legal_actions(LONE):
        g.apply(Pass(LONE))
    for key, value in by_seat.items():
        g.apply(PlayPlaces(int(key[1:]), value if isinstance(value, tuple) else (value,)))


def creature(
    g: BoardGame, place: int, *cards: tuple[str, tuple[int, ...]], artemia: int | None = None
) -> None:
    """The Creature plays its phase-2 cards, puts its token on ``place``, and the Artemia token if given."""
    for card, where in cards:
        g.apply(PlayCard(LONE, card, where))
    g.apply(PlaceToken(LONE, "creature", (place,)))
    if g.waiting() == (LONE,) and g.phase == "hunting":
        g.apply(PlaceToken(LONE, "artemia", (artemia,)) if artemia else Pass(LONE))


def choose(g: BoardGame, text: str) -> None:
    """Answer the pending question with the option containing ``text`` (or equal to it)."""
    q = g.question
    assert q is not None, "no question is pending"
    found = [o for o in q.options if q.label(o) == text or str(o) == text] or [
        o for o in q.options if text in q.label(o)
    ]  # an option read by its words (its value may be an id: option-2, power)
    assert found, f"{text!r} is not among {q.options} ({q.why})"
    g.apply(Pick(q.seat, found[0]))


def pass_all(g: BoardGame) -> None:
    """Every seat the game waits for in a card window passes (until something else is asked)."""
    while (
        not g.is_over()
        and g.question is None
        and g.legal_actions()
        and Pass(g.waiting()[0]) in g.legal_actions()
    ):
        if g.phase == "hunting" and g.waiting() == (LONE,):
            break
        g.apply(Pass(g.waiting()[0]))


def state(g: BoardGame) -> dict[str, Any]:
    piles, res, tr = g.state(PilesState), g.state(ResourceState), g.state(TracksState)
    return {
        "will": res.value[1:],
        "rescue": tr.position["rescue"],
        "assimilation": tr.position["assimilation"],
        "hand": [sorted(h) for h in piles.hand[1:]],
        "discard": [sorted(d) for d in piles.discard[1:]],
        "round": g.round,
        "over": g.is_over(),
        "winners": g.winners,
    }


# ------------------------------------------------------------------------------------------------ invariants


def totals(g: BoardGame) -> tuple[int, ...]:
    """Cards of each kind in the game, wherever they are (conserved by every action)."""
    piles, cards = g.state(PilesState), g.state(CardsState)
    places = len(piles.reserve) + sum(
        len(piles.hand[s]) + len(piles.discard[s]) + len(piles.played[s]) for s in range(g.n)
    )
    decks = tuple(
        len(cards.draw[d]) + len(cards.discard[d]) + sum(len(h) for h in cards.hands[d]) for d in sorted(cards.draw)
    )
    return (places, *decks)


class Invariants:
    """Checked after every action of a game: cards conserved, one of each place card per seat, tracks only
    forward and never past their goal, the game over exactly when a track reached its goal, the counter
    between 0 and its cap, and at the end the track's side wins."""

    def __init__(self, g: BoardGame) -> None:
        self.g = g
        self.start = totals(g)
        self.before = dict(g.state(TracksState).position)

    def check(self) -> None:
        g, tracks = self.g, self.g.state(TracksState)
        assert totals(g) == self.start, "a card appeared or vanished"
        for name, pos in tracks.position.items():
            assert self.before[name] <= pos <= tracks.goal[name], f"the {name} track went back or past its goal"
        self.before = dict(tracks.position)
        reached = [name for name, pos in tracks.position.items() if pos == tracks.goal[name]]
        assert g.is_over() == bool(reached), "the game ends exactly when a track reaches its goal"
        res = g.state(ResourceState)
        assert all(0 <= res.value[s] <= res.cap for s in g.other_seats())
        piles = g.state(PilesState)
        for s in g.other_seats():
            held = piles.hand[s] + piles.discard[s] + piles.played[s]
            assert len(set(held)) == len(held), f"seat {s} holds a place card twice"

    def check_end(self) -> None:
        g, tracks = self.g, self.g.state(TracksState)
        assert g.is_over()
        reached = [name for name, pos in tracks.position.items() if pos == tracks.goal[name]]
        assert len(reached) == 1
        wins = g.data["tracks"][reached[0]]["wins"]
        assert g.winners == tuple(g.role_seats(wins))


def checked_random_play(g: BoardGame, seed: int | str, steps: int = 5000) -> BoardGame:
    """:func:`random_play` with :class:`Invariants` checked after every action."""
    rng = random.Random(seed)
    inv = Invariants(g)
    for _ in range(steps):
        if g.is_over():
            break
        seat = rng.choice(g.waiting())
        g.apply(rng.choice(g.legal_actions(seat)))
        inv.check()
    inv.check_end()
    return g
