"""The expert bot with other parameters, on the seeds of benchmarks/expert_strength.py (for tuning).

    python benchmarks/expert_tune.py '{"worlds": 12, "total_nodes": 120000, "winnable_filter": 0, "comm_tries": 0}'
    python benchmarks/expert_tune.py '{}' --seed confirm      # today's defaults on another seed set

Deal ``i`` and its bots are seeded ``f"{seed}:{i}"`` as in ``crewkit compare`` (so ``'{}'`` plays exactly the
games of ``expert_strength.py --bots expert`` with the same seed). Prints the wins and one digit per deal
(1 won, 0 lost), so that two parameter sets can be paired deal by deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _job(args: tuple[int, str, str, int, dict[str, Any]]) -> tuple[int, bool]:
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.bots.expert import ExpertBot
    from crewkit.families.trick_taking.family import play_game

    i, seed, mission, players, kw = args
    rules = load_rules("crew", mission, players)
    game_seed = f"{seed}:{i}"
    game = start_game(rules, game_spec("crew", mission, players), game_seed)
    play_game(game, [ExpertBot(s, game_seed, **kw) for s in range(game.n)])
    return i, game.outcome().result == "success"


def main(argv: list[str] | None = None) -> int:
    from crewkit.analysis.stats import wilson_interval

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("params", nargs="?", default="{}", help="ExpertBot keyword arguments as JSON")
    ap.add_argument("--mission", default="planet-nine/10")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="expert")
    args = ap.parse_args(argv)
    kw = json.loads(args.params)
    t0 = time.perf_counter()
    jobs = [(i, args.seed, args.mission, args.players, kw) for i in range(args.games)]
    with Pool(args.workers) as pool:
        won = dict(pool.imap_unordered(_job, jobs))
    wins = sum(won.values())
    low, high = wilson_interval(wins, args.games)
    print(f"{args.mission}, {args.players} players, seeds {args.seed!r}:0..{args.games - 1}, expert {args.params}: "
          f"{wins}/{args.games} [{100 * low:.0f}, {100 * high:.0f}] in {time.perf_counter() - t0:.0f} s")
    print("".join("1" if won[i] else "0" for i in range(args.games)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
