"""The sure-win bound by matching (issue 47): a seat's cards strong in every led suit lose only to distinct
beaters of the other hands, one per trick, so rocket 1, 2 and 4 against a lone rocket 3 win at least two tricks
(before, only rocket 4 counted). An author's "the commander wins at most one trick" is then proved lost before
a card is tried on such deals. The C and the Python search apply the same bound (the same plays), and the
verdicts agree with the slow path, which has no guard and no bound.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import UNWINNABLE, WINNABLE, TrickSearch, native, solve
from crewkit.families.trick_taking.solve.core import _matching
from tests.solve.test_condition_paths import both_paths, small_deal

C = native.load() is not None

AT_MOST_ONE = """\
number: 93
title: Quiet commander
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: commander-at-most-one
    fail_if: "tricks_won(commander) > 1"
"""


def _mission(tmp_path: Path) -> Path:
    path = tmp_path / "quiet.yaml"
    path.write_text(AT_MOST_ONE, encoding="utf-8")
    return path


def test_matching_counts_distinct_bits() -> None:
    assert _matching([]) == 0
    assert _matching([0b1, 0b1, 0b1]) == 1  # three cards, one beater
    assert _matching([0b11, 0b1]) == 2  # the first takes bit 2 so the second gets bit 1 (an augmenting path)
    assert _matching([0b111, 0b111, 0b1, 0]) == 3


def _deal(path: Path, hands: list[list[str]]) -> Game:
    rules = compile_game("crew", str(path), len(hands), None)
    deck = rules.deck
    cards = tuple(tuple(deck.card(n) for n in h) for h in hands)
    return Game.new(rules, seed="matching", deal=Deal(cards, ()), partial=True)


def test_three_rockets_against_one_win_two_tricks(tmp_path: Path) -> None:
    """The commander (rocket 4) also holds rocket 1 and 2; rocket 3 is the only card that beats either: two
    of the three win whatever is played, so "at most one trick" is lost with no play searched."""
    game = _deal(_mission(tmp_path), [
        ["rocket 4", "rocket 1", "rocket 2", "blue 1"],
        ["rocket 3", "blue 2", "blue 3", "blue 4"],
        ["green 1", "green 2", "green 3", "green 4"],
        ["pink 1", "pink 2", "pink 3", "pink 4"],
    ])
    assert game.commander == 0
    search = TrickSearch(game, native=False)
    search._reset_position()
    search.remaining = sum(game.hands)
    assert search.sure_wins(0) == 2
    result = solve(game, timeout=30)
    assert result.status == UNWINNABLE and result.nodes == 0
    assert result.why.startswith("the commander (seat 0) holds rocket 1, rocket 2 and rocket 4 and must play them; "
                                 "only rocket 3 in the other hands beats them, each in one trick, so the commander "
                                 "wins at least 2 tricks; but ")
    assert both_paths(game) == UNWINNABLE


def test_two_beaters_let_it_through(tmp_path: Path) -> None:
    """Rocket 2 and 3 in other hands: rocket 1 has a beater of its own, so only rocket 4 surely wins and a line
    exists (the commander wins with rocket 4 only)."""
    game = _deal(_mission(tmp_path), [
        ["rocket 4", "rocket 1", "blue 5", "blue 1"],
        ["rocket 3", "blue 2", "blue 3", "blue 4"],
        ["rocket 2", "green 2", "green 3", "green 4"],
        ["pink 1", "pink 2", "pink 3", "pink 4"],
    ])
    search = TrickSearch(game, native=False)
    search._reset_position()
    search.remaining = sum(game.hands)
    assert search.sure_wins(0) == 1
    assert both_paths(game) == WINNABLE


def test_random_deals_agree_with_the_slow_path(tmp_path: Path) -> None:
    path = _mission(tmp_path)
    verdicts = [both_paths(small_deal(path, seed, 4, need=("rocket 1", "rocket 2", "rocket 3"))) for seed in range(10)]
    assert UNWINNABLE in verdicts and WINNABLE in verdicts


@pytest.mark.skipif(not C, reason=f"the C search is not available ({native.status()})")
def test_c_and_python_cut_the_same_plays(tmp_path: Path) -> None:
    path = _mission(tmp_path)
    cut = 0
    for seed in range(10):
        game = small_deal(path, seed, 5, need=("rocket 1", "rocket 2", "rocket 3"))
        py = TrickSearch(game, native=False)
        c = TrickSearch(game)
        assert c.native and not py.native
        assert py.run() == c.run()
        assert py.nodes == c.nodes
        cut += py.nodes == 0
    assert cut


def test_the_authored_mission_is_proved_lost_at_once() -> None:
    """benchmarks/authored/04 at 3 players, ``check:2`` (the commander holds rocket 1, 2 and 4, the other
    hands only rocket 3): lost before a play (it took 5 million plays before, above the check's budget)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "authored" / "04-quiet-commander.yaml"
    from crewkit.games import family_for

    game = family_for("crew").open("crew", str(path), 3, "check:2")
    result = solve(game.engine, max_nodes=20_000, native_weight=50)
    assert result.status == UNWINNABLE and result.nodes == 0
