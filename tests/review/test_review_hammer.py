"""A Hammer round's review: the solver cannot judge competitive chip scoring, and the review says precisely why
(per mode: no shared goal in penalty mode; the others play against the dealer's bet in challenge mode) and
names the rounds, instead of refusing vaguely."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit import cli

RECORDS = Path(__file__).parent.parent / "records"


def refused(name: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert cli.main(["review", str(RECORDS / name), "--names", "Ann,Bob,Cem,Dee"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no review of a round scored in chips" in err
    assert "a search in which each player plays for their own chips" in err
    return err


def test_a_challenge_round(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused("hammer-no-suit-ten-leads.json", capsys)
    assert "In challenge mode the dealer's bet has a success and a failure, but the other players play against it" in err
    assert "In penalty mode" not in err
    assert "round 1: Ann dealt, Blue 7 in challenge mode, under way." in err


def test_a_penalty_round(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused("hammer-penalty-settles-early.json", capsys)
    assert "In penalty mode every player scores chips for themselves" in err and "In challenge mode" not in err
    assert "round 1: Ann dealt, Red cards in penalty mode." in err
