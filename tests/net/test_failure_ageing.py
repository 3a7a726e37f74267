"""The code limit's failures age: an address refused after too many wrong codes is served again once its failures
are older than ``failure_window`` (and not before). A controlled clock in the host's module: no real waiting."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from net_helpers import LOOPBACK, links, new_table, running_host

import crewkit.net.server as server
from crewkit.net.client import JoinRefused, TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Limits

pytestmark = pytest.mark.timeout(120)


class Clock:
    """``time`` as the host's module sees it, with ``monotonic`` moved on by hand (the event loop keeps the
    real one)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


async def test_an_address_refused_for_its_wrong_codes_is_served_again_once_they_age(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(server, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    async with running_host(tmp_path, Limits(failures=3, failure_window=30, ping_interval=None)) as host:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"])
        right = links(host, table)[0]

        async def refusal(link: str) -> str:
            with pytest.raises(JoinRefused) as refused:
                await TableClient.connect(link)
            return refused.value.code

        for i in range(3):  # three wrong codes, ten seconds apart
            assert await refusal(join_link("ws", LOOPBACK, host.port, table.id, f"guess{i}")) == "bad-code"
            clock.now += 10
        # at 1030: the first failure (1000) is 30 s old, not older: the address is still refused
        assert await refusal(right) == "rate-limited"
        clock.now += 0.5  # the first has aged: two failures within the window, under the limit of three
        client = await TableClient.connect(right)
        assert client.seat == 0
        await client.close()
        assert len(host.failures[LOOPBACK]) == 2  # the aged one dropped, the two recent ones kept
        clock.now += 30  # all aged: the address is forgotten
        assert await refusal(join_link("ws", LOOPBACK, host.port, table.id, "guess-again")) == "bad-code"
        assert len(host.failures[LOOPBACK]) == 1
