"""The check's solver deals on every bundled mission: how many stay undecided at its node budget (issue 47).

    python benchmarks/solver_conditions.py [--missions 26,44,46] [--players 3,4,5] [--deals 60] [--nodes 20000]
    python benchmarks/solver_conditions.py --authored          # the held-out missions of benchmarks/authored/
    python benchmarks/solver_conditions.py --files A.yaml B.yaml

Per mission and player count, the deals ``crewkit check MISSION --players P --games 100`` gives the solver
(seed ``check:i`` for i below ``--deals``, default the check's 60 solver deals, its default node budget
20,000 and its weight of a C play), solved as the check solves them (the trick-taking family's ``FamilyCheck.solve_deal``). Reported per cell:
winnable, unwinnable and undecided deals, the plays searched (nodes) and the wall time of the 60 solves. The
machine is shared: nodes are the figure to compare between trees, seconds only roughly.

``--authored`` (or ``--files PATH...``) runs the same cells on mission files instead: ``benchmarks/authored/``
holds missions written as an author would (conditions over trick order, counts, "before"/"after"), none of
them bundled, so the figures show how conditions are searched in general.

Target (issue 47): at most 3 of 60 undecided in every cell.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.families.trick_taking.analysis import check  # noqa: E402
from crewkit.families.trick_taking.solve import solve  # noqa: E402
from crewkit.spec.bundled import mission_path  # noqa: E402

MISSIONS_DIR = Path(__file__).resolve().parents[1] / "missions" / "planet-nine"
AUTHORED_DIR = Path(__file__).resolve().parent / "authored"


def bundled() -> list[int]:
    return sorted(int(p.name[:2]) for p in MISSIONS_DIR.glob("[0-9][0-9]-*.yaml"))


def authored() -> list[Path]:
    return sorted(AUTHORED_DIR.glob("*.yaml"))


def cell(mission: int | str, players: int, deals: int, nodes: int, weight: int,
         seed: str = "check") -> dict[str, object] | None:
    """One mission (a bundled planet-nine number or a file's path) at one player count."""
    from crewkit.games import family_for

    path = str(mission_path(f"planet-nine/{mission:02d}")) if isinstance(mission, int) else mission
    family = family_for("crew")
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    total_nodes = 0
    slow: list[str] = []
    c0 = time.perf_counter()
    for i in range(deals):
        try:
            game = family.open("crew", path, players, f"{seed}:{i}")
        except Exception:  # noqa: BLE001 - a player count the mission does not allow
            return None
        result = solve(game.engine, max_nodes=nodes, native_weight=weight)
        counts[result.status] += 1
        total_nodes += result.nodes
        if result.status == "unknown":
            slow.append(str(i))
    return {"mission": mission, "players": players, **counts, "nodes": total_nodes,
            "cpu": time.perf_counter() - c0, "undecided": slow}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--missions", default="", help="comma-separated mission numbers (default: every bundled one)")
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--nodes", type=int, default=20_000, help="node budget per deal (the check's default)")
    ap.add_argument("--native-weight", type=int, default=check.SOLVER_NATIVE_WEIGHT,
                    help="a C play counts 1/k of the budget (the check's; 1: every play counts one, as before)")
    ap.add_argument("--files", nargs="+", default=[], metavar="PATH", help="mission files instead of bundled ones")
    ap.add_argument("--authored", action="store_true", help="every mission file of benchmarks/authored/")
    ap.add_argument("--verbose", action="store_true", help="list the undecided deals")
    args = ap.parse_args(argv)
    missions: list[int | str] = [str(f) for f in args.files]
    if args.authored:
        missions += [str(f) for f in authored()]
    if not missions:
        missions = list([int(m) for m in args.missions.split(",") if m] or bundled())
    players = [int(p) for p in args.players.split(",") if p]
    print("| mission | players | winnable | unwinnable | undecided | nodes | wall s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    worst = 0
    t0 = time.perf_counter()
    for m in missions:
        for p in players:
            row = cell(m, p, args.deals, args.nodes, args.native_weight)
            if row is None:
                continue
            worst = max(worst, int(row["unknown"]))  # type: ignore[call-overload]
            extra = f"  deals {','.join(row['undecided'])}" if args.verbose and row["undecided"] else ""  # type: ignore[arg-type]
            name = m if isinstance(m, int) else Path(m).stem
            print(f"| {name} | {p} | {row['winnable']} | {row['unwinnable']} | {row['unknown']} | {row['nodes']} | "
                  f"{row['cpu']:.1f} |{extra}", flush=True)
    print(f"\nmost undecided in a cell: {worst} of {args.deals}; wall {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
