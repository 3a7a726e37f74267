"""``crewkit join`` draws the seat with the same table screen as ``crewkit play``: a real host on a free loopback
port, a real WebSocket client, the real Textual app driven by its pilot at 80x24.

The host runs the game and its bots; the app holds only what the host sent its seat, so every card on any of
its screens is its own, a public one, or nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_text
from test_tui_hidden import leaks

from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.tui.app import CrewApp
from crewkit.tui.remote import RemoteGame, RemoteSession, remote_setup
from crewkit.tui.screens.end import EndScreen
from crewkit.tui.screens.table import TableScreen
from crewkit.tui.widgets.hand import HandView

pytestmark = pytest.mark.timeout(60)

LOOPBACK = "127.0.0.1"
MISSION = "planet-nine/01"
SIZE = (80, 24)


@contextlib.asynccontextmanager
async def hosted(folder: Path, seats: list[str], seed: str, names: list[str]) -> AsyncIterator[tuple[Host, HostedTable]]:
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0)
    try:
        config = TableConfig("crew", MISSION, len(seats), seed, seats, {}, names)
        table = host.add(HostedTable.create(folder, config, "fast"))
        yield host, table
    finally:
        await host.stop()


def link(host: Host, table: HostedTable, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return join_link("ws", LOOPBACK, host.port, table.id, code)


async def joined(host: Host, table: HostedTable, seat: int, name: str) -> RemoteSession:
    """What ``crewkit join`` does before it opens the app: connect, read the welcome and the first state."""
    client = await TableClient.connect(link(host, table, seat), name)
    setup, why = remote_setup(client.welcome)
    assert setup is not None, why
    await client.until(lambda m: m["type"] == "state", timeout=10)
    return RemoteSession(client, setup)


async def settle(pilot: Any, rounds: int = 40) -> None:
    """Let the host, its bots and the app run until the table has drawn the host's latest state."""
    for _ in range(rounds):
        await pilot.pause(0.01)
        table = pilot.app.table()
        if table is None or not (table._engine_busy or table._scheduled):
            await pilot.pause(0.02)
            return


def hidden_cards(table: HostedTable, seat: int) -> set[str]:
    """The names of the cards ``seat`` must not see now: the other hands, less what is public."""
    engine = table.game.engine
    obs = engine.observation(seat)
    known = {c.card for c in obs.communications} | set(obs.dummy_up) | {t.card for t in obs.tasks}
    known |= {e.card for e in engine.events if e.kind in ("commander", "role") and e.card is not None}
    cards = {c for s in range(engine.n) if s != seat for c in engine.hand(s)} - known
    return {c.name for c in cards}


async def play_seat_by_keys(pilot: Any, table: HostedTable, seat: int, max_steps: int = 300) -> list[str]:
    """Play the seat by keys to the end of the game (the first legal card; space at a window); returns every
    status line seen. Checks every screen for a card of another hand on the way."""
    app = pilot.app
    statuses: list[str] = []
    for _ in range(max_steps):
        await settle(pilot)
        text = screen_text(app)
        found = leaks(text, hidden_cards(table, seat))
        assert not found, (found, text)
        screen = app.screen
        if isinstance(screen, EndScreen):
            return statuses
        assert isinstance(screen, TableScreen), type(screen)
        statuses.append(screen.status_text)
        session = screen.session
        assert isinstance(session, RemoteSession)
        state = session.state or {}
        if state.get("over"):
            continue
        hand = screen.query_one("#hand", HandView)
        if state.get("turn") and hand.legal:
            index = next(i for i, c in enumerate(hand.cards) if c.id in hand.legal)
            await pilot.press("home", *["right"] * index, "enter")
        elif state.get("window"):
            await pilot.press("space")
        elif state.get("turn") and screen._other_actions:
            await pilot.press("home", "enter")
        else:
            await pilot.pause(0.05)  # the host's bots are playing
    raise AssertionError("the game did not end")


async def test_a_joined_seat_plays_a_crew_mission_to_its_end_at_80x24(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["fast", "human", "fast"], "join-a", ["Cat", "Ann", "Dan"]) as (host, table):
        session = await joined(host, table, 1, "Ann")
        app = CrewApp(remote=session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen) and screen.remote
            text = screen_text(app)
            assert "Cat" in text and "Dan" in text and "Bot 1" not in text  # names, not seat numbers
            statuses = await play_seat_by_keys(pilot, table, 1)
            assert isinstance(app.screen, EndScreen)
            assert table.game.is_over()
            assert session.g.outcome().result == table.game.outcome().result
            assert any(s.startswith("Your turn") for s in statuses)
        await session.client.close()
    assert not isinstance(session.game, type(table.game))  # the client never held the host's game
    assert isinstance(session.game, RemoteGame)


async def test_a_refused_action_is_shown_in_words_and_changes_nothing(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "human", "fast"], "join-b", ["Ann", "Bob", "Cat"]) as (host, table):
        session = await joined(host, table, 0, "Ann")
        bob = await TableClient.connect(link(host, table, 1), "Bob")
        app = CrewApp(remote=session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            assert table.game.waiting() == (1,)  # Bob, the commander, chooses the first task
            assert "waiting for Bob" in screen.status_text
            before, log = table.applied, (table.folder / "log.jsonl").read_text()
            await pilot.press("home", "enter")  # Ann plays a card: the host refuses it (not her turn)
            await settle(pilot)
            assert screen.status_is_error()
            assert "not Ann's turn" in screen.status_text and "waiting for Bob" in screen.status_text, \
                screen.status_text
            assert "not Ann's turn" in screen_text(app)  # on the screen, in words
            assert table.applied == before and (table.folder / "log.jsonl").read_text() == log
            assert session.g.obs.hand == RemoteGame(table.state_for(0), session.rules, []).obs.hand
        await bob.close()
        await session.client.close()


async def test_the_table_says_whom_it_waits_for_by_name_and_who_left(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "human", "fast"], "join-b", ["Ann", "Bob", "Cat"]) as (host, table):
        session = await joined(host, table, 0, "Ann")
        bob = await TableClient.connect(link(host, table, 1), "Bob")
        app = CrewApp(remote=session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            assert screen.status_text == "waiting for Bob"  # Bob, the commander, chooses the first task
            assert "to act: Bob" in screen_text(app) or "▶ Bob" in screen_text(app)
            await bob.close()
            for _ in range(50):
                await settle(pilot)
                if "(disconnected)" in screen.status_text:
                    break
                await asyncio.sleep(0.02)
            assert "waiting for Bob (disconnected)" in screen.status_text
            assert "waiting for Bob (disconnected)" in screen_text(app)
        await session.client.close()


async def test_keys_that_need_the_host_say_why(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "fast", "fast"], "join-d", ["Ann", "Bot", "Cat"]) as (host, table):
        session = await joined(host, table, 0, "Ann")
        app = CrewApp(remote=session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            await pilot.press("u")
            assert "No take-back" in screen.status_text and "host" in screen.status_text
            while not (session.state or {}).get("turn") or (session.state or {}).get("window"):
                await pilot.press("space")
                await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            assert "No hint" in screen.status_text and "host" in screen.status_text, screen.status_text
        await session.client.close()
