"""The per-person setting "pass the communication window unless I press c" at a hosted table: with it on, Ann's
seat answers each window "nothing to say" by itself (the host's journal has her pass; the table then waits for
Bob only); pressed ``c`` before, the window waits for her answer. Off (the default), the window waits for her."""

from __future__ import annotations

import json
from pathlib import Path

from test_tui_join import SIZE, ann_and_bob, settle, settle_until

from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.tui.settings import Settings


def _passes(table: object) -> list[int]:
    log = (table.folder / "log.jsonl").read_text().splitlines()  # type: ignore[attr-defined]
    return [e["seat"] for e in map(json.loads, log) if e.get("event") == "pass"]


async def test_the_setting_passes_the_window_by_itself(tmp_path: Path) -> None:
    async with ann_and_bob(tmp_path, "join-x") as (table, session, bob, app):
        app.settings = Settings(pass_window=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            await pilot.press("home", "enter")  # Ann, the commander, takes the one task: the window opens
            for _ in range(200):  # a safety net, never asserted on
                await settle(pilot)
                if 0 in _passes(table):
                    break
            assert _passes(table) == [0]  # Ann's seat passed by itself; Bob's answer is still awaited
            assert table.window_pending() == [1]
            waiting = "waiting for Bob to communicate or pass"
            # the host's next state reaches her screen after the journal has her pass
            await settle_until(pilot, lambda: screen.status_text == waiting, "her screen waiting for Bob")
            assert screen.status_text == waiting


async def test_without_the_setting_the_window_waits_for_the_person(tmp_path: Path) -> None:
    async with ann_and_bob(tmp_path, "join-x") as (table, session, bob, app):
        app.settings = Settings(pass_window=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("home", "enter")
            await settle(pilot)
            await settle(pilot)
            assert (session.state or {}).get("window") and _passes(table) == []
            assert table.window_pending() == [0, 1]
