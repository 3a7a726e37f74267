"""Speed of the board-family machine (Not Alone): random games per second and actions per second.

    python benchmarks/board_speed.py [--games 100] [--players 2 4 7] [--ruleset not-alone]

Each game is played by the random board bot in every seat through ``play_board_game`` (one observation per
action, as a real bot gets). Seeded: the same command plays the same games; the times depend on the machine
(report the load with any figure).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.families.not_alone.board import BoardGame, load_board_ruleset  # noqa: E402
from crewkit.families.not_alone.bots import make_board_bot  # noqa: E402
from crewkit.families.not_alone.family import play_board_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4, 7])
    ap.add_argument("--ruleset", default="not-alone")
    args = ap.parse_args(argv)
    ruleset = load_board_ruleset(args.ruleset)
    print(f"{'players':>7} {'games/s':>8} {'actions/s':>10} {'actions/game':>12} {'rounds/game':>11}")
    for n in args.players:
        actions = rounds = 0
        start = time.perf_counter()
        for i in range(args.games):
            game = BoardGame(ruleset, n, f"bench:{i}")
            play_board_game(game, [make_board_bot("random", s, f"bench:{i}") for s in range(n)])
            actions += len(game.actions)
            rounds += game.round
        took = time.perf_counter() - start
        print(
            f"{n:>7} {args.games / took:>8.1f} {actions / took:>10.0f} {actions / args.games:>12.1f} "
            f"{rounds / args.games:>11.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
