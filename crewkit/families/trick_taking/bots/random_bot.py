"""The random bot: uniform over the required legal actions (the safe ones, when it plays a card).

When it plays a card after the lead it picks uniformly among the legal cards that do not take a teammate's
task card (:func:`crewkit.families.trick_taking.bots.safety.safe_plays`), like every other bot; among all
legal cards only when every one of them does.

At a communication window it communicates (or calls for distress) rarely: with probability
``OPTIONAL_PROBABILITY`` (5%) it picks one of its optional actions uniformly, otherwise it passes. Most
random games therefore see a few communications, which keeps those code paths exercised without making
every game a communication game. The choice is drawn from the bot's own RNG before the observation is
inspected, so passing costs nothing.
"""

from __future__ import annotations

import random

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES
from crewkit.families.trick_taking.bots.safety import safe_plays
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import Observation

OPTIONAL_PROBABILITY = 0.05


class RandomBot:
    name = "random"

    def __init__(self, seat: int, seed: str = "", optional_probability: float = OPTIONAL_PROBABILITY) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")
        self.optional_probability = optional_probability

    def act(self, obs: Observation) -> Action:
        req = obs.required or obs.legal
        if len(req) == 1:
            return req[0]
        if obs.current_trick and obs.tasks and type(req[0]) is Play and all(type(a) is Play for a in req):
            req = safe_plays(obs, req)  # type: ignore[arg-type]
        return req[int(self.rng.random() * len(req))]

    def optional(self, obs: Observation) -> Action | None:
        if self.rng.random() >= self.optional_probability:
            return None
        opts = [a for a in obs.legal if isinstance(a, OPTIONAL_TYPES)]
        if not opts:
            return None
        return opts[int(self.rng.random() * len(opts))]
