"""A Hammer record's review: each round judged by the adversarial search (a round under way says where it
stands; a penalty round gives each player's guarantee and what they got), exit 0, players by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit import cli

RECORDS = Path(__file__).parent.parent / "records"


def reviewed(name: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert cli.main(["review", str(RECORDS / name), "--names", "Ann,Bob,Cem,Dee", "--nodes", "2000"]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "no review of a round scored in chips" not in out
    return out


def test_a_challenge_round_under_way(capsys: pytest.CaptureFixture[str]) -> None:
    out = reviewed("hammer-no-suit-ten-leads.json", capsys)
    assert "Round 1 (Ann dealt; Blue 7 in challenge mode; under way when the record ends): the round is not " \
           "over; at its last position the dealer can force the bet's success." in out


def test_a_penalty_round(capsys: pytest.CaptureFixture[str]) -> None:
    out = reviewed("hammer-penalty-settles-early.json", capsys)
    assert "Round 1 (Ann dealt; Red cards in penalty mode; scored):" in out
    for name, got in [("Ann", "+90"), ("Bob", "-30"), ("Cem", "-150"), ("Dee", "+90")]:
        assert f"  {name} could guarantee " in out or f"  {name}'s guarantee at the round's start was not decided" \
            in out
        assert f" got {got}" in out
