"""A joined seat is back by itself after the host restarts: a real ``crewkit host`` process killed (kill -9) and
started again with the same ``--dir`` and port; Ann's seat is the terminal table app (``SeatApp``, driven by its
pilot), Bob's the plain client (``crewkit join --plain``'s loop). Both retry the same link, say "reconnecting
(attempt N)…", and are back at the same seat with the table as it was, without a key pressed; a person can still
leave meanwhile, and a refusal that cannot change stops the retrying at once."""

from __future__ import annotations

import asyncio
import io
import os
import queue
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from net_helpers import play_seat, running_host

from crewkit.families.trick_taking.tui.remote import RemoteSession, remote_setup
from crewkit.net.client import JoinRefused, TableClient, reconnect
from crewkit.net.plain import play_plain
from crewkit.net.protocol import join_link
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(240)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(folder: Path, port: int, *options: str) -> tuple[subprocess.Popen[str], list[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(folder), "--port", str(port), "--bind", "127.0.0.1",
         "--delay", "0", *options],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    links: list[str] = []
    for _ in range(200):
        line = process.stdout.readline()
        if not line or line.startswith("listening on"):
            break
        found = re.search(r"'(ws://127\.0\.0\.1:\d+/[^']+)'", line)
        if found:
            links.append(found.group(1))
    assert links, "the host printed no links"
    return process, links


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(10)


async def _until(test: Callable[[], bool], what: str, pause: Callable[[], object]) -> None:
    """Wait for an event of the app or the clients (bounded by a generous safety net, never asserted on)."""
    for _ in range(6000):
        if test():
            return
        await pause()  # type: ignore[misc]
    raise AssertionError(f"never happened: {what}")


async def test_both_clients_are_back_by_themselves_after_the_host_restarts(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    port = _free_port()
    host, links = _start(folder, port, "--mission", "planet-nine/02", "--seats", "human,human,bot",
                         "--names", "Ann,Bob,Cat", "--seed", "rc")
    try:
        ann_link, bob_link = links
        # the first actions, by two plain clients; then Ann takes her seat in the table app, Bob in the plain one
        first = [await TableClient.connect(link) for link in links]
        await asyncio.gather(play_seat(first[0], "a", stop_at=5), play_seat(first[1], "b", stop_at=5))
        for client in first:
            await client.close()
        ann = await TableClient.connect(ann_link)
        setup, why = remote_setup(ann.welcome)
        assert setup is not None, why
        await ann.until(lambda m: m["type"] == "state")
        session = RemoteSession(ann, setup)
        before = (session.state or {})["seq"]
        assert before >= 5
        bob = await TableClient.connect(bob_link)
        typed: queue.Queue[str] = queue.Queue()
        out = io.StringIO()
        bob_plays = asyncio.create_task(play_plain(bob, typed.get, out))
        app = SeatApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            async def pause() -> None:
                await pilot.pause(0.05)

            def both_there() -> bool:
                state = session.state or {}
                return (not session.reconnecting and state.get("seq") == before
                        and all(p["connected"] for p in state["players"][:2]))

            await _until(both_there, "Ann and Bob at the table", pause)
            _kill(host)
            screen = app.table()
            assert screen is not None
            await _until(lambda: session.reconnecting >= 2, "Ann's second attempt", pause)
            await _until(lambda: "reconnecting (attempt" in screen.status_text, "Ann's status line", pause)
            await _until(lambda: "reconnecting (attempt 2)" in out.getvalue(), "Bob's second attempt", pause)
            host, again = _start(folder, port)  # the same folder and port: the same links
            assert again == links
            await _until(both_there, "Ann and Bob back at the table", pause)
            await _until(lambda: "Back at the table." in out.getvalue(), "Bob's word", pause)
            await _until(lambda: "reconnecting" not in screen.status_text, "Ann's status line again", pause)
            assert session.seat == 0 and (session.state or {})["seat"] == 0
            assert screen.status_text == session.status() or (session.state or {}).get("turn")
            assert not bob_plays.done()
            # the host goes again: Ann leaves while her client retries, and so does Bob
            _kill(host)
            await _until(lambda: session.reconnecting >= 1, "Ann retrying", pause)
            await pilot.press("q")
            await pilot.pause(0.1)
            await pilot.press("home", "enter")
            await _until(lambda: app.exit_note is not None, "Ann left", pause)
        typed.put("q")
        assert await asyncio.wait_for(bob_plays, 60) == 0
    finally:
        _kill(host)


async def test_a_refusal_that_cannot_change_stops_the_retrying_at_once(tmp_path: Path) -> None:
    from net_helpers import new_table, seat_link

    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/01", ["human", "human", "fast"])
        ann = await TableClient.connect(seat_link(host, table, 0))
        await ann.close()
        attempts: list[int] = []
        ann.link = join_link("ws", "127.0.0.1", host.port, table.id, "not-the-code")
        with pytest.raises(JoinRefused) as refused:
            await reconnect(ann, attempts.append)
        assert refused.value.code == "bad-code" and attempts == [1]
        # a host that does not come back: retried until the time is up, then the last failure
        ann.link = join_link("ws", "127.0.0.1", _free_port(), table.id, "whatever")
        with pytest.raises(JoinRefused) as gone:
            await reconnect(ann, attempts.append, give_up_after=0.0)
        assert gone.value.code == "unreachable"
        # the right link again: the same seat, at once
        ann.link = seat_link(host, table, 0)
        back = await reconnect(ann)
        assert back.seat == 0
        await back.close()
