"""The compare screen: opened by its key from the campaign, a small paired comparison, errors in the screen."""

from __future__ import annotations

import re
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, ProgressBar, Static
from tui_helpers import SIZE, text_of

from crewkit.analysis.compare import compare, parse_variant
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.compare import CompareScreen
from crewkit.tui.services import Services

SPEC_4 = "ruleset=crew,mission=planet-nine/04,players=4,bot=random"
SPEC_3 = "ruleset=crew,mission=planet-nine/04,players=3,bot=random"


async def wait_for(pilot: Pilot[int], done: Callable[[], bool], rounds: int = 600) -> None:
    """Pause until ``done()`` holds (the comparison runs in a worker thread); at most ``rounds`` pauses."""
    for _ in range(rounds):
        if done():
            await pilot.pause()  # the last change laid out and drawn: what the screen says is what it shows
            return
        await pilot.pause(0.05)
    raise AssertionError(f"the compare screen did not finish in time: {text_of(pilot.app)}")


async def open_compare(pilot: Pilot[int]) -> CompareScreen:
    app = pilot.app
    await pilot.pause()
    assert isinstance(app.screen, CampaignScreen)
    await pilot.press("v")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, CompareScreen)
    return screen


def error_text(screen: CompareScreen) -> str:
    return str(screen.query_one("#compare-error", Static).content)


async def test_compare_runs_and_shows_table(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True), services=services)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(pilot)
        # prefilled form
        assert "players=4" in screen.query_one("#variant-1", Input).value
        assert "players=3" in screen.query_one("#variant-2", Input).value
        assert screen.query_one("#compare-games", Input).value == "40"
        screen.query_one("#variant-1", Input).value = SPEC_4
        screen.query_one("#variant-2", Input).value = SPEC_3
        screen.query_one("#compare-games", Input).value = "6"
        screen.query_one("#variant-1", Input).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result is not None or error_text(screen) != "")
        assert error_text(screen) == ""
        assert screen.result is not None
        assert screen.query_one("#compare-table", DataTable).row_count == 2

        text = text_of(app)
        assert "players=4" in text and "players=3" in text
        assert "[1]" in text and "[2]" in text
        assert re.search(r"\d+\.\d%", text)
        assert "McNemar p" in text and "95% interval" in text
        assert "Bot success" in text and "|" in text  # the text bar chart
        assert "Winnable" not in text  # the solver is off by default
        assert all(len(line) <= SIZE[0] for line in text.splitlines())

        # the numbers are the library's: the same paired deals give the same rates
        expected = compare([parse_variant(SPEC_4), parse_variant(SPEC_3)], 6, "compare", solver=False)
        for r in expected.results:
            assert f"{100 * r.success_rate:5.1f}%".strip() in text
        assert f"{expected.pairs[0].mcnemar.p_value:.3g}" in text

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CampaignScreen)


async def test_compare_bad_specs_show_the_library_message(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True), services=services)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(pilot)
        screen.query_one("#compare-games", Input).value = "2"

        # a malformed spec: caught when the form is read
        screen.query_one("#variant-2", Input).value = "players"
        await pilot.click("#compare-run")
        await pilot.pause()
        assert "is not key=value" in error_text(screen)
        assert "Traceback" not in text_of(app)

        # an unknown rule set: the library's loader says so, from the worker thread
        spec = "ruleset=no-such-rules,mission=planet-nine/04,players=4,bot=random"
        screen.query_one("#variant-2", Input).value = spec
        screen.query_one("#variant-2", Input).focus()
        await pilot.press("enter")  # (a second click within the button's 0.2 s press effect would be ignored)
        await wait_for(pilot, lambda: error_text(screen) != ""
                       and screen.running is not None and not screen.running.is_running)
        assert "unknown rule set 'no-such-rules'" in error_text(screen)
        assert screen.result is None
        assert "unknown rule set" in text_of(app)
        assert isinstance(app.screen, CompareScreen)


async def test_compare_palette_entry_and_typing(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Compare variants" in titles
        screen = await open_compare(pilot)
        # "v" typed into a field is text, not the key that opens the screen
        seed = screen.query_one("#compare-seed", Input)
        seed.value = ""
        seed.focus()
        await pilot.press("v", "1")
        assert seed.value == "v1"
        assert app.screen is screen

        # a long run: the UI stays live (the progress bar moves) and Escape cancels it, a second Escape goes back
        screen.query_one("#compare-games", Input).value = "5000"
        await pilot.press("enter")
        bar = screen.query_one("#compare-progress", ProgressBar)
        await wait_for(pilot, lambda: (bar.progress or 0) > 0)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert "Cancelled" in str(screen.query_one("#compare-status", Static).content)
        assert screen.running is not None and not screen.running.is_running
        assert screen.result is None
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CampaignScreen)
        assert "Compare" in text_of(app)  # the key is shown in the footer
