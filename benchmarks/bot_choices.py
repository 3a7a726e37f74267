"""The fast bot's success where a mission gives the players choices, with its own choices and with random ones.

    python benchmarks/bot_choices.py [--games 400] [--players 4] [--seed choices] [--set planet-nine deep-sea]
                                     (sets: planet-nine, deep-sea, roles, jarvis: the last with --players 2)
                                     [--missions planet-nine/05 ...] [--modes deliberate random]

Game ``i`` of a mission is seeded ``f"{seed}:{i}"`` in every mode, so the modes play the same deals (paired).
``deliberate`` is the fast bot as it is; ``random`` is the fast bot whose every decision other than playing a
card or taking a task in the classic draft is drawn uniformly from the legal actions (what the bots did before
they had a policy for those decisions). The paired comparison counts the deals only one mode won and gives the
two-sided sign-test p-value over them. One process, no workers.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis.stats import wilson_interval  # noqa: E402
from crewkit.engine.actions import Action  # noqa: E402
from crewkit.families.trick_taking.analysis.loading import load_rules, start_game  # noqa: E402
from crewkit.families.trick_taking.bots import make_bot  # noqa: E402
from crewkit.families.trick_taking.bots.base import Bot  # noqa: E402
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask  # noqa: E402
from crewkit.families.trick_taking.engine.blocks.tricks import Play  # noqa: E402
from crewkit.families.trick_taking.engine.observation import Observation  # noqa: E402
from crewkit.families.trick_taking.family import play_game  # noqa: E402

SETS = {
    "planet-nine": ("crew", ["planet-nine/05", "planet-nine/17", "planet-nine/24", "planet-nine/26",
                             "planet-nine/32", "planet-nine/36"]),
    "deep-sea": ("crew-deep-sea", ["deep-sea/06", "deep-sea/10", "deep-sea/13", "deep-sea/14", "deep-sea/15",
                                   "deep-sea/16", "deep-sea/26"]),
    # role choices the conditions cannot judge alone: a silenced player (11), an opener before its closer (50)
    "roles": ("crew", ["planet-nine/11", "planet-nine/50"]),
    # JARVIS's seat (with --players 2)
    "jarvis": ("crew-jarvis", ["planet-nine/01", "planet-nine/02", "planet-nine/03", "planet-nine/11"]),
}


class RandomChoices:
    """The fast bot, but every decision that is not a card play or a classic draft pick is uniform."""

    def __init__(self, seat: int, seed: str) -> None:
        self.seat = seat
        self.inner: Bot = make_bot("fast", seat, seed)
        self.rng = random.Random(f"{seed}:{seat}:choices")

    def act(self, obs: Observation) -> Action:
        req = obs.required or obs.legal
        if len(req) > 1 and not all(isinstance(a, (Play, TakeTask)) for a in req):
            return req[int(self.rng.random() * len(req))]
        return self.inner.act(obs)

    def optional(self, obs: Observation) -> Action | None:
        return self.inner.optional(obs)


def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided exact sign test p-value for the discordant pairs."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    p = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", nargs="+", default=["planet-nine", "deep-sea"], choices=sorted(SETS))
    ap.add_argument("--missions", nargs="+", default=None, help="only these missions (of the chosen sets)")
    ap.add_argument("--modes", nargs="+", default=["deliberate", "random"], choices=["deliberate", "random"])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", default="choices")
    args = ap.parse_args(argv)
    print(f"{args.players} players · {args.games} games a mission · seed {args.seed!r} · one process")
    for name in args.set:
        ruleset, missions = SETS[name]
        for mission in missions:
            if args.missions and mission not in args.missions:
                continue
            rules = load_rules(ruleset, mission, args.players)
            wins: dict[str, list[bool]] = {m: [] for m in args.modes}
            t0 = time.process_time()
            for i in range(args.games):
                seed = f"{args.seed}:{i}"
                for mode in args.modes:
                    game = start_game(rules, None, seed)
                    bots: list[Bot] = ([make_bot("fast", s, seed) for s in range(game.n)] if mode == "deliberate"
                                       else [RandomChoices(s, seed) for s in range(game.n)])
                    play_game(game, bots)
                    wins[mode].append(game.outcome().result == "success")
            cpu = time.process_time() - t0
            parts = []
            for mode in args.modes:
                k = sum(wins[mode])
                lo, hi = wilson_interval(k, args.games)
                parts.append(f"{mode} {k / args.games:.3f} [{lo:.2f}, {hi:.2f}]")
            line = f"{ruleset:14} {mission:16} " + " · ".join(parts)
            if len(args.modes) == 2:
                a, b = wins[args.modes[0]], wins[args.modes[1]]
                a_only = sum(x and not y for x, y in zip(a, b, strict=True))
                b_only = sum(y and not x for x, y in zip(a, b, strict=True))
                line += f" · {args.modes[0]} only {a_only}, {args.modes[1]} only {b_only}, " \
                        f"p={sign_test(a_only, b_only):.3g}"
            print(line + f" · {cpu:.0f} CPU-s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
