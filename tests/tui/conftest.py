"""Fixtures for the TUI tests: CREWKIT_HOME in a tmp dir, the real logbook and saves, deterministic bots."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import _logbook, _saves, first_legal_factory

from crewkit.tui.services import Services


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "crewkit-home"
    path.mkdir()
    monkeypatch.setenv("CREWKIT_HOME", str(path))
    return path


@pytest.fixture
def services(home: Path) -> Services:
    """The real logbook and saves (in the tmp home) with deterministic test bots."""
    return Services(bot_factory=first_legal_factory, logbook=_logbook(), saves=_saves(lambda: home),
                    home=lambda: home)
