"""The adversarial search of a Hammer round (``solve/adversarial.py``) against the engine and against plain
minimax: its compact rules agree with the engine's on whole random rounds, its challenge verdicts (can the
dealer force the bet?) and penalty guarantees (paranoid values) equal a brute-force minimax through the
engine on small positions and a plain minimax (no pruning, no table) on larger ones, and a position it cannot
decide within its budget is undecided."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of
from crewkit.families.trick_taking.engine.blocks.tricks import legal_play_mask
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve.adversarial import RoundSearch
from tests.solve.hammer_positions import MISSIONS, engine_minimax, plain_minimax, round_position


@pytest.mark.parametrize("readings", [{}, {"ten-leads": "no-suit", "challenge-others-score": "penalty-too",
                                           "automatic-90": "other-players", "hidden-payment": "replaces"}])
def test_the_compact_rules_agree_with_the_engine_on_whole_rounds(readings: dict[str, str]) -> None:
    checked = 0
    for i in range(20):
        mission, mode = MISSIONS[i % 5], ("penalty", "challenge")[i // 5 % 2]
        g = new_game("hammer", "hammer", 4, f"agree{i}", readings=readings)
        g.apply(ChooseMission(g.dealer, mission, mode))  # type: ignore[arg-type]
        m = match_of(g)
        assert m is not None
        s = RoundSearch(g, native=False)
        rng = random.Random(i)
        while True:
            assert s.turn == g.turn and s.legal() == legal_play_mask(g, g.turn)  # type: ignore[arg-type]
            a = rng.choice(g.legal_actions(g.turn))
            g.apply(a)
            s.play(a.card.id)  # type: ignore[attr-defined]
            if m.round_results:
                assert s.verdict is not None
                res = m.round_results[0]
                assert (s.verdict[0], s.verdict[2]) == (res.result, list(res.deltas))
                checked += 1
                break
            assert s.verdict is None
    assert checked == 20


def _cases(mode: str, left: int, count: int) -> list[tuple[str, str]]:
    out = []
    for i in range(200):
        mission = MISSIONS[i % 5]
        if round_position(f"{mode}{left}:{i}", mission, mode, left) is not None:
            out.append((f"{mode}{left}:{i}", mission))
        if len(out) >= count:
            break
    return out


@pytest.mark.parametrize("mode", ["challenge", "penalty"])
def test_values_equal_brute_force_through_the_engine(mode: str) -> None:
    """Two cards a hand: every question against plain minimax through the engine's own apply and settlement."""
    for seed, mission in _cases(mode, 2, 12):
        g = round_position(seed, mission, mode, 2)
        assert g is not None
        s = RoundSearch(g, native=False)
        dealer = g.dealer
        assert dealer is not None
        if mode == "challenge":
            assert s.forceable() == engine_minimax(g, lambda r: r.result == "success", dealer), (seed, mission)
        for p in range(4):
            assert s.guarantee(p) == engine_minimax(g, lambda r, p=p: r.deltas[p], p), (seed, mission, p)


@pytest.mark.parametrize("mode", ["challenge", "penalty"])
def test_values_equal_plain_minimax(mode: str) -> None:
    """Three cards a hand: alpha-beta and its table against minimax without either (every mission card;
    in challenge mode the bet and the dealer's guarantee)."""
    for seed, mission in _cases(mode, 3, 5 if mode == "challenge" else 4):
        g = round_position(seed, mission, mode, 3)
        assert g is not None
        s = RoundSearch(g, native=False)
        dealer = g.dealer
        assert dealer is not None
        if mode == "challenge":
            ref = RoundSearch(g, native=False)
            want = plain_minimax(ref, lambda t: t.verdict is not None and t.verdict[0] == "success", dealer)
            assert s.forceable() == want, (seed, mission)
        for p in [dealer] if mode == "challenge" else range(4):
            ref = RoundSearch(g, native=False)
            want = plain_minimax(ref, lambda t, p=p: t.verdict[2][p] if t.verdict else Fraction(0), p)
            assert s.guarantee(p) == want, (seed, mission, p)
            # the boolean test agrees with the value on both sides of it
            assert s.at_least(p, want) is True and s.at_least(p, want + 1) is False  # type: ignore[operator]


def test_a_position_not_decided_within_the_budget_is_undecided() -> None:
    g = round_position("budget", "hammer/05", "challenge", 9)
    assert g is not None
    s = RoundSearch(g, native=False)
    assert s.forceable(max_nodes=5) is None
    assert s.guarantee(0, max_nodes=5) is None
    assert s.at_least(0, 0, max_nodes=5) is None
    # what was stored meanwhile stays exact: the same questions with room answer as a fresh search does
    seed, mission = _cases("challenge", 3, 1)[0]
    small = round_position(seed, mission, "challenge", 3)
    assert small is not None
    s2 = RoundSearch(small, native=False)
    assert s2.forceable(max_nodes=3) is None
    assert s2.forceable() == RoundSearch(small, native=False).forceable()


def test_guarantees_in_thirds_of_chips_equal_brute_force() -> None:
    """The reading where fixed gains are paid by the other players: chip changes in thirds, searched exactly."""
    readings = {"automatic-90": "other-players", "hidden-payment": "replaces"}
    seen_thirds = False
    for i in range(6):
        g = round_position(f"thirds{i}", MISSIONS[i % 5], "penalty", 2, readings)
        assert g is not None
        s = RoundSearch(g, native=False)
        for p in range(4):
            want = engine_minimax(g, lambda r, p=p: r.deltas[p], p)
            assert s.guarantee(p) == want, (i, p)
            seen_thirds |= Fraction(want).denominator != 1  # type: ignore[arg-type]
    assert seen_thirds


def test_an_undecided_guarantee_keeps_the_bounds_its_tests_proved() -> None:
    found = 0
    for seed, mission in _cases("penalty", 3, 3):
        g = round_position(seed, mission, "penalty", 3)
        assert g is not None
        for p in range(4):
            want = plain_minimax(RoundSearch(g, native=False), lambda t, p=p: t.verdict[2][p] if t.verdict else Fraction(0), p)
            for budget in (5, 20, 60):
                s = RoundSearch(g, native=False)
                if s.guarantee(p, max_nodes=budget, guess=1000) is not None:
                    continue
                lo, hi = s.found
                assert (lo is None or lo <= want) and (hi is None or want <= hi), (seed, p, budget)  # type: ignore[operator]
                found += lo is not None or hi is not None
    assert found
