"""Fixtures for the campaign tests: crewkit's home is always a temporary directory, never the real one.

The lead adds an autouse fixture doing the same in tests/conftest.py for the whole suite; this one keeps
tests/campaign safe on its own (it is autouse here too) and gives tests the directory's path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from crewkit.campaign.store import Logbook

CAMPAIGN = "planet-nine"

Recorder = Callable[..., list[int]]


@pytest.fixture(autouse=True)
def crewkit_home_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point $CREWKIT_HOME at a fresh temporary directory (and the XDG/APPDATA fallbacks too)."""
    home = tmp_path / "crewkit-home"
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    return home


@pytest.fixture
def logbook(crewkit_home_dir: Path) -> Iterator[Logbook]:
    """A fresh logbook at the default place, ``$CREWKIT_HOME/logbook.sqlite3``."""
    book = Logbook.open()
    yield book
    book.close()


@pytest.fixture
def record() -> Recorder:
    """``record(book, mission, ["failure", "success"], distress=[True, True])``: one attempt per result."""

    def _record(
        book: Logbook,
        mission: str,
        results: Sequence[str],
        *,
        distress: Sequence[bool] | None = None,
        campaign: str = CAMPAIGN,
        players: int = 4,
    ) -> list[int]:
        flags = list(distress) if distress is not None else [False] * len(results)
        return [
            book.record_attempt(
                campaign=campaign,
                mission=mission,
                players=players,
                ruleset="crew",
                seed=f"{mission}#{i}",
                result=result,
                reason="test",
                distress_used=used,
            )
            for i, (result, used) in enumerate(zip(results, flags, strict=True))
        ]

    return _record
