"""Success rates of the bots on Planet Nine missions, with 95% Wilson intervals.

    python benchmarks/bot_strength.py [--games 300] [--workers 2] [--bot heuristic]
                                      [--missions planet-nine/01 planet-nine/02 planet-nine/04 planet-nine/10]

Seeded and deterministic: the same command prints the same rates on any machine and worker count.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis.simulate import simulate  # noqa: E402

TARGETS = {"planet-nine/01": 0.90, "planet-nine/10": 0.50}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--seed", default="strength")
    ap.add_argument("--missions", nargs="+",
                    default=["planet-nine/01", "planet-nine/02", "planet-nine/04", "planet-nine/10"])
    args = ap.parse_args(argv)
    print(f"bot {args.bot} · crew · {args.players} players · {args.games} games per mission · seed {args.seed!r}"
          f" · {args.workers} workers")
    print(f"{'mission':16} {'tasks':>5} {'success':>9} {'95% interval':>17} {'target':>7} {'tricks':>7} "
          f"{'seconds':>8}  most common failure")
    for mission in args.missions:
        r = simulate("crew", mission, args.players, args.games, args.bot, args.seed, workers=args.workers)
        from crewkit.families.trick_taking.analysis.loading import load_rules

        tasks = load_rules("crew", mission, args.players).task_count
        low, high = r.interval
        target = TARGETS.get(mission)
        mark = f"≥{target:.0%}" if target is not None else ""
        top = f"{r.reasons[0][0]} ({r.reasons[0][1]})" if r.reasons else ""
        print(f"{mission:16} {tasks:>5} {r.success_rate:>8.1%} {low:>8.1%}–{high:<7.1%} {mark:>7} "
              f"{r.mean_tricks:>7.2f} {r.seconds:>8.1f}  {top}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
