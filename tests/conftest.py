"""Shared fixtures: no test ever touches the real user data directory."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import textual._wait

# Pilot.pause() waits until the process is idle, looking every 20 ms: at least 20 ms a pause, with a core left
# idle meanwhile (a third of the terminal tests' time). The same test of idleness, every 2 ms.
textual._wait.SLEEP_GRANULARITY = 0.002
textual._wait.SLEEP_IDLE = 0.002 / 20

_CACHE_SET_HERE: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    """The solver's compiled C search goes to a cache of this test session, not the user's cache."""
    global _CACHE_SET_HERE
    if "CREWKIT_CACHE" not in os.environ:
        _CACHE_SET_HERE = tempfile.mkdtemp(prefix="crewkit-test-cache-")
        os.environ["CREWKIT_CACHE"] = _CACHE_SET_HERE


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CACHE_SET_HERE is not None:
        shutil.rmtree(_CACHE_SET_HERE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _crewkit_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("crewkit-home")
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    yield home
