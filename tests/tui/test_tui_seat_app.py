"""A seat joined to a hosted table is the table and nothing else (issue 41, item 1): after a hosted game ends,
every key of the app shell (campaign, next mission, play again, logbook, compare, settings, the command palette,
Esc then c / Enter) leaves the seat's app on the table or its end screen, starts no game of its own and writes
nothing under ``CREWKIT_HOME``; the palette offers the table's commands only (no screenshot, no campaign).

A real host on a free loopback port; Ann's seat is played to the end by its bot (the host's ``bot`` command),
then she joins with the app ``crewkit join`` runs (:func:`crewkit.net.table_app.run_table_app`), driven by its
pilot at 80x24. Every family: the Crew (and Mission Deep Sea), Hammer's standings, Not Alone."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_text

from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.tui.join import remote_session
from crewkit.tui.remote import HostSeat
from crewkit.tui.screens.end import GameEndScreen
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(180)

LOOPBACK = "127.0.0.1"
SIZE = (80, 24)
# every key the shell has at the table or its end screen, then Esc (the table) and the shell's keys again, and
# Esc c Enter Enter: what opened a local planet-nine/01 at a browser seat (a campaign, its briefing, its game)
SHELL_KEYS = ["c", "n", "r", "s", "u", "l", "v", "o", "ctrl+s", "escape", "c", "n", "r", "l", "v", "o", "ctrl+s",
              "enter", "escape", "escape", "c", "enter", "enter", "escape", "c", "enter", "enter"]
# the shell's own commands and Textual's that write or open something of the machine's
NOT_A_SEAT_S = ("Screenshot", "Campaign", "Logbook", "Compare", "Settings", "Theme", "Next mission",
                "Play again", "New match", "New game", "Same deal")


@contextlib.asynccontextmanager
async def ended_table(folder: Path, ruleset: str, mission: str | None, players: int,
                      bot: str, seed: str = "seat-app") -> AsyncIterator[tuple[Host, HostedTable]]:
    """A hosted table whose game Ann's seat (0, handed to its bot) and the bots have played to the end."""
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0)
    try:
        names = ["Ann", "Bob", "Cat", "Dan"][:players]
        config = TableConfig(ruleset, mission, players, seed, ["human"] + [bot] * (players - 1), {}, names)
        table = host.add(HostedTable.create(folder, config, bot))
        await table.set_bot(0, True)
        async with asyncio.timeout(120):
            while not table.game.is_over():
                await asyncio.sleep(0.05)
        yield host, table
    finally:
        await host.stop()


async def seat_of(host: Host, table: HostedTable) -> tuple[TableClient, HostSeat]:
    """What ``crewkit join`` does before its app opens: connect, read the welcome and the first state."""
    code = table.seats[0].code
    assert code is not None
    client = await TableClient.connect(join_link("ws", LOOPBACK, host.port, table.id, code), "Ann")
    opened, why = remote_session(client)
    assert opened is not None, why
    await client.until(lambda m: m["type"] == "state", timeout=30)
    return client, opened()


async def until(pilot: Any, test: Any, what: str) -> None:
    """Let the app run until ``test()`` holds (a safety net of 60 s, not a measure of speed)."""
    try:
        async with asyncio.timeout(60):
            while not test():
                await pilot.pause(0.02)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}: {screen_text(pilot.app)}") from None


def files_under(home: Path) -> list[Path]:
    return sorted(home.rglob("*"))


@pytest.mark.parametrize(("ruleset", "mission", "players", "bot"), [
    ("crew", "planet-nine/01", 3, "fast"),
    ("crew-deep-sea", "deep-sea/01", 3, "fast"),
    ("hammer", "hammer/05", 4, "fast"),
    ("not-alone", None, 3, "heuristic"),
])
async def test_after_the_end_every_shell_key_leaves_the_seat_at_its_table(
        tmp_path: Path, home: Path, ruleset: str, mission: str | None, players: int, bot: str) -> None:
    async with ended_table(tmp_path / "tables", ruleset, mission, players, bot) as (host, table):
        client, seat = await seat_of(host, table)
        app = SeatApp(seat)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameEndScreen), "the end screen")
            table_screen = app.table()
            assert table_screen is not None and table_screen.session is seat
            end_type = type(app.screen)
            end_text = screen_text(app)
            for word in NOT_A_SEAT_S:  # the end screen's keys and footer: the table's only
                assert word not in end_text, (word, end_text)
            for key in SHELL_KEYS:
                await pilot.press(key)
                await pilot.pause(0.05)
                where = type(app.screen)
                assert app.screen is table_screen or where is end_type, (key, where, screen_text(app))
                assert app.table() is table_screen and table_screen.session is seat, key  # no game of its own
                assert getattr(app, "session", None) is None, key
                assert files_under(home) == [], (key, files_under(home))
                if app.screen is table_screen:  # the table after the end: its footer has no key of the shell
                    footer = screen_text(app).splitlines()[-1]
                    for word in NOT_A_SEAT_S:
                        assert word not in footer, (key, word, footer)

            # the command palette: the table's own commands, none of the shell's or Textual's
            titles = [c.title for c in app.get_system_commands(app.screen)]
            assert titles and not [t for t in titles if any(w in t for w in NOT_A_SEAT_S)], titles
            await pilot.press("ctrl+p")
            await pilot.pause(0.3)
            shown = screen_text(app)
            await pilot.press(*"screenshot")
            await pilot.pause(0.3)
            searched = screen_text(app)
            await pilot.press("enter")
            await pilot.pause(0.1)
            while type(app.screen).__name__ == "CommandPalette":
                await pilot.press("escape")
                await pilot.pause(0.05)
            for word in NOT_A_SEAT_S:
                assert word not in shown, (word, shown)
            assert "Screenshot" not in searched, searched
            assert app.screen is table_screen or type(app.screen) is end_type, type(app.screen)
            assert files_under(home) == [] and not list(Path.cwd().glob("*.svg"))

            # the help: the table's keys and the game's rules, none of the shell's
            if app.screen is not table_screen:
                await pilot.press("escape")
                await pilot.pause(0.05)
            assert app.screen is table_screen
            await pilot.press("question_mark")
            await pilot.pause(0.1)
            assert type(app.screen).__name__ == "HelpScreen", type(app.screen)
            help_text = screen_text(app).lower()
            assert "keys" in help_text
            for word in ("logbook", "campaign", "settings", "compare", "next mission", "play again"):
                assert word not in help_text, (word, help_text)
            await pilot.press("escape")
            await pilot.pause(0.05)
            assert app.screen is table_screen
        await client.close()
    assert app.return_code in (None, 0)


async def test_a_key_added_to_the_table_for_local_games_is_refused_at_a_seat_until_listed(tmp_path: Path,
                                                                                       home: Path) -> None:
    """The gate is a list of the seat's keys, not a list of the shell's to hide: a table screen that gains a key
    of the app (a screenshot) or one of its own for local games (play again) has neither at a seat, in its
    footer, its keys or its palette."""
    from textual.binding import Binding

    from crewkit.families.trick_taking.tui.table import TableScreen

    class LaterTable(TableScreen):
        BINDINGS = [Binding("x", "app.screenshot", "Screenshot"), Binding("y", "play_again", "Again at once")]

    class LaterSeatApp(SeatApp):
        def table_screen_of(self, seat: Any) -> Any:
            return LaterTable(seat, delay=0.0)

    async with ended_table(tmp_path / "tables", "crew", "planet-nine/01", 3, "fast") as (host, table):
        client, seat = await seat_of(host, table)
        app = LaterSeatApp(seat)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameEndScreen), "the end screen")
            await pilot.press("escape")
            await pilot.pause(0.05)
            table_screen = app.table()
            assert isinstance(table_screen, LaterTable) and app.screen is table_screen
            footer = screen_text(app).splitlines()[-1]
            assert "Screenshot" not in footer and "Again at once" not in footer, footer
            titles = [c.title for c in app.get_system_commands(table_screen)]
            assert "Screenshot" not in titles and "Again at once" not in titles, titles
            status = table_screen.status_text
            await pilot.press("x", "y")
            await pilot.pause(0.1)
            assert app.screen is table_screen and table_screen.status_text == status  # neither ran
            assert not list(Path.cwd().glob("*.svg")) and files_under(home) == []
        await client.close()


async def test_the_end_screen_at_a_seat_names_the_players_in_the_reason(tmp_path: Path, home: Path) -> None:
    """The engine's reason says ``seat 2``; a joined seat's end screen says the player's name (it has no local
    session to name them from: the table's session does)."""
    for attempt, seed in enumerate(["seat-app", "b", "d", "e", "f", "g"]):
        async with ended_table(tmp_path / f"tables-{attempt}", "crew", "planet-nine/05", 3, "fast", seed) as (host, table):
            reason = table.game.outcome().words()
            if "seat " not in table.game.outcome().reason:
                continue  # a game won, or lost for a reason that names no seat: another deal
            client, seat = await seat_of(host, table)
            app = SeatApp(seat)
            async with app.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda app=app: isinstance(app.screen, GameEndScreen), "the end screen")
                text = screen_text(app)
                assert "seat " not in text and "Seat " not in text, text
                assert any(name in text for name in ("Ann", "Bob", "Cat")), text
            await client.close()
            return
    raise AssertionError(f"no deal of planet-nine/05 was lost naming a seat (last: {reason})")
