"""The hosted table's review comes as the local screen's does (issue 44: "the table shows a first answer within
1 s and refines"): the host computes a first answer on a small budget and the final review, each once for every
seat, and sends the first marked ``final: false`` before the final one. The plain client announces the first and
prints only the final one. The final computation is held on an event here, so the order is the test's, not the
machine's speed."""

from __future__ import annotations

import asyncio
import io
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from net_helpers import new_table, running_host, seat_link, until_printed

from crewkit.families.trick_taking import review as reviews
from crewkit.net import review as table_reviews
from crewkit.net.client import TableClient
from crewkit.net.plain import FIRST_ANSWER, run_plain
from crewkit.net.protocol import decode
from crewkit.net.table import HostedTable, TableConfig

pytestmark = pytest.mark.timeout(120)


class Gate:
    """``table_review_answer`` counted by kind (first or final); the final one waits for :meth:`open`."""

    def __init__(self) -> None:
        self.calls: list[bool] = []
        self.opened = threading.Event()
        self.real = table_reviews.table_review_answer
        self.firsts: list[Any] = []  # the first answers' reviews
        self.earlier: list[Any] = []  # what each final review was given of the first

    def __call__(self, game: Any, names: Any, *, first: bool = False,
                 earlier: Any = None) -> tuple[dict[str, Any], Any]:
        self.calls.append(first)
        if not first:
            self.opened.wait(90)  # a safety net: the test opens it
            self.earlier.append(earlier)
        out = self.real(game, names, first=first, earlier=earlier)
        if first:
            self.firsts.append(out[1])
        return out

    def open(self) -> None:
        self.opened.set()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    monkeypatch.setattr(reviews, "FINAL_WORLDS", 2)  # the fair blame's figures are the review's own tests'
    monkeypatch.setattr(reviews, "CLOSEST_CALLS", 5)
    held = Gate()
    monkeypatch.setattr(table_reviews, "table_review_answer", held)
    try:
        yield held
    finally:
        held.open()  # never leave the host's thread waiting


def review_of(ident: int, *, final: bool) -> Any:
    return lambda m: (m.get("id") == ident and m["type"] in ("review", "error")
                      and (m["type"] == "error" or m.get("final", True) is final))


async def test_seats_get_the_first_answer_then_the_final_one_each_computed_once(tmp_path: Path,
                                                                               gate: Gate) -> None:
    async with running_host(tmp_path) as host:
        # a deal the fast bots lose in trick 1 (a short game)
        config = TableConfig("crew", "planet-nine/10", 4, "rv47", ["human", "human", "fast", "fast"], {},
                             ["Ann", "Bob"])
        table = host.add(HostedTable.create(host.folder, config, "fast"))
        ann = await TableClient.connect(seat_link(host, table, 0), keep=True)
        bob = await TableClient.connect(seat_link(host, table, 1), keep=True)
        await ann.until(lambda m: m["type"] == "state")
        await table.set_bot(0, True)
        await table.set_bot(1, True)
        await ann.until(lambda m: m["type"] == "state" and m["over"])
        await bob.until(lambda m: m["type"] == "state" and m["over"])
        asked = await asyncio.gather(ann.review(), bob.review())
        firsts = await asyncio.gather(*(c.until(review_of(i, final=False), timeout=60)
                                        for c, i in zip((ann, bob), asked, strict=True)))
        for message in firsts:
            assert message["type"] == "review" and message["final"] is False and message["error"] is None
            assert message["names"][:2] == ["Ann", "Bob"]
            assert message["record"] == table.game.record()
            assert message["review"]["status"] in ("lost", "won", "never-winnable", "unknown")
        gate.open()
        finals = await asyncio.gather(*(c.until(review_of(i, final=True), timeout=60)
                                        for c, i in zip((ann, bob), asked, strict=True)))
        for message in finals:
            assert message["type"] == "review" and message["final"] is True and message["error"] is None
            assert message["review"]["positions"]
        # asked again once the final one is in: the final one only, nothing computed again
        again = await ann.review()
        late = await ann.until(lambda m: m.get("id") == again, timeout=60)
        assert late["type"] == "review" and late["final"] is True
        assert sorted(gate.calls) == [False, True]  # one first answer and one final review, for both seats
        # the final review was given the first's, so its decided positions were not searched again
        assert gate.earlier == gate.firsts and gate.firsts[0] is not None
        for client in (ann, bob):
            mine = [m for m in client.received if m["type"] == "review"]
            assert [m["final"] for m in mine] == ([False, True, True] if client is ann else [False, True])
            over = next(i for i, m in enumerate(client.received) if m["type"] == "state" and m["over"])
            assert all(m["type"] != "review" for m in client.received[:over])  # no hand before the end
            for raw in client.raw:
                decode(raw, sender="host")  # every message the host sent is of the protocol
        await ann.close()
        await bob.close()


def test_a_review_message_without_final_is_final() -> None:
    """An older host's message (no ``final``) is of the protocol and counts as final."""
    import json

    old = {"type": "review", "id": 3, "record": {}, "names": ["Ann"], "review": None, "error": "none"}
    assert decode(json.dumps(old), sender="host")["type"] == "review"
    assert review_of(3, final=True)(old) and not review_of(3, final=False)(old)


async def test_the_plain_client_announces_the_first_answer_and_prints_the_final_one(tmp_path: Path,
                                                                                   gate: Gate) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/10", ["human", "fast", "fast", "fast"], seed="rv47",
                          names=["Ann", "Bob", "Cat", "Dan"])
        typed: queue.Queue[str] = queue.Queue()
        out = io.StringIO()
        plain = asyncio.create_task(run_plain(seat_link(host, table, 0), None, lines=typed.get, out=out))
        for _ in range(2000):  # a safety net, never asserted on
            if table.seats[0].connected:
                break
            await asyncio.sleep(0.01)
        await table.set_bot(0, True)
        await until_printed(out, "Game over.")
        typed.put("w")
        await until_printed(out, FIRST_ANSWER, rounds=3000)
        assert FIRST_ANSWER in out.getvalue() and "Where it went wrong" not in out.getvalue()
        gate.open()
        await until_printed(out, "Where it went wrong")
        typed.put("q")
        assert await asyncio.wait_for(plain, 30) == 0
        shown = out.getvalue()
        assert shown.count("Where it went wrong") == 1 and shown.count(FIRST_ANSWER) == 1
        assert "positions solved (after N actions: winnable?)" in shown[shown.index("Where it went wrong"):]
