"""Issue 17's "done when", driven through the app by keys: mission 1 won at 80x24 and at 120x40 (every key
and the end dialog with its record path on screen), the distress signal called in mission 3 at the default bot
delay (no --delay), and the saved attempt in the campaign list at 80 columns."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tui_helpers import find_seed, make_app, open_table, play_steps, play_to_end, settle, text_of

from crewkit.families.trick_taking.tui.dialogs import DistressScreen
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.dialogs import ChoiceScreen
from crewkit.tui.services import Services, progress_of

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
async def test_win_mission_1(services: Services, size: tuple[int, int]) -> None:
    app = make_app(services, seed=find_seed("success"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        await open_table(pilot)  # Enter on the campaign list, Enter on the briefing
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        text = text_of(app)
        assert "MISSION ACCOMPLISHED" in text
        paths = list((services.home() / "records").glob("planet-nine-01-*.json"))
        assert len(paths) == 1
        joined = "".join(line.strip(" █│") for line in text.splitlines())  # a long path wraps inside the dialog
        assert f"Game record:{paths[0]}" in joined.replace("Game record: ", "Game record:")
        assert "n: next mission" in text and "q: quit" in text  # the end dialog's keys are not cut
    row = progress_of(services.logbook, "planet-nine", ["planet-nine/01"])[0]
    assert row.done and row.attempts == 1


async def test_distress_in_mission_3_at_the_default_delay(home: Path, services: Services) -> None:
    """No --delay and no fast mode: the table waits for the human's answer before any bot communicates."""
    app = CrewApp(PlayOptions(seed="done-when", mission="planet-nine/03"), services=services)
    assert app.options.bot_delay > 0
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        assert isinstance(table, TableScreen)
        for _ in range(400):  # the draft at the bots' pace; our picks by keys
            await pilot.pause(0.05)
            if isinstance(app.screen, DistressScreen):
                break
            if isinstance(app.screen, TableScreen) and table._other_actions and table.session.g.to_act == 0:
                await pilot.press("home", "enter")
        assert isinstance(app.screen, DistressScreen) and app.screen.ask
        game = table.session.g
        await pilot.pause(2.0)  # bots wait: nobody has communicated, the window is still open
        assert not game.communications and isinstance(app.screen, DistressScreen)
        assert "Distress signal: call it or pass" in text_of(app)
        await pilot.press("home", "down", "enter")  # "cards go to the left"
        await settle(pilot)
        assert game.distress_direction == "left"
        await pilot.press("home", "enter")  # the card to pass
        for _ in range(200):
            await pilot.pause(0.05)
            if not isinstance(app.screen, DistressScreen):
                break
        assert any(a.type == "distress" and a.seat == 0 for a in game.actions)
        assert any(a.type == "pass-card" and a.seat == 0 for a in game.actions)


async def test_saved_attempt_in_the_campaign_list_at_80_columns(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot)
        await play_steps(pilot, 5)
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("home", "enter")
        await settle(pilot)
    app2 = make_app(services, seed=find_seed("success"))
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        row = next(line for line in text_of(app2).splitlines() if "First contact" in line)
        assert "⏸ saved attempt" in row  # the whole status word fits in 80 columns


@pytest.mark.parametrize("size", SIZES)
async def test_80x24_draft_leaves_the_log_readable(services: Services, size: tuple[int, int]) -> None:
    """A list of choices open at 80x24 (the task draft): the empty trick panel and the list's border give way,
    the log keeps several lines; at 120x40 the trick panel stays."""
    from textual.widgets import OptionList

    from crewkit.families.trick_taking.tui.log import EventLog
    from crewkit.families.trick_taking.tui.trick import TrickView

    short = size[1] < 30
    app = make_app(services, seed="draft-log", mission="planet-nine/11")
    async with app.run_test(size=size) as pilot:
        table = await open_table(pilot)
        for _ in range(20):
            await settle(pilot)
            if table._other_actions and table.session.g.to_act == 0:
                break
            await pilot.press("space")
        assert table.query_one("#actions", OptionList).display
        assert table.query_one("#trick", TrickView).display is not short
        log = table.query_one("#log", EventLog)
        assert log.content_size.height >= (5 if short else 10)
        text = text_of(app)
        assert "Task revealed" in text and "Choose a task" in text


async def test_80x24_tasks_panel_says_tab_scrolls_it(services: Services) -> None:
    """Mission 41 at 80x24 with 5 players: its four conditions do not fit; the panel's border says so and how
    (Tab, then ↓); Tab focuses it, ↓ scrolls it; the help lists Tab among the keys."""
    from textual.containers import VerticalScroll

    app = make_app(services, seed="tab-scroll", mission="planet-nine/41", players=5)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        await settle(pilot)
        box = table.query_one("#tasks-box", VerticalScroll)
        assert box.max_scroll_y > 0
        hint = re.search(r"more below: ((?:Tab ?)+), then ↓", text_of(app))
        assert hint is not None, text_of(app)
        for _ in hint.group(1).split():  # the presses the hint names, no more: it must count them right
            await pilot.press("tab")
            await settle(pilot)
        assert box.has_focus
        assert "↑ ↓ scroll" in text_of(app)
        await pilot.press("down", "down")
        await settle(pilot)
        assert box.scroll_y > 0
        await pilot.press("question_mark")
        await settle(pilot)
        help_text = text_of(app)
        assert "Tab" in help_text and "the tasks" in help_text and "scroll them" in help_text


async def test_80x24_tasks_hint_counts_the_tabs_from_an_open_choice_list(services: Services) -> None:
    """With the choice list open (communicating), the tasks panel is two Tabs away: the border says so, and
    that many presses reach it."""
    from textual.containers import VerticalScroll
    from textual.widgets import OptionList

    app = make_app(services, seed="tab-scroll", mission="planet-nine/41", players=5)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        actions = table.query_one("#actions", OptionList)
        assert actions.has_focus, text_of(app)
        box = table.query_one("#tasks-box", VerticalScroll)
        hint = re.search(r"more below: ((?:Tab ?)+), then ↓", text_of(app))
        assert hint is not None and hint.group(1).split() == ["Tab", "Tab"], text_of(app)
        for _ in range(2):
            await pilot.press("tab")
            await settle(pilot)
        assert box.has_focus
