"""Shared fixtures: no test ever touches the real user data directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _crewkit_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("crewkit-home")
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    yield home
