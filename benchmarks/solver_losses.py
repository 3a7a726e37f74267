"""How fast the solver proves a deal lost, next to how fast it finds a winning line (issue 29, item 2).

    python benchmarks/solver_losses.py [--players 4] [--deals 10] [--timeout 2] [--missions 1-50]
                                       [--extra tests/analysis/authored/*.yaml] [--verbose]

Deal ``i`` of a mission is the deal ``crewkit check`` samples first (seed ``check:i``, rule set ``crew``),
solved from the start of the game with ``timeout`` seconds and no node budget. Per mission: the deals proved
winnable, proved lost and left unknown, and the median time of each kind of verdict; then, over every
mission, the median and 95th percentile time to a winning line and to a proof of loss, and the missions where
the solver left deals unknown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_args import missions_arg, percentile  # noqa: E402 (a sibling script module)

from crewkit.engine.errors import SetupError  # noqa: E402
from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game  # noqa: E402
from crewkit.families.trick_taking.solve import solve  # noqa: E402
from crewkit.spec.bundled import mission_path  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=2.0)
    ap.add_argument("--missions", type=missions_arg, default=list(range(1, 51)))
    ap.add_argument("--extra", nargs="*", default=[], help="mission files solved as well (authored missions)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    paths = [str(mission_path(f"planet-nine/{m:02d}")) for m in args.missions] + list(args.extra)
    win_t: list[float] = []
    lost_t: list[float] = []
    unknown: list[str] = []
    t_all = time.perf_counter()
    print(f"{'mission':34} {'win':>4} {'lost':>4} {'unk':>4} {'win med':>9} {'lost med':>9} {'lost max':>9}")
    for path in paths:
        name = Path(path).stem[:34]
        try:
            rules = load_rules("crew", path, args.players)
            spec = game_spec("crew", path, args.players)
        except SetupError as exc:
            print(f"{name:34} cannot be played: {exc}")
            continue
        w: list[float] = []
        lo: list[float] = []
        unk = 0
        for i in range(args.deals):
            game = start_game(rules, spec, f"check:{i}")
            t = time.perf_counter()
            res = solve(game, timeout=args.timeout)
            dt = time.perf_counter() - t
            if args.verbose:
                print(f"  {name} deal {i}: {res.status} {res.nodes} nodes {dt:.3f} s ({res.engine}) {res.note}")
            if res.status == "winnable":
                w.append(dt)
            elif res.status == "unwinnable":
                lo.append(dt)
            else:
                unk += 1
        win_t += w
        lost_t += lo
        if unk:
            unknown.append(f"{name} ({unk})")

        def ms(xs: list[float], f: object = statistics.median) -> str:
            return f"{1000 * f(xs):7.1f}ms" if xs else "        -"  # type: ignore[operator]

        print(f"{name:34} {len(w):4} {len(lo):4} {unk:4} {ms(w)} {ms(lo)} {ms(lo, max)}", flush=True)
    print()
    print(f"{args.players} players, {args.deals} deals per mission, timeout {args.timeout} s, "
          f"{time.perf_counter() - t_all:.0f} s in all")
    for label, xs in (("winning line", win_t), ("proof of loss", lost_t)):
        if xs:
            print(f"  {label:14} {len(xs):4} deals: median {1000 * statistics.median(xs):.1f} ms, "
                  f"p95 {1000 * percentile(xs, 0.95):.1f} ms, max {1000 * max(xs):.1f} ms")
    print(f"  unknown: {', '.join(unknown) if unknown else 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
