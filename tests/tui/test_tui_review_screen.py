"""The review screen at 80x24: the tricks one at a time with ← →, every hand, the solver's marks."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.widgets import Static

from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.tui.review import ReviewScreen


def failed_game() -> Game:
    for k in range(40):
        game = new_game("crew", "planet-nine/10", 4, f"screen:{k}")
        play_game(game, [make_bot("fast", s, f"screen:{k}") for s in range(4)])
        if game.outcome().result != "success":
            return game
    raise AssertionError("no failed game in 40 deals")


def test_review_screen_steps_through_the_tricks() -> None:
    game = failed_game()
    names = ["Ann", "Bob", "Cem", "Dee"]

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReviewScreen(game, names))

    async def run() -> None:
        app = Host()
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            for _ in range(600):  # the review runs in a worker thread: wait for it
                if screen.review is not None or screen.error:
                    break
                await pilot.pause(0.05)
            assert screen.review is not None
            text = str(screen.query_one("#review-text", Static).render())
            assert "Trick 1 of" in text and "before it:" in text and "Ann" in text
            tp = screen.review.turning_point
            if tp is not None:
                target = next(k for k, s in enumerate(screen.starts) if s > tp["action_index"]) - 1 \
                    if tp["action_index"] < screen.starts[-1] else len(screen.starts) - 1
                for _ in range(target):
                    await pilot.press("right")
                assert screen.trick == target
                text = str(screen.query_one("#review-text", Static).render())
                assert "(lost the mission)" in text
                await pilot.press("right")
                if screen.trick > target:
                    assert "before it: lost" in str(screen.query_one("#review-text", Static).render())
            await pilot.press("left")
            await pilot.press("escape")
            assert not isinstance(app.screen, ReviewScreen)

    asyncio.run(run())
