"""Not Alone's end screen: ``w`` (the trick-taking end's "where it went wrong") says there is no review."""

from __future__ import annotations

import asyncio
import random

from hunt_helpers import make_hunt_app, play_to_end
from textual.widgets import Static

from crewkit.families.not_alone.tui.end import HuntEndScreen


def test_w_says_there_is_no_review() -> None:
    async def run() -> None:
        app = make_hunt_app(players=3, side="hunted", seed="a")
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, random.Random("hunted"))
            assert isinstance(app.screen, HuntEndScreen)
            await pilot.press("w")
            await pilot.pause()
            assert isinstance(app.screen, HuntEndScreen)
            assert HuntEndScreen.NO_REVIEW in str(app.screen.query_one("#hunt-end-text", Static).render())

    asyncio.run(run())
