"""A data folder that is not a folder (``CREWKIT_HOME`` set to a file or a device) is said as such, exit 1, by
every command that uses it (issue 42, item 5): never an empty logbook, never ``[Errno 17] File exists``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crewkit.cli import main

DEVICE = "/dev/null"


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "not-a-folder"
    path.write_text("x", encoding="utf-8")
    return path


def homes(a_file: Path) -> list[tuple[str, str]]:
    """(CREWKIT_HOME, what the message must say about it)."""
    out = [(str(a_file), "is a file, not a folder"),
           (str(a_file / "below"), f"cannot be created: {a_file} is a file, not a folder")]
    if os.path.exists(DEVICE):
        out.append((DEVICE, "is a character device, not a folder"))
    return out


@pytest.mark.parametrize("argv", [["campaign", "status"], ["campaign", "status", "--format", "json"],
                                  ["campaign", "reset", "--yes"],
                                  ["campaign", "reset", "--yes", "--campaign", "planet-nine"]])
def test_campaign_commands_say_what_is_wrong_with_the_folder(argv: list[str], a_file: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    for home, said in homes(a_file):
        monkeypatch.setenv("CREWKIT_HOME", home)
        assert main(argv) == 1, home
        captured = capsys.readouterr()
        assert f"crewkit's data folder (CREWKIT_HOME={home}) {said}" in captured.err
        assert "Errno" not in captured.err
        assert "not started" not in captured.out  # no empty logbook shown as if it were the player's
    assert a_file.read_text(encoding="utf-8") == "x"  # nothing written over the file
    monkeypatch.setenv("CREWKIT_HOME", str(a_file.parent / "new" / "home"))  # a folder still to create is fine
    assert main(argv) == 0




def test_play_says_it_before_the_app_opens(a_file: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    opened: list[object] = []
    monkeypatch.setattr("crewkit.tui.launch.run_play", lambda options: opened.append(options) or 0)
    for home, said in homes(a_file):
        monkeypatch.setenv("CREWKIT_HOME", home)
        assert main(["play", "--mission", "planet-nine/01"]) == 1
        assert said in capsys.readouterr().err
    assert opened == []
