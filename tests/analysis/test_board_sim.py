"""Not Alone on the analysis runner: simulate (each side's rate, rounds, workers and precision) and compare
(paired variants without a mission), dispatched by the rule set's family."""

from __future__ import annotations

import pytest

from crewkit.analysis.board_sim import BoardSimulationResult, is_board_ruleset, simulate_board
from crewkit.analysis.compare import Variant, VariantError, check_variant, compare, parse_variant
from crewkit.analysis.stats import wilson_interval
from crewkit.bots.board import UnknownBoardBot
from crewkit.engine.errors import SetupError


def _comparable(r: BoardSimulationResult) -> dict[str, object]:
    data = r.to_json()
    for key in ("seconds", "games_per_second", "workers"):
        data.pop(key)
    return data


def test_family_dispatch_reads_the_rule_set() -> None:
    assert is_board_ruleset("not-alone") and is_board_ruleset("not-alone-advanced")  # the latter extends
    assert not is_board_ruleset("crew") and not is_board_ruleset("hammer")
    assert not is_board_ruleset("no-such-rule-set")


def test_simulate_reports_both_sides_and_rounds() -> None:
    r = simulate_board("not-alone", 3, 8, "random", "t")
    assert r.games == 8 and r.creature_wins + r.hunted_wins == 8
    assert r.interval("creature") == wilson_interval(r.creature_wins, 8)
    assert r.interval("hunted") == wilson_interval(r.hunted_wins, 8)
    assert r.rate("creature") + r.rate("hunted") == pytest.approx(1.0)
    assert 1 <= r.mean_rounds <= 30 and len(r.rounds) == 8
    assert sum(c for _, c in r.reasons) == 8
    text = r.format_text()
    assert "Creature  wins" in text and "Hunted    wins" in text and "rounds" in text
    data = r.to_json()
    assert data["bots"] == {"creature": "random", "hunted": "random"}
    assert data["creature"]["wins"] + data["hunted"]["wins"] == 8


def test_simulate_is_the_same_for_any_worker_count() -> None:
    one = simulate_board("not-alone", 2, 6, "random/heuristic", "w", workers=1)
    two = simulate_board("not-alone", 2, 6, "random/heuristic", "w", workers=2)
    assert _comparable(one) == _comparable(two)


def test_simulate_stops_at_the_precision() -> None:
    r = simulate_board("not-alone", 4, 400, "heuristic/random", "p", precision=0.2, checkpoint=10)
    low, high = r.interval("creature")
    assert r.games < 400 and r.games % 10 == 0
    assert (high - low) / 2 <= 0.2
    assert "precision ±20.0 points reached" in r.format_text()


def test_side_bots_override_the_spec() -> None:
    r = simulate_board("not-alone", 2, 2, "random", "s", hunted_bot="heuristic")
    assert (r.creature_bot, r.hunted_bot, r.bot) == ("random", "heuristic", "random/heuristic")


def test_bad_input_is_refused_before_playing() -> None:
    with pytest.raises(UnknownBoardBot, match="available bots"):
        simulate_board("not-alone", 3, 1, "fast")
    with pytest.raises(SetupError, match="not 8"):
        simulate_board("not-alone", 8, 1)


def test_variants_without_a_mission() -> None:
    v = parse_variant("ruleset=not-alone-advanced,players=3", {"ruleset": "crew", "mission": None, "players": 4,
                                                                 "bot": None})
    assert (v.ruleset, v.mission, v.players, v.bot) == ("not-alone-advanced", "", 3, "heuristic")
    assert v.describe() == "ruleset=not-alone-advanced,players=3,bot=heuristic"
    with pytest.raises(VariantError, match="no mission"):
        parse_variant("ruleset=crew", {"ruleset": "crew", "mission": None, "players": 4, "bot": None})
    assert check_variant(Variant("x", "not-alone", "", 3, "random/heuristic")) == ""
    assert "available bots" in check_variant(Variant("x", "not-alone", "", 3, "fast"))
    assert "not 9" in check_variant(Variant("x", "not-alone", "", 9, "heuristic"))
    assert "readings" in check_variant(Variant("x", "not-alone", "", 3, "heuristic", (("a", "b"),)))


def test_compare_plays_the_same_games_for_each_variant() -> None:
    variants = [Variant("base", "not-alone", "", 3, "heuristic"),
                Variant("advanced", "not-alone-advanced", "", 3, "heuristic"),
                Variant("random Hunted", "not-alone", "", 3, "heuristic/random")]
    cmp = compare(variants, 6, "c")
    assert [r.games for r in cmp.results] == [6, 6, 6]
    assert not cmp.solver and all(not r.solver_ran for r in cmp.results)
    assert all(p.same_deals for p in cmp.pairs)  # the same shuffles in every variant
    text = cmp.format_text()
    assert "Hunted win" in text and "Creature win" in text and "mean rounds" in text
    # the same bots on the same rule set and seeds: game for game the same outcome
    again = compare(variants[:1], 6, "c")
    assert [d.success for d in again.results[0].deals] == [d.success for d in cmp.results[0].deals]
