"""The variant rule sets in the TUI by key presses: JARVIS (2 players), the Persian reading, Hammer's game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tui_helpers import SIZE, pass_distress, press_first_legal, settle, text_of

from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.tui.dialogs import RoundScreen
from crewkit.families.trick_taking.tui.end import EndScreen, StandingsScreen
from crewkit.families.trick_taking.tui.hand import HandView
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.families.trick_taking.tui.tasks import TasksView
from crewkit.families.trick_taking.tui.words import short_card
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.dialogs import ChoiceScreen, HandoffScreen
from crewkit.tui.services import Services
from crewkit.tui.text import name_seats


def make_app(services: Services, **kw: Any) -> CrewApp:
    return CrewApp(PlayOptions(fast=True, **kw), services=services)


def seed_where(ruleset: str, mission: str, players: int, ok: Any, prefix: str) -> str:
    """The first seed whose new game satisfies ``ok(game)`` (searched, not hard-coded)."""
    for i in range(300):
        seed = f"{prefix}-{i}"
        if ok(new_game(ruleset, mission, players, seed=seed)):
            return seed
    raise AssertionError(f"no {ruleset} seed found")


async def start(pilot: Any) -> TableScreen:
    await settle(pilot)
    assert isinstance(pilot.app.screen, BriefingScreen), type(pilot.app.screen)
    await pilot.press("enter")
    await settle(pilot)
    table = pilot.app.table()
    assert isinstance(table, TableScreen)
    return table


async def test_jarvis_commander_plays_jarvis_cards(services: Services, home: Path) -> None:
    # the human (player 0, seat 0 before JARVIS is seated) holds rocket 4: the commander decides for JARVIS
    # (prefix "c": its first such seed is a game won in trick 3; "jarvis"'s was won in trick 12, 2.2x the time)
    seed = seed_where("crew-jarvis", "planet-nine/01", 2, lambda g: g.commander == 0, "c")
    app = make_app(services, ruleset="crew-jarvis", players=2, mission="planet-nine/01", seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        briefing = text_of(app)
        assert "crew-jarvis" in briefing and "JARVIS" in briefing
        table = await start(pilot)
        session = table.session
        game = session.g
        assert game.n == 3 and session.kinds == ["human", "bot", "jarvis"]
        # first the commander seats JARVIS: the first choice puts it in seat 0, the players move up one seat
        assert game.phase == "setup"
        assert "Where does JARVIS sit?" in text_of(app)
        await pilot.press("home", "enter")
        await settle(pilot)
        assert game.dummy_seat == 0 and game.commander == 1
        assert session.kinds == ["jarvis", "human", "bot"]
        assert table.viewer == 1  # the human followed their renumbered seat
        text = text_of(app)
        assert "JARVIS" in text and "face up" in text and "face down" in text
        jarvis_played = False
        for _ in range(200):
            await settle(pilot)
            if isinstance(app.screen, EndScreen):
                break
            if await pass_distress(pilot):
                continue
            assert isinstance(app.screen, TableScreen)
            if game.is_over():
                continue
            seat = game.to_act
            if seat == game.dummy_seat and game.phase == "tricks" and not jarvis_played:
                assert session.is_human(seat) and table.acting() == seat
                hand = table.query_one("#hand", HandView)
                up = game.observation(seat).dummy_up
                assert hand.cards == list(up)  # JARVIS's face-up cards are the playable hand
                text = text_of(app)
                assert "JARVIS plays" in text
                # the crew panel shows JARVIS's face-up cards over their face-down stacks, only counting those
                lines = text.splitlines()
                row = next(i for i, line in enumerate(lines) if "face up" in line)
                up_line, down_line = lines[row], lines[row + 1]
                assert "face down" in down_line and "▒" in down_line
                for card in up:
                    assert short_card(card) in up_line
                for col in game.dummy_columns:
                    for hidden in col[:-1]:
                        assert short_card(hidden) not in up_line and short_card(hidden) not in down_line
                held = len(up) + sum(len(col) - 1 for col in game.dummy_columns if col)
                jarvis_row = next(line for line in lines if "JARVIS" in line and " won" in line)
                assert f"{held} cards" in jarvis_row  # its count includes the face-down cards
                before = len(game.actions)
                await press_first_legal(pilot)
                await settle(pilot)
                played = game.actions[before]
                assert played.seat == 0 and played.type == "play" and played.card in up  # type: ignore[attr-defined]
                jarvis_played = True
                continue
            if session.is_human(seat):
                await press_first_legal(pilot)
            else:
                await pilot.press("space")
        assert jarvis_played


async def test_persian_secret_missions_hotseat(services: Services) -> None:
    # seat 0 leads trick 1, seat 1 plays next: the keyboard goes from seat 0 to seat 1 with a hand-over
    seed = seed_where("crew-persian", "persian", 4, lambda g: g.commander == 0, "persian")
    app = make_app(services, ruleset="crew-persian", players=4, mission="persian", seed=seed,
                   seats=["human", "human", "bot", "bot"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Persian" in text_of(app)  # the rule set is described, not a missing mission
        table = await start(pilot)
        game = table.session.g
        secret = {seat: [(t.card, t.number) for t in game.tasks if t.owner == seat] for seat in (0, 1)}

        def line(seat: int) -> str:
            card, number = secret[seat][0]
            return f"your secret mission: win {card} (#{number})"

        assert table.viewer == 0
        text = text_of(app)
        assert line(0) in text
        assert f"win {secret[1][0][0]}" not in text
        assert "secret missions of the others" in text
        # the signal key is offered to the commander (seat 0) once a trick has its first card
        await press_first_legal(pilot)  # seat 0 leads
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen) and app.screen.seat == 1
        text = text_of(app)
        assert "your secret mission" not in text and "Your hand" not in text
        behind = str(table.query_one("#tasks", TasksView).content)  # the table under the hand-over screen
        assert "your secret mission" not in behind and "hidden until the next player" in behind
        await pilot.press("enter")
        await settle(pilot)
        assert table.viewer == 1
        text = text_of(app)
        assert line(1) in text
        assert f"win {secret[0][0][0]}" not in text


async def test_persian_commander_signals_by_key(services: Services) -> None:
    seed = seed_where("crew-persian", "persian", 4, lambda g: g.commander == 0, "signal")
    app = make_app(services, ruleset="crew-persian", players=4, mission="persian", seed=seed)
    app.settings.stop_every_trick = True  # the table waits at each window (the setting; off by default)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(pilot)
        game = table.session.g
        await press_first_legal(pilot)  # the commander leads; the bots answer until the trick is over
        for _ in range(40):
            await settle(pilot)
            if game.in_communication_window() and table.session.signals(0):
                break
            if game.is_over():
                raise AssertionError("the game ended before a signal window")
            if game.to_act == 0:
                await press_first_legal(pilot)
            else:
                await pilot.press("space")
        assert "you may: s signal a card" in text_of(app)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert [c.seat for c in game.communications] == [0]
        assert "signalled" in text_of(app)


async def test_hammer_dealer_chooses_mission_and_round_chips(services: Services, home: Path) -> None:
    seed = seed_where("hammer", "hammer/05", 4, lambda g: g.dealer == 0, "hammer")
    app = make_app(services, ruleset="hammer", players=4, mission="hammer/05", seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Hammer" in text_of(app)
        table = await start(pilot)
        game = table.session.g
        assert game.phase == "choose-mission" and game.dealer == 0
        text = text_of(app)
        assert "choose the mission card and its mode" in text
        assert "Blue 7 — penalty mode" in text and "Blue 7 — challenge mode" in text
        await pilot.press("home", "down", "enter")  # the second choice: challenge mode
        await settle(pilot)
        assert game.mode == "challenge" and game.state(MatchState).round_mission.id == "hammer/05"
        assert "challenge mode" in text_of(app)
        for _ in range(60):
            await settle(pilot)
            if isinstance(app.screen, RoundScreen):
                break
            assert isinstance(app.screen, TableScreen)
            if table.session.is_human(game.to_act):
                await press_first_legal(pilot)
            else:
                await pilot.press("space")
        assert isinstance(app.screen, RoundScreen)
        text = text_of(app)
        result = game.state(MatchState).round_results[0]
        assert "Round 1 of 8 is over" in text and "Chips after round 1" in text
        assert "Blue 7 (challenge)" in text and result.result in text
        assert "You" in text and "Bot 3" in text
        await pilot.press("enter")
        await settle(pilot)
        assert game.state(MatchState).round == 2 and game.dealer == 1
        assert isinstance(app.screen, TableScreen)


async def test_hammer_match_to_final_standings(services: Services, home: Path) -> None:
    app = make_app(services, ruleset="hammer", players=4, mission="hammer/05", seed="match",
                   seats=["bot", "bot", "bot", "bot"])
    async with app.run_test(size=SIZE) as pilot:
        table = await start(pilot)
        for _ in range(20):
            await settle(pilot)
            if isinstance(app.screen, StandingsScreen):
                break
            assert isinstance(app.screen, RoundScreen), type(app.screen)
            await pilot.press("enter")
        assert isinstance(app.screen, StandingsScreen)
        game = table.session.g
        text = text_of(app)
        assert "GAME OVER" in text and "Final standings" in text
        assert name_seats(game.outcome().reason, table.session.kinds) in text  # the winner by name
        assert " wins " in text and not re.search(r"\bseat \d", text)
        assert len(game.state(MatchState).round_results) == 8 and "Chips per round" in text
        assert list((home / "records").glob("*.json"))  # a game record is written ...
        finished = table.session.finished
        assert finished is not None and finished.logbook is False  # ... but nothing goes to the logbook
