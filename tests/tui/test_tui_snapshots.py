"""SVG snapshots of the screens a player meets, at 80x24 and 120x40 (pytest-textual-snapshot).

Deterministic: fixed seeds, the tests' first-legal bots, a memory logbook, a home folder named by a relative
path (the record path on the end screen is ``home/records/...``) and a fixed record time stamp. Review a
changed picture as an image, then accept it with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import (
    find_seed,
    first_legal_factory,
    open_table,
    pass_distress,
    play_steps,
    play_to_end,
    press_first_legal,
    settle,
)

from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.services import FileSaves, MemoryLogbook, Services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
Snap = Callable[..., bool]


@pytest.fixture
def app_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., CrewApp]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CREWKIT_HOME", str(tmp_path / "home"))
    home = Path("home")  # relative: the same text in every picture

    def make(**kw: Any) -> CrewApp:
        services = Services(bot_factory=first_legal_factory, logbook=MemoryLogbook(), saves=FileSaves(lambda: home),
                            home=lambda: home, stamp=lambda: "20260101-120000")
        return CrewApp(PlayOptions(fast=True, **kw), services=services)

    return make


def steps(n: int, *, jarvis: bool = False) -> Callable[[Any], Awaitable[None]]:
    async def run(pilot: Any) -> None:
        await open_table(pilot)
        if jarvis:
            await pilot.press("home", "enter")  # JARVIS's seat: the first choice
        await play_steps(pilot, n)
        await settle(pilot)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_campaign(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    assert snap_compare(app_for(seed="snap"), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_briefing(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    """Mission 5: the description, the question and the roles in words."""
    assert snap_compare(app_for(seed="snap", mission="planet-nine/05"), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_distress_question(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    """Before trick 1 the table asks the human; the hand stays in sight under the dialog."""

    async def run(pilot: Any) -> None:
        await open_table(pilot)
        for _ in range(20):
            await settle(pilot)
            if type(pilot.app.screen).__name__ == "DistressScreen":
                return
            await pilot.press("home", "enter")  # the draft
        raise AssertionError("the distress question was not asked")

    assert snap_compare(app_for(seed="snap", mission="planet-nine/03"), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_table(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    assert snap_compare(app_for(seed=find_seed("success"), mission="planet-nine/01"), terminal_size=size,
                        run_before=steps(6))


@pytest.mark.parametrize("size", SIZES)
def test_jarvis_table(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    app = app_for(seed="snap-1", ruleset="crew-jarvis", players=2, mission="planet-nine/01")
    assert snap_compare(app, terminal_size=size, run_before=steps(8, jarvis=True))


@pytest.mark.parametrize("size", SIZES)
def test_hammer_chip_table(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    """The round's end: every seat's score in words and the chips so far."""

    async def run(pilot: Any) -> None:
        await open_table(pilot)
        for _ in range(200):
            await settle(pilot)
            screen = pilot.app.screen
            if type(screen).__name__ == "RoundScreen":
                return
            if await pass_distress(pilot):
                continue
            game = screen.session.g
            if screen.session.is_human(game.to_act):
                await press_first_legal(pilot)
            else:
                await pilot.press("space")
        raise AssertionError("round 1 did not end")

    app = app_for(seed="snap-1", ruleset="hammer", players=4, mission="hammer")
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_end_screen(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    """Mission 1 won: the dialog, the logbook line and the record path all inside the screen."""

    async def run(pilot: Any) -> None:
        await open_table(pilot)
        await play_to_end(pilot)
        await settle(pilot)

    assert snap_compare(app_for(seed=find_seed("success"), mission="planet-nine/01"), terminal_size=size,
                        run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Snap, app_for: Callable[..., CrewApp], size: tuple[int, int]) -> None:
    async def run(pilot: Any) -> None:
        await steps(3)(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == "HelpScreen"

    assert snap_compare(app_for(seed=find_seed("success"), mission="planet-nine/01"), terminal_size=size,
                        run_before=run)
