"""``crewkit join --plain`` prints the table's news in the words of the table's log panel (``Task revealed: pink
1``, ``Bob plays …``), with names, never the host's event codes (``task-revealed pink 1 1``)."""

from __future__ import annotations

import asyncio
import io
import queue
import re
from pathlib import Path

import pytest
from net_helpers import new_table, running_host, seat_link

from crewkit.net.plain import run_plain

pytestmark = pytest.mark.timeout(120)

CODES = re.compile(r"^  (task-revealed|task-taken|trick|play|communicate|commander|deal|trick-start|pass) ", re.M)


async def test_the_plain_client_prints_the_tables_words(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/02", ["human", "fast", "fast"], seed="words",
                          names=["Ann", "Bob", "Cat"])
        typed: queue.Queue[str] = queue.Queue()
        out = io.StringIO()
        plain = asyncio.create_task(run_plain(seat_link(host, table, 0), None, lines=typed.get, out=out))
        for _ in range(2000):  # Ann's seat to a bot: the game plays itself; a safety net, never asserted on
            if table.seats[0].connected:
                break
            await asyncio.sleep(0.01)
        await table.set_bot(0, True)
        for _ in range(6000):
            if "Game over." in out.getvalue():
                break
            await asyncio.sleep(0.02)
        typed.put("q")
        assert await asyncio.wait_for(plain, 30) == 0
        shown = out.getvalue()
        assert "Game over." in shown
        assert not CODES.search(shown), CODES.search(shown)
        assert "Task revealed: " in shown and "seat " not in shown
        assert re.search(r"^  (You|Bob|Cat) (play|plays) ", shown, re.M), shown[:2000]
