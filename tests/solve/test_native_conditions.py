"""Mission conditions in the C search (issue 47): the conditions the fast bot's evaluator reads
(``bots/condeval.h``, the program of ``bots/condcode.py``) run in the solver's C search too.

On small deals of the shapes that stayed in the Python search before (the winning card of a trick: 9, 16, 26;
conditions judged after every play: 13, 44; a chosen player: 41) the C search and the Python search visit the
same nodes, return the same verdict and line, the line replays to success through the engine, and the brute
force agrees. An authored mission of the same words (nothing named after a bundled mission) takes the same
path. The solve report names the C path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve import WINNABLE, native, replays_to_success, solve
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force, search_actions
from tests.solve.test_condition_paths import NINES, ROCKETS, small_deal

pytestmark = pytest.mark.skipif(native.load() is None, reason="the C search is not available here")

ONES = ("blue 1", "green 1", "pink 1")

# (mission, players, cards per seat, cards always dealt, seeds, the seeds also brute-forced): each sample holds
# deals of both verdicts; the brute force only where it is quick
CASES = [
    ("planet-nine/26", 3, 4, ONES, (4, 5, 6), (6,)),
    ("planet-nine/09", 4, 3, ONES, (2, 3, 5, 8), (2, 5, 8)),
    ("planet-nine/16", 4, 3, NINES, (0, 4, 5), (0, 4, 5)),
    ("planet-nine/13", 3, 4, ROCKETS, (0, 2, 9), (0, 9)),
    ("planet-nine/44", 3, 4, ROCKETS, (4, 5, 9), (4, 5, 9)),
    ("planet-nine/41", 3, 4, (), (8, 1, 2), (8, 1, 2)),
]

AUTHORED = """\
number: 91
title: Low finish
description: A 2 must win a trick before any 9 wins one, and a rocket may never win a trick led in green.
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: two-before-nine
    fail_if: >-
      any(t in tricks: t.winning_card.rank == 9
          and not any(u in tricks: u.number < t.number and u.winning_card.rank == 2))
    done_if: "any(t in tricks: t.winning_card.rank == 2)"
  - id: green-stays-green
    check: after-play
    fail_if: "any(c in current_cards: is_trump(c)) and any(c in current_cards: c.suit == green)"
"""


def in_tricks(game: Game) -> Game:
    """``game`` past its setup (the solver's first answer to every question), at its first trick."""
    while game.phase != "tricks":
        game.apply(search_actions(game)[0])
    return game


def c_and_python(game: Game) -> bool:
    """The C and the Python search on ``game``: keyed by the history summary, the same verdict, nodes and line;
    keyed by the history digest (where the conditions allow it), the same verdict in no more nodes; every line
    replays to success. The verdict."""
    summary = TrickSearch(game, digest=False)
    assert summary.native  # old: conditions that read cards or are judged after every play stayed in Python
    slow = TrickSearch(game, native=False)
    assert not slow.native
    won = summary.run()
    assert slow.run() == won
    assert (summary.nodes, summary.line) == (slow.nodes, slow.line)
    digest = TrickSearch(game)
    assert digest.run() == won and digest.nodes <= slow.nodes
    if won:
        cards = game.rules.deck.cards
        for line in (summary.line, digest.line):
            assert replays_to_success(game, [Play(seat, cards[cid]) for seat, cid in line])
    return won


@pytest.mark.parametrize(("mission", "players", "cards", "need", "seeds", "brute"), CASES,
                         ids=[c[0][-2:] for c in CASES])
def test_c_search_reads_the_conditions_as_python_does(mission: str, players: int, cards: int,
                                                      need: tuple[str, ...], seeds: tuple[int, ...],
                                                      brute: tuple[int, ...]) -> None:
    verdicts = set()
    for seed in seeds:
        game = in_tricks(small_deal(mission, seed, cards, need, players=players))
        won = c_and_python(game)
        verdicts.add(won)
        if seed in brute:
            assert brute_force(game)[0] == won
    assert verdicts == {True, False}


def test_mid_trick_positions_agree() -> None:
    """From inside a trick (after-play conditions see the cards on the table) both searches agree."""
    verdicts = set()
    for seed in range(4):
        game = in_tricks(small_deal("planet-nine/44", seed, 4, ROCKETS))
        for first in search_actions(game):
            child = game.clone()
            child.apply(first)
            if not child.is_over():
                verdicts.add(c_and_python(child))
    assert verdicts == {True, False}


def test_authored_mission_runs_in_c(tmp_path: Path) -> None:
    """Held-out words ("before", a trick's led suit, after every play) take the C path and agree."""
    path = tmp_path / "low-finish.yaml"
    path.write_text(AUTHORED, encoding="utf-8")
    verdicts = set()
    for seed in range(8):
        game = in_tricks(small_deal(path, seed, 3, ("blue 2", "blue 9", "green 9")))
        verdicts.add(c_and_python(game))
    assert verdicts == {True, False}


def test_solve_report_names_the_c_path() -> None:
    for mission, check in (("planet-nine/26", "trick"), ("planet-nine/44", "play")):
        game = small_deal(mission, 1, 3, ONES + ROCKETS)
        result = solve(game)
        assert result.engine == "core-c"  # old: "core", the Python search
        (d,) = result.conditions
        assert d["path"] == "program" and not d["why"]  # old: "dsl", with why it stayed in Python
        assert f"a program evaluated at every {check} in the C search" in d["how"]
        if result.status == WINNABLE:
            assert replays_to_success(game, result.line)
