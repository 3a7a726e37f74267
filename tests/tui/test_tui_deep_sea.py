"""Mission Deep Sea in the app: ``crewkit play --campaign deep-sea`` opens at mission 1, the drawn task cards are
shown in words with their owners, the draft of task cards is played by keys, the log names the cards."""

from __future__ import annotations

from tui_helpers import SIZE, make_app, open_table, play_steps, play_to_end, settle, text_of

from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.log import EventLog
from crewkit.families.trick_taking.tui.words import task_card_action_label
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.services import Services


async def test_deep_sea_campaign_opens_at_mission_1_with_the_cards_in_words(services: Services) -> None:
    # seed deep2: seat 0 (the human) holds submarine 4, so the captain's choice is made by keys
    app = make_app(services, campaign="deep-sea", players=4, seed="deep2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert app.campaign.name == "deep-sea"
        assert app.campaign.missions[0] == "deep-sea/01"
        table = await open_table(pilot)
        game = table.session.g
        assert table.session.mission == "deep-sea/01"
        assert game.rules.ruleset_name == "crew-deep-sea"
        assert game.commander == 0 and len(game.task_cards) == 1
        card = game.rules.task_deck.card(game.task_cards[0].id)
        text = text_of(app)
        assert "Task cards" in text and card.text in text and "not taken" in text
        assert "Choose a task card" in text and f"take the task card \u201c{card.text}\u201d" in text
        await play_steps(pilot, 1)  # the captain takes it
        await settle(pilot)
        assert game.task_cards[0].owner == 0
        text = text_of(app)
        assert card.text in text and "not taken" not in text
        log = "\n".join(line.plain for line in table.query_one("#log", EventLog)._lines)
        assert f"You take the task card \u201c{card.text}\u201d" in log  # the log, in words
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)


async def test_a_bot_captain_takes_the_card_and_the_table_names_it(services: Services) -> None:
    app = make_app(services, campaign="deep-sea", players=4, seed="deep")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        game = table.session.g
        owner = game.task_cards[0].owner
        assert owner is not None and owner != 0
        text = text_of(app)
        assert game.rules.task_deck.card(game.task_cards[0].id).text in text
        assert f"Bot {owner}" in text


def test_a_secret_number_is_not_named_to_the_others() -> None:
    from crewkit.families.trick_taking.engine.blocks.draft import ChooseNumber
    from crewkit.families.trick_taking.engine.setup import compile_game

    deck = compile_game("crew-deep-sea", "deep-sea/05", 4).task_deck
    secret = ChooseNumber(1, "predicted-tricks-secret", 3)
    shown = ChooseNumber(1, "predicted-tricks-shown", 2)
    assert "3" not in task_card_action_label(secret, deck, public=True)
    assert "secret number" in task_card_action_label(secret, deck, public=True)
    assert task_card_action_label(secret, deck).startswith("name 3 for")
    assert task_card_action_label(shown, deck, public=True).startswith("name 2 for")
