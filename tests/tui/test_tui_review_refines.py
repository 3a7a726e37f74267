"""The review screen answers first on a small budget, marked provisional, then refines in its worker without
blocking the screen: the final answer is held back here until the test has seen the first (events, no clock)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Static

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.tui.review import ReviewScreen
from tests.review.lost_games import lost_game


class Host(App[None]):
    def __init__(self, screen: ReviewScreen) -> None:
        super().__init__()
        self.review_screen = screen
        self.answers: list[bool] = []
        self.answered = asyncio.Event()

    def on_mount(self) -> None:
        self.push_screen(self.review_screen)

    def on_review_screen_answered(self, message: ReviewScreen.Answered) -> None:
        self.answers.append(message.provisional)
        self.answered.set()


async def next_answer(app: Host) -> None:
    await asyncio.wait_for(app.answered.wait(), 120)  # a safety net, not a speed check
    app.answered.clear()


async def test_first_answer_is_provisional_then_the_final_one_replaces_it(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    final = reviews.final_review

    def held(*args: Any) -> reviews.Review:
        assert release.wait(120)
        return final(*args)

    monkeypatch.setattr(reviews, "final_review", held)
    game = lost_game()
    screen = ReviewScreen(game, ["Ann", "Bob", "Cem", "Dee"])
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await next_answer(app)
        assert app.answers == [True] and screen.provisional
        text = str(screen.query_one("#review-text", Static).render())
        assert "provisional" in text and "Trick 1 of" in text
        await pilot.press("right")  # the screen answers keys while the worker refines
        assert screen.trick == 1
        release.set()
        await next_answer(app)
        assert app.answers == [True, False] and not screen.provisional
        text = str(screen.query_one("#review-text", Static).render())
        assert "provisional" not in text and screen.review.status == "lost"
        assert screen.review.turning_point["known"]  # the final answer carries the fair blame


async def test_leaving_the_screen_stops_the_refining(monkeypatch: pytest.MonkeyPatch) -> None:
    """Esc while the final answer is searched: the review stops at its next solver call (the worker is
    cancelled), instead of searching on for a screen that is gone."""
    release, finished = threading.Event(), threading.Event()
    ended: list[str] = []
    final = reviews.final_review

    def held(*args: Any) -> reviews.Review:
        assert release.wait(120)
        try:
            return final(*args)
        except reviews.ReviewStopped:
            ended.append("stopped")
            raise
        finally:
            finished.set()

    monkeypatch.setattr(reviews, "final_review", held)
    screen = ReviewScreen(lost_game(), ["Ann", "Bob", "Cem", "Dee"])
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await next_answer(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen
        release.set()
        assert await asyncio.to_thread(finished.wait, 120)
        assert ended == ["stopped"] and app.answers == [True]


def test_a_review_told_to_stop_stops() -> None:
    game = lost_game()
    start, seed = reviews.start_of(game)
    with pytest.raises(reviews.ReviewStopped):
        reviews.review(start, list(game.actions), seed=seed, stop=lambda: True)
