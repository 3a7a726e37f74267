"""Every command of docs/authoring.md runs, on the files the walk-through writes, and prints what it says."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
FILES = dict(re.findall(r"```yaml file=(\S+)\n(.*?)```", DOC, re.S))
CONSOLE = re.findall(r"```console\n(.*?)```", DOC, re.S)


def commands() -> list[tuple[list[str], list[str]]]:
    """(argv, expected output lines) for every `$ crewkit ...` line of the walk-through."""
    out = []
    for block in CONSOLE:
        lines = block.strip("\n").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("$ "):
                argv = shlex.split(lines[i][2:])
                expected = []
                i += 1
                while i < len(lines) and not lines[i].startswith("$ "):
                    expected.append(lines[i])
                    i += 1
                out.append((argv, expected))
            else:
                i += 1
    return out


COMMANDS = commands()


def test_walkthrough_has_the_steps() -> None:
    verbs = [argv[1] for argv, _ in COMMANDS]
    assert {"validate", "simulate", "play", "check", "compare", "campaign", "list"} <= set(verbs)
    assert "quiet-skies.yaml" in FILES
    campaign_files = [name for name in FILES if name.startswith("night-shift/")]
    assert "night-shift/campaign.yaml" in campaign_files and len(campaign_files) == 5  # and a bundled mission


@pytest.fixture()
def workdir(tmp_path: Path) -> Path:
    """The files of the walk-through; each folder it writes is also zipped as FOLDER.zip (as the text says)."""
    import zipfile

    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    for folder in {name.split("/", 1)[0] for name in FILES if "/" in name}:
        with zipfile.ZipFile(tmp_path / f"{folder}.zip", "w") as zf:
            for file in sorted((tmp_path / folder).rglob("*")):
                zf.write(file, file.relative_to(tmp_path).as_posix())
    return tmp_path


@pytest.mark.parametrize("argv,expected", [c for c in COMMANDS if c[0][1] != "play"],
                         ids=[" ".join(c[0][1:3]) for c in COMMANDS if c[0][1] != "play"])
def test_command(argv: list[str], expected: list[str], workdir: Path) -> None:
    assert argv[0] == "crewkit"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "crewkit", *argv[1:]], cwd=workdir, capture_output=True,
                          text=True, timeout=600, env=env)
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output
    broken = any("error:" in line for line in expected)
    assert proc.returncode == (1 if broken else 0), output
    for line in expected:
        assert line in output, f"{line!r} not in {output!r}"


async def test_play_command_opens_the_mission(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions

    argv = next(a for a, _ in COMMANDS if a[1] == "play" and "--mission" in a)
    mission = argv[argv.index("--mission") + 1]
    players = int(argv[argv.index("--players") + 1])
    monkeypatch.chdir(workdir)
    app = CrewApp(PlayOptions(mission=mission, players=players, fast=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = " ".join(str(w.render()) for w in app.screen.query("*"))
        assert "Quiet skies" in text


async def test_play_campaign_command_opens_the_campaign(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions
    from crewkit.tui.screens.briefing import BriefingScreen
    from crewkit.tui.screens.campaign import CampaignScreen
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "tui"))
    from screen_text import screen_text  # what the terminal shows, through Textual's public widget API

    argv = next(a for a, _ in COMMANDS if a[1] == "play" and "--campaign" in a)
    monkeypatch.chdir(workdir)
    app = CrewApp(PlayOptions(campaign=argv[argv.index("--campaign") + 1], players=None, fast=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CampaignScreen)
        text = screen_text(app)
        assert "Night shift" in text and "One task" in text and "locked" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen)
        text = screen_text(app)
        assert "Chapter 1: Clocking in" in text and "The station is quiet." in text


def test_the_task_card_example_is_a_card_of_the_box_as_bundled() -> None:
    """The walk-through writes a task card with a Deep Sea card of missions/deep-sea/tasks.yaml: the same card."""
    import yaml

    example = yaml.safe_load(FILES["my-deep/tasks.yaml"])["cards"][0]
    bundled = yaml.safe_load((ROOT / "missions" / "deep-sea" / "tasks.yaml").read_text(encoding="utf-8"))
    card = next(c for c in bundled["cards"] if c["id"] == example["id"])
    assert {k: v for k, v in card.items() if k != "source"} == example
