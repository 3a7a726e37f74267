"""The fast bot with other parameters, on given seeds (for tuning; one process, no workers).

    python benchmarks/fast_tune.py '{"worlds": 48, "budget": 6400, "min_worlds": 32}' --mission planet-nine/10
    python benchmarks/fast_tune.py '{"cond_worlds": 10, "cond_win_weight": 10}' --mission planet-nine/09 --seed cw

Deal ``i`` and its bots are seeded ``f"{seed}:{i}"`` as in ``crewkit compare`` (so ``'{}'`` plays the
games of today's defaults). Prints wins, games/s and one digit per deal (1 won, 0 lost), so that two
parameter sets can be paired deal by deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    from crewkit.analysis.stats import wilson_interval
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.bots.fast import FastBot
    from crewkit.families.trick_taking.family import play_game

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("params", nargs="?", default="{}", help="FastBot keyword arguments as JSON")
    ap.add_argument("--mission", default="planet-nine/10")
    ap.add_argument("--ruleset", default="crew")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", default="ww")
    args = ap.parse_args(argv)
    kw = json.loads(args.params)
    rules = load_rules(args.ruleset, args.mission, args.players)
    spec = game_spec(args.ruleset, args.mission, args.players)
    results = []
    t0 = time.perf_counter()
    for i in range(args.games):
        game_seed = f"{args.seed}:{i}"
        game = start_game(rules, spec, game_seed)
        play_game(game, [FastBot(s, game_seed, **kw) for s in range(game.n)])
        results.append(game.outcome().result == "success")
    wall = time.perf_counter() - t0
    won = sum(results)
    lo, hi = wilson_interval(won, len(results))
    print(f"{args.mission}, {args.players} players, seeds {args.seed!r}:0..{args.games - 1}, fast {json.dumps(kw)}: "
          f"{won}/{len(results)} [{100 * lo:.0f}, {100 * hi:.0f}] in {wall:.1f} s ({len(results) / wall:.0f} games/s)")
    print("".join("1" if r else "0" for r in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
