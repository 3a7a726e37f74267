"""``crewkit winnability`` asks the rule set's family for its deals (:meth:`Family.winnability`, issue 46): The
Crew's family answers, Not Alone's has none and the command refuses it in words at its ``family:`` line."""

from __future__ import annotations

import pytest

from crewkit.cli import main
from crewkit.games import family_named, winnability_of


def test_the_trick_taking_family_answers_winnability_and_not_alone_has_none() -> None:
    answer = winnability_of(family_named("trick-taking"))
    assert answer is not None
    assert answer.default_mission("crew") == "planet-nine/10"
    assert answer.shape("crew", "planet-nine/10", 4, 3) == "tasks"
    assert winnability_of(family_named("not-alone")) is None


def test_winnability_of_a_family_without_one_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winnability", "--ruleset", "not-alone", "--tasks", "1", "--deals", "1"]) == 1
    err = capsys.readouterr().err
    assert "rule set 'not-alone' is a game of the not-alone family, not trick-taking" in err
    assert "this command runs trick-taking rule sets only" in err
    assert "Traceback" not in err
