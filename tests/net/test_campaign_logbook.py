"""A campaign at a hosted table keeps the crew's logbook on the host (``logbook.sqlite3`` in the table folder,
the format ``crewkit play`` writes) and ``crewkit campaign status --logbook`` reads it. An attempt counts once
when its game ends, as at the terminal table: a host killed mid-game and restarted, or killed after the last
action but before the logbook was written, neither loses the attempt nor counts it twice. Real ``crewkit host``
processes on a loopback port, real clients."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from net_helpers import play_seat
from test_restart import _kill, _start

from crewkit.campaign.store import Logbook
from crewkit.net.client import TableClient

pytestmark = pytest.mark.timeout(240)

MISSION = "planet-nine/02"


def _status(logbook: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "crewkit", "campaign", "status", "--campaign", "planet-nine",
                           "--logbook", str(logbook), "--format", "json"], capture_output=True, text=True,
                          env=os.environ, timeout=120)
    assert done.returncode == 0, done.stderr
    status: dict[str, Any] = json.loads(done.stdout)
    return status


def _line(status: dict[str, Any], mission: str) -> dict[str, Any]:
    found = [m for m in status["missions"] if m["mission"] == mission]
    assert found, json.dumps(status)
    line: dict[str, Any] = found[0]
    return line


async def test_a_campaign_table_counts_each_attempt_once_in_the_hosts_logbook(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    logbook = folder / "logbook.sqlite3"
    host, links = _start(folder, "--campaign", "planet-nine", "--mission", MISSION, "--seats", "human,human,bot",
                         "--seed", "crew-1")
    (table,) = links
    try:  # the tasks taken, no trick played yet (the game cannot be over), then the host is killed
        ann, bob = [await TableClient.connect(link) for link in links[table]]
        await asyncio.gather(play_seat(ann, "a", stop_at=2), play_seat(bob, "b", stop_at=2))
    finally:
        _kill(host)
    await ann.close()
    await bob.close()
    with Logbook.open(logbook, read_only=True) as book:  # a missing logbook reads as empty
        assert book.attempts() == []
    host, links = _start(folder)  # resumed: played to its end
    try:
        ann, bob = [await TableClient.connect(link) for link in links[table]]
        ends = await asyncio.gather(play_seat(ann, "a2"), play_seat(bob, "b2"))
        assert ends[0]["over"]
        await ann.close()
        await bob.close()
    finally:
        _kill(host)
    result = ends[0]["outcome"]["result"]
    record = folder / table / "record.json"
    with Logbook.open(logbook, read_only=True) as book:
        (attempt,) = book.attempts()
    assert (attempt.campaign, attempt.mission, attempt.players, attempt.result) == ("planet-nine", MISSION, 3, result)
    assert attempt.record_path == str(record) and attempt.seed == "crew-1"
    distress = any(a["type"] == "distress" for a in json.loads(record.read_text())["actions"])
    assert attempt.distress_used == distress
    line = _line(_status(logbook), MISSION)
    assert line["attempts"] == 1 + (1 if distress and result == "success" else 0)
    assert line["done"] == (result == "success")
    # a host restarted on the folder counts nothing again
    host, _ = _start(folder, "--mission", "planet-nine/01", "--seats", "human,bot,bot")
    _kill(host)
    with Logbook.open(logbook, read_only=True) as book:
        assert len(book.attempts()) == 1
    # killed after the last action was written but before the record and the logbook: the restart counts it
    record.unlink()
    for side in folder.glob("logbook.sqlite3*"):
        side.unlink()
    for _ in range(2):
        host, _ = _start(folder, "--mission", "planet-nine/01", "--seats", "human,bot,bot")
        _kill(host)
        with Logbook.open(logbook, read_only=True) as book:
            (again,) = book.attempts()
        assert (again.mission, again.result, again.record_path) == (MISSION, result, str(record))
        assert json.loads(record.read_text())["actions"]


async def test_a_table_without_a_campaign_writes_no_logbook(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    host, links = _start(folder, "--mission", "planet-nine/01", "--seats", "human,bot,bot", "--seed", "free")
    try:
        (table,) = links
        client = await TableClient.connect(links[table][0])
        end = await play_seat(client, "x")
        assert end["over"]
        await client.close()
    finally:
        _kill(host)
    assert (folder / table / "record.json").exists()
    assert not (folder / "logbook.sqlite3").exists()


def test_campaign_status_names_a_missing_logbook(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "crewkit", "campaign", "status", "--logbook",
                           str(tmp_path / "nowhere.sqlite3")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "nowhere.sqlite3" in done.stderr and "Traceback" not in done.stderr
