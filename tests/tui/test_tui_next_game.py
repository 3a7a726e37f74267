"""``next`` on the host's console: the next game at the same table, the same links and seats, every client
switching by itself; at a campaign's table the campaign's next mission after a success and the same one after a
failure, each game counted in the host's logbook; the journal's chain goes on and the folder resumes the game
now. An in-process host, Ann's seat in the terminal table app (``SeatApp``, its pilot), Bob's in the plain
client; both seats handed to bots so that each game ends by itself."""

from __future__ import annotations

import asyncio
import contextlib
import io
import queue
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from screen_text import screen_text

from crewkit.campaign.store import Logbook
from crewkit.cli.online import _next_game
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.remote import RemoteSession, remote_setup
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.net.client import TableClient
from crewkit.net.plain import play_plain
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.spec.campaigns import load_campaign
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(300)


@contextlib.asynccontextmanager
async def running_host(folder: Path) -> AsyncIterator[Host]:
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    await host.start("127.0.0.1", 0)
    try:
        yield host
    finally:
        await host.stop()


def seat_link(host: Host, table: HostedTable, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return join_link("ws", "127.0.0.1", host.port, table.id, code)


async def _until(test: Callable[[], bool], what: str, pause: Callable[[], object]) -> None:
    for _ in range(1200):  # a generous safety net, never asserted on
        if test():
            return
        await pause()  # type: ignore[misc]
    raise AssertionError(f"never happened: {what}")


async def test_next_opens_the_campaigns_next_game_at_the_same_table_and_every_seat_follows(tmp_path: Path) -> None:
    camp = load_campaign("planet-nine", deep=False)
    keys = list(camp.missions)
    entry = next(e for e in camp.entries if e.key == keys[0])
    mission = str(entry.path) if entry.path is not None else keys[0]
    campaign = {"identity": camp.identity, "mission": keys[0], "version": str(entry.version or ""),
                "source": "planet-nine"}
    async with running_host(tmp_path) as host:
        config = TableConfig("crew", mission, 3, "next-1", ["human", "human", "fast"], {}, ["Ann", "Bob", "Cat"],
                             campaign)
        table = host.add(HostedTable.create(tmp_path, config, "fast"))
        ann = await TableClient.connect(seat_link(host, table, 0))
        setup, why = remote_setup(ann.welcome)
        assert setup is not None, why
        await ann.until(lambda m: m["type"] == "state")
        session = RemoteSession(ann, setup)
        bob = await TableClient.connect(seat_link(host, table, 1))
        typed: queue.Queue[str] = queue.Queue()
        out = io.StringIO()
        bob_plays = asyncio.create_task(play_plain(bob, typed.get, out))
        app = SeatApp(session)
        played: list[tuple[str, str]] = []  # (the campaign's mission key, the result) of each game
        async with app.run_test(size=(140, 50)) as pilot:
            async def pause() -> None:
                await pilot.pause(0.05)

            await table.set_bot(0, True)  # the bots play both people's seats: each game ends by itself
            await table.set_bot(1, True)
            for game in (1, 2, 3):
                await _until(lambda: isinstance(app.screen, EndScreen), f"Ann's end screen of game {game}", pause)
                await _until(lambda: "Waiting for the host's next game" in screen_text(app), "the end's words", pause)
                end = screen_text(app)
                assert "The host keeps this game's record" in end and "not part of the campaign logbook" not in end
                assert "r: play again" not in end and "s: same deal" not in end
                await _until(lambda: "Waiting for the host's next game" in out.getvalue(), "Bob's word", pause)
                result = table.game.outcome().result
                played.append((table.config.campaign["mission"], result))  # type: ignore[index]
                old_seat = app.seat
                if game == 3:  # the fourth game waits for its people (it is not played to its end here)
                    await table.set_bot(0, False)
                    await table.set_bot(1, False)
                await _next_game(host, "")
                assert table.game_number == game + 1
                expected = keys[keys.index(played[-1][0]) + 1] if result == "success" else played[-1][0]
                assert table.config.campaign is not None and table.config.campaign["mission"] == expected
                await _until(lambda old=old_seat: app.seat is not old and isinstance(app.screen, TableScreen),  # type: ignore[misc]
                             "Ann's table of the next game", pause)
                assert app.seat.state is not None and app.seat.state["seat"] == 0
                assert app.screen_stack[1:] == [app.screen]  # on the blank base: the game before's screens are gone
                assert isinstance(app.seat, RemoteSession) and app.seat.mission == table.config.mission
                await _until(lambda n=game: out.getvalue().count("The host opened the next game") == n,  # type: ignore[misc]
                             "Bob at the next game", pause)
                if game == 3:
                    break
            assert app.games == 4 and not bob_plays.done()
            await pilot.pause()  # the fourth table's mounting done before the app closes (its header's title)
        typed.put("q")
        assert await asyncio.wait_for(bob_plays, 60) == 0
        await app.seat.client.close()
        records = sorted(p.name for p in table.folder.glob("record*.json"))
        assert records == ["record-2.json", "record-3.json", "record.json"]
        with Logbook.open(table.logbook_path) as book:
            attempts = [(a.mission, a.result) for key in set(keys) for a in book.attempts(camp.identity, key)]
        assert sorted(attempts) == sorted(played)  # each game once, under its own mission
        now = (table.game_number, table.config.mission, table.applied)
    # the journal's chain went on through the game events: the folder resumes the fourth game as it was
    resumed = HostedTable.resume(table.folder)
    try:
        assert (resumed.game_number, resumed.config.mission, resumed.applied) == now
        assert [s.name for s in resumed.seats] == ["Ann", "Bob", "Cat"]
    finally:
        resumed.close()


async def test_next_before_the_end_says_so_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async with running_host(tmp_path) as host:
        config = TableConfig("crew", "planet-nine/01", 3, "next-2", ["human", "fast", "fast"], {}, [])
        table = host.add(HostedTable.create(tmp_path, config, "fast"))
        await _next_game(host, "")
        assert "no table's game is over yet" in capsys.readouterr().out
        assert table.game_number == 1
