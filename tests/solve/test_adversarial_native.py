"""The adversarial search's C twin (``solve/_adversarial.c``) against its Python reference (``adversarial.py``)
and against brute force through the engine: the same values, the same plays searched, undecided beyond its
budget; and with its budget scaled to its speed it decides positions the Python search cannot."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from crewkit.families.trick_taking.engine.scoring import RoundResult
from crewkit.families.trick_taking.solve import adversarial_native
from crewkit.families.trick_taking.solve.adversarial import RoundSearch
from tests.solve.hammer_positions import MISSIONS, engine_minimax, round_position

pytestmark = pytest.mark.skipif(adversarial_native.LIBRARY.load() is None,
                                reason="no C library: " + adversarial_native.status())

READINGS = {"ten-leads": "no-suit", "challenge-others-score": "penalty-too", "automatic-90": "other-players",
            "hidden-payment": "replaces"}


def _twins(seed: str, mission: str, mode: str, left: int,
           readings: dict[str, str] | None = None) -> tuple[RoundSearch, RoundSearch] | None:
    g = round_position(seed, mission, mode, left, readings)
    if g is None:
        return None
    c, py = RoundSearch(g, native=True), RoundSearch(g, native=False)
    assert c.native() is not None, c.native_why
    assert py.native() is None
    return c, py


@pytest.mark.parametrize("mode,readings", [("penalty", None), ("challenge", None), ("penalty", READINGS),
                                          ("challenge", READINGS)])
def test_the_c_search_searches_as_the_python_search(mode: str, readings: dict[str, str] | None) -> None:
    """Every mission card, three cards a hand: each player's guarantee and the challenge's answer, with the
    same number of plays searched (same order, merging, table and cut-offs)."""
    compared = 0
    for i in range(100):
        pair = _twins(f"twin{mode}{i}", MISSIONS[i % 5], mode, 3, readings)
        if pair is None:
            continue
        c, py = pair
        for p in range(4):
            v = c.guarantee(p)
            assert v == py.guarantee(p) and c.nodes == py.nodes, (i, p)
            assert c.at_least(p, v + 1) is False and py.at_least(p, v + 1) is False  # type: ignore[operator]
            assert c.nodes == py.nodes
        if mode == "challenge":
            assert c.forceable() == py.forceable() and c.nodes == py.nodes, i
        compared += 1
        if compared == 8:
            break
    assert compared == 8


def _chips(p: int) -> Callable[[RoundResult], object]:
    return lambda r: r.deltas[p]


@pytest.mark.parametrize("mode", ["challenge", "penalty"])
def test_c_values_equal_brute_force_through_the_engine(mode: str) -> None:
    checked = 0
    for i in range(60):
        mission = MISSIONS[i % 5]
        g = round_position(f"{mode}2:{i}", mission, mode, 2)
        if g is None:
            continue
        s = RoundSearch(g, native=True)
        dealer = g.dealer
        assert dealer is not None
        if mode == "challenge":
            assert s.forceable() == engine_minimax(g, lambda r: r.result == "success", dealer), i
        for p in range(4):
            assert s.guarantee(p) == engine_minimax(g, _chips(p), p), (i, p)
        checked += 1
        if checked == 8:
            break
    assert checked == 8 and s.native() is not None


def test_guarantees_in_thirds_of_chips_in_c() -> None:
    """Fixed gains paid by the other players: chip changes in thirds, the C search's units exact."""
    seen_thirds = False
    for i in range(6):
        g = round_position(f"thirds{i}", MISSIONS[i % 5], "penalty", 2, {"automatic-90": "other-players"})
        assert g is not None
        s = RoundSearch(g, native=True)
        for p in range(4):
            want = engine_minimax(g, _chips(p), p)
            assert s.guarantee(p) == want, (i, p)
            assert isinstance(want, int | Fraction)
            seen_thirds |= Fraction(want).denominator != 1
    assert seen_thirds and s.native() is not None


def test_the_c_search_is_undecided_beyond_its_budget_and_keeps_what_it_proved() -> None:
    pair = _twins("budget", "hammer/05", "penalty", 9)
    assert pair is not None
    c, _ = pair
    assert c.guarantee(0, max_nodes=5) is None
    assert c.at_least(0, 0, max_nodes=5) is None
    found = 0
    for i in range(5):
        g = round_position(f"bounds{i}", MISSIONS[i], "penalty", 3)
        if g is None:
            continue
        c = RoundSearch(g, native=True)
        for p in range(4):
            want = RoundSearch(g, native=False).guarantee(p)
            for budget in (5, 20, 60):
                if c.guarantee(p, max_nodes=budget, guess=1000) is not None:
                    continue
                lo, hi = c.found
                assert (lo is None or lo <= want) and (hi is None or want <= hi), (i, p, budget)  # type: ignore[operator]
                found += lo is not None or hi is not None
            assert c.guarantee(p) == want  # what was tabled while out of budget stays exact
    assert found


def test_the_same_budget_leaves_both_undecided_and_with_room_both_decide() -> None:
    """A position of five cards a hand: 2,000 plays leave both searches undecided with the same bounds proved;
    24,000 decide it in both (the C search's plays are the budget's, whatever its speed)."""
    g = round_position("x2", "hammer/03", "penalty", 5)
    assert g is not None
    c, py = RoundSearch(g, native=True), RoundSearch(g, native=False)
    assert c.guarantee(1, max_nodes=2_000) is None and py.guarantee(1, max_nodes=2_000) is None
    assert c.found == py.found and c.nodes == py.nodes and c.native() is not None
    assert c.guarantee(1, max_nodes=24_000) == -70  # the Python search's value (23,870 plays)


def test_a_full_table_loses_entries_not_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of 1,024 entries, full long before the search ends: entries give their place to new ones, and
    every answer is still the Python search's."""
    monkeypatch.setattr(adversarial_native, "MAX_ENTRIES", 1024)
    for i in range(3):
        g = round_position(f"full{i}", MISSIONS[i + 1], "penalty", 4)
        assert g is not None
        c, py = RoundSearch(g, native=True), RoundSearch(g, native=False)
        for p in range(4):
            assert c.guarantee(p) == py.guarantee(p), (i, p)
        assert c.native() is not None and py.nodes > 2 * 1024  # more positions than the table holds
