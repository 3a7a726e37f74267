"""The commander's hand-out alone, judged by the solver: is the deal still winnable, every hand known, after it?

    python benchmarks/handout_solver.py --mission planet-nine/36 --games 400 --seed ho '{"handout_worlds": 32, "handout_repair": 0}'
    python benchmarks/handout_solver.py --mission planet-nine/36 --games 400 --seed ho '{}'

Deal ``i`` is seeded ``f"{seed}:{i}"`` as ``crewkit simulate --seed SEED`` seeds game ``i``; four expert bots (the
JSON keyword arguments of :class:`ExpertBot`) answer the questions and hand the tasks out, then the solver asks
of the true deal at its first trick whether the crew can still win (``--nodes`` plays). Minutes where the
expert's games take an hour, but a coarse measure: a deal winnable after the hand-out may still be hard to play.
Prints one line per deal (``i W|L|? owners``) and the totals, so that two runs can be paired deal by deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.bots.expert import ExpertBot
    from crewkit.families.trick_taking.engine.game import TRICKS
    from crewkit.families.trick_taking.playing import TrickTakingGame
    from crewkit.families.trick_taking.solve import SearchAborted, TrickSearch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("params", nargs="?", default="{}", help="ExpertBot keyword arguments as JSON")
    ap.add_argument("--mission", default="planet-nine/36")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", default="ho")
    ap.add_argument("--nodes", type=int, default=3_000_000)
    args = ap.parse_args(argv)
    kw = json.loads(args.params)
    rules = load_rules("crew", args.mission, args.players)
    counts = {"W": 0, "L": 0, "?": 0}
    t0 = time.process_time()
    for i in range(args.games):
        game_seed = f"{args.seed}:{i}"
        engine = start_game(rules, game_spec("crew", args.mission, args.players), game_seed)
        game = TrickTakingGame(engine)
        bots = [ExpertBot(s, game_seed, **kw) for s in range(engine.n)]
        while engine.phase != TRICKS and not engine.is_over():
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].act(game.seat_observation(seat)))
        try:
            verdict = "W" if TrickSearch(engine.clone()).run(max_nodes=args.nodes) else "L"
        except SearchAborted:
            verdict = "?"
        counts[verdict] += 1
        print(i, verdict, [t.owner for t in engine.tasks], flush=True)
    print(f"{args.mission}, seeds {args.seed!r}:0..{args.games - 1}, expert {args.params}: winnable {counts['W']}, "
          f"lost {counts['L']}, undecided {counts['?']} ({time.process_time() - t0:.0f} CPU-s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
