"""A whole game at a hosted table where, after every action (a person's, a bot's, a window's answer), each
seat's status line says what the host's status says for that seat at that moment: whom the table waits for and
for what, the seat's own person "you". Ann and Bob each sit in a terminal table app (``SeatApp``), Cat is the
host's bot; an in-process host whose bot the test steps one action at a time, so that every moment is looked at."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from test_tui_join import hosted, joined

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.tui.remote import RemoteSession
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.net.table import HostedTable
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(300)
PROMPTS = ("Your turn", "Your choice", "JARVIS's turn")  # the table waits for this seat's own action


def expected(line: str, host_says: str) -> bool:
    """The status line agrees with the host's status for this seat: the same words, or the seat's own prompt
    (to act: the host waits for "you" alone; to answer the window: the host's words in brackets)."""
    if line == host_says or f"({host_says})" in line:
        return True
    return host_says == "waiting for you" and line.startswith(PROMPTS)


def drawn(table: HostedTable, seat: int, session: RemoteSession, screen: TableScreen) -> bool:
    """The seat holds the host's state of this moment and its screen has drawn it (no action of its own on
    its way)."""
    state = session.state or {}
    return (state.get("seq") == table.applied and state.get("status") == table.status(seat)
            and state.get("window") == (seat in table.window_pending())
            and screen._drawn_state is session.state and not screen._engine_busy and not screen._scheduled)


async def test_every_seats_status_line_says_what_the_host_says_after_every_action(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "human", "random"], "sg-38", ["Ann", "Bob", "Cat"], bot="random") as (host, table):
        # the test steps the host's bot itself (one action at a time): no runner of the host's
        runner = host._runners.pop(table.id)
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
        sessions = [await joined(host, table, 0, "Ann"), await joined(host, table, 1, "Bob")]
        apps = [SeatApp(s) for s in sessions]
        for app in apps:
            app.settings.pass_window = False  # the window waits for each person's answer
        async with apps[0].run_test(size=(80, 24)), apps[1].run_test(size=(80, 24)):
            def screen(seat: int) -> TableScreen:
                found = apps[seat].table()
                assert isinstance(found, TableScreen)
                return found

            async def moment(what: str) -> None:
                for _ in range(2000):  # a safety net, never asserted on
                    if all(drawn(table, i, sessions[i], screen(i)) for i in (0, 1)):
                        break
                    await asyncio.sleep(0.005)
                else:
                    raise AssertionError(f"after {what}: a seat never drew the host's state "
                                         f"({[(s.state or {}).get('status') for s in sessions]}, "
                                         f"host: {table.status()})")
                for i in (0, 1):
                    line, host_says = screen(i).status_text, table.status(i)
                    assert expected(line, host_says), f"after {what}, {table.seats[i].name}'s status line says " \
                                                      f"{line!r}; the host says {host_says!r}"
                    looked.add(host_says)

            looked: set[str] = set()
            actions = 0
            spoke: set[int] = set()
            await moment("the start")
            while not table.game.is_over():
                actions += 1
                assert actions < 400, "the game did not end"
                if await table.bot_step():
                    await moment("Cat's action")
                    continue
                seat = table.waiting_seats()[0]
                assert seat in (0, 1), table.status()
                view = screen(seat)
                game: Any = sessions[seat].g
                if seat in table.window_pending():
                    says = [a for a in game.legal_actions(seat) if isinstance(a, Communicate)]
                    if says and seat not in spoke:  # each person communicates once, then passes
                        spoke.add(seat)
                        view.human_apply(says[0])
                    else:
                        view.action_continue()
                    await moment(f"{table.seats[seat].name}'s answer to the window")
                    continue
                required = game.obs.required
                assert required, (table.status(), game.obs.legal)
                view.human_apply(required[0])
                await moment(f"{table.seats[seat].name}'s action")
            assert spoke == {0, 1}
            # the moments looked at: the host waited for each person alone, for both in a window, for Cat
            assert {"waiting for you", "waiting for Cat"} <= looked
            assert any(" and you " in s or "you and " in s for s in looked), looked
