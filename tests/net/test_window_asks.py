"""The communication window asks only those who can still communicate: once Ann has used her token, the next
windows of the game never wait for her (the host's ``window_pending``), while Bob, who has not, is asked."""

from __future__ import annotations

import random
from pathlib import Path

from net_helpers import new_table, running_host

from crewkit.net.table import HostedTable


async def _answer(table: HostedTable, rng: random.Random, ann_speaks: bool) -> None:
    """One answer of a person: Ann communicates at her first chance when ``ann_speaks``; else a pass or a play."""
    pending = table.window_pending()
    if pending:
        seat = pending[0]
        speak = [a for a in table.game.legal_actions(seat) if a.type == "communicate"]
        if seat == 0 and ann_speaks and speak:
            await table.act(0, speak[0].to_json())
        else:
            await table.pass_window(seat)
        return
    seat = table.waiting_seats()[0]
    required = [a for a in table.game.legal_actions(seat) if a.type not in ("communicate", "distress", "signal")]
    await table.act(seat, rng.choice(required).to_json())


async def test_a_used_token_is_never_asked_again(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/02", ["human", "human", "fast"], seed="asks",
                          names=["Ann", "Bob", "Cat"])
        rng = random.Random(3)
        asked_after: list[list[int]] = []
        for _ in range(400):
            if table.game.is_over():
                break
            while await table.bot_step():
                pass
            if table.game.is_over():
                break
            used = table.game.engine.comm_used[0]
            if used and table.window_pending():
                asked_after.append(table.window_pending())
            await _answer(table, rng, ann_speaks=True)
        assert any(c.seat == 0 for c in table.game.engine.communications)  # Ann spoke
        assert asked_after, "no window opened after Ann spoke"
        assert all(0 not in pending for pending in asked_after)
        assert any(1 in pending for pending in asked_after)  # Bob, with his token, is still asked
