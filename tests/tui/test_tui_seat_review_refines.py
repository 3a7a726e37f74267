"""A seat's review screen at a hosted table shows the host's first answer marked provisional, then replaces it by
the host's final one, as the local screen does (issue 44: "the table shows a first answer within 1 s and
refines"). The host's final computation is held on an event, so the order is the test's, not the machine's."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_text

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.remote import RemoteSession
from crewkit.families.trick_taking.tui.review import ReviewScreen
from crewkit.net import review as table_reviews
from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.tui.join import remote_session
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(180)

LOOPBACK = "127.0.0.1"
PROVISIONAL = "First answer, provisional"


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


async def test_a_seat_sees_the_hosts_first_answer_then_its_final_one(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "FINAL_WORLDS", 2)
    opened_gate = threading.Event()
    real = table_reviews.table_review_answer

    def held(game: Any, names: Any, *, first: bool = False, earlier: Any = None) -> tuple[dict[str, Any], Any]:
        if not first:
            opened_gate.wait(90)  # a safety net: the test opens it
        return real(game, names, first=first, earlier=earlier)

    monkeypatch.setattr(table_reviews, "table_review_answer", held)
    host = Host(tmp_path / "tables", Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0)
    try:
        # a deal the fast bots lose, Ann's seat handed to its bot: played to its end
        config = TableConfig("crew", "planet-nine/10", 4, "rv47", ["human", "fast", "fast", "fast"], {},
                             ["Ann", "Bob", "Cat", "Dan"])
        table = host.add(HostedTable.create(tmp_path / "tables", config, "fast"))
        await table.set_bot(0, True)
        async with asyncio.timeout(120):
            while not table.game.is_over():
                await asyncio.sleep(0.02)
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
            await until(pilot, lambda: "w: where it went wrong" in screen_text(app), "the end screen's keys")
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen")
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            await until(pilot, lambda: screen.review is not None or bool(screen.error), "the host's first answer")
            assert not screen.error and screen.provisional
            assert seat.review_message is None and seat.review_first is not None  # the final one is held
            await until(pilot, lambda: PROVISIONAL in screen_text(app), "the first answer marked provisional")
            # every hand shown with the first answer already
            assert re.search(rf"Trick \d+ of {tricks_played(table)}\b", screen_text(app)), screen_text(app)
            opened_gate.set()
            await until(pilot, lambda: not screen.provisional, "the host's final review")
            assert screen.review is not None and screen.review.status == "lost" and not screen.error
            await until(pilot, lambda: PROVISIONAL not in screen_text(app), "the final review drawn")
            await step_to(pilot, app, "(lost the mission)", tricks_played(table))
            assert "(lost the mission)" in screen_text(app)
            assert seat.review_message is not None and seat.review_message["final"] is True
        await client.close()
    finally:
        opened_gate.set()
        await host.stop()
