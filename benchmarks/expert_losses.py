"""Where the expert's lost deals are lost: the first card after which the true deal is no longer winnable.

    python benchmarks/expert_losses.py --seed confirm --games 40

Plays deal ``i`` (seeded ``f"{seed}:{i}"`` as ``benchmarks/expert_tune.py`` does) with four expert bots; for
each lost deal replays it and asks the perfect-information solver, after every card, whether the crew could
still win with the hands known. Prints, for the card that lost it, the trick, the position in the trick (0: a
lead), the seat, the card, and how many of that seat's legal cards would have kept the deal winnable.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.bots.expert import ExpertBot
    from crewkit.families.trick_taking.engine.blocks.tricks import Play
    from crewkit.families.trick_taking.engine.game import TRICKS
    from crewkit.families.trick_taking.family import play_game
    from crewkit.families.trick_taking.solve import SearchAborted, TrickSearch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", default="planet-nine/10")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", default="confirm")
    ap.add_argument("--nodes", type=int, default=300_000, help="solver budget per position")
    args = ap.parse_args(argv)

    def winnable(g: Any) -> bool | None:
        if g.is_over():
            return bool(g.outcome().result == "success")
        if g.phase != TRICKS:
            return None
        try:
            return bool(TrickSearch(g).run(max_nodes=args.nodes))
        except SearchAborted:
            return None

    rules = load_rules("crew", args.mission, args.players)
    spec = game_spec("crew", args.mission, args.players)
    won = 0
    leads = 0
    losses = 0
    for i in range(args.games):
        gs = f"{args.seed}:{i}"
        game = start_game(rules, spec, gs)
        play_game(game, [ExpertBot(s, gs) for s in range(game.n)])
        if game.outcome().result == "success":
            won += 1
            continue
        losses += 1
        g = start_game(rules, spec, gs)
        prev: bool | None = None
        found = "the deal was not winnable when the tricks began (or the solver could not tell)"
        for a in game.actions:
            before = g.clone()
            g.apply(a)
            if type(a) is not Play:
                if g.phase == TRICKS and prev is None:
                    prev = winnable(g)
                continue
            now = winnable(g)
            if prev and now is False:
                keep = 0
                legal = [b for b in before.legal_actions(a.seat) if type(b) is Play]
                for b in legal:
                    g2 = before.clone()
                    g2.apply(b)
                    keep += bool(winnable(g2))
                pos = len(before.plays)
                leads += pos == 0
                found = (f"trick {len(before.tricks) + 1}, position {pos}{' (lead)' if pos == 0 else ''}, "
                         f"seat {a.seat} played {a.card}; {keep} of its {len(legal)} legal cards kept it winnable")
                break
            if now is not None:
                prev = now
        print(f"{gs}: lost: {found}", flush=True)
    print(f"{won}/{args.games} won; {losses} lost, {leads} of them by a lead")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
