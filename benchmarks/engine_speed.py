"""Games per second through the real driver, bots and observations (single process).

    python benchmarks/engine_speed.py [--games N] [--heuristic-games N] [--mission planet-nine/25]

Rows: the bare engine (random legal required actions, no observations), random bots through
``play_game``, the rule bot and the heuristic bot. 4 players, rule set ``crew``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.families.trick_taking.analysis.loading import load_rules  # noqa: E402
from crewkit.families.trick_taking.bots import make_bot  # noqa: E402
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES  # noqa: E402
from crewkit.families.trick_taking.engine.game import Game  # noqa: E402
from crewkit.families.trick_taking.engine.rules import Rules  # noqa: E402
from crewkit.families.trick_taking.family import play_game  # noqa: E402


def bare(rules: Rules, games: int) -> tuple[float, float]:
    tricks = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(rules, seed=f"bench:{i}")
        rng = random.Random(f"bench:{i}")
        while not game.is_over():
            legal = [a for a in game.legal_actions() if not isinstance(a, OPTIONAL_TYPES)]
            game.apply(legal[int(rng.random() * len(legal))])
        tricks += len(game.tricks)
    return time.perf_counter() - start, tricks / games


def with_bots(rules: Rules, games: int, bot: str) -> tuple[float, float]:
    tricks = 0
    n = rules.players
    start = time.perf_counter()
    for i in range(games):
        seed = f"bench:{i}"
        game = Game.new(rules, seed=seed)
        play_game(game, [make_bot(bot, s, seed) for s in range(n)])
        tricks += len(game.tricks)
    return time.perf_counter() - start, tricks / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", default="planet-nine/25", help="a mission with 6 tasks (default planet-nine/25)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=5000, help="games for the bare engine and random bots")
    ap.add_argument("--rules-games", type=int, default=500)
    ap.add_argument("--heuristic-games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs per row")
    args = ap.parse_args(argv)

    rules = load_rules("crew", args.mission, args.players)
    rows: list[tuple[str, int, float, float]] = []

    def best(fn: Callable[[int], tuple[float, float]], games: int) -> tuple[float, float]:
        runs = [fn(games) for _ in range(args.repeat)]
        return min(runs, key=lambda r: r[0])

    for label, games, fn in (
        ("bare engine (no observations)", args.games, lambda g: bare(rules, g)),
        ("random bots", args.games, lambda g: with_bots(rules, g, "random")),
        ("rules bots (no lookahead)", args.rules_games, lambda g: with_bots(rules, g, "rules")),
        ("heuristic bots", args.heuristic_games, lambda g: with_bots(rules, g, "heuristic")),
    ):
        if games <= 0:
            continue
        seconds, tricks = best(fn, games)
        rows.append((label, games, seconds, tricks))

    print(f"crew · {args.mission} ({rules.task_count} tasks) · {args.players} players · single process · "
          f"Python {sys.version.split()[0]} · best of {args.repeat}")
    print(f"{'':32} {'games':>7} {'seconds':>9} {'games/s':>10} {'tricks/game':>12}")
    for label, games, seconds, tricks in rows:
        print(f"{label:32} {games:>7} {seconds:>9.2f} {games / seconds:>10.1f} {tricks:>12.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
