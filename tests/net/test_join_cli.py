"""``crewkit join`` with its output not a terminal (or ``--plain``) plays the seat with the plain line client."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from net_helpers import new_table, running_host, seat_link

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("plain", [False, True])
async def test_join_with_a_pipe_for_output_uses_the_plain_client(tmp_path: Path, plain: bool) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="cli")
        args = [sys.executable, "-m", "crewkit", "join", seat_link(host, table, 0), "--name", "Ann"]
        proc = await asyncio.create_subprocess_exec(*args, *(["--plain"] if plain else []),
                                                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                                                    stderr=asyncio.subprocess.PIPE, env={**os.environ})
        assert proc.stdout is not None and proc.stdin is not None
        first = await asyncio.wait_for(proc.stdout.readline(), 30)
        assert b"You are Ann" in first, first  # the plain client's first line, not a Textual screen
        proc.stdin.write(b"q\n")
        await proc.stdin.drain()
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        assert proc.returncode == 0, err
        assert b"\x1b[" not in first + out  # no terminal escape sequences: lines only


def test_a_fresh_client_reads_every_action_of_the_host() -> None:
    """The table client opens no game, so nothing else registers the blocks' action readers: in a fresh
    interpreter (as ``crewkit join`` runs) it still reads a draft's ``take-task`` (it once offered nothing)."""
    code = ("from crewkit.families.trick_taking.tui.remote import JoinSetup, RemoteObservation, compile_rules\n"
            "rules = compile_rules(JoinSetup('crew', 'planet-nine/01', 3, {}))\n"
            "from crewkit.engine.actions import action_from_json\n"
            "print(type(action_from_json({'seat': 0, 'type': 'take-task', 'card': 'blue 3'}, rules.deck)).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "TakeTask"
