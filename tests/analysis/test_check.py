"""crewkit check: validation first, then sampled deals and warnings."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from crewkit.analysis.check import check_mission
from crewkit.cli import check as commands
from crewkit.families.trick_taking.analysis.check import token_warnings

MISSION = """\
number: 90
title: Never mind
description: A test mission with a condition that never fires.
rulesets: [crew]
tasks: {count: 2, tokens: ["1", "4"]}
symbols: {}
conditions:
  - id: impossible
    fail_if: "tricks_won(commander) > 20"
    reason: "the commander won too much"
"""


def test_token_warnings() -> None:
    assert token_warnings(3, ["1", "2", "3"]) == []
    assert any("4th task" in w for w in token_warnings(3, ["4"]))
    assert any("used 2 times" in w for w in token_warnings(3, ["1", "1"]))
    assert any("tokens for 1 tasks" in w for w in token_warnings(1, ["1", "2"]))
    assert any("Ω and token 3" in w for w in token_warnings(3, ["3", "omega"]))


def test_check_reports_sample_and_warnings(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MISSION, encoding="utf-8")
    report = check_mission(path, games=3, players=[4], bot="random", solver_nodes=300)
    assert report.valid, report.issues
    (count,) = report.counts
    assert count.games == 3 and sum(count.solver.values()) == 3
    warnings = report.warnings
    assert any("never true" in w and "impossible" in w for w in warnings)
    assert any("4th task" in w for w in warnings)
    text = report.format_text()
    assert "4 players, 3 deals" in text and "warning" in text
    assert json.loads(report.dumps())["player_counts"][0]["games"] == 3


def test_check_bundled_mission_with_roles() -> None:
    report = check_mission("missions/planet-nine/05-sick-bay.yaml", games=2, players=[3], bot="random",
                           solver=False)
    assert report.valid and report.counts[0].roles_bound["sick"] == 2
    assert not any("never bound" in w for w in report.warnings)


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crewkit")
    sub = parser.add_subparsers(dest="command")
    commands.add_check_parser(sub)
    return parser.parse_args(argv)


def test_cmd_check_invalid_file_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    broken = Path("tests/broken/mission-bad-offset.yaml")
    assert commands.cmd_check(_parse(["check", str(broken), "--games", "1"])) == 1
    err = capsys.readouterr().err
    assert "mission-bad-offset.yaml:" in err and "invalid" in err


def test_cmd_check_strict_and_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.cli import UsageError

    path = tmp_path / "m.yaml"
    path.write_text(MISSION, encoding="utf-8")
    argv = ["check", str(path), "--games", "2", "--players", "4", "--bot", "random", "--no-solver"]
    assert commands.cmd_check(_parse(argv)) == 0
    assert commands.cmd_check(_parse([*argv, "--strict"])) == 1
    capsys.readouterr()
    with pytest.raises(UsageError):
        commands.cmd_check(_parse(["check", str(tmp_path / "missing.yaml")]))
