"""``crewkit review`` on records of every trick-taking rule set, Not Alone and Hammer (no review), broken records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewkit import cli
from crewkit.engine.record_file import read_record
from crewkit.engine.registry import known_action_types
from crewkit.families.trick_taking.review import positions_of
from crewkit.families.trick_taking.solve import solve

RECORDS = Path(__file__).parent.parent / "records"


def simulate(tmp_path: Path, *args: str, bot: str = "fast") -> list[Path]:
    out = tmp_path / "records"
    assert cli.main(["simulate", *args, "--bot", bot, "--seed", "review", "--records", str(out)]) == 0
    return sorted(out.glob("game-*.json"))


def review_json(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    capsys.readouterr()
    assert cli.main(["review", str(path), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def check_consistent(path: Path, out: dict[str, Any]) -> None:
    """The review agrees with the record and with the solver at the positions it names."""
    read = read_record(path, known_action_types())
    assert read.replay is not None and read.family is not None
    final: Any = read.replay.game
    start: Any = read.family.replay({**read.record, "actions": []}).game
    final, initial = final.engine, start.engine
    games = positions_of(initial, list(final.actions))
    assert out["status"] in ("lost", "won", "never-winnable", "unknown")
    indices = [p["action_index"] for p in out["positions"]]
    assert indices == sorted(set(indices))
    won = final.outcome().result == "success"
    assert (out["status"] == "won") == won
    if out["status"] == "lost":
        tp = out["turning_point"]
        i = tp["action_index"]
        assert tp["action"] == final.actions[i].to_json()
        assert solve(games[i].clone(), timeout=30).status == "winnable"
        assert solve(games[i + 1].clone(), timeout=30).status == "unwinnable"
        assert tp["words"].startswith(f"Trick {tp['trick']}: ")
    elif out["status"] == "never-winnable":
        assert out["positions"][0] == {"action_index": 0, "trick": 1, "winnable": False} and out["reason"]
    elif out["status"] == "unknown":
        assert any(p["winnable"] is None for p in out["positions"]) or "not tried" in out["reason"]
        assert out["turning_point"] is None


# one game of the rule sets whose positions take the Python search longest (JARVIS, the Persian reading)
@pytest.mark.parametrize(("args", "games"), [
    (("--ruleset", "crew", "--mission", "planet-nine/10", "--players", "4"), 3),
    (("--ruleset", "crew-jarvis", "--mission", "planet-nine/05", "--players", "2"), 1),
    (("--ruleset", "crew-3p-challenge", "--mission", "planet-nine/10", "--players", "3"), 3),
    (("--ruleset", "crew-persian", "--mission", "persian/level-1", "--players", "4"), 1),
    (("--ruleset", "crew-deep-sea", "--mission", "deep-sea/01", "--players", "4"), 3),
], ids=["crew", "jarvis", "3p", "persian", "deep-sea"])
def test_rule_sets_run_and_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                 games: int) -> None:
    for path in simulate(tmp_path, *args, "--games", str(games)):
        out = review_json(path, capsys, "--timeout", "5", "--total", "30", "--worlds", "4")
        check_consistent(path, out)


def test_lost_game_text_and_fair_blame(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = simulate(tmp_path, "--mission", "planet-nine/10", "--players", "4", "--games", "6")
    lost = [p for p in paths if json.loads(p.read_text())["outcome"] == "failure"]
    assert lost
    out = review_json(lost[0], capsys, "--names", "Ann,Bob,Cem,Dee", "--worlds", "8")
    tp = out["turning_point"]
    if out["status"] != "lost":
        pytest.skip("this deal was never winnable")
    known = tp["known"]
    assert 0 <= known["played"] <= known["best"] <= 1
    assert known["best_action"]["type"] == "play" and known["best_action"]["seat"] == tp["seat"]
    assert ("Ann", "Bob", "Cem", "Dee")[tp["seat"]] in tp["words"]
    # deterministic: the same record gives the same figures
    assert review_json(lost[0], capsys, "--names", "Ann,Bob,Cem,Dee", "--worlds", "8")["turning_point"] == tp
    assert cli.main(["review", str(lost[0])]) == 0
    text = capsys.readouterr().out
    assert text.startswith("lost: Trick ") and "a winning line from the position before it" in text


def test_not_alone_has_no_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (path,) = simulate(tmp_path, "--ruleset", "not-alone", "--players", "3", "--games", "1", bot="random")
    capsys.readouterr()
    assert cli.main(["review", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Not Alone" in err and "no review" in err and "Traceback" not in err


def test_hammer_match_is_reviewed_round_by_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (path,) = simulate(tmp_path, "--ruleset", "hammer", "--mission", "hammer", "--players", "4", "--games", "1")
    capsys.readouterr()
    assert cli.main(["review", str(path), "--nodes", "50", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in data["rounds"]] == list(range(1, 9)) and data["status"] in ("reviewed", "unknown")


def test_broken_record_gets_a_positioned_message(capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / "illegal-must-follow.json"
    assert cli.main(["review", str(path)]) == 1
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert "illegal-must-follow.json:83:3:" in first and "must follow pink" in first


def test_missing_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["review", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err
