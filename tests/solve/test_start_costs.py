"""``benchmarks/start_costs.py`` (issue 47): each start of a deal searched alone, and the solver's passes replayed
on those costs for several orders of the starts, an oracle among them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from crewkit.families.trick_taking.analysis.check import SOLVER_NATIVE_WEIGHT
from crewkit.families.trick_taking.solve import native, solve
from crewkit.games import family_for

ROOT = Path(__file__).resolve().parents[2]
LOW_TIDE = ROOT / "benchmarks" / "authored" / "12-low-winners.yaml"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("start_costs", ROOT / "benchmarks" / "start_costs.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["start_costs"] = mod
    spec.loader.exec_module(mod)
    return mod


def _start(verdict: str, plays: int, progress: int = 0) -> dict[str, object]:
    return {"score": 0, "verdict": verdict, "plays": plays, "progress": progress}


def test_replay_reaches_a_won_start_only_within_the_budget() -> None:
    tool = _tool()
    undecided = _start("undecided", 1_000_000)
    won = _start("won", 400_000)
    starts = [undecided, undecided, undecided, won]
    passes = [10_000, 30_000, 100_000, None]
    # three passes give each start 140,000 (560,000 in all); the rest, 440,000, goes to the first start: the won
    # start (140,000 of its 400,000 then) is reached only when it is first
    assert not tool.replay(starts, [0, 1, 2, 3], passes, 1_000_000)
    assert tool.replay(starts, [3, 0, 1, 2], passes, 1_000_000)
    # a lost start gives back what it did not spend
    assert tool.replay([_start("lost", 5_000), won], [0, 1], [None], 405_000)
    assert not tool.replay([_start("lost", 5_000), won], [0, 1], [None], 404_999)


def test_the_oracle_orders_the_cheapest_won_start_first() -> None:
    tool = _tool()
    starts = [_start("undecided", 10, 3), _start("won", 900, 0), _start("lost", 5, 1), _start("won", 300, 2)]
    orders = tool.orders()
    assert orders["affinity score"](starts) == [0, 1, 2, 3]
    assert orders["play-out progress"](starts) == [0, 3, 2, 1]
    assert orders["oracle"](starts)[:2] == [3, 1]


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_measured_costs_replayed_agree_with_the_solver() -> None:
    tool = _tool()
    game = family_for("crew").open("crew", str(LOW_TIDE), 5, "check:0")
    starts = tool.measure_deal(game.engine, 200_000, SOLVER_NATIVE_WEIGHT)
    assert len(starts) == 6
    assert all(s["verdict"] == "won" for s in starts)  # check:0: every assignment is won, the cheapest at once
    budgets = tool.schedules(len(starts), SOLVER_NATIVE_WEIGHT)["the solver's passes"]
    decided = tool.replay(starts, range(len(starts)), budgets, 20_000 * SOLVER_NATIVE_WEIGHT)
    result = solve(game.engine, max_nodes=20_000, native_weight=SOLVER_NATIVE_WEIGHT)
    assert decided == (result.status == "winnable")
