"""A host killed with kill -9 and started again on the same table folder resumes every table, nothing lost:
real ``crewkit host`` processes on a free loopback port, real clients."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from net_helpers import play_seat

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
