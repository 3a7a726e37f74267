"""How fast ``crewkit review`` judges a Hammer match's rounds, and how much of each round it decides.

    python benchmarks/hammer_review_speed.py [--matches 5] [--nodes 20000] [--timeout 10] [--challenge]
                                             [--worlds N] [--verbose]

The fast bot plays every seat of ``--matches`` Hammer matches (seeds ``hammer-review:k``; the bots choose each
round's mission card and mode; ``--challenge``: every round a challenge of a mission card drawn at random).
Every round is reviewed alone (``review_match(..., only_round=n)``, the library
call behind ``crewkit review --round n``) with ``--nodes`` searched plays and ``--timeout`` seconds per
position's question and no bound on the whole (``--worlds N``: with fair blame on N worlds, as ``crewkit review
--worlds N``, each judgement also timed alone; default none). Prints the median, p95 and max seconds per round review by mode,
the rounds' statuses, and the share of the questions decided (challenge: positions whose bet was decided;
penalty: players' guarantees at the round's start, and every guarantee the review asked for).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_args import percentile  # noqa: E402 (a sibling script module)

from crewkit.families.trick_taking.bots import make_bot  # noqa: E402
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of  # noqa: E402
from crewkit.families.trick_taking.engine.game import CHOOSE_MISSION, Game  # noqa: E402
from crewkit.families.trick_taking.engine.setup import new_game  # noqa: E402
from crewkit.families.trick_taking.family import play_game  # noqa: E402
from crewkit.families.trick_taking.round_review import (  # noqa: E402
    challenge_blame,
    guarantee_blame,
    review_match,
    rounds_of,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=5)
    ap.add_argument("--nodes", type=int, default=20_000, help="searched plays per position's question")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per position's question")
    ap.add_argument("--challenge", action="store_true",
                    help="every round a challenge (its mission card drawn at random, seeded) instead of the bots' choice")
    ap.add_argument("--worlds", type=int, default=0, help="fair blame on this many worlds (0: none)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    times: dict[str, list[float]] = {"challenge": [], "penalty": []}
    blame_times: dict[str, list[float]] = {"challenge": [], "penalty": []}
    statuses: Counter[str] = Counter()
    decided = Counter[str]()
    asked = Counter[str]()
    t_all = time.perf_counter()
    for k in range(args.matches):
        seed = f"hammer-review:{k}"
        game = new_game("hammer", "hammer", 4, seed)
        start = game.clone()
        bots = [make_bot("fast", s, seed) for s in range(4)]
        if args.challenge:  # every round a challenge, its mission card drawn (seeded); the bots play the tricks
            rng = random.Random(seed)
            while not game.is_over():
                if game.phase == CHOOSE_MISSION:
                    game.apply(ChooseMission(game.dealer, f"hammer/0{rng.randint(1, 5)}", "challenge"))  # type: ignore[arg-type]
                else:
                    seat = game.to_act
                    assert seat is not None
                    game.apply(bots[seat].act(game.observation(seat)))
        else:
            play_game(game, bots)
        m = match_of(game)
        assert m is not None
        games: list[Game] = []
        for res in m.round_results:
            t0 = time.perf_counter()
            rv = review_match(start, list(game.actions), max_nodes=args.nodes, timeout=args.timeout, total=None,
                              only_round=res.round, blame_worlds=args.worlds, seed=seed)
            dt = time.perf_counter() - t0
            (r,) = rv.rounds
            times[r["mode"]].append(dt)
            statuses[f"{r['mode']}:{r['status']}"] += 1
            tp = r.get("turning_point") or {}
            judged = [(challenge_blame, tp["action_index"])] if "known" in tp else [
                (guarantee_blame, x["action_index"]) for p in r.get("players") or [] for x in p["lowered"]
                if "known" in x]
            for blame, i in judged:  # its time alone: the same judgement again (plays searched, so the same work)
                games = games or rounds_of(start, list(game.actions))[0]
                t1 = time.perf_counter()
                blame(games[i], game.actions[i], [f"Player {s + 1}" for s in range(4)], worlds=args.worlds,
                      seed=f"{seed}:{res.round}:{i}")
                blame_times[r["mode"]].append(time.perf_counter() - t1)
            if r["mode"] == "challenge":
                for p in r["positions"]:
                    asked["challenge positions"] += 1
                    decided["challenge positions"] += p["forceable"] is not None
            else:
                for p in r["players"]:
                    asked["penalty guarantees at the start"] += 1
                    decided["penalty guarantees at the start"] += p["guarantee"] is not None
                for pos in r["positions"]:
                    for v in pos["guarantee"].values():
                        asked["penalty guarantees asked (every position)"] += 1
                        decided["penalty guarantees asked (every position)"] += v is not None
            if args.verbose:
                print(f"{seed} round {res.round} {r['mission']} {r['mode']}: {r['status']} in {dt:.2f} s "
                      f"({rv.nodes} plays searched)", flush=True)
    print(f"{args.matches} matches, every round reviewed with --nodes {args.nodes} --timeout {args.timeout} "
          f"--worlds {args.worlds} "
          f"in {time.perf_counter() - t_all:.0f} s")
    for mode, ts in times.items():
        if ts:
            print(f"  {mode}: {len(ts)} rounds, median {statistics.median(ts):.2f} s, "
                  f"p95 {percentile(ts, 95):.2f} s, max {max(ts):.2f} s")
    for mode, ts in blame_times.items():
        if ts:
            print(f"  {mode} fair blame (in the times above): {len(ts)} judgements, median "
                  f"{statistics.median(ts):.2f} s, max {max(ts):.2f} s")
    print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    for what in asked:
        print(f"  decided: {what} {decided[what]}/{asked[what]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
