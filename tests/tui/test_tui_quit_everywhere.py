"""``q`` quits, with its confirmation, in the table's dialogs too (issue 42, item 10): Not Alone's first
choice, the Crew's distress question, the hand-over screen; "keep playing" comes back to the dialog."""

from __future__ import annotations

from hunt_helpers import dialog_of, make_hunt_app
from hunt_helpers import settle as hunt_settle
from screen_text import screen_text
from tui_helpers import make_app, open_table, settle

from crewkit.families.trick_taking.tui.dialogs import DistressScreen
from crewkit.tui.screens.dialogs import ChoiceScreen, HandoffScreen
from crewkit.tui.services import Services

SMALL = (80, 24)


async def test_q_on_not_alones_first_dialog_asks_to_quit(services: Services) -> None:
    app = make_hunt_app(players=3, side="hunted", seed="quit", services=services)
    async with app.run_test(size=SMALL) as pilot:
        await hunt_settle(pilot)
        first = dialog_of(app)
        assert first is not None  # the game opens on a choice
        assert "q Quit" in screen_text(app).splitlines()[-1]
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and "Quit the game?" in screen_text(app)
        await pilot.press("down", "enter")  # keep playing: back to the same choice
        await pilot.pause()
        assert app.screen is first
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("home", "enter")  # quit
        await pilot.pause()
        assert app._exit  # the app is closing


async def test_q_on_the_crews_distress_question_asks_to_quit(services: Services) -> None:
    app = make_app(services, mission="planet-nine/03", seed="snap")
    async with app.run_test(size=SMALL) as pilot:
        await open_table(pilot)
        for _ in range(20):
            if isinstance(app.screen, DistressScreen):
                break
            await pilot.press("space")
            await settle(pilot)
        question = app.screen
        assert isinstance(question, DistressScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and "Quit the mission?" in screen_text(app)
        await pilot.press("down", "enter")  # keep playing
        await pilot.pause()
        assert app.screen is question


async def test_q_on_the_hand_over_screen_asks_to_quit(services: Services) -> None:
    app = make_app(services, mission="planet-nine/01", seed="snap", seats=["human", "human", "bot", "bot"])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        for _ in range(40):
            await settle(pilot)
            if isinstance(app.screen, HandoffScreen):
                break
            await pilot.press("enter")
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
