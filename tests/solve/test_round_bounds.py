"""The adversarial search's quick bounds on a player's chips (``solve/round_bounds.py``): read from every bundled
penalty formula, they hold the chips every seat gets in rounds played on from a position (the engine's own
settlement), and with them a round's start, nine cards a hand, is decided within a million plays."""

from __future__ import annotations

import random

import pytest

from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve import adversarial_native
from crewkit.families.trick_taking.solve.adversarial import RoundSearch
from crewkit.families.trick_taking.solve.round_bounds import chip_bounds
from tests.solve.hammer_positions import MISSIONS

READINGS = [{}, {"automatic-90": "other-players"}, {"ten-leads": "no-suit"}]


def test_every_bundled_penalty_formula_is_read_and_the_rest_is_left_alone() -> None:
    """Read: each mission card's penalty mode; not: a challenge, a hidden payment that replaces the score (the
    cards 1-3 have a hidden mission)."""
    games = {r: new_game("hammer", "hammer", 4, "model", readings=readings)
             for r, readings in (("adds", {}), ("replaces", {"hidden-payment": "replaces"}))}
    for mission in MISSIONS:
        for mode, reading, read in [("penalty", "adds", True), ("challenge", "adds", False),
                                    ("penalty", "replaces", mission in MISSIONS[3:])]:
            h = games[reading].clone()
            h.apply(ChooseMission(h.dealer, mission, mode))  # type: ignore[arg-type]
            assert (RoundSearch(h, native=False).model is not None) == read, (mission, mode, reading)


@pytest.mark.parametrize("readings", READINGS)
def test_the_bounds_hold_the_chips_of_rounds_played_on(readings: dict[str, str]) -> None:
    """At every position of random rounds, each seat's bounds hold the chips it gets in rounds played on at
    random from there (the engine's own settlement)."""
    checked = 0
    for i in range(10):
        mission = MISSIONS[i % 5]
        g = new_game("hammer", "hammer", 4, f"bounds{i}", readings=readings)
        g.apply(ChooseMission(g.dealer, mission, "penalty"))  # type: ignore[arg-type]
        m = match_of(g)
        assert m is not None
        rng = random.Random(i)
        s = RoundSearch(g, native=False)
        assert s.model is not None
        while not m.round_results:
            s.load(g)
            bounds = [chip_bounds(s.model, p, 4, s.dealer, s.scale, s.base_other, s.mission.hidden_payment, s.won,
                                  s.winners) for p in range(4)]
            for k in range(2):  # rounds played on from here
                h = g.clone()
                hm = match_of(h)
                assert hm is not None
                while not hm.round_results:
                    h.apply(rng.choice(h.legal_actions(h.to_act)))
                for p, (lo, hi) in enumerate(bounds):
                    assert lo <= hm.round_results[0].deltas[p] * s.scale <= hi, (i, mission, p, k)
                    checked += 1
            g.apply(rng.choice(g.legal_actions(g.to_act)))
    assert checked > 500


@pytest.mark.skipif(adversarial_native.LIBRARY.load() is None,
                    reason="no C library: " + adversarial_native.status())
def test_a_penalty_rounds_start_is_decided_within_a_million_plays() -> None:
    """Nine cards a hand, every hand known: a player's guarantee within a million plays (a tenth of the default
    budget; 238,670 plays here, about 0.2 s in C)."""
    g = new_game("hammer", "hammer", 4, "start")
    g.apply(ChooseMission(g.dealer, "hammer/01", "penalty"))  # type: ignore[arg-type]
    assert [h.bit_count() for h in g.hands] == [9] * 4
    s = RoundSearch(g, native=True)
    v = s.guarantee(3, max_nodes=1_000_000)
    assert v == -150 and s.native() is not None
    assert s.at_least(3, v) is True and s.at_least(3, v + 10) is False
