"""crewkit_home(): $CREWKIT_HOME first, else the platform's user data directory."""

from __future__ import annotations

from pathlib import Path

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


def test_linux_xdg_and_default(tmp_path: Path) -> None:
    assert user_data_dir({"XDG_DATA_HOME": str(tmp_path)}, "linux") == tmp_path / "crewkit"
    default = Path.home() / ".local" / "share" / "crewkit"
    assert user_data_dir({}, "linux") == default
    assert user_data_dir({"XDG_DATA_HOME": "relative/dir"}, "linux") == default  # relative: ignored


def test_macos() -> None:
    assert user_data_dir({}, "darwin") == Path.home() / "Library" / "Application Support" / "crewkit"


def test_windows(tmp_path: Path) -> None:
    assert user_data_dir({"APPDATA": str(tmp_path)}, "win32") == tmp_path / "crewkit"
    assert user_data_dir({}, "win32") == Path.home() / "AppData" / "Roaming" / "crewkit"
