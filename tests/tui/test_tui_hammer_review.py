"""Hammer's end (the final standings): ``w``, the trick-taking end's key, opens the review screen of every round (a
first answer on a small budget, then the final one; ↑ ↓ from round to round), players by name."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from screen_text import screen_text
from textual.app import App

from crewkit.families.trick_taking import review
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.tui.end import StandingsScreen
from crewkit.families.trick_taking.tui.review import MatchReviewScreen
from crewkit.families.trick_taking.tui.session import Finished


async def test_w_at_hammers_end_reviews_every_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # small budgets: the test waits for the final answer, not for a minute of search
    monkeypatch.setattr(review, "QUICK_NODES", 50)
    monkeypatch.setattr(review, "MATCH_QUICK_TOTAL", 0.2)
    monkeypatch.setattr(review, "MATCH_TOTAL", 0.4)
    monkeypatch.setattr(review, "FINAL_WORLDS", 0)  # no fair blame (tests/review/test_round_blame.py has it)
    game = new_game("hammer", "hammer/05", 4, "standings")
    play_game(game, [make_bot("fast", s, "standings") for s in range(4)])
    assert game.is_over()
    session = SimpleNamespace(g=game, kinds=["human", "bot", "bot", "bot"], humans=[0], title="Hammer")
    finished = Finished(game.outcome().result, game.outcome().reason, None, None, False, logbook=False)
    screen = StandingsScreen(session, finished)  # type: ignore[arg-type]

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        shown = app.screen
        assert isinstance(shown, MatchReviewScreen)
        async with asyncio.timeout(120):  # a safety net: the loop ends when the final answer is shown
            while shown.review is None or shown.provisional:
                await pilot.pause(0.02)
        text = screen_text(app)
        assert "Round 1 of 8: " in text and "Trick 1 of " in text and "Blue 7 in " in text
        assert [r["round"] for r in shown.review.rounds] == list(range(1, 9))
        for _ in range(7):
            await pilot.press("down")
        text = screen_text(app)
        assert "Round 8 of 8: " in text and "Trick 1 of " in text
        assert "seat" not in text.lower()
