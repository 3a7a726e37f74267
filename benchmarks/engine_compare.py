"""Two source trees of crewkit, the same engine benchmark, alternated in one run (before/after a change).

    python benchmarks/engine_compare.py BEFORE_TREE AFTER_TREE [--rounds 5] [--games 800] [--heuristic-games 3]

A tree is a folder holding a ``crewkit`` package (a checkout, or ``git archive REV | tar -x -C DIR``). Each
round runs the rows of ``engine_speed.py`` (bare engine, random bots, heuristic bots; crew, planet-nine/25,
4 players) and a row of uniform play through the bots' driver and observations (the engine's share of the
random bots' row, without the random bot's own rules) once per tree, in a fresh process, the trees taking turns, so that both see the same load. Times
are CPU seconds of the process (``time.process_time``), less moved than wall time by other work on a shared
machine. Printed: games per CPU second per row, best and median over the rounds, and after/before; "paired" is
the median over the rounds of that round's after/before (the trees run back to back in ABBA order, so a round's
two runs see about the same load).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import random, sys, time
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES
from crewkit.families.trick_taking.engine.game import Game

rules = load_rules("crew", "planet-nine/25", 4)


def bare(games):
    start = time.process_time()
    for i in range(games):
        game = Game.new(rules, seed=f"bench:{i}")
        rng = random.Random(f"bench:{i}")
        while not game.is_over():
            legal = [a for a in game.legal_actions() if not isinstance(a, OPTIONAL_TYPES)]
            game.apply(legal[int(rng.random() * len(legal))])
    return games / (time.process_time() - start)


def bots(games, bot):
    start = time.process_time()
    for i in range(games):
        seed = f"bench:{i}"
        game = Game.new(rules, seed=seed)
        play_game(game, [make_bot(bot, s, seed) for s in range(4)])
    return games / (time.process_time() - start)


class Uniform:
    # uniform among the required legal actions of the observation: the engine and its observations, with no
    # bot logic (the random bot's own rules, such as its safety filter, change between trees)

    def __init__(self, seat, seed):
        self.seat, self.rng = seat, random.Random(f"{seed}:{seat}")

    def act(self, obs):
        legal = [a for a in obs.legal if not isinstance(a, OPTIONAL_TYPES)]
        return legal[int(self.rng.random() * len(legal))]

    def optional(self, obs):
        return None


def uniform(games):
    start = time.process_time()
    for i in range(games):
        seed = f"bench:{i}"
        game = Game.new(rules, seed=seed)
        play_game(game, [Uniform(s, seed) for s in range(4)])
    return games / (time.process_time() - start)


games, heuristic = int(sys.argv[1]), int(sys.argv[2])
print(bare(games), uniform(games), bots(games, "random"), bots(heuristic, "heuristic") if heuristic else 0.0)
"""

ROWS = ("bare engine (no observations)", "uniform play, observations", "random bots", "heuristic bots")


def run(tree: Path, games: int, heuristic: int) -> list[float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(games), str(heuristic)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                         check=True, timeout=3600)
    return [float(x) for x in out.stdout.split()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=800, help="games for the bare engine and random bots rows")
    ap.add_argument("--heuristic-games", type=int, default=3)
    args = ap.parse_args(argv)
    results: dict[Path, list[list[float]]] = {args.before: [], args.after: []}
    for k in range(args.rounds):
        # ABBA order: a drift of the machine's load within a round favours neither tree
        for tree in (args.before, args.after) if k % 2 == 0 else (args.after, args.before):
            results[tree].append(run(tree.resolve(), args.games, args.heuristic_games))
    print(f"crew · planet-nine/25 · 4 players · games per CPU second · {args.rounds} rounds, trees alternated")
    print(f"{'':32} {'before best':>12} {'after best':>11} {'ratio':>7} {'before med':>11} {'after med':>10} "
          f"{'ratio':>7} {'paired':>7}")
    for i, label in enumerate(ROWS):
        if i == 2 and not args.heuristic_games:
            continue
        b = [r[i] for r in results[args.before]]
        a = [r[i] for r in results[args.after]]
        bb, ab, bm, am = max(b), max(a), statistics.median(b), statistics.median(a)
        # paired: the median of each round's after/before, the two runs of a round having seen the same load
        paired = statistics.median(x / y for x, y in zip(a, b, strict=True))
        f = ".1f" if min(b + a) >= 100 else ".3f"  # the heuristic bot plays a few games per second
        print(f"{label:32} {bb:>12{f}} {ab:>11{f}} {ab / bb:>7.2f} {bm:>11{f}} {am:>10{f}} {am / bm:>7.2f} "
              f"{paired:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
