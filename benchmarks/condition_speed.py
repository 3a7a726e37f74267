"""Solver speed on missions with conditions: 4 players, missions 34 and 46 (issue 16, item 2).

    python benchmarks/condition_speed.py [--deals 50] [--timeout 20] [--missions 34,46] [--write docs/performance.md]

Deal ``i`` of mission ``m``: rule set ``crew``, the bundled mission ``planet-nine/m``, 4 players, seed
``"cond-bench:{m}:{i}"``, solved from the start of the game (setup steps included). Every winning line is
replayed through the engine by the solver. Reported per mission: winnable, unwinnable and unknown (timeout)
deals, the median / 95th percentile / max of the solve time and nodes, and which search decided the deals
(``core-c``: the C search, ``core``: the Python search, ``engine``: the engine-driven fallback) with the
conditions the fast search could not compile, if any.

Targets (issue 16): every deal decided within 20 s, p95 at most 2 s.
"""

from __future__ import annotations

import argparse
import collections
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_speed import percentile, write_section  # noqa: E402

from crewkit.families.trick_taking.engine.game import Game  # noqa: E402
from crewkit.families.trick_taking.engine.setup import compile_game  # noqa: E402
from crewkit.families.trick_taking.solve import solve  # noqa: E402

MISSIONS = {34: "planet-nine/34", 46: "planet-nine/46"}

HOW = """\
How the conditions are checked (`crewkit solve` prints it per condition, `--format json` gives
`conditions: [{id, path, how, why}]`):

- **compiled** (mission 46, any "every card of a set won by one seat"): each card becomes a task of that
  seat, so the trick search's task rules, bounds and table apply, in C.
- **winners** (missions 29, 34, 50, any condition that reads only who won which trick, counts, numbers and
  roles): the conditions become an automaton over trick winners, built before the search by evaluating the
  DSL once per sequence of winners (with a stand-in trick whose cards are never read), pruned to the
  winners from which some later sequence still satisfies every condition (a look-ahead the one-trick check
  lacks: in mission 34 the commander may not win trick 9, since it must also win trick 10) and minimised
  (states with the same future merged; mission 34: 26 states). The C search follows it: a forbidden
  winner cuts a play, the state is part of the table's key. Conditions that read only counts merge
  sequences by counts while it is built; above 2,000 sequences the automaton is not built and the Python
  search checks them once per winner sequence (the report says so and why).
- **dsl** (13 and 44, checked after every play; conditions that read cards): evaluated through the DSL in
  the Python search, with the reason in the report (`checked after every play`, `it reads cards`, a set's
  card that is in no hand, task tokens in play).
- **engine**: positions the fast search does not model (JARVIS's dummy seat) go to the engine-driven
  search, with the reason.
"""


def run(missions: list[int], deals: int, timeout: float, verbose: bool = False) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for m in missions:
        rules = compile_game("crew", MISSIONS.get(m, f"planet-nine/{m:02d}"), 4)
        times: list[float] = []
        nodes: list[float] = []
        counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
        searches: collections.Counter[str] = collections.Counter()
        fallback: set[str] = set()
        for i in range(deals):
            game = Game.new(rules, seed=f"cond-bench:{m}:{i}")
            t0 = time.perf_counter()
            result = solve(game, timeout=timeout)
            times.append(time.perf_counter() - t0)
            nodes.append(result.nodes)
            counts[result.status] += 1
            searches[result.engine] += 1
            # conditions on a slower path (DSL, winners in Python, the engine), with why
            fallback.update(f"{d['id']} ({d['path']}: {d['why']})" for d in result.conditions if d.get("why"))
            if verbose and (times[-1] >= 1.0 or result.status == "unknown"):
                print(f"   deal {m}:{i}: {result.status} in {times[-1]:.2f} s, {result.nodes} nodes", flush=True)
        row: dict[str, object] = {
            "mission": m,
            "deals": deals,
            **counts,
            "median_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * percentile(times, 0.95),
            "max_ms": 1000 * max(times),
            "median_nodes": statistics.median(nodes),
            "p95_nodes": percentile(nodes, 0.95),
            "max_nodes": max(nodes),
            "search": ", ".join(f"{k} {v}" for k, v in sorted(searches.items())),
            "fallback": ", ".join(sorted(fallback)) or "none",
        }
        rows.append(row)
        print(
            f"mission {m}: {row['winnable']:>3} winnable {row['unwinnable']:>3} unwinnable {row['unknown']:>2} unknown | "
            f"time median {row['median_ms']:8.1f} ms p95 {row['p95_ms']:8.1f} ms max {row['max_ms']:8.1f} ms | "
            f"nodes median {row['median_nodes']:>9.0f} p95 {row['p95_nodes']:>9.0f} max {row['max_nodes']:>9.0f} | "
            f"search {row['search']} | slower paths: {row['fallback']}",
            flush=True,
        )
    return rows


def section(rows: list[dict[str, object]], deals: int, timeout: float, command: str) -> str:
    lines = [
        "## Missions with conditions",
        "",
        f"Measured with `{command}` ({platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one process, on the shared 2-core VM while other work ran on it: timings are "
        f"upper bounds). 4 players, rule set `crew`, {deals} deals per mission (seeds `cond-bench:<mission>:<i>`), "
        f"solved from the start of the game, timeout {timeout:g} s per deal.",
        "",
        "| mission | winnable | unwinnable | unknown | median time | p95 time | max time | median nodes | p95 nodes "
        "| max nodes | search | conditions on a slower path |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['mission']} | {r['winnable']} | {r['unwinnable']} | {r['unknown']} | {r['median_ms']:.1f} ms | "
            f"{r['p95_ms']:.1f} ms | {r['max_ms']:.1f} ms | {r['median_nodes']:.0f} | {r['p95_nodes']:.0f} | "
            f"{r['max_nodes']:.0f} | {r['search']} | {r['fallback']} |"
        )
    lines += ["", "Targets (issue 16): every deal decided within 20 s, p95 at most 2 s.", "", HOW, ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50, help="deals per mission (default 50)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per deal before 'unknown' (default 20)")
    ap.add_argument("--missions", default="34,46", help="mission numbers, comma-separated (default 34,46)")
    ap.add_argument("--verbose", action="store_true", help="name every slow or undecided deal")
    ap.add_argument("--write", metavar="FILE", help="replace the 'Missions with conditions' section of FILE")
    args = ap.parse_args(argv)
    missions = [int(x) for x in args.missions.split(",") if x.strip()]
    rows = run(missions, args.deals, args.timeout, args.verbose)
    if args.write:
        command = "python benchmarks/condition_speed.py" + (
            f" --deals {args.deals}" if args.deals != 50 else "") + (
            f" --timeout {args.timeout:g}" if args.timeout != 20.0 else "") + (
            f" --missions {args.missions}" if args.missions != "34,46" else "") + f" --write {args.write}"
        write_section(Path(args.write), section(rows, args.deals, args.timeout, command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
