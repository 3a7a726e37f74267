"""crewkit_home(): $CREWKIT_HOME first, else the platform's user data directory."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest

from crewkit.campaign.home import crewkit_home, user_data_dir


def test_env_override_is_created_on_demand(crewkit_home_dir: Path) -> None:
    assert not crewkit_home_dir.exists()
    assert crewkit_home() == crewkit_home_dir
    assert crewkit_home_dir.is_dir()


def test_no_create(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREWKIT_HOME", str(tmp_path / "later"))
    assert crewkit_home(create=False) == tmp_path / "later"
    assert not (tmp_path / "later").exists()


def test_empty_override_falls_back_to_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREWKIT_HOME", "")
    monkeypatch.setattr("sys.platform", "linux")
    assert crewkit_home() == tmp_path / "xdg-data" / "crewkit"  # conftest points XDG_DATA_HOME at tmp_path


def test_linux_xdg_and_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the XDG folders are Linux's")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert user_data_dir() == tmp_path / "crewkit"
    default = Path.home() / ".local" / "share" / "crewkit"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert user_data_dir() == default
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")
    assert user_data_dir() == default  # the XDG spec: a relative path is invalid and ignored


def test_platformdirs_names_the_folder() -> None:
    """One implementation of the platform rules (macOS, Windows, Linux): platformdirs'."""
    expected = platformdirs.user_data_path("crewkit", appauthor=False, roaming=True)
    assert user_data_dir() == expected
    assert user_data_dir().name == "crewkit"
