"""How fast ``crewkit review`` answers on failed Planet Nine attempts (issue 44, item 4).

    python benchmarks/review_speed.py [--players 4] [--failed 100] [--missions 1-50] [--timeout 10]
                                      [--no-blame] [--no-share | --compare-share] [--verbose]

The fast bot plays every seat; missions are taken in turn (1, 2, ..., 50, 1, ...) with deal seeds
``review:k``, and each failed attempt (until ``--failed`` of them) is reviewed as ``crewkit review`` does
(the library call, without the CLI's start-up): the bisection with ``--timeout`` seconds per position, and
the fair-blame judgement at the turning point (32 worlds) unless ``--no-blame``. Prints the median, p95 and
max seconds per review (wall clock; the solver's budgets are wall-clock too, and the same for the process's CPU
seconds, which a loaded machine moves less), the outcomes, and the slowest reviews. Target: p95 <= 5 s,
median <= 1 s.

``--no-share``: each solver call builds its own search (``review(share=False)``, as before the reviews shared
their searches). ``--compare-share``: each failed attempt reviewed both ways in turn, in this process; prints
both CPU figures and every position the two decided differently (there must be none).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_args import missions_arg, percentile  # noqa: E402 (a sibling script module)

from crewkit.engine.actions import Action  # noqa: E402
from crewkit.engine.errors import SetupError  # noqa: E402
from crewkit.families.trick_taking.bots import make_bot  # noqa: E402
from crewkit.families.trick_taking.engine.game import Game  # noqa: E402
from crewkit.families.trick_taking.engine.setup import new_game  # noqa: E402
from crewkit.families.trick_taking.family import play_game  # noqa: E402
from crewkit.families.trick_taking.review import review  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--failed", type=int, default=100, help="failed attempts to review")
    ap.add_argument("--missions", type=missions_arg, default=list(range(1, 51)))
    ap.add_argument("--timeout", type=float, default=10.0, help="solver seconds per position")
    ap.add_argument("--no-blame", action="store_true")
    share = ap.add_mutually_exclusive_group()
    share.add_argument("--no-share", action="store_true", help="each solver call builds its own search")
    share.add_argument("--compare-share", action="store_true", help="review each attempt with and without sharing")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.compare_share:
        return compare(args)
    times: list[float] = []
    cpu: list[float] = []
    outcomes: Counter[str] = Counter()
    slowest: list[tuple[float, str]] = []
    played: Counter[str] = Counter()
    t_all = time.perf_counter()
    for mission, seed, start, actions in failed_attempts(args, played):
        t, c = time.perf_counter(), time.process_time()
        rv = review(start, actions, timeout=args.timeout, blame=not args.no_blame, seed=seed,
                    share=not args.no_share)
        dt = time.perf_counter() - t
        times.append(dt)
        cpu.append(time.process_time() - c)
        outcomes[rv.status] += 1
        slowest.append((dt, f"{mission} seed {seed}: {rv.status}, {rv.solver_calls} solver calls"))
        if args.verbose:
            print(f"  {dt:7.3f} s  {slowest[-1][1]}", flush=True)
    print(f"{args.players} players, missions {args.missions[0]}-{args.missions[-1]}, fast bot: {played['games']} games "
          f"played, {len(times)} failed reviewed (blame {'off' if args.no_blame else 'on'}), "
          f"{time.perf_counter() - t_all:.0f} s in all")
    if times:
        print(f"  review: median {statistics.median(times):.3f} s, p95 {percentile(times, 0.95):.3f} s, "
              f"max {max(times):.3f} s; CPU median {statistics.median(cpu):.3f} s, p95 {percentile(cpu, 0.95):.3f} s, "
              f"total {sum(cpu):.1f} s")
    print("  outcomes: " + ", ".join(f"{s} {n}" for s, n in outcomes.most_common()))
    for dt, what in sorted(slowest, reverse=True)[:5]:
        print(f"  slow: {dt:.3f} s  {what}")
    return 0


def failed_attempts(args: argparse.Namespace, played: Counter[str] | None = None
                    ) -> Iterator[tuple[str, str, Game, list[Action]]]:
    """(mission, seed, start, actions) of each failed attempt, in the benchmark's order (``played["games"]``
    counts the games played to find them)."""
    k = 0
    found = 0
    while found < args.failed and k < 100 * args.failed:
        mission = f"planet-nine/{args.missions[k % len(args.missions)]:02d}"
        seed = f"review:{k}"
        k += 1
        try:
            game = new_game("crew", mission, args.players, seed)
        except SetupError:
            continue
        start = game.clone()
        play_game(game, [make_bot("fast", s, seed) for s in range(game.n)])
        if played is not None:
            played["games"] += 1
        if game.outcome().result == "success":
            continue
        found += 1
        yield mission, seed, start, list(game.actions)


def compare(args: argparse.Namespace) -> int:
    """Each failed attempt reviewed without, then with shared searches: CPU seconds, and disagreements."""
    cpu: dict[bool, list[float]] = {False: [], True: []}
    clashes = 0
    for mission, seed, start, actions in failed_attempts(args):
        got = {}
        for share in (False, True):
            c = time.process_time()
            got[share] = review(start, actions, timeout=args.timeout, blame=not args.no_blame, seed=seed, share=share)
            cpu[share].append(time.process_time() - c)
        known = [{p["action_index"]: p["winnable"] for p in got[s].positions} for s in (False, True)]
        differ = [i for i in known[0] if known[0][i] is not None and known[1].get(i) not in (None, known[0][i])]
        if differ:
            clashes += 1
            print(f"  {mission} seed {seed}: positions {differ} decided differently", flush=True)
        if args.verbose:
            print(f"  {mission} seed {seed}: {cpu[False][-1]:.3f} s {got[False].status} alone, "
                  f"{cpu[True][-1]:.3f} s {got[True].status} shared", flush=True)
    for share in (False, True):
        ts = cpu[share]
        print(f"  {'shared' if share else 'alone '}: CPU median {statistics.median(ts):.3f} s, "
              f"p95 {percentile(ts, 0.95):.3f} s, max {max(ts):.3f} s, total {sum(ts):.1f} s")
    print(f"  reviews with positions decided differently: {clashes}")
    return 1 if clashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
