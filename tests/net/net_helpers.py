"""Hosted tables for the tests: a real host on a free loopback port, real WebSocket clients that play a seat."""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig

LOOPBACK = "127.0.0.1"


@contextlib.asynccontextmanager
async def running_host(folder: Path, limits: Limits | None = None) -> AsyncIterator[Host]:
    host = Host(folder, limits or Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0)
    try:
        yield host
    finally:
        await host.stop()


def new_table(host: Host, ruleset: str, mission: str | None, seats: Sequence[str], seed: str = "s",
              readings: dict[str, str] | None = None, names: Sequence[str] = (),
              players: int | None = None) -> HostedTable:
    config = TableConfig(ruleset, mission, players or len(seats), seed, list(seats), dict(readings or {}), list(names))
    bot = "fast" if mission else "heuristic"
    return host.add(HostedTable.create(host.folder, config, bot))


def links(host: Host, table: HostedTable) -> list[str]:
    """The join link of each human seat, in seat order."""
    return [join_link("ws", LOOPBACK, host.port, table.id, s.code) for s in table.seats if s.code is not None]


def seat_link(host: Host, table: HostedTable, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return join_link("ws", LOOPBACK, host.port, table.id, code)


async def play_seat(client: TableClient, seed: str, timeout: float = 120.0, max_messages: int = 50_000,
                    stop_at: int | None = None,
                    watch: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play ``client``'s seat with random legal actions (passing windows at random) until the game ends or the
    table reaches ``stop_at`` actions; returns the last state. Bounded in messages and time. ``watch`` sees
    every message received.

    One message in flight per state, as a person's client sends: an action is decided again only when the host
    refuses *that* action (its id), never for the answer to an older one (a state may move on before a refusal
    of an action sent on an earlier state arrives). A ``flood`` refusal waits for the allowance to refill."""
    rng = random.Random(seed)
    decided: set[tuple[int, bool]] = set()
    last: tuple[int, tuple[int, bool]] | None = None  # the id of the latest message sent and the state it was for
    refused = 0
    async with asyncio.timeout(timeout):
        pending: dict[str, Any] | None = client.state  # a state read before: act on it first
        for _ in range(max_messages):
            message = pending or await client.recv()
            pending = None
            if watch is not None:
                watch(message)
            state = client.state
            if state is None:
                continue
            if state["over"] or (stop_at is not None and state["seq"] >= stop_at):
                return state
            if message["type"] == "error":
                if last is None or message.get("id") != last[0]:
                    continue  # the refusal of an older message: the state it was sent for has moved on
                refused += 1
                assert refused < 1000, "the client's actions keep being refused"
                if message["code"] == "flood":
                    await asyncio.sleep(1.0)  # the host's allowance refills (20 a second)
                decided.discard(last[1])  # decide again on the state that message was for
            elif message["type"] != "state":
                continue
            key = (state["seq"], state["window"])
            if not state["turn"] or key in decided:
                continue
            decided.add(key)
            if state["window"] and (rng.random() < 0.7 or not state["legal"]):
                last = (await client.pass_window(), key)
            elif state["legal"]:
                last = (await client.act(rng.choice(state["legal"])), key)
    raise AssertionError("the game did not end within the message bound")


async def until_printed(out: io.StringIO, *texts: str, rounds: int = 6000) -> None:
    """Let the event loop run until the plain client's output holds one of ``texts`` (a bounded number of short
    sleeps as a safety net; the caller asserts on what was printed)."""
    for _ in range(rounds):
        if any(t in out.getvalue() for t in texts):
            return
        await asyncio.sleep(0.02)
