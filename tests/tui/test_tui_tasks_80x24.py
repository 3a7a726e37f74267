"""The Crew table at 80x24: every task of the bundled missions with the most tasks is in sight without scrolling
(one a line when they fit, else the title on the border and two columns of short cells), and conditions that do
not fit are a few key presses away, the panel saying so."""

from __future__ import annotations

import re
from typing import Any

import pytest
from screen_text import screen_text
from tui_helpers import make_app, open_table, pass_distress

from crewkit.families.trick_taking.tui.table import TasksBox
from crewkit.families.trick_taking.tui.words import short_card

# the most tasks of any bundled mission at each player count (10: planet-nine/47 and /49, in every rule set
# that plays them; JARVIS plays them at 2), and mission 31's six tasks at 4 players (the issue's example)
CASES = [
    pytest.param("crew", "planet-nine/31", 4, id="31-4p"),
    pytest.param("crew", "planet-nine/47", 3, id="47-3p"),
    pytest.param("crew", "planet-nine/47", 4, id="47-4p"),
    pytest.param("crew", "planet-nine/49", 5, id="49-5p"),
    pytest.param("crew-jarvis", "planet-nine/47", 2, id="47-jarvis"),
]


def box_text(app: Any) -> str:
    """The terminal's text inside the tasks panel's border (its title on the top row included)."""
    box = app.screen.query_one("#tasks-box", TasksBox)
    region = box.region
    rows = screen_text(app).splitlines()
    rows += [""] * (region.bottom - len(rows))
    return "\n".join(row[region.x: region.right].ljust(region.width) for row in rows[region.y: region.bottom])


@pytest.mark.parametrize(("ruleset", "mission", "players"), CASES)
async def test_every_task_is_in_sight_at_80x24(services: Any, ruleset: str, mission: str, players: int) -> None:
    app = make_app(services, ruleset=ruleset, mission=mission, players=players, seed="tasks-80")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        if ruleset == "crew-jarvis":
            await pilot.press("home", "enter")  # JARVIS's seat
        await pilot.pause()
        await pilot.pause()
        tasks = table.game.observation(0).tasks
        assert len(tasks) >= 6
        box = table.query_one("#tasks-box", TasksBox)
        assert box.max_scroll_y == 0, "the tasks panel scrolls"
        assert not box.border_subtitle  # no "more below"
        shown = box_text(app)
        assert f"0/{len(tasks)} done" in shown
        assert shown.count("○") + shown.count("✓") == len(tasks)
        for task in tasks:
            assert short_card(task.card) in shown or task.card.name in shown, f"{task.card} is not in sight"
        owners = shown.count("not taken") + sum(shown.count(n) for n in ("You", "Bot ", "JARVIS") if n in shown)
        assert owners >= len(tasks)  # each task's owner, or "not taken", is in its cell


async def test_conditions_are_a_few_keys_away_at_80x24(services: Any) -> None:
    """Mission 41's four conditions (5 players) do not fit under the crew: the border says so, and at most two
    Tabs then at most three ↓ (three lines each) bring the last line in sight."""
    app = make_app(services, mission="planet-nine/41", players=5, seed="tasks-80")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        await pass_distress(pilot)  # the question before trick 1
        await pilot.pause()
        box = table.query_one("#tasks-box", TasksBox)
        assert box.max_scroll_y > 0
        hint = re.search(r"more below: ((?:Tab ?)+), then ↓", box_text(app))
        assert hint is not None, box_text(app)
        tabs = hint.group(1).split()  # from the hand one Tab; from the open choice list (the bookend) two
        assert len(tabs) <= 2, "the tasks panel is more than two Tabs away"
        for _ in tabs:  # the presses the border names reach the panel
            await pilot.press("tab")
        assert box.has_focus
        # two presses in a row, before the screen refreshes, move six lines (a deferred scroll lost the second)
        await pilot.press("down", "down")
        assert box.scroll_y == min(6, box.max_scroll_y)
        await pilot.press("up", "up")
        await pilot.pause()
        assert box.scroll_y == 0
        presses = 0
        trace = [(box.scroll_target_y, box.max_scroll_y, box.has_focus)]
        # the scroll's target, not its animated position: the presses counted, not how fast the frames come
        while box.scroll_target_y < box.max_scroll_y:
            await pilot.press("down")
            await pilot.pause()
            presses += 1
            trace.append((box.scroll_target_y, box.max_scroll_y, box.has_focus))
            assert presses <= 3, f"more than three presses of ↓ to reach the end of the conditions: {trace}"
        assert "trump" in " ".join(box_text(app).split())  # the last condition: no trick won with a trump
