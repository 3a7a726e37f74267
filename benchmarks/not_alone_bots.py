"""Not Alone's bots against each other: each side's win rate with a 95% Wilson interval, mean rounds, games/s.

    python benchmarks/not_alone_bots.py [--players 2 3 4 5 6 7] [--games 100] [--seed bench]
                                        [--pairings random/random heuristic/random random/heuristic heuristic/heuristic]
                                        [--ruleset not-alone]

A pairing is CREATURE/HUNTED (the Creature's bot, then every Hunted's). Game ``i`` is seeded ``f"{seed}:{i}"``
for every pairing (as ``crewkit simulate`` does): the same shuffles, so pairings are compared on the same games.
One process, no workers; each pairing's time is counted as wall-clock and as this process's CPU time
(``time.process_time``: the figure to compare on a shared, loaded machine). Heuristic beats random on a side
when, against the same opponent, its side's rate is clearly higher: compare heuristic/heuristic with
random/heuristic (the Creature's side) and with heuristic/random (the Hunted's side).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis.stats import wilson_interval  # noqa: E402
from crewkit.families.not_alone.board import load_board_ruleset  # noqa: E402
from crewkit.families.not_alone.bots import parse_side_bots  # noqa: E402
from crewkit.games import open_game  # noqa: E402
from crewkit.games.driver import play_out  # noqa: E402

PAIRINGS = ["random/random", "heuristic/random", "random/heuristic", "heuristic/heuristic"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", nargs="+", type=int, default=[2, 3, 4, 5, 6, 7])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--pairings", nargs="+", default=PAIRINGS)
    ap.add_argument("--ruleset", default="not-alone")
    args = ap.parse_args(argv)
    load_board_ruleset(args.ruleset)  # loaded once here (cached), before any pairing is timed
    print(
        f"{args.ruleset} · {args.games} games per pairing · seed {args.seed!r} · one process · "
        f"Python {sys.version.split()[0]}"
    )
    head = (
        f"{'N':>2} {'creature/hunted':<20} {'Creature wins [95%]':>24} {'Hunted wins [95%]':>24} "
        f"{'rounds':>6} {'games/s':>8} {'CPU g/s':>8}"
    )
    print(head)
    print("-" * len(head))
    for n in args.players:
        for pairing in args.pairings:
            parse_side_bots(pairing)
            wins = rounds = 0
            wall, cpu = time.perf_counter(), time.process_time()
            for i in range(args.games):
                game_seed = f"{args.seed}:{i}"
                game = open_game(args.ruleset, None, n, game_seed)
                play_out(game, game.family.seat_players(game, pairing, game_seed))
                res = game.family.summary(game)
                wins += not res.success  # success: the Hunted win
                rounds += res.length
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            g = args.games
            clo, chi = wilson_interval(wins, g)
            hlo, hhi = wilson_interval(g - wins, g)
            print(
                f"{n:>2} {pairing:<20} {100 * wins / g:5.1f}% [{100 * clo:4.1f}–{100 * chi:5.1f}]"
                f"{'':>4} {100 * (g - wins) / g:5.1f}% [{100 * hlo:4.1f}–{100 * hhi:5.1f}]{'':>4}"
                f" {rounds / g:6.2f} {g / wall:8.1f} {g / cpu:8.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
