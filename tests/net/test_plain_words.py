"""``crewkit join --plain`` prints the table's news in the words of the table's log panel (``Task revealed: pink
1``, ``Bob plays …``), with names, never the host's event codes (``task-revealed pink 1 1``)."""

from __future__ import annotations

import asyncio
import io
import queue
import re
from pathlib import Path

import pytest
from net_helpers import new_table, running_host, seat_link, until_printed

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
        await until_printed(out, "Game over.")
        typed.put("q")
        assert await asyncio.wait_for(plain, 30) == 0
        shown = out.getvalue()
        assert "Game over." in shown
        assert not CODES.search(shown), CODES.search(shown)
        assert "Task revealed: " in shown and "seat " not in shown
        assert re.search(r"^  (You|Bob|Cat) (play|plays) ", shown, re.M), shown[:2000]


async def test_the_plain_client_shows_the_review_once_the_game_is_over(tmp_path: Path) -> None:
    """``w`` at the plain client (issue 44): before the end, the review is refused in words; after it, the host's
    review is printed as ``crewkit review`` words it (the outcome, the positions solved), with names."""
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/02", ["human", "fast", "fast"], seed="words",
                          names=["Ann", "Bob", "Cat"])
        typed: queue.Queue[str] = queue.Queue()
        out = io.StringIO()
        plain = asyncio.create_task(run_plain(seat_link(host, table, 0), None, lines=typed.get, out=out))
        await until_printed(out, "Your hand: ")
        typed.put("w")
        await until_printed(out, "opens once the game is over")
        await table.set_bot(0, True)
        await until_printed(out, "Game over.")
        typed.put("w")
        await until_printed(out, "Where it went wrong", "No review")
        typed.put("q")
        assert await asyncio.wait_for(plain, 30) == 0
        shown = out.getvalue()
        assert "The review opens once the game is over" in shown
        review = shown[shown.index("Where it went wrong"):]
        assert re.search(r"^  (lost|won|never winnable|undecided): ", review, re.M), review
        assert "positions solved (after N actions: winnable?)" in review
        assert "seat " not in review
