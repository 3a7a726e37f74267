"""Mission Deep Sea in words at the table (issue 42, item 8): the rule set names the commander's role (Deep Sea:
the captain) and the table reads it from there; the briefing says the draw rule once; after a success the task
cards read fulfilled."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import SIZE, make_app, open_table, play_to_end, settle, text_of

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.setup import compile_game, new_game
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.log import EventLog
from crewkit.families.trick_taking.tui.mission_words import commander_word
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.tui.services import Services


def test_the_rule_set_names_the_role() -> None:
    assert commander_word(compile_game("crew-deep-sea", "deep-sea/01", 4)) == "captain"
    assert commander_word(compile_game("crew-deep-sea-tonoja", "deep-sea/01", 2)) == "captain"  # inherited
    assert commander_word(compile_game("crew", "planet-nine/01", 4)) == "commander"


async def test_the_deep_sea_briefing_says_the_draw_rule_once(services: Services) -> None:
    app = make_app(services, campaign="deep-sea", players=4, seed="deep2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the first mission's briefing
        await settle(pilot)
        briefing = " ".join(text_of(app).split())
        assert "The holder of submarine 4 is captain" in briefing
        assert briefing.count("drawn until") == 1, briefing


async def test_the_deep_sea_table_says_captain(services: Services) -> None:
    # seed deep2: the human holds submarine 4
    app = make_app(services, campaign="deep-sea", players=4, seed="deep2")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        assert table.session.g.commander == 0
        text = text_of(app)
        assert "captain: You" in text  # the line above the table
        assert "★ captain" in text  # the crew panel's legend
        log = "\n".join(line.plain for line in table.query_one("#log", EventLog)._lines)
        assert "You are captain (submarine 4)" in log
        assert "commander" not in text.lower()
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.pause()
        assert "★ captain" in text_of(app) and "commander" not in text_of(app).lower()


async def test_a_rule_set_of_ones_own_names_its_role(services: Services, tmp_path: Path) -> None:
    """No special case for Deep Sea: any rule set's ``commander: {called: ...}`` is the table's word."""
    path = tmp_path / "skipper.yaml"
    path.write_text("name: skipper\nextends: crew\ncommander: {holder_of: rocket 4, called: skipper}\n",
                    encoding="utf-8")
    app = make_app(services, ruleset=str(path), mission="planet-nine/01", players=4, seed="skip")
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot)
        await settle(pilot)
        text = text_of(app)
        assert "skipper: " in text and "★ skipper" in text and "commander" not in text.lower()


def first_legal_result(seed: str) -> tuple[str, bool]:
    """The outcome under the tests' key script, and whether every task card reads done for good at the end."""
    game = new_game("crew-deep-sea", "deep-sea/01", 4, seed=seed)
    while not game.is_over():
        seat = game.to_act
        game.apply([a for a in game.legal_actions(seat) if not isinstance(a, Communicate | Distress)][0])
    return game.outcome().result, all(c.done for c in game.observation(0).task_cards)


async def test_after_a_success_the_task_cards_read_fulfilled(services: Services) -> None:
    # a success whose card ("I win more yellow cards than blue cards") is met only once the last trick is over
    seed = next(f"ds-{i}" for i in range(300) if first_legal_result(f"ds-{i}") == ("success", False))
    app = make_app(services, campaign="deep-sea", mission="deep-sea/01", players=4, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        assert table.session.g.outcome().result == "success"
        await pilot.press("escape")  # the final table
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        text = text_of(app)
        card = table.session.g.observation(0).task_cards[0]
        assert "1/1 fulfilled" in text and "0/1" not in text
        assert f"✓ {card.text}" in text and f"○ {card.text}" not in text


async def test_the_log_names_the_player_who_broke_a_task_card(services: Services) -> None:
    seed = next(f"ds-{i}" for i in range(300) if first_legal_result(f"ds-{i}")[0] == "failure")
    app = make_app(services, campaign="deep-sea", mission="deep-sea/01", players=4, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await play_to_end(pilot)
        reason = table.session.g.outcome().reason
        assert "seat " in reason  # the engine's words
        log = [line.plain for line in table.query_one("#log", EventLog)._lines]
        last = next(line for line in reversed(log) if line.startswith("failure"))
        assert "seat " not in last and any(name in last for name in ("You", "Bot 1", "Bot 2", "Bot 3")), last


def test_a_submarine_has_a_sign_of_its_own() -> None:
    """Not its code ("4S"): the hand shows 4▼, the rockets' colour, as every suit has its sign."""
    from crewkit.families.trick_taking.tui.words import short_card

    deck = compile_game("crew-deep-sea", "deep-sea/01", 4).deck
    submarine = deck.card("submarine 4")
    assert short_card(submarine) == "4▼"
