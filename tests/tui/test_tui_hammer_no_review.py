"""Hammer's end (the final standings): ``w``, the trick-taking end's key, says why a round scored in chips has no
review, and names the match's rounds."""

from __future__ import annotations

from types import SimpleNamespace

from textual.app import App
from textual.widgets import Static

from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.tui.end import StandingsScreen
from crewkit.families.trick_taking.tui.session import Finished


async def test_w_at_hammers_end_says_why_there_is_no_review() -> None:
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
        await pilot.pause()
        text = str(screen.query_one("#standings-text", Static).render())
        assert "Final standings" in text and "There is no review of a round scored in chips" in text
        assert "needs a search in which each player plays for their own chips" in text
        assert "The rounds: round 1: " in text and "round 8: " in text
