"""crewkit solve: records, record prefixes, seeds; text and JSON output; gold-frame hand-overs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from crewkit.cli import solve as commands
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve import WINNABLE, replays_to_success, solve


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crewkit")
    sub = parser.add_subparsers(dest="command")
    commands.add_solve_parser(sub)
    return parser.parse_args(argv)


def test_solve_by_seed_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert commands.cmd_solve(_parse(["solve", "--mission", "planet-nine/03", "--players", "3", "--seed", "1"])) == 0
    out = capsys.readouterr().out
    assert out.startswith(("winnable", "not winnable"))
    assert "searched" in out


def test_solve_record_prefix_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = new_game("crew", "planet-nine/02", 4, seed="rec")
    result = solve(game)
    assert result.status == WINNABLE
    played = game.clone()
    for action in result.line:
        played.apply(action)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_to_record(played)), encoding="utf-8")
    after = len(result.line) // 2
    assert commands.cmd_solve(_parse(["solve", str(path), "--after", str(after), "--format", "json"])) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == WINNABLE and data["actions_before"] == after
    # the whole record: already won, nothing left to play
    assert commands.cmd_solve(_parse(["solve", str(path), "--format", "json"])) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == WINNABLE and data["line"] == []


def test_solve_usage_and_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.cli import UsageError

    with pytest.raises(UsageError):
        commands.cmd_solve(_parse(["solve"]))
    with pytest.raises(UsageError):
        commands.cmd_solve(_parse(["solve", str(tmp_path / "nope.json")]))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert commands.cmd_solve(_parse(["solve", str(bad)])) == 1
    err = capsys.readouterr().err  # the same positioned message as `crewkit replay`
    assert "bad.json:1:2: error: invalid JSON" in err


def test_a_record_is_read_by_the_one_reader_whatever_its_family(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``solve RECORD`` reads the record as ``replay`` and ``validate`` do: a broken action is refused at its
    position (even past ``--after``), and a record of another family is said to be one, not searched."""
    from crewkit.cli import UsageError

    game = new_game("crew", "planet-nine/02", 4, seed="rec")
    record = game_to_record(game)
    record["actions"] = [{"seat": 0, "type": "play", "card": "not a card"}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    assert commands.cmd_solve(_parse(["solve", str(path), "--after", "0"])) == 1
    assert "game.json:" in capsys.readouterr().err
    hunt = Path(__file__).parents[1] / "engine" / "board" / "golden" / "not-alone-3p.json"
    with pytest.raises(UsageError, match="a record of Not Alone; the solver searches trick-taking games"):
        commands.cmd_solve(_parse(["solve", str(hunt)]))


def test_gold_frame_and_commanders_decision_are_searched() -> None:
    game = new_game("crew", "planet-nine/27", 5, seed="gf")
    assert game.rules.gold_frame
    result = solve(game, timeout=60)
    assert result.status == WINNABLE
    assert replays_to_success(game, result.line)


def test_the_solver_is_the_familys_answer() -> None:
    """``crewkit solve`` asks the family (``Family.solve_report``, through ``solve_report_of``): the trick-taking
    family answers with its solver's words, Not Alone (no solver) with none."""
    from crewkit.games import family_named, open_game, solve_report_of

    assert solve_report_of(family_named("not-alone")) is None
    report = solve_report_of(family_named("trick-taking"))
    assert report is not None
    game = open_game("crew", "planet-nine/03", 3, seed="1")
    text = report(game, timeout=None, max_nodes=None, names=["Ann", "Bob", "Cem"], as_json=False)
    assert text.splitlines()[0] in ("winnable: the crew can still succeed",
                                    "not winnable: no sequence of plays succeeds")
    assert "searched " in text and "seat " not in text
