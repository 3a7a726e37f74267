"""``crewkit join`` draws Hammer's match and Mission Deep Sea's task cards with the same table screen as
``crewkit play``: a real host on a free loopback port, a real client, the real app driven by its pilot at 80x24.

The table reads the rounds, the chips, the dealer's choice and the task cards from the seat's observation (the
host's ``state`` messages), never from a game of its own; every screen is checked for a card of another hand."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_text
from test_tui_hidden import hidden_from, leaks
from test_tui_join import hosted, joined, link, play_legal_card, play_seat_by_keys, settle
from test_tui_variants import seed_where

from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.tui.dialogs import RoundScreen
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.hand import HandView
from crewkit.families.trick_taking.tui.remote import RemoteGame, RemoteSession
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.families.trick_taking.tui.words import round_mission_lines
from crewkit.games.protocol import GameInPlay
from crewkit.net.client import TableClient
from crewkit.net.table import HostedTable
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(90)

SIZE = (80, 24)


def secret_numbers(engine: Game, seat: int) -> set[str]:
    """The words that would tell ``seat`` another seat's secret task-card number."""
    deck = engine.rules.task_deck
    out = set()
    for task in engine.task_cards if deck is not None else ():
        card = deck.card(task.id)
        if card.asks is not None and not card.asks.shown and task.owner not in (None, seat) and task.number is not None:
            out.add(f"name {task.number} for")
    return out


def check_screen(app: Any, table: HostedTable, seat: int) -> str:
    """The screen's text, after checking it shows no card of another hand and no secret number of another seat."""
    text = screen_text(app)
    engine = table.game.engine
    hidden = hidden_from(engine, seat)
    match = engine.state_or_none(MatchState)
    if isinstance(app.screen, RoundScreen) and match is not None and match.round_tricks:
        # Hammer's round summary names the cards that won the round's tricks: played face up in that round,
        # while the host has already dealt the next round (where those cards sit in other hands again)
        hidden -= {c.name for t in match.round_tricks[-1] for c in t.cards}
    if match is not None:  # the mission cards' printed rules name cards ("taking blue 7 costs 180"): public words
        printed = " ".join(w for m in engine.scoring.missions for w in round_mission_lines(m.id, m.title).values())
        hidden = {name for name in hidden if not leaks(printed, {name})}
    assert not leaks(text, hidden), (leaks(text, hidden), text)
    assert not [w for w in secret_numbers(engine, seat) if w in text], text
    return text


def never_held_a_game(session: RemoteSession) -> None:
    held = [*vars(session).values(), *vars(session.g).values()]
    assert not any(isinstance(v, Game | GameInPlay) for v in held)
    assert isinstance(session.game, RemoteGame)


async def test_a_joined_hammer_seat_chooses_the_mission_and_sees_the_round_s_chips(tmp_path: Path) -> None:
    """Ann is the first dealer with three bots: she chooses the mission card and its mode by keys, plays the
    round to its end, and the round's chip table is shown from her seat's observation; the next round's dealer
    is the next seat (the host dealt it)."""
    seed = seed_where("hammer", "hammer/05", 4, lambda g: g.dealer == 0, "hammer")
    names = ["Ann", "Bob", "Cat", "Dan"]
    async with hosted(tmp_path, ["human", "fast", "fast", "fast"], seed, names, "hammer", "hammer/05") as (
            host, table):
        session = await joined(host, table, 0, "Ann")
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen) and session.variant == "hammer"
            text = check_screen(app, table, 0)
            assert "round 1/8" in text and "You deal: choose the mission" in text
            assert "Blue 7 — penalty mode" in text and "Blue 7 — challenge mode" in text
            await pilot.press("home", "down", "enter")  # the second choice: challenge mode
            rounds_seen = 0
            async with asyncio.timeout(120):  # a safety net: the round ends after its cards are played
                while True:
                    await settle(pilot)
                    text = check_screen(app, table, 0)
                    if isinstance(app.screen, RoundScreen):
                        await settle(pilot)  # the round's screen may be pushed but not yet drawn
                        text = check_screen(app, table, 0)
                        rounds_seen += 1
                        break
                    assert isinstance(app.screen, TableScreen), type(app.screen)
                    state = session.state or {}
                    hand = screen.query_one("#hand", HandView)
                    if state.get("turn") and hand.legal:
                        await play_legal_card(pilot, hand)
                    else:
                        await pilot.pause(0.05)
            assert rounds_seen == 1, text
            engine = table.game.engine
            result = engine.state(MatchState).round_results[0]
            assert result.mode == "challenge" and result.mission == "hammer/05"
            assert "Round 1 of 8 is over" in text and "Chips after round 1" in text
            assert "Blue 7 (challenge)" in text and result.result in text
            assert all(n in text for n in ["You", "Bob", "Cat"])  # the chips by name
            chips = session.g.state(MatchState).chips
            assert chips == list(result.chips)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, TableScreen)
            text = check_screen(app, table, 0)
            assert session.g.state(MatchState).round == 2 and session.g.dealer == 1
            assert "round 2/8" in text and " chips" in text  # the crew panel shows every seat's chips
        await session.client.close()
    never_held_a_game(session)


async def test_a_joined_deep_sea_seat_takes_its_task_card_and_plays_to_the_end(tmp_path: Path) -> None:
    """Mission Deep Sea 1 with its task card: Ann (the captain) takes the card by keys at the joined table, the
    card is shown in words with its owner, and the mission is played to its end."""
    seed = seed_where("crew-deep-sea", "deep-sea/01", 3, lambda g: g.commander == 0, "deep-join")
    names = ["Ann", "Bob", "Cat"]
    async with hosted(tmp_path, ["human", "fast", "fast"], seed, names, "crew-deep-sea", "deep-sea/01") as (
            host, table):
        session = await joined(host, table, 0, "Ann")
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            engine = table.game.engine
            card = engine.rules.task_deck.card(engine.task_cards[0].id)
            text = check_screen(app, table, 0)
            assert "Task cards" in text and card.text in text and "not taken" in text
            assert "Choose a task card" in text and "take the task card \u201c" in text  # the list (its words wrap)
            await play_seat_by_keys(pilot, table)
            assert isinstance(app.screen, EndScreen) and table.game.is_over()
            assert engine.task_cards[0].owner == 0
            assert session.g.obs.task_cards[0].owner == 0
            assert session.g.outcome().result == table.game.outcome().result
        await session.client.close()
    never_held_a_game(session)


@pytest.mark.parametrize(("ruleset", "mission", "players"), [("hammer", "hammer/05", 4), ("not-alone", None, 3)])
async def test_the_end_of_a_hosted_game_is_drawn_from_the_seat_s_view(tmp_path: Path, ruleset: str,
                                                                      mission: str | None, players: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's seat is played by its bot to the end (the host's ``bot`` command); she joins: Hammer's final standings
    and chips per round, or Not Alone's end screen, come from her seat's observation, by name, and offer no new
    game (the host opens it); Hammer's ``w`` opens the host's review of the rounds on the review screen."""
    from crewkit.families.not_alone.tui.end import HuntEndScreen
    from crewkit.families.trick_taking import review as reviews
    from crewkit.families.trick_taking.tui.end import StandingsScreen
    from crewkit.families.trick_taking.tui.review import MatchReviewScreen
    from crewkit.tui.join import remote_session

    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    bot = "fast" if ruleset == "hammer" else "heuristic"
    async with hosted(tmp_path, ["human"] + [bot] * (players - 1), "join-end", names, ruleset, mission, bot) as (
            host, table):
        await table.set_bot(0, True)
        async with asyncio.timeout(60):
            while not table.game.is_over():
                await asyncio.sleep(0.05)
        client = await TableClient.connect(link(host, table, 0), "Ann")
        opened, why = remote_session(client)
        assert opened is not None, why
        await client.until(lambda m: m["type"] == "state", timeout=10)
        session = opened()
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            end = StandingsScreen if ruleset == "hammer" else HuntEndScreen
            async with asyncio.timeout(60):  # a safety net: the event is the end screen drawn
                while not isinstance(app.screen, end):
                    await pilot.pause(0.02)
            await pilot.pause()  # and drawn
            text = screen_text(app)
            if ruleset == "hammer":
                assert isinstance(app.screen, StandingsScreen), type(app.screen)
                engine = table.game.engine
                assert "GAME OVER" in text and "Final standings" in text and "Bob" in text
                assert "the host opens the next match" in text and "r: new match" not in text
                assert session.g.state(MatchState).chips == engine.state(MatchState).chips
                assert len(session.g.state(MatchState).round_results) == 8
                # w: the host's review of every round, on the review screen (as the local end's)
                monkeypatch.setattr(reviews, "QUICK_NODES", 50)
                monkeypatch.setattr(reviews, "MATCH_QUICK_TOTAL", 0.2)
                monkeypatch.setattr(reviews, "MATCH_TOTAL", 0.4)
                monkeypatch.setattr(reviews, "FINAL_WORLDS", 0)  # no fair blame: test_round_blame.py has it
                await pilot.press("w")
                async with asyncio.timeout(60):  # a safety net: the event is the host's final review shown
                    while not (isinstance(app.screen, MatchReviewScreen) and app.screen.review is not None
                               and not app.screen.provisional):
                        await pilot.pause(0.02)
                await pilot.pause()  # and drawn (the standings were still on screen once under load)
                text = screen_text(app)
                assert "Round 1 of 8: " in text and "Trick 1 of " in text and "  Ann " in text
            else:
                assert isinstance(app.screen, HuntEndScreen), type(app.screen)
                assert ("You win!" if 0 in table.game.engine.winners else "You lose.") in text
                assert "n: a new game" not in text and "host" in text
                await pilot.press("n")  # a new game is not the seat's to open (the host does): nothing happens
                await pilot.pause()  # the key handled (the app idle again)
                assert isinstance(app.screen, HuntEndScreen) and app.table() is not None
        await client.close()
