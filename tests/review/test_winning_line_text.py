"""One winning-line text: ``crewkit solve`` and ``crewkit review`` print the line through one function
(:func:`crewkit.families.trick_taking.solve.line.line_rows`), players by name, so the two cannot drift."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit import cli
from tests.review.lost_games import lost_record

NAMES = "Ann,Bob,Cem,Dee"


def line_of(text: str) -> list[str]:
    """The rows of the winning line in a command's text: from the heading to the outcome row."""
    rows = text.splitlines()
    start = next(i for i, r in enumerate(rows) if "winning line" in r)
    end = next(i for i in range(start, len(rows)) if rows[i].startswith("  outcome: "))
    return rows[start + 1: end + 1]


def test_solve_names_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["solve", "--mission", "planet-nine/10", "--players", "4", "--seed", "7", "--names", NAMES]) == 0
    rows = line_of(capsys.readouterr().out)
    tricks = [r for r in rows if r.lstrip().startswith("trick")]
    assert tricks and all("won by " in r for r in tricks)
    assert all(w in "\n".join(rows) for w in ("Ann ", "Bob ", "Cem ", "Dee "))
    assert "seat" not in "\n".join(rows)
    assert cli.main(["solve", "--mission", "planet-nine/10", "--players", "4", "--seed", "7"]) == 0
    text = "\n".join(line_of(capsys.readouterr().out))
    assert "Player 1" in text and "seat" not in text


def test_review_and_solve_print_the_same_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = lost_record(tmp_path)
    assert cli.main(["review", str(path), "--format", "json", "--no-blame", "--names", NAMES]) == 0
    out = json.loads(capsys.readouterr().out)
    if out["status"] != "lost":
        pytest.skip("this deal was never winnable")
    i = out["turning_point"]["action_index"]
    assert cli.main(["review", str(path), "--no-blame", "--names", NAMES]) == 0
    reviewed = line_of(capsys.readouterr().out)
    assert cli.main(["solve", str(path), "--after", str(i), "--names", NAMES]) == 0
    solved = line_of(capsys.readouterr().out)
    assert reviewed == solved and len(reviewed) > 2
