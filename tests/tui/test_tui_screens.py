"""What the screens say at 120x40 (their layout is pinned by the SVG snapshots in test_tui_snapshots.py), palette commands, generic rendering of unknown actions, launch options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui_helpers import (
    SIZE,
    advance,
    find_seed,
    make_app,
    open_table,
    pass_distress,
    play_to_end,
    settle,
    text_of,
)

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.mission_words import mission_briefing_lines
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.families.trick_taking.tui.words import action_label, short_card
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions, parse_seats
from crewkit.tui.options import normalise_seats
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.help import HelpScreen
from crewkit.tui.services import Services
from crewkit.tui.text import plain


def lines_of(text: str) -> list[str]:
    return text.splitlines()


async def test_briefing_text(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True, mission="planet-nine/03"), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        text = text_of(app)
        assert len(lines_of(text)) <= 40
        assert "Mission 3:" in text
        assert "Tasks: 2 task cards are revealed" in text
        assert "Task tokens" in text and "must be completed 1st" in text and "must be completed 2nd" in text
        assert "Symbols: none." in text
        assert "Crew: 4 players" in text and "You" in text and "Bot 1" in text
        assert "Enter: start the attempt" in text


async def test_briefing_symbols_in_words(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True, mission="planet-nine/06"), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = text_of(app)
        assert "Dead zone" in text
        assert "first among the arrow tasks" in text


def test_briefing_lines_conditions_and_setup() -> None:
    data = {
        "tasks": {"count": 0},
        "symbols": {"disruption": 3},
        "setup": [{"ask": {"question": "How do you feel?", "answers": ["good", "bad"]}},
                  {"choose_player": {"role": "sick", "by": "commander"}}],
        "conditions": [{"id": "sick", "fail_if": "tricks_won(sick) > 0", "reason": "the sick crew member won a trick"}],
    }
    text = "\n".join(plain(line) for line in mission_briefing_lines(data, 4))
    assert "Tasks: none" in text
    assert "nobody may communicate before trick 3" in text
    assert "The commander asks every other player: \u201cHow do you feel?\u201d (answer \u201cgood\u201d or \u201cbad\u201d)." in text
    assert "The commander chooses a player as sick." in text
    # the condition in words, not its reason template nor the condition language
    assert "The mission fails if the player chosen as sick has won a trick." in text
    assert "tricks_won" not in text


async def test_table_text(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True, seed=find_seed("success"), mission="planet-nine/01"), services=services)
    app.settings.stop_every_trick = True  # the table waits before trick 1 (d still offered)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pass_distress(pilot)
        table = app.table()
        assert isinstance(table, TableScreen)
        game = table.session.g
        text = text_of(app)
        lines = lines_of(text)
        assert "Mission planet-nine/01 · First contact" in lines[1]
        assert "commander:" in lines[1]
        assert "Crew" in text and "Tasks" in text and "Trick 1 of 10" in text
        for seat in (1, 2, 3):
            assert f"Bot {seat}" in text
        # the hand, sorted by suit, with the digit keys under it
        codes = [short_card(c) for c in game.hand(0)]
        hand_line = next(line for line in lines if codes[0] in line and codes[-1] in line)
        assert [hand_line.index(code) for code in codes] == sorted(hand_line.index(code) for code in codes)
        assert "1↑" in text
        task = game.tasks[0]
        assert str(task.card) in text
        assert "c Communicate" in text and "d Distress" in text


async def test_legal_cards_are_marked(services: Services) -> None:
    from crewkit.families.trick_taking.tui.hand import HandView

    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        for _ in range(80):
            await settle(pilot)
            game = table.session.g
            hand = table.query_one("#hand", HandView)
            if game.to_act == 0 and game.phase == "tricks" and game.plays and 0 < len(hand.legal) < len(hand.cards):
                break
            await advance(pilot, game.to_act == 0)
        legal = {a.card.id for a in game.legal_actions(0) if a.type == "play"}  # type: ignore[attr-defined]
        assert hand.legal == legal
        rendered = hand.render()
        lines = rendered.plain.splitlines()
        marks = lines[2]
        for i, card in enumerate(hand.cards):
            cell = marks[i * 5 : i * 5 + 4]
            assert (cell == "━━━━") == (card.id in legal)
        # every card keeps its suit's colour; the ones that cannot be played now are dimmed (issue 17)
        from rich.style import Style

        from crewkit.families.trick_taking.tui.words import suit_style

        start = len(lines[0]) + 1
        for i, card in enumerate(hand.cards):
            style = rendered.get_style_at_offset(app.console, start + i * 5 + 1)
            assert style.color is not None and style.color == Style.parse(suit_style(card)).color, card
            assert bool(style.dim) == (card.id not in legal), card
        assert any(card.id not in legal for card in hand.cards)


async def test_end_screen_text(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True, seed=find_seed("failure"), mission="planet-nine/01"), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        text = text_of(app)
        assert "MISSION FAILED" in text
        assert "planet-nine/01  First contact" in text
        assert "Logbook: 1 attempt for this mission, not yet done" in text
        assert "Game record:" in text
        assert "r: play again" in text and "n: next mission" in text
        assert "r Play again" in text  # the footer says the same
        await pilot.press("escape")  # look at the final table
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert "FAILURE" in text_of(app)


async def test_campaign_and_help_screens(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        await pilot.pause(0.2)
        await settle(pilot)
        text = text_of(app)
        assert "The Quest for Planet Nine" in text
        assert "01" in text and "▶ next" in text
        assert "First contact" in text
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = text_of(app)
        assert "The Crew in short" in text and "communicate" in text and "Distress signal" in text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)


async def test_command_palette_entries(services: Services) -> None:
    app = CrewApp(PlayOptions(fast=True), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("Play", "Communicate", "Distress signal", "Logbook", "Help", "Quit", "Last trick"):
            assert wanted in titles
        # outside a mission, table commands explain themselves instead of failing
        play = next(c for c in app.get_system_commands(app.screen) if c.title == "Play")
        play.callback()
        await settle(pilot)
        logbook = next(c for c in app.get_system_commands(app.screen) if c.title == "Logbook")
        logbook.callback()
        await settle(pilot)
        assert "Logbook" in text_of(app)


async def test_palette_play_at_the_table(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        for _ in range(60):
            await settle(pilot)
            game = table.session.g
            if await pass_distress(pilot):
                continue
            if game.phase == "tricks" and game.to_act == 0:
                break
            if game.to_act == 0:
                await pilot.press("home", "enter")
            else:
                await pilot.press("space")
        before = len(game.actions)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Play")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert len(game.actions) > before
        assert game.actions[before].seat == 0


@dataclass(frozen=True, slots=True)
class AnswerQuestion(Action):
    answer: str
    type = "answer"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "answer": self.answer}


def test_unknown_actions_get_a_generic_label() -> None:
    assert action_label(AnswerQuestion(2, "good")) == "answer (answer: good)"


def test_seats_and_options() -> None:
    assert parse_seats("human, bot,random ,human") == ["human", "bot", "random", "human"]
    assert parse_seats("") is None
    assert normalise_seats(None, 4, True) == ["human", "bot", "bot", "bot"]
    assert normalise_seats(["human", "bot"], 3, True) == ["human", "bot", "bot"]
    assert normalise_seats(None, 3, False) == ["human", "human", "human"]
    assert PlayOptions(fast=True, delay=2.0).bot_delay == 0.0
    assert PlayOptions(delay=0.25).bot_delay == 0.25


class _ObsWithLegal:
    """An observation whose legal actions are replaced (as a future phase of the engine would offer)."""

    def __init__(self, obs: Any, legal: tuple[Action, ...]) -> None:
        self._obs = obs
        self.legal = legal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._obs, name)


async def test_unknown_action_types_are_offered_generically(services: Services) -> None:
    from textual.widgets import OptionList

    app = CrewApp(PlayOptions(fast=True, seed=find_seed("success"), mission="planet-nine/01"), services=services)
    app.settings.stop_every_trick = True  # the table waits before trick 1 (d still offered)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pass_distress(pilot)
        table = app.table()
        assert table is not None
        game = table.session.g
        original = game.observation
        offered = (AnswerQuestion(0, "good"), AnswerQuestion(0, "bad"))
        game.observation = lambda seat: _ObsWithLegal(original(seat), offered)  # type: ignore[method-assign]
        table.refresh_view()
        table.focus_for_human()
        await settle(pilot)
        text = text_of(app)
        assert "Choose (↑ ↓ Enter)" in text
        assert "answer (answer: good)" in text and "answer (answer: bad)" in text
        assert app.screen.focused is table.query_one("#actions", OptionList)
        await pilot.press("down", "enter")
        await settle(pilot)
        # the engine of today does not know this action: its reason is shown, nothing else happens
        assert "no 'answer' action" in text_of(app)


async def test_cards_11_to_13_have_keys(services: Services) -> None:
    """A 13-card hand (JARVIS, two players): the keys after 0 (- = [) pick cards 11-13, shown under them."""
    from crewkit.families.trick_taking.tui.hand import CARD_KEYS, HandView

    app = make_app(services, seed="snap-1", ruleset="crew-jarvis", players=2, mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        hand = table.query_one("#hand", HandView)
        assert len(hand.cards) >= 13
        hand.focus()
        await pilot.pause()
        keys_line = hand.render().plain.splitlines()[3]
        for i in range(len(hand.cards)):
            assert keys_line[i * 5 : i * 5 + 4].strip().startswith(CARD_KEYS[i])
        for key, index in (("minus", 10), ("equals_sign", 11), ("left_square_bracket", 12), ("1", 0)):
            await pilot.press(key)
            await pilot.pause()
            assert hand.cursor == index, key
