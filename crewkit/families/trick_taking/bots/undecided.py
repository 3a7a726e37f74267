"""The bots' last resort: a seeded choice among the legal actions for a decision no policy covers.

Every decision a bundled rule set or mission offers has a policy (:mod:`.choices`); reaching this is a gap.
Tests set :data:`STRICT` (or the environment variable ``CREWKIT_BOTS_STRICT=1``) so that a gap fails loudly
instead of being played at random (``tests/bots/test_no_random_choice.py``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from crewkit.engine.actions import Action

STRICT = os.environ.get("CREWKIT_BOTS_STRICT") == "1"


class UndecidedChoice(RuntimeError):
    """A bot met a decision that no policy covers while :data:`STRICT` is set."""


def seeded_choice(rng: random.Random, req: Sequence[Action], bot: str) -> Action:
    """A seeded choice among ``req`` (raises :class:`UndecidedChoice` under :data:`STRICT`)."""
    if STRICT:
        kinds = sorted({a.type for a in req})
        raise UndecidedChoice(f"the {bot} bot has no policy for {', '.join(kinds)} ({len(req)} actions)")
    return req[int(rng.random() * len(req))]
