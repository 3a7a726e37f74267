"""The expert bot against the heuristic bot on the same seeds, with the solver's winnable share.

    python benchmarks/expert_strength.py --mission planet-nine/10 --players 4 --games 100 --workers 2
    python benchmarks/expert_strength.py --timing 5            # seconds per expert decision, in this process
    python benchmarks/expert_strength.py --table --games 12 --workers 2   # docs/performance.md's table

Seeded and deterministic (node budgets, never the clock): the same command prints the same success counts on
any machine and worker count; only the times depend on the machine (and on its other load: say which).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis.compare import Variant, compare  # noqa: E402

#: ten missions spread over the campaign: plain tasks, tokens, conditions with and without tasks
TABLE_MISSIONS = ["planet-nine/01", "planet-nine/03", "planet-nine/07", "planet-nine/10", "planet-nine/13",
                  "planet-nine/16", "planet-nine/22", "planet-nine/26", "planet-nine/29", "planet-nine/44"]


def pct(k: int, n: int) -> str:
    from crewkit.analysis.stats import wilson_interval

    if not n:
        return "–"
    low, high = wilson_interval(k, n)
    return f"{100 * k / n:.0f}% [{100 * low:.0f}, {100 * high:.0f}]"


def head_to_head(mission: str, players: int, games: int, seed: str, workers: int, solver_games: int,
                 bots: list[str]) -> list[str]:
    variants = [Variant(b, "crew", mission, players, b) for b in bots]
    t0 = time.perf_counter()
    cmp = compare(variants, games, seed, workers=workers, solver=True, solver_games=solver_games,
                  solver_nodes=200_000)
    seconds = time.perf_counter() - t0
    cells = []
    for r in cmp.results:
        cells.append(pct(r.successes, r.games))
    c = cmp.results[0].solver_counts()
    decided = c["winnable"] + c["unwinnable"]
    cells.append(pct(c["winnable"], decided) + (f" ({c['unknown']} unknown)" if c["unknown"] else ""))
    cells.append(f"{seconds:.0f} s")
    return cells


def timing(games: int, mission: str, players: int, seed: str) -> None:
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.bots.expert import ExpertBot
    from crewkit.families.trick_taking.family import play_game

    rules, spec = load_rules("crew", mission, players), game_spec("crew", mission, players)
    times: list[float] = []
    cpu: list[float] = []  # this process's CPU time per decision: what the machine's other load does not inflate
    wins = 0
    for i in range(games):
        game_seed = f"{seed}:{i}"
        game = start_game(rules, spec, game_seed)
        bots = [ExpertBot(s, game_seed) for s in range(game.n)]
        for b in bots:
            inner = b.act

            def timed(obs: object, inner: object = inner) -> object:
                t, c = time.perf_counter(), time.process_time()
                out = inner(obs)  # type: ignore[operator]
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                return out

            b.act = timed  # type: ignore[method-assign]
        play_game(game, bots)
        wins += game.outcome().result == "success"
    times.sort()
    cpu.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"expert, {mission}, {players} players, {games} games in this process: {wins}/{games} won; "
          f"{len(times)} decisions, mean {statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, "
          f"p95 {p95:.3f} s, max {times[-1]:.3f} s (wall clock); CPU per decision: p95 "
          f"{cpu[int(0.95 * (len(cpu) - 1))]:.3f} s, max {cpu[-1]:.3f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", default="planet-nine/10")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="expert")
    ap.add_argument("--solver-games", type=int, default=100, help="deals the solver decides (winnable share)")
    ap.add_argument("--bots", nargs="+", default=["expert", "heuristic"])
    ap.add_argument("--timing", type=int, metavar="GAMES", help="time expert decisions over GAMES games instead")
    ap.add_argument("--table", action="store_true", help="10 missions at 3, 4 and 5 players (markdown)")
    ap.add_argument("--table-missions", nargs="+", default=TABLE_MISSIONS, metavar="ID",
                    help="the table's missions (default: the ten)")
    ap.add_argument("--table-players", nargs="+", type=int, default=[3, 4, 5], metavar="N")
    args = ap.parse_args(argv)
    if args.timing:
        timing(args.timing, args.mission, args.players, args.seed)
        return 0
    head = "| mission | players | " + " | ".join(args.bots) + " | solver winnable | time |"
    print(f"{args.games} deals per cell, seeds {args.seed!r}:0..{args.games - 1}, {args.workers} workers; "
          "success [95% Wilson interval]")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    rows = ([(m, p) for m in args.table_missions for p in args.table_players] if args.table
            else [(args.mission, args.players)])
    for mission, players in rows:
        cells = head_to_head(mission, players, args.games, args.seed, args.workers,
                             min(args.solver_games, args.games), args.bots)
        print(f"| {mission} | {players} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
