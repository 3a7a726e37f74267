"""The distress dialog names who receives the player's card (issue 42, item 9), at 80x24 too."""

from __future__ import annotations

from screen_text import screen_text
from tui_helpers import make_app, open_table, settle

from crewkit.families.trick_taking.engine.blocks.distress import receiver
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.tui.dialogs import DistressScreen
from crewkit.tui.services import Services


async def test_the_distress_question_names_the_receiver(services: Services) -> None:
    app = make_app(services, mission="planet-nine/03", seed="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot)
        for _ in range(20):
            if isinstance(app.screen, DistressScreen):
                break
            await pilot.press("space")
            await settle(pilot)
        assert isinstance(app.screen, DistressScreen) and app.screen.ask
        text = " ".join(screen_text(app).split())
        assert "signal left: you pass to Bot 1" in text, text
        assert "signal right: you pass to Bot 3" in text, text
        await pilot.press("down", "enter")  # to the left
        await settle(pilot)
        note = str(app.screen.query_one("#distress-note").content)  # step 2: which card (it wraps in the border)
        assert "cards go to the left, you pass to Bot 1" in " ".join(note.split()), note


def test_the_receiver_skips_a_dummy_that_does_not_pass() -> None:
    game = new_game("crew-jarvis", "planet-nine/01", 2, seed="x")
    n, dummy = game.n, game.dummy_seat
    assert dummy is not None
    before = (dummy - 1) % n
    assert receiver(game, before, "left") == (dummy + 1) % n
    assert receiver(game, 0, "left") != dummy and receiver(game, 0, "right") != dummy
