"""Issue 12, item 1: the cost of a stranger's condition is bounded.

At load time the checker refuses what cannot be evaluated in reasonable time or memory (with the file, line
and column); at run time a step budget, a list-size and an integer-size bound stop what slips through, and a
caller's deadline (``solve --timeout``) or cancel event (the terminal app quitting) stops a slow evaluation.
The hostile missions are in ``tests/untrusted/dsl/``; each case states its exit code, message and time bound.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from crewkit import dsl
from crewkit.dsl import limits
from crewkit.dsl.cost import estimate
from crewkit.families.trick_taking.engine.rules import build_deck
from crewkit.spec.loader import load_ruleset
from tests.speed import scaled
from tests.untrusted.harness import assert_refused, run_bounded

HERE = Path(__file__).resolve().parent / "dsl"

# file, the message, the line:column it points at (the smallest part that is too costly)
COSTLY = [
    ("nested-62.yaml", "steps to evaluate", ":9:"),
    ("count-4.yaml", "steps to evaluate", ":9:"),
    ("double-30.yaml", "can build a list of up to", ":9:"),
    ("square-20.yaml", "can compute a number of up to", ":9:"),
]


@pytest.mark.parametrize(("name", "fragment", "where"), COSTLY)
def test_validate_refuses_a_costly_condition_with_its_position(name: str, fragment: str, where: str) -> None:
    run = run_bounded("validate", str(HERE / name), timeout=30)
    assert_refused(run, fragment, max_seconds=10)
    assert f"{name}{where}" in run.output  # file:line:col of the expression in the YAML file


@pytest.mark.parametrize(
    "command",
    [
        ("simulate", "--games", "2"),
        ("check", "--games", "2"),
        ("solve", "--timeout", "5", "--seed", "s"),
    ],
    ids=["simulate", "check", "solve"],
)
@pytest.mark.parametrize("name", ["nested-62.yaml", "double-30.yaml"])
def test_every_command_refuses_a_costly_mission_quickly(command: tuple[str, ...], name: str) -> None:
    args = [command[0]]
    if command[0] == "check":
        args += [str(HERE / name), *command[1:]]
    else:
        args += ["--mission", str(HERE / name), *command[1:]]
    run = run_bounded(*args, timeout=30)
    assert_refused(run, name, max_seconds=15)


def _deck() -> Any:
    return build_deck(load_ruleset("crew").data["deck"])


def test_bundled_conditions_stay_far_below_the_bound() -> None:
    """Every expression of every bundled mission is estimated at under a tenth of the bound."""
    import yaml

    from crewkit.dsl.cost import WORD
    from crewkit.spec import bundled

    deck = _deck()
    worst = (0, "")
    for path in bundled.bundled_missions():
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        texts = [c[k] for c in data.get("conditions") or [] for k in ("fail_if", "done_if") if c.get(k)]
        for block in (data.get("scoring") or {}).values():
            if isinstance(block, dict):
                texts += [v for k, v in block.items() if k in ("score", "achieved_if", "success_if", "fail_if")]
        for text in texts:
            cost, _ = estimate(dsl.parse(text), deck, 5, {"p": WORD})
            worst = max(worst, (cost, f"{path.name}: {text}"))
    assert 0 < worst[0] < limits.MAX_COST // 10, worst


def test_the_estimate_bounds_the_steps_the_evaluator_counts() -> None:
    """The run-time count of an accepted expression stays below its static estimate."""
    from crewkit.families.trick_taking.engine.blocks.communication import Communicate
    from crewkit.families.trick_taking.engine.blocks.distress import Distress
    from crewkit.families.trick_taking.engine.setup import new_game

    game = new_game("crew", "planet-nine/01", 4, seed="cost")
    while not game.is_over() and len(game.tricks) < 6:
        game.apply(next(a for a in game.legal_actions(game.to_act) if not isinstance(a, Communicate | Distress)))
    text = "count(c in deck: any(t in tricks: c in t.cards and count(d in hand(t.winner): d.rank > c.rank) > 1)) > 3"
    expr = dsl.parse(text)
    cost, _ = estimate(expr, game.rules.deck, 4)
    f = dsl.compile_expr(expr)
    before = limits.state.steps
    f(game.view())
    assert 0 < limits.state.steps - before <= cost


def test_the_step_budget_stops_an_unchecked_runaway() -> None:
    """Compiled without the checker (an API user), four nested counts stop at the step budget, quickly."""
    from crewkit.families.trick_taking.engine.setup import new_game

    game = new_game("crew", "planet-nine/01", 4, seed="cost")
    text = "count(a in deck: count(b in deck: count(c in deck: count(d in deck: a == d) > 0) > 0) > 0) > 99"
    f = dsl.compile_expr(dsl.parse(text))
    bound = scaled(10)  # the machine's speed now
    start = time.monotonic()
    with pytest.raises(dsl.DslRuntimeError, match="steps"):
        f(game.view())
    assert time.monotonic() - start < bound


def test_list_and_integer_growth_stop_at_run_time() -> None:
    from crewkit.families.trick_taking.engine.setup import new_game

    view = new_game("crew", "planet-nine/01", 4, seed="cost").view()
    lists = "any(x0 in [deck + deck + deck + deck]: any(y in [x0 + x0]: count(y) > 0))"
    assert dsl.compile_expr(dsl.parse(lists))(view) is True  # small lists are fine
    e = "x12 > 0"
    for i in range(12, 0, -1):
        e = f"any(x{i} in [x{i - 1} * x{i - 1}]: {e})"
    squares = dsl.compile_expr(dsl.parse(f"any(x0 in [3]: {e})"))
    with pytest.raises(dsl.DslRuntimeError, match="bits"):
        squares(view)
    e = "count(x14) > 0"
    for i in range(14, 0, -1):
        e = f"any(x{i} in [x{i - 1} + x{i - 1}]: {e})"
    doubling = dsl.compile_expr(dsl.parse(f"any(x0 in [deck]: {e})"))
    with pytest.raises(dsl.DslRuntimeError, match="list of"):
        doubling(view)


def _slow_expr() -> dsl.Expr:
    return dsl.parse("count(a in deck: count(b in deck: count(c in deck: count(d in deck: "
                     "count(e in deck: a == e) > 0) > 0) > 0) > 0) > 99")


def test_a_deadline_and_a_cancel_stop_an_evaluation_in_the_middle(monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.families.trick_taking.engine.setup import new_game

    monkeypatch.setattr(limits.state, "limit", 10**12)  # a slow evaluation that the budget lets run
    view = new_game("crew", "planet-nine/01", 4, seed="cost").view()
    f = dsl.compile_expr(_slow_expr())  # about 100 million steps: a minute or more
    bound = scaled(1.5)  # the machine's speed now
    start = time.perf_counter()
    with dsl.interruptible(deadline=start + 0.3), pytest.raises(dsl.DslInterrupted) as info:
        f(view)
    assert info.value.why == "time"
    assert time.perf_counter() - start < bound
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    bound = scaled(1.5)  # the machine's speed now
    start = time.perf_counter()
    with dsl.interruptible(cancel=cancel), pytest.raises(dsl.DslInterrupted) as info:
        f(view)
    assert info.value.why == "cancelled"
    assert time.perf_counter() - start < bound


SLOW_MISSION = """\
number: 92
title: Slow
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: slow
    check: after-play
    fail_if: "%s"
    reason: "slow"
"""


def _slow_mission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A mission whose condition takes a minute per evaluation, accepted by raising the bounds."""
    monkeypatch.setattr(limits, "MAX_COST", 10**15)
    monkeypatch.setattr(limits.state, "limit", 10**15)
    text = ("count(a in deck: count(b in deck: count(c in deck: count(d in deck: "
            "count(e in deck: a == e) > 0) > 0) > 0) > 0) > 99")
    path = tmp_path / "slow.yaml"
    path.write_text(SLOW_MISSION % text, encoding="utf-8")
    return path


def test_solve_timeout_is_honoured_inside_a_slow_condition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.families.trick_taking.engine.setup import new_game
    from crewkit.families.trick_taking.solve import solve

    mission = _slow_mission(tmp_path, monkeypatch)
    game = new_game("crew", str(mission), 4, seed="slow")
    bound = scaled(3.0)  # the machine's speed now
    start = time.perf_counter()
    result = solve(game, timeout=1.0)
    assert time.perf_counter() - start < bound
    assert result.status == "unknown"
    assert "time limit" in result.note


async def test_the_terminal_app_quits_within_2s_while_a_slow_condition_evaluates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots play the first card; its after-play condition takes a minute. ``q`` still quits at once, and the
    engine's worker thread ends too (``crewkit play`` waits for it before the process exits)."""
    import asyncio

    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions
    from crewkit.tui.services import FileSaves, MemoryLogbook, Services

    monkeypatch.setenv("CREWKIT_HOME", str(tmp_path / "home"))
    mission = _slow_mission(tmp_path, monkeypatch)

    class FirstLegal:
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def act(self, obs: object) -> object:
            return next(a for a in obs.legal if type(a).__name__ != "Communicate")  # type: ignore[attr-defined]

        def optional(self, obs: object) -> None:
            return None

    services = Services(bot_factory=lambda name, seat, seed: FirstLegal(seat), logbook=MemoryLogbook(),
                        saves=FileSaves(lambda: tmp_path / "home"), home=lambda: tmp_path / "home")
    app = CrewApp(PlayOptions(mission=str(mission), seats=["bot"] * 4, fast=True, seed="slow"), services=services)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):  # the briefing, then the table: Enter starts the attempt
            await pilot.pause(0.05)
            table = app.table()
            if table is not None and table._engine_busy and table.session.g.plays:
                break
            if table is None:
                await pilot.press("enter")
        table = app.table()
        assert table is not None and table._engine_busy, "the slow condition is not being evaluated"
        await pilot.pause(0.3)  # well inside the minute-long evaluation
        bound = scaled(2.0)  # the machine's speed now
        start = time.monotonic()
        await pilot.press("q")
    # what `crewkit play` does last (asyncio.run): wait for the worker threads
    await asyncio.wait_for(asyncio.get_running_loop().shutdown_default_executor(), timeout=5)
    assert time.monotonic() - start < bound


def test_the_checker_points_at_the_smallest_costly_part_and_knows_the_table() -> None:
    deck = _deck()
    env = dsl.CheckEnv(deck=deck, expect=dsl.BOOL, seats=4)
    three = "count(a in deck: count(b in deck: count(c in deck: a == c) > 0) > 0) > 99"
    with pytest.raises(dsl.DslError, match="steps to evaluate") as info:
        dsl.check(dsl.parse(f"tricks_played > 1 and {three}"), env)
    assert info.value.column == len("tricks_played > 1 and ") + 1  # the outer count, not the whole condition
    dsl.check(dsl.parse("count(a in deck: count(b in deck: a == b) > 0) > 99"), env)  # two levels: fine
    with pytest.raises(dsl.DslError, match="no seat 4"):
        dsl.check(dsl.parse("count(hand(4)) > 0"), env)
    with pytest.raises(dsl.DslError, match="numbered from 0"):
        dsl.check(dsl.parse("tricks_won(-1) > 0"), env)
    dsl.check(dsl.parse("count(hand(3)) > 0"), env)
    dsl.check(dsl.parse("count(hand(7)) > 0"), dsl.CheckEnv(deck=deck, expect=dsl.BOOL))  # table unknown


def test_the_step_budget_names_the_file_and_the_condition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A condition past the budget (accepted here by raising the static bound) stops the game with a message."""
    from crewkit.families.trick_taking.engine.blocks.communication import Communicate
    from crewkit.families.trick_taking.engine.blocks.distress import Distress
    from crewkit.families.trick_taking.engine.setup import new_game

    monkeypatch.setattr(limits, "MAX_COST", 10**15)
    path = tmp_path / "runaway.yaml"
    path.write_text(SLOW_MISSION % "count(a in deck: count(b in deck: count(c in deck: count(d in deck: "
                                   "a == d) > 0) > 0) > 0) > 99", encoding="utf-8")
    game = new_game("crew", str(path), 4, seed="s")
    bound = scaled(10)  # the machine's speed now
    start = time.monotonic()
    with pytest.raises(dsl.ConditionError) as info:
        while not game.is_over():
            game.apply(next(a for a in game.legal_actions(game.to_act) if not isinstance(a, Communicate | Distress)))
    assert time.monotonic() - start < bound
    text = str(info.value)
    assert str(path) in text and "condition `slow` (fail_if)" in text and "evaluation stopped after" in text
