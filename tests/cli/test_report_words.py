"""Reports in words a player reads (issue 42, item 6): failure reasons without "(a seat)", compare's tests
explained and its stopping rule told truthfully, the solver's mark no suit's sign, winnability's default
mission said."""

from __future__ import annotations

import json

import pytest

from crewkit.analysis.simulate import normalise_reason
from crewkit.cli import main

SUIT_SIGNS = "◆♣●♥▲■"  # blue, green, yellow, pink, rocket, red in the terminal app (crewkit/families/trick_taking/tui/words.py)


@pytest.mark.parametrize(("reason", "words"), [
    ("failed in trick 3: the sick crew member (seat 2) won trick 3", "the sick crew member won a trick"),
    ("failed in trick 4: trick 4 was won by pink 9 (seat 2)", "a trick was won by a 9"),
    ("failed in trick 2: trick 2 was won by seat 1, not by the opener (seat 0)",
     "a trick was won by another player, not by the opener"),
    ("failed in trick 5: the volunteer (seat 2) won a second trick, trick 5", "the volunteer won a second trick"),
    ("failed in trick 1: the commander did not win the first trick (seat 3 did)",
     "the commander did not win the first trick"),
    ("failed in trick 2: the volunteer (seat 1) won trick 2 with green 8", "the volunteer won a trick with an 8"),
    ("failed in trick 6: seat 2 can no longer win three 5s", "a player can no longer win three 5s"),
    ("failed in trick 6: the pink 3 can no longer be won by seat 1", "the pink 3 can no longer be won by a player"),
    ("failed in trick 3: pink 7 won by seat 2, task of seat 0", "a task card was won by another player"),
])
def test_failure_reasons_read_as_words(reason: str, words: str) -> None:
    assert normalise_reason(reason) == words


@pytest.mark.parametrize(("mission", "reason"), [("planet-nine/05", "the sick crew member won a trick"),
                                                 ("planet-nine/16", "a trick was won by a 9")])
def test_simulate_reports_reasons_in_words(mission: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--mission", mission, "--players", "4", "--games", "30", "--format", "json"]) == 0
    reasons = [r["reason"] for r in json.loads(capsys.readouterr().out)["failure_reasons"]]
    assert reason in reasons
    assert not any("seat" in r or "a card" in r for r in reasons), reasons


def test_compare_explains_its_tests_and_why_it_stopped(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--mission", "planet-nine/05", "--games", "20", "--solver-games", "5",
                 "bot=fast", "bot=random"]) == 0
    out = capsys.readouterr().out
    assert "until ±" not in out  # it did not play until ±3 points: the cap stopped it
    assert "stopped by the cap of 20 deals (--games) before every 95% interval came within ±3.0 points" in out
    assert "paired test of the outcomes on the same deals (McNemar" in out
    assert "paired rank test (Wilcoxon signed-rank)" in out
    assert "mean score" in out and "(tasks done per deal; tricks played where the mission has no tasks)" in out
    assert "p: the chance of a difference at least this large" in out
    chart = out[out.index("Bot success with 95% interval"):]
    assert "× solver-winnable share" in chart and "×|" in chart  # the mark drawn in the bars too
    assert not set(SUIT_SIGNS) & set(chart)


def test_compare_says_when_the_precision_was_reached(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--mission", "planet-nine/01", "--games", "200", "--precision", "0.45", "--no-solver",
                 "--format", "json", "bot=fast"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["precision_reached"], data["max_games"]) == (True, 200)
    assert main(["compare", "--mission", "planet-nine/01", "--games", "200", "--precision", "0.45", "--no-solver",
                 "bot=fast"]) == 0
    assert "played until every variant's 95% interval was within ±45.0 points" in capsys.readouterr().out


def test_winnability_says_which_mission_it_used_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["winnability", "--deals", "1", "--tasks", "1", "--draft", "fixed", "--no-chart"]
    assert main(argv) == 0
    assert "no --mission given: planet-nine/10's rules shape the deals" in capsys.readouterr().out
    assert main([*argv, "--mission", "planet-nine/12"]) == 0
    assert "no --mission given" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["winnability", "--help"])
    assert "The deals follow planet-nine/10's rules unless --mission" in capsys.readouterr().out
