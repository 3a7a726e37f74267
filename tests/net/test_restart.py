"""A host killed with kill -9 and started again on the same table folder resumes every table, nothing lost:
real ``crewkit host`` processes on a free loopback port, real clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from net_helpers import play_seat
from websockets.exceptions import ConnectionClosed

from crewkit.net.client import TableClient

pytestmark = pytest.mark.timeout(240)


def _start(folder: Path, *options: str) -> tuple[subprocess.Popen[str], dict[str, list[str]]]:
    """``crewkit host`` on a free port; returns the process and each table's join links (read from its output)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(folder), "--port", "0", "--bind", "127.0.0.1",
         "--delay", "0", *options],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    links: dict[str, list[str]] = {}
    table = ""
    for _ in range(200):
        line = process.stdout.readline()
        if not line or line.startswith("listening on"):
            break
        if line.startswith("table "):
            table = line.split()[1]
            links[table] = []
        found = re.search(r"'(ws://127\.0\.0\.1:\d+/[^']+)'", line)
        if found:
            links[table].append(found.group(1))
    assert links, "the host printed no links"
    return process, links


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(10)


async def test_a_host_killed_and_restarted_resumes_every_table_with_nothing_lost(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    first, links_one = _start(folder, "--mission", "planet-nine/10", "--seats", "human,human,bot", "--seed", "k1")
    try:
        second_table, links_two = _start(folder, "--mission", "planet-nine/03", "--seats", "human,bot,bot,bot",
                                         "--seed", "k2")  # a second host process would clash: stop it
        _kill(second_table)
    finally:
        _kill(first)
    host, links = _start(folder)  # resumes both tables
    try:
        assert set(links) == set(links_one) | set(links_two)
        (one,) = links_one
        ann, bob = [await TableClient.connect(link) for link in links[one]]
        await asyncio.gather(play_seat(ann, "a", stop_at=9), play_seat(bob, "b", stop_at=9))
        seen = max(ann.state["seq"], bob.state["seq"])  # type: ignore[index]
        acked_before = seen
        _kill(host)  # in the middle of the game
        await ann.close()
        await bob.close()
        log = (folder / one / "log.jsonl").read_text().splitlines()
        acts = [json.loads(line) for line in log if line]
        assert sum(e["event"] == "act" for e in acts) >= acked_before  # everything shown was written first
        host, links = _start(folder)
        ann, bob = [await TableClient.connect(link) for link in links[one]]
        state = await ann.until(lambda m: m["type"] == "state")
        assert state["seq"] >= acked_before
        assert state["seq"] == sum(e["event"] == "act" for e in acts)  # exactly the log: nothing lost, nothing new
        ends = await asyncio.gather(play_seat(ann, "a2"), play_seat(bob, "b2"))
        assert ends[0]["over"] and ends[1]["over"]
        record = json.loads((folder / one / "record.json").read_text())
        assert len(record["actions"]) == ends[0]["seq"]
        (two,) = set(links_two) - set(links_one)
        cat = await TableClient.connect(links[two][0])
        assert (await cat.until(lambda m: m["type"] == "state"))["seat"] == 0
        await cat.close()
        await ann.close()
        await bob.close()
    finally:
        _kill(host)


async def test_a_torn_last_line_is_dropped_and_the_table_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    process, links = _start(folder, "--mission", "planet-nine/01", "--seats", "human,bot,bot", "--seed", "torn")
    _kill(process)
    (table,) = links
    log = folder / table / "log.jsonl"
    before = len(log.read_text().splitlines())
    with open(log, "ab") as fh:
        fh.write(b'{"event":"act","action":{"seat":0,"ty')  # the host died while writing an event never acknowledged
    process, links = _start(folder)
    try:
        client = await TableClient.connect(links[table][0])
        state = await client.until(lambda m: m["type"] == "state")
        assert state["seq"] >= before
        lines = log.read_text().splitlines()
        assert [json.loads(line)["event"] for line in lines[:before]]  # the torn line is gone, the log reads
        assert all(json.loads(line) for line in lines)
        await client.close()
    finally:
        _kill(process)


_MANY_TABLES_HOST = """
import asyncio, json, sys
from pathlib import Path
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig

async def main(folder, tables):
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    if not host.resume_all() and not folder.exists():
        for i in range(tables):
            host.add(HostedTable.create(folder, TableConfig("crew", "planet-nine/03", 3, f"batch-{i}",
                                                            ["human", "human", "human"]), "fast"))
    await host.start("127.0.0.1", 0)
    print(json.dumps({t.id: [join_link("ws", "127.0.0.1", host.port, t.id, s.code) for s in t.seats if s.code]
                      for t in host.tables.values()}), flush=True)
    await asyncio.Event().wait()

asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
"""


def _start_many(folder: Path, tables: int) -> tuple[subprocess.Popen[str], dict[str, list[str]]]:
    """A host process with ``tables`` new tables of three people (no bot: a restarted host changes nothing by
    itself), or the unfinished tables of ``folder`` resumed; returns the process and each table's links."""
    process = subprocess.Popen([sys.executable, "-c", _MANY_TABLES_HOST, str(folder), str(tables)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    return process, json.loads(process.stdout.readline())


async def _watch(client: TableClient, seen: dict[str, int], over: set[str], table: str) -> None:
    """Play random legal actions and note the highest action count the host acknowledged or showed (and the
    tables seen over)."""

    def note(message: dict[str, Any]) -> None:
        if "seq" in message:
            seen[table] = max(seen.get(table, 0), message["seq"])
        if message.get("over"):
            over.add(table)

    with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):  # the host is killed under it
        await play_seat(client, f"{table}-{client.seat}", watch=note)


async def test_a_host_killed_while_a_batch_of_many_tables_is_being_written_loses_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    process, links = _start_many(folder, 12)
    seen: dict[str, int] = {}
    over: set[str] = set()
    try:
        clients = [(table, await TableClient.connect(link)) for table, pair in links.items() for link in pair]
        players = [asyncio.create_task(_watch(c, seen, over, table)) for table, c in clients]
        def into_their_games() -> bool:  # several tables still playing: appends of many tables in every batch
            return (sum(seen.values()) >= 3 * len(links)
                    and len([t for t in seen if seen[t] >= 3 and t not in over]) >= 4)

        async with asyncio.timeout(120):  # a safety net: the event is the tables' progress, seen by their players
            while not into_their_games() and not all(p.done() for p in players):
                await asyncio.sleep(0.005)
        assert into_their_games(), (seen, over)
        _kill(process)  # the tables are playing: appends are queued and being synced
        await asyncio.gather(*players)
        for _, c in clients:
            await c.close()
    finally:
        if process.poll() is None:
            _kill(process)
    logged = {}
    for table in links:
        lines = (folder / table / "log.jsonl").read_bytes().split(b"\n")
        logged[table] = sum(json.loads(line)["event"] == "act" for line in lines[:-1])  # a torn last line aside
        assert logged[table] >= seen.get(table, 0), f"table {table}: {seen[table]} actions shown, {logged[table]} written"
    assert sum(seen.values()) >= 3 * len(links)
    finished = {table for table in links if (folder / table / "record.json").exists()}
    assert len(finished) < len(links)  # killed while tables were playing
    process, again = _start_many(folder, 0)
    try:
        # a table killed after its last action but before its record was written gets it on resuming: finished
        finished = {table for table in links if (folder / table / "record.json").exists()}
        assert set(again) == set(links) - finished
        for table, pair in again.items():
            client = await TableClient.connect(pair[0])
            state = await client.until(lambda m: m["type"] == "state")
            assert state["seq"] == logged[table]  # every written action, and only those
            await client.close()
        for table in finished:
            assert len(json.loads((folder / table / "record.json").read_text())["actions"]) == logged[table]
    finally:
        _kill(process)
