"""Old bot against new on the same seeds, in one run: games/s and success with 95% Wilson intervals.

    python benchmarks/fast_bot.py [--missions planet-nine/10 planet-nine/01] [--players 4]
                                  [--bots heuristic fast] [--games 1000 200] [--seed strength]

Game ``i`` of a mission is seeded ``f"{seed}:{i}"`` for every bot (as ``crewkit simulate`` does), so the
first ``min(games)`` games are paired: the same deals. The bots' games are interleaved (game ``i`` of every
bot, then game ``i + 1``), so a shared, loaded machine slows them alike; each bot's time is counted both as
wall-clock and as this process's CPU time (``time.process_time``), and the CPU figure is the one to compare
with a quiet machine. The bare engine (random legal actions, no bots, no observations) is timed in the same
run as a yardstick: a bot cannot play more games/s than that. One process, no workers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis.stats import wilson_interval  # noqa: E402
from crewkit.families.trick_taking.analysis.loading import load_rules, start_game  # noqa: E402
from crewkit.families.trick_taking.bots import make_bot  # noqa: E402
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES  # noqa: E402
from crewkit.families.trick_taking.engine.rules import Rules  # noqa: E402
from crewkit.families.trick_taking.family import play_game  # noqa: E402


def bare_engine(rules: Rules, games: int, seed: str) -> tuple[float, float, float]:
    """(wall s, CPU s, tricks per game) of random legal games."""
    tricks = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        game = start_game(rules, None, f"{seed}:{i}")
        rng = random.Random(f"{seed}:{i}")
        while not game.is_over():
            legal = [a for a in game.legal_actions() if not isinstance(a, OPTIONAL_TYPES)]
            game.apply(legal[int(rng.random() * len(legal))])
        tricks += len(game.tricks)
    return time.perf_counter() - wall, time.process_time() - cpu, tricks / max(1, games)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--missions", nargs="+", default=["planet-nine/10", "planet-nine/01"])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--ruleset", default="crew")
    ap.add_argument("--bots", nargs="+", default=["heuristic", "fast"])
    ap.add_argument("--games", nargs="+", type=int, default=[200, 1000],
                    help="games per bot (one number for all, or one per bot)")
    ap.add_argument("--bare-games", type=int, default=500)
    ap.add_argument("--seed", default="strength")
    args = ap.parse_args(argv)
    counts = args.games if len(args.games) == len(args.bots) else [args.games[0]] * len(args.bots)
    print(f"{args.ruleset} · {args.players} players · seed {args.seed!r} · one process, bots interleaved game by "
          f"game · Python {sys.version.split()[0]}")
    for mission in args.missions:
        rules = load_rules(args.ruleset, mission, args.players)
        wall, cpu, tricks = bare_engine(rules, args.bare_games, args.seed)
        print(f"\n{mission} ({rules.task_count} tasks, {len(rules.conditions)} conditions)")
        print(f"  {'bot':12} {'games':>6} {'games/s':>9} {'games/CPU-s':>12} {'success':>8} {'95% interval':>16}")
        print(f"  {'bare engine':12} {args.bare_games:>6} {args.bare_games / wall:>9.1f} "
              f"{args.bare_games / cpu:>12.1f} {'':>8} {'':>16}   random legal play, {tricks:.1f} tricks/game")
        walls = [0.0] * len(args.bots)
        cpus = [0.0] * len(args.bots)
        wins: list[list[bool]] = [[] for _ in args.bots]
        for i in range(max(counts)):
            game_seed = f"{args.seed}:{i}"
            for b, bot in enumerate(args.bots):
                if i >= counts[b]:
                    continue
                w0, c0 = time.perf_counter(), time.process_time()
                game = start_game(rules, None, game_seed)
                play_game(game, [make_bot(bot, s, game_seed) for s in range(game.n)])
                walls[b] += time.perf_counter() - w0
                cpus[b] += time.process_time() - c0
                wins[b].append(game.outcome().result == "success")
        for b, bot in enumerate(args.bots):
            n = counts[b]
            k = sum(wins[b])
            lo, hi = wilson_interval(k, n)
            print(f"  {bot:12} {n:>6} {n / walls[b]:>9.1f} {n / cpus[b]:>12.1f} {k / n:>8.1%} "
                  f"{lo:>7.1%}–{hi:<7.1%}")
        if len(args.bots) >= 2:
            m = min(counts)
            a, b2 = wins[0][:m], wins[1][:m]
            both = sum(x and y for x, y in zip(a, b2, strict=True))
            only_a = sum(x and not y for x, y in zip(a, b2, strict=True))
            only_b = sum(y and not x for x, y in zip(a, b2, strict=True))
            print(f"  paired on the first {m} deals: both won {both}, only {args.bots[0]} {only_a}, "
                  f"only {args.bots[1]} {only_b}; {args.bots[0]} {sum(a) / m:.1%} vs {args.bots[1]} {sum(b2) / m:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
