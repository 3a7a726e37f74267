"""The end screen's ``w`` ("where it went wrong") opens the review screen at 80x24."""

from __future__ import annotations

from tui_helpers import find_seed, play_to_end, settle, text_of

from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.review import ReviewScreen
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.services import Services


async def test_w_opens_the_review_after_a_failed_mission(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True, seed=find_seed("failure"), mission="planet-nine/01"), services=services)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        assert "w: where it went wrong" in app.screen.body().plain
        await pilot.press("w")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        for _ in range(600):  # the solver runs in a worker thread
            if screen.review is not None or screen.error:
                break
            await pilot.pause(0.05)
        assert screen.review is not None
        assert "WHERE IT WENT WRONG" in text_of(app) and "Trick 1 of" in text_of(app)
        await pilot.press("right")
        await settle(pilot)
        assert screen.trick == 1
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
