"""A click on a panel never strands the keys: while the task draft's list waits for Ann's choice, a click on the
tasks panel and one on her hand (no card to choose during the draft) leave the keys with the list, so ↓ moves it
and Enter takes the task it is on. (The tasks panel takes the keys with Tab; the hand with a click when it has a
card to choose.)"""

from __future__ import annotations

from pathlib import Path

from test_tui_join import hosted, joined, settle, settle_until
from textual.widgets import OptionList

from crewkit.tui.seat import SeatApp


async def test_a_click_on_a_panel_leaves_the_keys_with_the_list(tmp_path: Path) -> None:
    # planet-nine/04 with this seed: Ann, the commander, chooses first among three tasks
    async with hosted(tmp_path, ["human", "fast", "fast"], "web-f0", ["Ann", "Cat", "Dan"],
                      mission="planet-nine/04") as (host, table):
        session = await joined(host, table, 0, "Ann")
        offered = [a["card"] for a in (session.state or {})["legal"]]
        app = SeatApp(session)
        async with app.run_test(size=(100, 28)) as pilot:
            await settle(pilot)
            assert isinstance(app.focused, OptionList) and len(offered) == 3
            await pilot.press("down")
            for panel in ("#tasks-box", "#hand"):
                await pilot.click(panel, offset=(5, 2))
                await settle(pilot)
                assert isinstance(app.focused, OptionList), f"a click on {panel} took the keys: {app.focused}"
            await pilot.press("down", "enter")
            await settle_until(pilot, lambda: bool(table.game.actions), "Ann's task")
            assert table.game.actions[0].to_json() == {"seat": 0, "type": "take-task", "card": offered[2]}
        await session.client.close()
