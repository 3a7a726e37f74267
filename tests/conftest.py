"""Shared fixtures: no test ever touches the real user data directory."""

from __future__ import annotations

import gc
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


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Collect the garbage once and freeze what is left, before an xdist worker reports that it has finished.

    After that report the controller ends the worker's gateway, and execnet sends the worker a SIGINT when it
    is still busy 5 s later; pytest then collects garbage five times over the worker's whole heap (its
    unraisable-exception check), which took longer than that on a loaded machine: the SIGINT landed in
    hypothesis's gc callback (a stray KeyboardInterrupt traceback) and the worker was killed. Frozen objects
    are not walked again: those collections take no time."""
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CACHE_SET_HERE is not None:
        shutil.rmtree(_CACHE_SET_HERE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _crewkit_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("crewkit-home")
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    yield home
