"""Hammer's dealer choice (mission card and mode): the fast bot's play-outs against the old placeholder and chance.

    python benchmarks/hammer_dealer.py [--matches 50] [--seed dealer] [--policies deliberate placeholder random]

Match ``i`` is seeded ``f"{seed}:{i}"`` for every policy, so the policies meet the same deals as long as they
announce the same cards (the deal of a round does not depend on what was announced). Policies:

- ``deliberate``: the fast bot as it is (:mod:`crewkit.families.trick_taking.bots.dealer_choice`);
- ``placeholder``: what the bots did before: penalty mode, the mission card at the dealer's seat index;
- ``random``: a uniform option (mission and mode).

The card play is the fast bot's in every policy. Two figures per policy:

1. all four seats with the policy: the dealer's mean gain per round on the others (its chips won less the mean
   of the others'), with a 95% interval, and the share of rounds announced in challenge mode;
2. seat 0 with the policy against three placeholder dealers: the share of matches it wins (a shared win counts
   its share; 25% is par) and its mean final chips less the others' mean.

One process, no workers.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.engine.actions import Action  # noqa: E402
from crewkit.families.trick_taking.analysis.loading import load_rules, start_game  # noqa: E402
from crewkit.families.trick_taking.bots import make_bot  # noqa: E402
from crewkit.families.trick_taking.bots.base import Bot  # noqa: E402
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of  # noqa: E402
from crewkit.families.trick_taking.engine.observation import Observation  # noqa: E402
from crewkit.families.trick_taking.family import play_game  # noqa: E402


class Dealer:
    """The fast bot, whose dealer choice is replaced by ``policy`` (placeholder or random)."""

    def __init__(self, seat: int, seed: str, policy: str) -> None:
        self.inner: Bot = make_bot("fast", seat, seed)
        self.policy = policy
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}:dealer")

    def act(self, obs: Observation) -> Action:
        req = obs.required or obs.legal
        if self.policy != "deliberate" and req and all(isinstance(a, ChooseMission) for a in req):
            if self.policy == "random":
                return req[int(self.rng.random() * len(req))]
            penalty = [a for a in req if a.mode == "penalty"]  # type: ignore[attr-defined]
            missions = list(dict.fromkeys(a.mission for a in penalty))  # type: ignore[attr-defined]
            pick = missions[obs.seat % len(missions)]
            return next(a for a in penalty if a.mission == pick)  # type: ignore[attr-defined]
        return self.inner.act(obs)

    def optional(self, obs: Observation) -> Action | None:
        return self.inner.optional(obs)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def play(rules: object, seed: str, policies: list[str]) -> object:
    game = start_game(rules, None, seed)  # type: ignore[arg-type]
    play_game(game, [Dealer(s, seed, policies[s]) for s in range(game.n)])
    m = match_of(game)
    assert m is not None
    return m


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--seed", default="dealer")
    ap.add_argument("--policies", nargs="+", default=["deliberate", "placeholder", "random"],
                    choices=["deliberate", "placeholder", "random"])
    args = ap.parse_args(argv)
    rules = load_rules("hammer", "hammer", 4)
    print(f"hammer · 4 players · {args.matches} matches a policy · seed {args.seed!r} · one process")
    for policy in args.policies:
        t0 = time.process_time()
        gains: list[float] = []
        challenges = rounds = 0
        share: list[float] = []
        margin: list[float] = []
        for i in range(args.matches):
            seed = f"{args.seed}:{i}"
            m = play(rules, seed, [policy] * 4)
            for r in m.round_results:  # type: ignore[attr-defined]
                d = [float(x) for x in r.deltas]
                others = [x for s, x in enumerate(d) if s != r.dealer]
                gains.append(d[r.dealer] - sum(others) / len(others))
                challenges += r.mode == "challenge"
                rounds += 1
            m = play(rules, seed, [policy, "placeholder", "placeholder", "placeholder"])
            chips = [float(c) for c in m.chips]  # type: ignore[attr-defined]
            best = max(chips)
            share.append(1 / chips.count(best) if chips[0] == best else 0.0)
            margin.append(chips[0] - sum(chips[1:]) / 3)
        g, gci = mean_ci(gains)
        w, wci = mean_ci(share)
        mg, mci = mean_ci(margin)
        print(f"{policy:12} dealer's gain a round {g:+.1f} ±{gci:.1f} · challenge {100 * challenges / rounds:.0f}% "
              f"of rounds · seat 0 against three placeholders: wins {100 * w:.0f}% ±{100 * wci:.0f} "
              f"(par 25%), final chips {mg:+.0f} ±{mci:.0f} on the others · "
              f"{time.process_time() - t0:.0f} CPU-s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
