"""Hammer rounds played at random to a position, and the plain minimax the adversarial search is checked
against (no pruning, no table)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.scoring import RoundResult
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve.adversarial import RoundSearch

MISSIONS = [f"hammer/0{i}" for i in range(1, 6)]


def round_position(seed: str, mission: str, mode: str, left: int,
                   readings: dict[str, str] | None = None) -> Game | None:
    """A round of ``mission`` in ``mode`` played at random (seeded) until every hand holds at most ``left``
    cards at a trick's start, avoiding plays that settle the round while others do not (so that challenges
    of every mission live that long); None when the round was settled before."""
    g = new_game("hammer", "hammer", 4, seed, readings=readings)
    g.apply(ChooseMission(g.dealer, mission, mode))  # type: ignore[arg-type]
    rng = random.Random(seed)
    m = match_of(g)
    assert m is not None
    while max(h.bit_count() for h in g.hands) > left + (1 if mode == "challenge" else 0) or g.plays:
        actions = g.legal_actions(g.to_act)
        rng.shuffle(actions)
        for a in actions:
            h = g.clone()
            h.apply(a)
            if not match_of(h).round_results:  # type: ignore[union-attr]
                break
        g.apply(a)
        if m.round_results:
            return None
    return g


def engine_minimax(g: Game, value: Callable[[RoundResult], object], maximiser: int) -> object:
    """Plain minimax through the engine itself (clone and apply; the round's result as the engine settles it)."""
    m = match_of(g)
    assert m is not None
    k = len(m.round_results)
    seat = g.to_act
    assert seat is not None
    values = []
    for a in g.legal_actions(seat):
        h = g.clone()
        h.apply(a)
        hm = match_of(h)
        assert hm is not None
        values.append(value(hm.round_results[k]) if len(hm.round_results) > k else
                      engine_minimax(h, value, maximiser))
    return max(values) if seat == maximiser else min(values)  # type: ignore[type-var]


def plain_minimax(s: RoundSearch, leaf: Callable[[RoundSearch], Fraction | bool], maximiser: int) -> object:
    """Plain minimax over the search's own state (its legal plays and settlement, no pruning, no table)."""
    seat = s.turn
    values = []
    for cid in [c for c in range(len(s.cards)) if s.legal() >> c & 1]:
        saved = s.play(cid)
        values.append(leaf(s) if s.verdict is not None else plain_minimax(s, leaf, maximiser))
        s.undo(cid, saved)
    return max(values) if seat == maximiser else min(values)  # type: ignore[type-var]
