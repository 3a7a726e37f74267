""":meth:`Knowledge.sample` keeps its :class:`Sampler` while the facts hold: the same deals as a sampler built
afresh for every deal, and a copy whose facts were changed (as the expert's owner prior makes) draws from its own."""

from __future__ import annotations

import copy
import random

from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES
from crewkit.families.trick_taking.bots.knowledge import Knowledge, Sampler, SplitMix
from crewkit.families.trick_taking.engine.observation import observe
from crewkit.families.trick_taking.engine.setup import new_game


def _knowledge(seed: int, steps: int) -> Knowledge:
    """What seat 0 knows after ``steps`` random actions of a game of planet-nine/10."""
    game = new_game("crew", "planet-nine/10", 4, seed=f"kept-{seed}")
    rng = random.Random(seed)
    for _ in range(steps):
        legal = [a for a in game.legal_actions() if not isinstance(a, OPTIONAL_TYPES)]
        if game.is_over() or not legal:
            break
        game.apply(rng.choice(legal))
    return Knowledge(observe(game, 0))


def test_kept_sampler_draws_the_deals_of_a_fresh_one() -> None:
    for seed in range(6):
        know = _knowledge(seed, 8 + seed)
        a, b = random.Random(seed), random.Random(seed)
        for _ in range(5):
            assert know.sample(a) == Sampler(know).sample(SplitMix(b.getrandbits(64)))


def test_a_copy_with_other_facts_draws_from_its_own() -> None:
    know = _knowledge(3, 12)
    know.sample(random.Random(0))  # the original's sampler is kept on it
    other = copy.copy(know)
    seat = next(s for s in range(other.n) if other.need[s])
    card = (other.unknown & -other.unknown).bit_length() - 1
    other.known = list(other.known)
    other.known[seat] |= 1 << card
    other.need = list(other.need)
    other.need[seat] -= 1
    other.unknown &= ~(1 << card)
    for k in range(5):
        hands = other.sample(random.Random(k))
        assert hands[seat] >> card & 1
        assert hands == Sampler(other).sample(SplitMix(random.Random(k).getrandbits(64)))
