"""Hammer's end (the final standings): ``w``, the trick-taking end's key, reviews every round in the dialog (a first
answer on a small budget, then the final one), players by name."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from textual.app import App
from textual.widgets import Static

from crewkit.families.trick_taking import review
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.tui.end import StandingsScreen
from crewkit.families.trick_taking.tui.session import Finished


async def test_w_at_hammers_end_reviews_every_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # small budgets: the test waits for the final answer, not for a minute of search
    monkeypatch.setattr(review, "QUICK_NODES", 50)
    monkeypatch.setattr(review, "MATCH_QUICK_TOTAL", 0.2)
    monkeypatch.setattr(review, "MATCH_TOTAL", 0.4)
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
        text = ""
        for _ in range(20_000):  # a generous safety net: the loop ends when the final answer is shown
            await pilot.pause()
            text = str(screen.query_one("#standings-text", Static).render())
            if "plays searched in" in text and "being refined" not in text:
                break
        assert "Final standings" in text and "8 rounds reviewed with every hand known" in text
        assert "Round 1 (" in text and "Round 8 (" in text and "Blue 7 in penalty mode" in text
        assert "no review of a round scored in chips" not in text and "seat" not in text.lower()
