"""``crewkit simulate`` and ``crewkit compare`` on Not Alone: output, bots per side, refusals with messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crewkit", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_simulate_text_names_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--ruleset", "not-alone", "--players", "3", "--games", "4", "--seed", "cli"]) == 0
    )
    out = capsys.readouterr().out
    assert "Creature bot heuristic, Hunted bot heuristic" in out
    assert "Creature  " in out and "Hunted    " in out and "95% interval" in out
    assert "per game on average" in out and "games/s" in out


def test_simulate_json_with_a_bot_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "simulate",
                "--ruleset",
                "not-alone",
                "--players",
                "2",
                "--games",
                "3",
                "--bot",
                "random",
                "--hunted-bot",
                "heuristic",
                "--format",
                "json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == {"creature": "random", "hunted": "heuristic"}
    assert data["games"] == 3 and data["creature_win_rate"] + data["hunted_win_rate"] == pytest.approx(1.0)
    assert data["mean_rounds"] > 0


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--ruleset", "not-alone", "--bot", "fast"], 1, "bots: heuristic, random"),
        (["--ruleset", "not-alone", "--hunted-bot", "expert"], 1, "bots: heuristic, random"),
        (["--ruleset", "not-alone", "--players", "9"], 1, "not 9"),
        (["--ruleset", "not-alone", "--reading", "no-such=thing"], 1, "no reading"),
        (["--ruleset", "crew"], 2, "--mission is required"),
        (["--ruleset", "crew", "--mission", "planet-nine/01", "--creature-bot", "random"], 2, "Not Alone"),
    ],
)
def test_simulate_refusals(args: list[str], code: int, message: str) -> None:
    out = run("simulate", "--games", "1", *args)
    assert out.returncode == code, out.stderr
    assert message in out.stderr and "Traceback" not in out.stderr


def test_compare_not_alone_variants() -> None:
    out = run(
        "compare",
        "--players",
        "3",
        "--games",
        "4",
        "--format",
        "json",
        "ruleset=not-alone",
        "ruleset=not-alone-advanced,bot=heuristic/random",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [v["ruleset"] for v in data["variants"]] == ["not-alone", "not-alone-advanced"]
    assert [v["mission"] for v in data["variants"]] == ["", ""]
    assert data["variants"][1]["bot"] == "heuristic/random"
    assert data["pairs"][0]["same_deals"] is True and data["solver"]["enabled"] is False


def test_compare_text_and_bad_variant() -> None:
    out = run(
        "compare",
        "--players",
        "2",
        "--games",
        "2",
        "--no-chart",
        "ruleset=not-alone",
        "ruleset=not-alone-advanced",
    )
    assert out.returncode == 0, out.stderr
    assert (
        "Hunted win" in out.stdout
        and "Creature win" in out.stdout
        and "success is the Hunted's win" in out.stdout
    )
    bad = run("compare", "--games", "2", "ruleset=not-alone,bot=expert")
    assert bad.returncode == 1 and "bots: heuristic, random" in bad.stderr and "Traceback" not in bad.stderr
