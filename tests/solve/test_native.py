"""The C trick search mirrors the Python one: same verdicts, node counts and lines; Python when C cannot run."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import small_game

from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import compile_game, new_game
from crewkit.families.trick_taking.solve import native, replays_to_success, solve
from crewkit.families.trick_taking.solve.core import SearchAborted, TrickSearch
from tests import native_marks
from tests.speed import scaled

needs_c = native_marks.needs_c(native)


def drafted(rules_mission: str, players: int, seed: str, tasks: int | None = None) -> Game:
    rules = compile_game("crew", rules_mission, players)
    if tasks is not None:
        rules = dataclasses.replace(rules, task_count=tasks, tokens=(), mission_id=f"native-{tasks}")
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while game.phase != "tricks":
        game.apply(rng.choice(game.legal_actions()))
    return game


def both(game: Game, max_nodes: int | None = None) -> list[tuple[bool | None, int, list[tuple[int, int]]]]:
    out = []
    for use_c in (True, False):
        search = TrickSearch(game, native=use_c)
        assert search.native is use_c
        try:
            verdict: bool | None = search.run(max_nodes=max_nodes)
        except SearchAborted:
            verdict = None
        out.append((verdict, search.nodes, list(search.line) if verdict else []))
    return out


@needs_c
@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_nodes_and_lines_as_python_on_full_deals(players: int) -> None:
    verdicts = set()
    for i in range(6):
        game = drafted("planet-nine/10", players, f"native:{players}:{i}", tasks=4 + i % 3)
        c, py = both(game, max_nodes=40_000)
        assert c == py
        verdicts.add(c[0])
        if c[0]:
            line = [Play(seat, game.rules.deck.cards[cid]) for seat, cid in c[2]]
            assert replays_to_success(game, line)
    assert True in verdicts


@needs_c
@pytest.mark.parametrize("mission", ["planet-nine/03", "planet-nine/06", "planet-nine/07", "planet-nine/08"])
def test_same_results_with_task_tokens(mission: str) -> None:
    """Numbered, omega and arrow tokens: the C order check agrees with the Python one."""
    verdicts = set()
    for seed in range(10):
        game = small_game(mission, seed, cards=5)
        while game.phase != "tricks":
            game.apply(game.legal_actions()[0])
        c, py = both(game)
        assert c == py
        verdicts.add(c[0])
    assert verdicts == {True, False}


@needs_c
def test_same_results_mid_trick() -> None:
    for seed in range(8):
        game = small_game("planet-nine/04", seed, cards=6)
        rng = random.Random(seed)
        while game.phase != "tricks":
            game.apply(rng.choice(game.legal_actions()))
        for _ in range(1 + seed % 3):
            plays = [a for a in game.legal_actions() if isinstance(a, Play)]
            if game.is_over() or not plays:
                break
            game.apply(rng.choice(plays))
        if not game.is_over():
            c, py = both(game)
            assert c == py


@needs_c
def test_node_budget_stops_at_the_same_node_and_resumes() -> None:
    game = drafted("planet-nine/10", 4, "native:budget", tasks=8)
    c, py = both(game, max_nodes=3_000)
    assert c == py
    search = TrickSearch(game)
    with pytest.raises(SearchAborted):
        search.run(max_nodes=1_000)
    first = search.nodes
    assert 1_000 <= first < 1_000 + 256
    verdict = search.run(max_nodes=None)  # the table of lost positions survives the abort
    fresh = TrickSearch(game)
    assert verdict == fresh.run()
    assert search.nodes > first


@needs_c
def test_deadline_gives_up() -> None:
    import time

    game = drafted("planet-nine/10", 4, "solver-bench:8:37", tasks=8)
    search = TrickSearch(game)
    bound = scaled(0.5)  # the machine's speed now
    t0 = time.perf_counter()
    with pytest.raises(SearchAborted, match="time"):
        search.run(deadline=time.perf_counter() + 0.02)
    assert time.perf_counter() - t0 < bound


def test_conditions_run_in_c_unless_switched_off() -> None:
    """Mission 13's after-play condition is a program of the C search (tests/solve/test_native_conditions.py);
    ``native=False`` keeps it in Python."""
    game = new_game("crew", "planet-nine/13", 4, seed="native-cond")
    while game.phase != "tricks":
        game.apply(game.legal_actions()[0])
    assert TrickSearch(game).native == (native.load() is not None)
    assert not TrickSearch(game, native=False).native


def test_solve_reports_which_search_ran() -> None:
    game = drafted("planet-nine/10", 4, "native:report", tasks=4)
    result = solve(game)
    assert result.to_json()["search"] in ("core", "core-c")
    assert result.engine == ("core-c" if native.load() is not None else "core")


def _fresh_status(env: dict[str, str]) -> str:
    code = "from crewkit.families.trick_taking.solve import native; print(native.status())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env},
                          timeout=120, check=True)
    return proc.stdout.strip()


def test_switched_off_by_environment() -> None:
    assert _fresh_status({"CREWKIT_NATIVE": "0"}).startswith("off")


def test_no_compiler_falls_back_to_python(tmp_path: os.PathLike[str]) -> None:
    status = _fresh_status({"CC": "false", "CREWKIT_CACHE": str(tmp_path)})
    # a library built into an installed package is still found; from a checkout the search is Python
    assert status.startswith("Python (no C library") or "built with the package" in status
    if status.startswith("Python"):
        assert "compiler failed" in status


def test_solver_answers_the_same_without_c() -> None:
    """The whole solver (draft search included) gives the same answer and line in both searches."""
    game = new_game("crew", "planet-nine/10", 4, seed="native-solve")
    with_c = solve(game, timeout=60)
    code = (
        "import json; from crewkit.families.trick_taking.engine.setup import new_game; "
        "from crewkit.families.trick_taking.solve import solve; "
        "r = solve(new_game('crew', 'planet-nine/10', 4, seed='native-solve'), timeout=60); "
        "print(json.dumps(r.to_json()))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True,
                          env={**os.environ, "CREWKIT_NATIVE": "0"})
    import json

    without = json.loads(proc.stdout)
    assert without["status"] == with_c.status
    assert without["nodes"] == with_c.nodes
    assert without["line"] == [a.to_json() for a in with_c.line]
    assert any(isinstance(a, TakeTask) for a in with_c.line)


@needs_c
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    mission=st.sampled_from(["planet-nine/02", "planet-nine/03", "planet-nine/06", "planet-nine/08",
                             "planet-nine/10", "planet-nine/15"]),
    seed=st.integers(0, 10_000),
    cards=st.integers(3, 7),
    players=st.sampled_from([3, 4]),
    plays=st.integers(0, 6),
)
def test_c_and_python_visit_the_same_nodes(mission: str, seed: int, cards: int, players: int, plays: int) -> None:
    """Property: on any small deal, mid-trick or not, both searches give the same verdict, nodes and line."""
    try:
        game = small_game(mission, seed, cards=cards, players=players)
    except ValueError:
        return  # the mission needs more task cards than this small deal holds
    rng = random.Random(seed)
    while game.phase != "tricks" and not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(plays):
        legal = [a for a in game.legal_actions() if isinstance(a, Play)] if not game.is_over() else []
        if not legal:
            break
        game.apply(rng.choice(legal))
    if game.is_over() or game.phase != "tricks":
        return
    c, py = both(game, max_nodes=200_000)
    assert c == py


INTERRUPT_SCRIPT = """
import dataclasses, random, sys, time
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve.core import TrickSearch
rules = dataclasses.replace(compile_game("crew", "planet-nine/10", 4), task_count=10, tokens=())
game = Game.new(rules, seed="solver-bench:10:33")
rng = random.Random("solver-owners:10:33")
while game.phase == "draft":
    game.apply(TakeTask(game.draft_turn, rng.choice([t for t in game.tasks if t.owner is None]).card))
search = TrickSearch(game)
assert search.native
print("started", flush=True)
try:
    print("verdict", search.run(), flush=True)
except KeyboardInterrupt:
    print("interrupted after", search._native.nodes, flush=True)
"""


def _cpu_seconds(pid: int) -> float:
    """CPU seconds process ``pid`` has used (utime + stime)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@needs_c
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGINT is POSIX; /proc is Linux's")
def test_ctrl_c_stops_a_long_c_search() -> None:
    """Ctrl-C reaches a search running in C at once (the deal takes seconds; about 23 million plays)."""
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-c", INTERRUPT_SCRIPT], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started"
    searching = _cpu_seconds(proc.pid) + 0.2
    while _cpu_seconds(proc.pid) < searching:  # an event: the search has used 0.2 CPU seconds (no fixed wait)
        assert proc.poll() is None
        time.sleep(0.005)
    bound = scaled(1.0)  # the machine's speed now
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert time.perf_counter() - sent < bound
    assert out.startswith("interrupted after"), out
    assert int(out.split()[-1]) < 23_000_000


@needs_c
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    mission=st.sampled_from(["planet-nine/04", "planet-nine/10", "planet-nine/03", "planet-nine/07"]),
    seed=st.integers(0, 10_000),
    cards=st.integers(3, 6),
    players=st.sampled_from([3, 4]),
)
def test_c_and_python_visit_the_same_nodes_in_free_drafts(mission: str, seed: int, cards: int, players: int) -> None:
    """Property: free drafts (the owners decided by the search) too, run whole and first play by first play."""
    try:
        game = small_game(mission, seed, cards=cards, players=players)
    except ValueError:
        return
    if game.phase != "draft":
        return
    c, py = both(game, max_nodes=100_000)
    assert c == py
    split = []
    for use_c in (True, False):
        search = TrickSearch(game, native=use_c)
        verdict = search.run_split(first_budget=50)
        split.append((verdict, search.nodes, list(search.line), dict(search.free_owners)))
    assert split[0] == split[1]


@needs_c
def test_free_drafts_of_twenty_tasks_run_in_c() -> None:
    game = drafted_free(20, "native-free:20:2")
    search = TrickSearch(game)
    assert search.native and search.draft
    result = solve(game, timeout=60)
    assert result.status == "winnable" and result.engine == "core-c"
    assert replays_to_success(game, result.line)


def drafted_free(tasks: int, seed: str) -> Game:
    rules = dataclasses.replace(compile_game("crew", "planet-nine/10", 4), task_count=tasks, tokens=(),
                                mission_id=f"native-free-{tasks}")
    game = Game.new(rules, seed=seed)
    assert game.phase == "draft"
    return game
