"""How long the table's bots take per decision (issue 30: every bot answers within 0.5 s at the table).

    python benchmarks/table_pace.py [--bot table] [--games 4] [--players 4]
                                    [--missions planet-nine/01 planet-nine/06 planet-nine/10 planet-nine/31]

Plays whole games with the bot the table seats (``crewkit.families.trick_taking.tui.session.DEFAULT_BOT``
unless ``--bot``) in every seat, as the table asks them (the optional call at each communication window, then
the required action), and times each call. Prints per mission the decisions timed, the median, the 95th
percentile and the slowest, and the share of decisions over the target. Wall-clock figures: they depend on the
machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.families.trick_taking.bots.registry import make_bot  # noqa: E402
from crewkit.families.trick_taking.engine.setup import new_game  # noqa: E402

TARGET = 0.5  # seconds: a bot at the table answers within this


def timed_game(mission: str, players: int, bot: str, seed: str) -> list[float]:
    game = new_game("crew", mission, players, seed=seed)
    bots = [make_bot(bot, seat, seed) for seat in range(game.n)]
    times: list[float] = []
    asked: set[tuple[int, int]] = set()
    while not game.is_over():
        if game.in_communication_window():  # each seat once per window, as the table asks them
            for i in range(game.n):
                seat = (game.leader + i) % game.n
                if (game.trick_number, seat) in asked or not game.optional_actions(seat):
                    continue
                asked.add((game.trick_number, seat))
                start = time.perf_counter()
                action = bots[seat].optional(game.observation(seat))
                times.append(time.perf_counter() - start)
                if action is not None:
                    game.apply(action)
                    break
            else:
                pass
            if game.is_over():
                break
        seat = game.to_act
        assert seat is not None
        start = time.perf_counter()
        action = bots[seat].act(game.observation(seat))
        times.append(time.perf_counter() - start)
        game.apply(action)
    return times


def main(argv: list[str] | None = None) -> int:
    from crewkit.families.trick_taking.tui.session import DEFAULT_BOT

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default=DEFAULT_BOT)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", default="pace")
    ap.add_argument("--missions", nargs="+",
                    default=["planet-nine/01", "planet-nine/06", "planet-nine/10", "planet-nine/31"])
    args = ap.parse_args(argv)
    print(f"bot {args.bot} · {args.players} players · {args.games} games per mission · seed {args.seed!r}")
    print(f"{'mission':16} {'decisions':>9} {'median s':>9} {'p95 s':>7} {'max s':>7} {'over ' + str(TARGET) + ' s':>10}")
    worst = 0.0
    for mission in args.missions:
        times: list[float] = []
        for g in range(args.games):
            times += timed_game(mission, args.players, args.bot, f"{args.seed}-{g}")
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        over = sum(1 for t in times if t > TARGET)
        worst = max(worst, times[-1])
        print(f"{mission:16} {len(times):>9} {statistics.median(times):>9.3f} {p95:>7.3f} {times[-1]:>7.3f} "
              f"{over:>10}", flush=True)
    print(f"slowest decision: {worst:.3f} s (target {TARGET} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
