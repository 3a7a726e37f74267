"""A seat at a hosted table opens the review after the game's end (``w`` on its end screen): the host's review,
computed there once for every seat, with every hand (the game is over). ``w`` is a seat's key only then."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_text

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.remote import RemoteSession
from crewkit.families.trick_taking.tui.review import ReviewScreen
from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.tui.join import remote_session
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(180)

LOOPBACK = "127.0.0.1"


@contextlib.asynccontextmanager
async def ended_table(folder: Path) -> AsyncIterator[tuple[Host, HostedTable]]:
    """A planet-nine/10 table the fast bots lose (Ann's seat handed to its bot), played to its end."""
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0)
    try:
        config = TableConfig("crew", "planet-nine/10", 4, "rv47", ["human", "fast", "fast", "fast"], {},
                             ["Ann", "Bob", "Cat", "Dan"])
        table = host.add(HostedTable.create(folder, config, "fast"))
        await table.set_bot(0, True)
        async with asyncio.timeout(120):
            while not table.game.is_over():
                await asyncio.sleep(0.02)
        yield host, table
    finally:
        await host.stop()


def tricks_played(table: HostedTable) -> int:
    """The tricks the ended game began (the review screen steps through each)."""
    obs = table.game.observation(0)
    return len(obs["tricks"]) + (1 if obs["current_trick"] else 0)


async def until(pilot: Any, test: Any, what: str) -> None:
    try:
        async with asyncio.timeout(60):  # a safety net, not a measure of speed
            while not test():
                await pilot.pause(0.02)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}: {screen_text(pilot.app)}") from None


async def step_to(pilot: Any, app: Any, mark: str, tricks: int) -> None:
    """Step the review screen (→) trick by trick until ``mark`` is drawn (the turning point's trick)."""
    for k in range(1, tricks):
        if mark in screen_text(app):
            return
        await pilot.press("right")
        await until(pilot, lambda k=k: f"Trick {k + 1} of {tricks}" in screen_text(app), f"trick {k + 1} drawn")


async def test_w_at_a_seat_shows_the_hosts_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "FINAL_WORLDS", 2)
    async with ended_table(tmp_path / "tables") as (host, table):
        code = table.seats[0].code
        assert code is not None
        client = await TableClient.connect(join_link("ws", LOOPBACK, host.port, table.id, code), "Ann")
        opened, why = remote_session(client)
        assert opened is not None, why
        await client.until(lambda m: m["type"] == "state", timeout=30)
        seat = opened()
        assert isinstance(seat, RemoteSession)
        app = SeatApp(seat)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            end = app.screen
            assert isinstance(end, EndScreen)
            await until(pilot, lambda: "w: where it went wrong" in screen_text(app), "the end screen's keys")
            assert seat.review_message is None  # nothing of the other hands came before it was asked for
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen")
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            await until(pilot, lambda: (screen.review is not None and not screen.provisional) or bool(screen.error),
                        "the host's final review")  # its first answer may come before (provisional)
            assert not screen.error and screen.review.status == "lost"
            tricks = rf"Trick \d+ of {tricks_played(table)}\b"
            await until(pilot, lambda: re.search(tricks, screen_text(app)) is not None, "the review drawn")
            await step_to(pilot, app, "(lost the mission)", tricks_played(table))
            text = screen_text(app)
            assert "WHERE IT WENT WRONG" in text and "(lost the mission)" in text  # the dialog grew to its text
            assert re.search(r"played: (Ann|Bob|Cat|Dan) ", text) and "Bob " in text  # players, not seats
            assert screen.positions and screen.positions[0].hand(1)  # Bob's hand, shown after the end
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is end, "the end screen again")
            # the gate: the end screen lists w as a seat's, and allows it only once the game is over
            assert app.seat_allows(end, "review", ())
            monkeypatch.setattr(type(seat.g), "is_over", lambda self: False)
            assert end.check_action("review", ()) is False
        await client.close()
