"""``crewkit check`` asks the mission's family (issue 46): :func:`crewkit.games.check_of` gives its
:class:`~crewkit.games.protocol.FamilyCheck`, and the check's report is made of its answers only."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from crewkit.games import check_of, family_named, open_game
from crewkit.games.driver import play_out
from crewkit.games.protocol import Family
from crewkit.spec.bundled import mission_path


def test_the_trick_taking_family_answers_the_check_and_others_have_none() -> None:
    assert check_of(family_named("not-alone")) is None
    assert check_of(cast(Family, SimpleNamespace(name="toy"))) is None  # an installed family without the answer
    answer = check_of(family_named("trick-taking"))
    assert answer is not None
    path = str(mission_path("planet-nine/02"))
    count = answer.count("crew", path, 4)
    assert count.impossible == "" and count.roles == ()
    assert answer.static_warnings({"tasks": {"count": 2, "tokens": ["1", "1"]}}) == [
        "token 1 is used 2 times: at most one task can honour it"]
    game = open_game("crew", path, 4, "check-family")
    status, why = answer.solve_deal(game, 20_000)
    assert status == "winnable" and why == ""
    play_out(game, game.family.seat_players(game, "fast", "check-family"))
    deal = answer.played(game, traced=True)
    assert deal.conditions == () and deal.roles == ()  # mission 2 has no conditions and no roles


def test_a_missions_conditions_are_traced_along_a_played_deal() -> None:
    answer = check_of(family_named("trick-taking"))
    assert answer is not None
    path = str(mission_path("planet-nine/13"))
    count = answer.count("crew", path, 4)
    assert count.conditions, "mission 13 has a condition"
    game = open_game("crew", path, 4, "check-family")
    play_out(game, game.family.seat_players(game, "fast", "check-family"))
    deal = answer.played(game, traced=True)
    assert len(deal.conditions) == len(count.conditions)
    engine = game.engine
    plays = sum(1 for a in engine.actions if type(a).__name__ == "Play")
    for cond, (checks, _, _, errors) in zip(engine.rules.conditions, deal.conditions, strict=True):
        # once after every play for a condition checked so, else after every trick
        assert checks == (plays if cond.check == "after-play" else len(engine.tricks)) and not errors
    assert answer.played(game, traced=False).conditions == ()
