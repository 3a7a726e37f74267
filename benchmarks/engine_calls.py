"""Python function calls per game in the rows of ``engine_speed.py``, per source tree: a figure the load does not move.

    python benchmarks/engine_calls.py TREE [TREE ...] [--games 400] [--heuristic-games 3]

A tree is a folder holding a ``crewkit`` package (a checkout, or ``git archive REV | tar -x -C DIR``). For each
tree, in a fresh process: the bare engine and random bots (crew, planet-nine/25, 4 players) play ``--games``
games once to warm the caches, then again under cProfile; the heuristic bots play ``--heuristic-games`` under
cProfile. Printed: calls per game (every Python and built-in function call cProfile counts) and, for the
engine's own share, the calls into ``crewkit/engine/``. Deterministic: the same games every run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import cProfile, pstats, random, sys
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES
from crewkit.families.trick_taking.engine.game import Game

rules = load_rules("crew", "planet-nine/25", 4)


def bare(games):
    for i in range(games):
        game = Game.new(rules, seed=f"bench:{i}")
        rng = random.Random(f"bench:{i}")
        while not game.is_over():
            legal = [a for a in game.legal_actions() if not isinstance(a, OPTIONAL_TYPES)]
            game.apply(legal[int(rng.random() * len(legal))])


def bots(games, bot):
    for i in range(games):
        seed = f"bench:{i}"
        game = Game.new(rules, seed=seed)
        play_game(game, [make_bot(bot, s, seed) for s in range(4)])


def calls(fn, games):
    if games <= 0:
        return 0.0, 0.0
    profile = cProfile.Profile()
    profile.enable()
    fn(games)
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(v[1] for v in stats.values())
    engine = sum(v[1] for (path, _, _), v in stats.items() if "crewkit/engine/" in path.replace("\\", "/"))
    return total / games, engine / games


games, heuristic = int(sys.argv[1]), int(sys.argv[2])
bare(games)
bots(games, "random")
rows = [calls(bare, games), calls(lambda g: bots(g, "random"), games), calls(lambda g: bots(g, "heuristic"), heuristic)]
print(" ".join(f"{t} {e}" for t, e in rows))
"""

ROWS = ("bare engine (no observations)", "random bots", "heuristic bots")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", type=Path, nargs="+")
    ap.add_argument("--games", type=int, default=400, help="games for the bare engine and random bots rows")
    ap.add_argument("--heuristic-games", type=int, default=3)
    args = ap.parse_args(argv)
    results = []
    for tree in args.trees:
        tree = tree.resolve()
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.games), str(args.heuristic_games)], cwd=tree,
                             env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                             check=True, timeout=3600)
        values = [float(x) for x in out.stdout.split()]
        results.append(list(zip(values[0::2], values[1::2], strict=True)))
    print("crew · planet-nine/25 · 4 players · Python function calls per game (cProfile): all / in crewkit/engine")
    print(f"{'':32} " + " ".join(f"{str(t)[-24:]:>24}" for t in args.trees))
    for i, label in enumerate(ROWS):
        if i == 2 and not args.heuristic_games:
            continue
        cells = []
        for r in results:
            total, engine = r[i]
            cells.append(f"{total:>12,.0f} / {engine:>9,.0f}")
        print(f"{label:32} " + " ".join(f"{c:>24}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
