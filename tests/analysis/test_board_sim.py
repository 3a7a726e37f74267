"""Not Alone on the analysis runner: simulate (each side's rate, rounds, bots per side, workers, precision)
and compare (paired variants without a mission, readings), dispatched by the rule set's family."""

from __future__ import annotations

import pytest

from crewkit.analysis.compare import Variant, VariantError, check_variant, compare, parse_variant
from crewkit.analysis.simulate import SimulationResult, simulate
from crewkit.engine.errors import SetupError
from crewkit.families.not_alone.bots import UnknownBoardBot
from crewkit.games import family_for, open_game
from crewkit.games.driver import play_out
from crewkit.games.protocol import GameSummary


def _comparable(r: SimulationResult) -> dict[str, object]:
    data = r.to_json()
    for key in ("seconds", "games_per_second", "workers"):
        data.pop(key)
    return data


def _sim(players: int, games: int, bot: str, seed: str, **kw: object) -> SimulationResult:
    return simulate("not-alone", "", players, games, bot, seed, **kw)  # type: ignore[arg-type]


def test_family_dispatch() -> None:
    assert family_for("not-alone").name == family_for("not-alone-advanced").name == "not-alone"
    assert {family_for(r).name for r in ("crew", "hammer", "no-such-rule-set")} == {"trick-taking"}


def test_simulate_reports_both_sides_rounds_and_bots() -> None:
    r = _sim(3, 8, "random/heuristic", "t")
    data = r.to_json()
    assert data["bots"] == {"creature": "random", "hunted": "heuristic"}
    assert data["games"] == 8 and data["hunted_win_rate"] + data["creature_win_rate"] == pytest.approx(1.0)
    low, high = data["interval95"]
    assert data["creature_interval95"] == [round(1 - high, 6), round(1 - low, 6)]
    assert 1 <= data["mean_rounds"] <= 30
    text = r.format_text()
    assert "Creature bot random, Hunted bot heuristic" in text
    assert "Hunted    " in text and "Creature  " in text and "per game on average" in text


def test_the_side_bots_play_their_sides() -> None:
    """A heuristic Creature against random Hunted wins far more than the other way round (same games)."""
    strong = _sim(3, 12, "heuristic/random", "sides")
    weak = _sim(3, 12, "random/heuristic", "sides")
    assert strong.failures >= 9 and weak.failures <= 3  # failures: the Creature's wins


def test_simulate_is_the_same_for_any_worker_count() -> None:
    one = _sim(2, 6, "heuristic", "w", workers=1)
    two = _sim(2, 6, "heuristic", "w", workers=2)
    assert _comparable(one) == _comparable(two)


def test_simulate_stops_at_the_precision() -> None:
    r = _sim(4, 400, "heuristic/random", "p", precision=0.2, checkpoint=10)
    low, high = r.interval
    assert r.games < 400 and r.games % 10 == 0 and (high - low) / 2 <= 0.2
    assert "precision ±20.0 points reached" in r.format_text()


def test_bad_input_is_refused_before_playing() -> None:
    with pytest.raises(UnknownBoardBot, match="bots: heuristic, random"):
        _sim(3, 1, "fast", "x")
    with pytest.raises(UnknownBoardBot):
        _sim(3, 1, "random/expert", "x")
    with pytest.raises(SetupError, match="not 8"):
        _sim(8, 1, "heuristic", "x")


def _play(ruleset: str, bots: str, seed: str) -> GameSummary:
    game = open_game(ruleset, None, 3, seed)
    play_out(game, game.family.seat_players(game, bots, seed))
    return game.family.summary(game)


def test_one_game_result() -> None:
    a = _play("not-alone", "heuristic", "g:0")
    assert _play("not-alone", "heuristic", "g:0") == a and a.length >= 1 and a.score == a.length
    assert a.reason.startswith("the Rescue" if a.success else "the Assimilation")  # success: the Hunted win
    assert _play("not-alone-advanced", "random", "g:0").fingerprint == a.fingerprint  # the same shuffles


def test_variants_without_a_mission() -> None:
    defaults = {"ruleset": "crew", "mission": None, "players": 4, "bot": None}
    v = parse_variant("ruleset=not-alone-advanced,players=3", defaults)
    assert (v.ruleset, v.mission, v.players, v.bot) == ("not-alone-advanced", "", 3, "heuristic")
    assert v.describe() == "ruleset=not-alone-advanced,players=3,bot=heuristic"
    with pytest.raises(VariantError, match="no mission"):
        parse_variant("ruleset=crew", defaults)
    assert parse_variant("ruleset=crew,mission=planet-nine/01", defaults).bot == "fast"
    assert check_variant(Variant("x", "not-alone", "", 3, "random/heuristic")) == ""
    assert (
        check_variant(Variant("x", "not-alone", "", 3, "heuristic", (("effect-order", "play-order"),))) == ""
    )
    assert "bots: heuristic, random" in check_variant(Variant("x", "not-alone", "", 3, "fast"))
    assert "not 9" in check_variant(Variant("x", "not-alone", "", 9, "heuristic"))
    assert "no reading" in check_variant(Variant("x", "not-alone", "", 3, "heuristic", (("nope", "b"),)))


def test_compare_plays_the_same_games_for_each_variant() -> None:
    variants = [
        Variant("base", "not-alone", "", 3, "heuristic"),
        Variant("advanced", "not-alone-advanced", "", 3, "heuristic"),
        Variant("random Hunted", "not-alone", "", 3, "heuristic/random"),
    ]
    cmp = compare(variants, 6, "c")
    assert [r.games for r in cmp.results] == [6, 6, 6]
    assert not cmp.solver and all(not r.solver_ran for r in cmp.results)
    assert all(p.same_deals for p in cmp.pairs)  # the same shuffles in every variant
    text = cmp.format_text()
    assert "Hunted win" in text and "Creature win" in text and "mean rounds" in text
    again = compare(variants[:1], 6, "c")  # the same games: game for game the same outcome
    assert [d.success for d in again.results[0].deals] == [d.success for d in cmp.results[0].deals]
    assert cmp.results[2].successes <= cmp.results[0].successes + 1  # random Hunted do not do better
