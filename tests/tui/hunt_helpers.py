"""Helpers for the Not Alone TUI tests: an app on a fixed seed, key-driving until the game ends."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from crewkit.families.not_alone.tui.dialogs import HuntActionDialog, HuntQuestionDialog
from crewkit.families.not_alone.tui.end import HuntEndScreen
from crewkit.families.not_alone.tui.table import HuntTableScreen
from crewkit.tui.app import CrewApp
from crewkit.tui.options import PlayOptions
from crewkit.tui.screens.dialogs import HandoffScreen
from crewkit.tui.services import FileSaves, MemoryLogbook, Services


def hunt_services(home: Path | None = None) -> Services:
    """A logbook in memory and saves and records in a fresh folder (``home``: a test's own)."""
    where = home if home is not None else Path(tempfile.mkdtemp(prefix="crewkit-hunt-"))
    return Services(bot_factory=None, logbook=MemoryLogbook(), saves=FileSaves(lambda: where), home=lambda: where,
                    stamp=lambda: "20260101-000000")


def make_hunt_app(
    players: int = 4, side: str | None = "hunted", seed: str = "snap", seats: list[str] | None = None,
    services: Services | None = None, ruleset: str = "not-alone",
) -> CrewApp:
    """The one app opened as ``crewkit play --ruleset not-alone`` opens it: at the Not Alone table."""
    options = PlayOptions(
        ruleset=ruleset, players=players, seed=seed, fast=True, campaign=None, seats=seats, side=side
    )
    return CrewApp(options, services=services or hunt_services())


async def settle(pilot: Any, rounds: int = 400) -> None:
    """Let the bots move until a person is asked (a dialog, the hand-over screen) or the game ends."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        table = app.table()
        if table is None:
            continue
        if not table._scheduled and (table._dialog_open or table._ended or table.session.is_over()):
            await pilot.pause()
            return
        if not table._scheduled and not table._dialog_open and table.session.human_seat() is not None:
            await pilot.pause()
            if not table._scheduled and not table._dialog_open:
                return
    raise AssertionError("the table did not settle")


def dialog_of(app: Any) -> HuntActionDialog | HuntQuestionDialog | None:
    screen = app.screen
    return screen if isinstance(screen, HuntActionDialog | HuntQuestionDialog) else None


async def choose(pilot: Any, rng: random.Random | None = None) -> None:
    """One choice in the open dialog by keys: the first option, or a random one (down n times, Enter)."""
    dialog = dialog_of(pilot.app)
    assert dialog is not None
    count = len(dialog.entries)
    steps = rng.randrange(count) if rng is not None and count else 0
    await pilot.press("home", *(["down"] * steps), "enter")


async def play_to_end(
    pilot: Any, rng: random.Random | None = None, max_steps: int = 2000, each: Any = None, until: Any = None
) -> None:
    """Drive the game by keys until the end screen (or until ``until()`` holds); ``each(pilot)`` runs before
    every choice."""
    app = pilot.app
    for _ in range(max_steps):
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, HuntEndScreen) or (until is not None and until()):
            return
        if isinstance(screen, HandoffScreen):
            if each is not None:
                await each(pilot)
            await pilot.press("enter")
            continue
        if isinstance(screen, HuntTableScreen):  # a closed dialog: Enter opens it again
            await pilot.press("enter")
            continue
        if each is not None:
            await each(pilot)
        if dialog_of(app) is not None:
            await choose(pilot, rng)
    raise AssertionError("the game did not end")
