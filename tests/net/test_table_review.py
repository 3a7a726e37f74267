"""The hosted table's review: after the game ends every seat may ask for it; the host computes it once for all
seats and sends it with the game's record (every hand: the game is over). Before the end it is refused and no
hand of another seat is ever sent."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from net_helpers import running_host, seat_link

from crewkit.families.trick_taking import review as reviews
from crewkit.net import review as table_reviews
from crewkit.net.client import TableClient
from crewkit.net.protocol import decode
from crewkit.net.table import HostedTable, TableConfig

pytestmark = pytest.mark.timeout(120)


async def answer(client: TableClient, ident: int) -> dict[str, Any]:
    return await client.until(lambda m: m.get("id") == ident and m["type"] in ("review", "error")
                              and m.get("final", True), timeout=60)  # the final one (a first answer may come before)


async def test_every_seat_gets_the_hosts_one_review_after_the_end(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "FINAL_WORLDS", 2)  # the fair blame's figures are the review's own tests'
    monkeypatch.setattr(reviews, "CLOSEST_CALLS", 5)
    computed: list[int] = []
    real = table_reviews.table_review_answer

    def counted(*args: Any, first: bool = False, earlier: Any = None) -> tuple[dict[str, Any], Any]:
        if not first:  # the final review (the first answers: tests/net/test_table_review_first.py)
            computed.append(1)
        return real(*args, first=first, earlier=earlier)

    monkeypatch.setattr(table_reviews, "table_review_answer", counted)
    async with running_host(tmp_path) as host:
        # a deal the fast bots lose in trick 1 (10 actions: a short game)
        config = TableConfig("crew", "planet-nine/10", 4, "rv47", ["human", "human", "fast", "fast"], {},
                             ["Ann", "Bob"])
        table = host.add(HostedTable.create(host.folder, config, "fast"))
        ann = await TableClient.connect(seat_link(host, table, 0), keep=True)
        bob = await TableClient.connect(seat_link(host, table, 1), keep=True)
        await ann.until(lambda m: m["type"] == "state")
        early = await answer(ann, await ann.review())
        assert early["type"] == "error" and early["code"] == "not-over" and "once the game is over" in early["message"]
        await table.set_bot(0, True)
        await table.set_bot(1, True)
        await ann.until(lambda m: m["type"] == "state" and m["over"])
        await bob.until(lambda m: m["type"] == "state" and m["over"])
        first, second = await asyncio.gather(ann.review(), bob.review())
        got = await asyncio.gather(answer(ann, first), answer(bob, second))
        again = await answer(ann, await ann.review())
        assert len(computed) == 1  # once for every seat, and once only
        for message in (*got, again):
            assert message["type"] == "review" and message["error"] is None
            assert message["names"][:2] == ["Ann", "Bob"]
            assert message["record"] == table.game.record()  # every hand: the game is over
            assert message["review"]["status"] in ("lost", "won", "never-winnable", "unknown")
            assert message["review"]["positions"]
        # no message before the game's end carried the deal (another seat's hand)
        for client in (ann, bob):
            over = next(i for i, m in enumerate(client.received) if m["type"] == "state" and m["over"])
            assert all(m["type"] != "review" for m in client.received[:over])
            for raw in client.raw:
                decode(raw, sender="host")  # every message the host sent is of the protocol
        await ann.close()
        await bob.close()
