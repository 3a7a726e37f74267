"""Solver speed on a fixed set of deals: 4 players, 4/6/8/10 tasks with fixed owners.

    python benchmarks/solver_speed.py [--deals 40] [--timeout 10] [--tasks 4,6,8,10] [--write docs/performance.md]

Deal ``i`` for ``k`` tasks: rule set ``crew``, mission planet-nine/10's rules with ``k`` plain tasks (no
tokens), seed ``"solver-bench:{k}:{i}"`` for ``i`` in ``0..deals-1`` (the deal and the task cards come from
the engine's seeded deal). Owners are fixed before solving: the draft runs in its normal order (commander
first) and each seat takes a task chosen by ``random.Random("solver-owners:{k}:{i}")``. The solver then
searches only the tricks (no assignment search). Reported per task count: how many deals are winnable,
unwinnable or unknown (timeout), and the median / 95th percentile / max of the solve time and nodes.

The C search is loaded (compiled if need be) before the clock starts; ``CREWKIT_NATIVE=0`` measures the
Python search instead. ``--write FILE`` replaces the "Solver speed" section of ``FILE`` ("Solver speed without
the C search" for the Python search; other sections are left as they are).
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.families.trick_taking.engine.blocks.draft import TakeTask  # noqa: E402
from crewkit.families.trick_taking.engine.game import Game  # noqa: E402
from crewkit.families.trick_taking.engine.rules import Rules  # noqa: E402
from crewkit.families.trick_taking.engine.setup import compile_game  # noqa: E402
from crewkit.families.trick_taking.solve import native, solve  # noqa: E402

BASE_MISSION = "planet-nine/10"


def bench_rules(tasks: int, players: int = 4) -> Rules:
    base = compile_game("crew", BASE_MISSION, players)
    return dataclasses.replace(base, task_count=tasks, tokens=(), mission_id=f"solver-bench-{tasks}")


def bench_game(rules: Rules, tasks: int, i: int) -> Game:
    game = Game.new(rules, seed=f"solver-bench:{tasks}:{i}")
    rng = random.Random(f"solver-owners:{tasks}:{i}")
    while game.phase == "draft":
        seat = game.draft_turn
        open_tasks = [t for t in game.tasks if t.owner is None]
        game.apply(TakeTask(seat, rng.choice(open_tasks).card))
    return game


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = max(0, min(len(s) - 1, int(round(q * (len(s) - 1)))))
    return s[k]


def run(task_counts: list[int], deals: int, timeout: float, verbose: bool = False) -> list[dict[str, float | int]]:
    rows = []
    for k in task_counts:
        rules = bench_rules(k)
        times: list[float] = []
        nodes: list[float] = []
        counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
        for i in range(deals):
            game = bench_game(rules, k, i)
            t0 = time.perf_counter()
            result = solve(game, timeout=timeout)
            times.append(time.perf_counter() - t0)
            nodes.append(result.nodes)
            counts[result.status] += 1
            if verbose and times[-1] >= 0.5:
                print(f"   deal {k}:{i}: {result.status} in {times[-1]:.2f} s, {result.nodes} nodes", flush=True)
        rows.append(
            {
                "tasks": k,
                "deals": deals,
                **counts,
                "median_ms": 1000 * statistics.median(times),
                "p95_ms": 1000 * percentile(times, 0.95),
                "max_ms": 1000 * max(times),
                "median_nodes": statistics.median(nodes),
                "p95_nodes": percentile(nodes, 0.95),
                "max_nodes": max(nodes),
            }
        )
        r = rows[-1]
        print(
            f"{k:>2} tasks: {r['winnable']:>3} winnable {r['unwinnable']:>3} unwinnable {r['unknown']:>2} unknown | "
            f"time median {r['median_ms']:8.1f} ms p95 {r['p95_ms']:8.1f} ms max {r['max_ms']:8.1f} ms | "
            f"nodes median {r['median_nodes']:>9.0f} p95 {r['p95_nodes']:>9.0f} max {r['max_nodes']:>9.0f}",
            flush=True,
        )
    return rows


def section(rows: list[dict[str, float | int]], deals: int, timeout: float, command: str, search: str) -> str:
    python_only = search.startswith(("Python", "off"))
    title = "## Solver speed without the C search" if python_only else "## Solver speed"
    lines = [
        title,
        "",
        f"Measured with `{command}` ({platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one process, on the shared 2-core VM described at the top; repeated timings of "
        f"one deal vary by up to about 30 %). Plain positions searched by: {'Python' if python_only else 'C'}. 4 players, "
        f"rule set `crew`, {deals} fixed deals per task count (seeds `solver-bench:<tasks>:<i>`, owners drawn in "
        f"draft order from `solver-owners:<tasks>:<i>`), timeout {timeout:g} s per deal. Time is the whole "
        "`solve()` call; nodes are card plays tried.",
        "",
        "| tasks | winnable | unwinnable | unknown | median time | p95 time | max time | median nodes | p95 nodes | max nodes |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['tasks']} | {r['winnable']} | {r['unwinnable']} | {r['unknown']} | {r['median_ms']:.1f} ms | "
            f"{r['p95_ms']:.1f} ms | {r['max_ms']:.1f} ms | {r['median_nodes']:.0f} | {r['p95_nodes']:.0f} | "
            f"{r['max_nodes']:.0f} |"
        )
    eight = [r for r in rows if r["tasks"] == 8]
    if eight:
        r8 = eight[0]
        met = float(r8["median_ms"]) < 50 and float(r8["p95_ms"]) < 2000
        verdict = (f"**{'met' if met else 'not met'}** here (8 tasks: median {float(r8['median_ms']):.0f} ms, "
                   f"p95 {float(r8['p95_ms']):.0f} ms, {r8['unknown']} of {r8['deals']} deals undecided within "
                   f"{timeout:g} s).")
    else:
        verdict = "not measured (no 8-task row)."
    lines += ["", f"Target: median under 50 ms and 95th percentile under 2 s for 8 tasks: {verdict}", ""]
    if python_only:
        lines += [
            "The same search in Python (`CREWKIT_NATIVE=0`, or no C compiler): the same nodes in the same order,",
            "so the node columns match the table above wherever both decided; only the cost per node differs.",
            "",
        ]
    else:
        lines += [
            "The slow deals are unwinnable ones (the proof needs the whole tree, about 16 million plays for the",
            "worst 8-task deal) and winnable ones whose first plays lead into large lost subtrees. What the search",
            "uses (`crewkit/families/trick_taking/solve/core.py`, mirrored in C by `crewkit/families/trick_taking/solve/_native.c`):",
            "",
            "- a table of positions proved lost, keyed on relative ranks (who holds each remaining card of a suit,",
            "  in rank order, and which are open task cards), packed exactly into 32 bytes in C;",
            "- merged equivalent cards (adjacent remaining cards of one hand, no task card among them);",
            "- plays that lose a task at once cut before they are tried (two owners in one trick, an owner beaten",
            "  after playing, an owner who can no longer beat the trick);",
            "- two sound bounds at each trick start: too few tricks left (each trick serves one owner, task cards",
            "  in one hand need a trick each) and the order cycle of self-won tasks of one suit;",
            "- move ordering: task owners winning their cards first, low cards before high ones otherwise;",
            "- the first plays searched side by side with budgets growing tenfold (1,000; 10,000; ...), all",
            "  sharing the table, so one bad first play cannot hide a quick win behind millions of nodes.",
            "",
            "The C search visits the same nodes in the same order as the Python one (tests/solve/test_native.py",
            "compares verdicts, node counts and lines); it runs about 6 million plays per second here, the Python",
            "search about 120,000. It covers missions without conditions or neighbour draws (tokens included);",
            "the others are searched in Python.",
            "",
        ]
    return "\n".join(lines)


def write_section(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    heading = text.splitlines()[0]
    pattern = re.compile("^" + re.escape(heading) + r"\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _m: text + "\n", old)
    else:
        new = old.rstrip("\n") + "\n\n" + text
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40, help="deals per task count (default 40)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per deal before 'unknown' (default 10)")
    ap.add_argument("--tasks", default="4,6,8,10", help="task counts, comma-separated (default 4,6,8,10)")
    ap.add_argument("--verbose", action="store_true", help="name every deal that takes half a second or more")
    ap.add_argument("--write", metavar="FILE", help="replace the 'Solver speed' section of FILE (docs/performance.md)")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.tasks.split(",") if x.strip()]
    status = native.status()
    print(f"plain positions are searched by: {status}", flush=True)
    rows = run(counts, args.deals, args.timeout, args.verbose)
    if args.write:
        command = "python benchmarks/solver_speed.py" + (
            f" --deals {args.deals}" if args.deals != 40 else "") + (
            f" --timeout {args.timeout:g}" if args.timeout != 10.0 else "") + (
            f" --tasks {args.tasks}" if args.tasks != "4,6,8,10" else "") + f" --write {args.write}"
        if status.startswith(("Python", "off")):
            command = "CREWKIT_NATIVE=0 " + command
        write_section(Path(args.write), section(rows, args.deals, args.timeout, command, status))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
