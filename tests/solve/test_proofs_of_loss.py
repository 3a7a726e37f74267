"""The solver proves lost deals, not only finds winning lines (issue 29, item 2).

The card-blind conditions of a mission (those that read only who won which trick) become an automaton over
trick winners even when other conditions read cards: the *guard*. Every winning line follows it, so the Python
search cuts a winner it forbids, and a seat that surely wins more of the tricks left than the guard lets it
(it holds trumps nobody can beat and must play them) proves the position lost before a card is tried. The C
search applies the same bound to missions whose conditions are all card-blind.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve import UNWINNABLE, TrickSearch, native, solve
from tests.solve.test_condition_paths import both_paths, small_deal

C = native.load() is not None

HUMBLE_START = """\
number: 91
title: Humble start
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: commander-humble
    fail_if: "tricks_won(commander) > 0"
  - id: a-one-wins
    done_if: "any(t in tricks: t.winning_card.rank == 1)"
"""

# the same, card-blind only: the C search takes it
HUMBLE = """\
number: 95
title: Humble
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: commander-humble
    fail_if: "tricks_won(commander) > 1"
"""


def _mission(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"m{text.split()[1]}.yaml"  # by the mission's number
    path.write_text(text, encoding="utf-8")
    return path


def test_humble_start_is_proved_lost_before_a_card(tmp_path: Path) -> None:
    """At 4 players every card is played and the commander holds rocket 4, which wins its trick: the
    commander cannot win no trick. Each deal is proved lost with no play searched (it was "unknown" after
    minutes: the Python search of the card-reading condition could not exhaust the plays)."""
    path = _mission(tmp_path, HUMBLE_START)
    for i in range(5):
        game = new_game("crew", str(path), 4, seed=f"humble:{i}")
        t0 = time.perf_counter()
        result = solve(game, timeout=30)
        assert result.status == UNWINNABLE and result.nodes == 0
        assert time.perf_counter() - t0 < 5
        search = TrickSearch(game, native=False)
        assert search.guard is not None and search.guard.most[search.guard.root][game.commander] == 0
        search._reset_position()
        search.remaining = sum(game.hands)
        assert search.sure_wins(game.commander) >= 1


def test_the_guard_and_the_bound_agree_with_the_slow_path(tmp_path: Path) -> None:
    """Small deals of a mission mixing card-blind and card-reading conditions: the guarded search and the
    DSL-only search (no guard, no bound) give the same verdict, and some deals are lost by the bound."""
    path = _mission(tmp_path, HUMBLE_START.replace("> 0", "> 1"))
    verdicts = [both_paths(small_deal(path, seed, 4)) for seed in range(12)]
    assert UNWINNABLE in verdicts and "winnable" in verdicts


@pytest.mark.skipif(not C, reason="needs the C search")
def test_c_and_python_prove_the_same_losses(tmp_path: Path) -> None:
    """Card-blind conditions only: the C search follows the automaton with the sure-win bound, the Python
    search the same guard; both visit the same number of plays (the C search mirrors the Python one)."""
    path = _mission(tmp_path, HUMBLE)
    lost = 0
    for seed in range(10):
        game = small_deal(path, seed, 5)
        py = TrickSearch(game, native=False)
        c = TrickSearch(game)
        assert c.native and not py.native
        assert py.run() == c.run()
        assert py.nodes == c.nodes
        lost += not c.run()
    assert lost


NEVER = """\
number: 92
title: Never
rulesets: [crew]
tasks: {count: 3, tokens: []}
symbols: {}
conditions:
  - id: commander-all
    fail_if: "any(t in tricks: t.winner != commander)"
  - id: commander-none
    fail_if: "tricks_won(commander) > 0"
"""


def test_a_proof_before_the_first_card_says_why(tmp_path: Path) -> None:
    """The solver's verdict carries the bound's reason in words, naming the conditions that decide it (the
    fewest: one alone, or the two that contradict each other) and the cards."""
    game = new_game("crew", str(_mission(tmp_path, HUMBLE_START)), 4, seed="why:3")
    why = solve(game, timeout=30).why
    assert why.startswith(f"the commander (seat {game.commander}) holds rocket 4, which no card in another hand "
                          "beats, and must play it, so the commander wins at least 1 trick; but ")
    assert "(commander-humble)" in why and "a-one-wins" not in why and "at most 0" in why
    never = solve(new_game("crew", str(_mission(tmp_path, NEVER)), 4, seed="why"), timeout=30)
    assert never.status == UNWINNABLE and never.nodes == 0
    assert never.why.startswith("no order of trick winners satisfies ")
    assert "(commander-all) together with " in never.why and never.why.endswith("(commander-none)")
    assert solve(new_game("crew", "planet-nine/05", 4, seed="why"), timeout=30).why == ""


@pytest.mark.skipif(not C, reason="needs the C search")
def test_tasks_against_the_conditions_in_c_and_python() -> None:
    """A free draft beside conditions on trick winners (the authored quiet captain: at most two tricks for the
    commander), small deals: the tricks the commander's tasks need count against what the conditions allow,
    the same way in C and in Python (same verdicts, same plays searched)."""
    from tests.solve.test_solver import small_game

    mission = str(Path(__file__).resolve().parents[1] / "analysis" / "authored" / "quiet-captain.yaml")
    verdicts = set()
    for seed in range(25):
        game = small_game(mission, seed, cards=4, players=4)
        py, c = TrickSearch(game, native=False), TrickSearch(game)
        assert c.native and py.draft and c.draft
        ok = py.run()
        assert ok == c.run() and py.nodes == c.nodes
        verdicts.add(ok)
    assert verdicts == {True, False}
