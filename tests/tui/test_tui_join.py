"""``crewkit join`` draws the seat with the same table screen as ``crewkit play``: a real host on a free loopback
port, a real WebSocket client, the real Textual app driven by its pilot at 80x24.

The host runs the game and its bots; the app holds only what the host sent its seat, so every card on any of
its screens is its own, a public one, or nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from screen_text import screen_text
from test_tui_hidden import hidden_from, leaks

from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.hand import CARD_KEYS, HandView
from crewkit.families.trick_taking.tui.remote import RemoteGame, RemoteSession, remote_setup
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.games.protocol import GameInPlay
from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(60)

LOOPBACK = "127.0.0.1"
MISSION = "planet-nine/01"
SIZE = (80, 24)


@contextlib.asynccontextmanager
async def hosted(folder: Path, seats: list[str], seed: str, names: list[str], ruleset: str = "crew",
                 mission: str | None = MISSION, bot: str = "fast") -> AsyncIterator[tuple[Host, HostedTable]]:
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0)
    try:
        config = TableConfig(ruleset, mission, len(seats), seed, seats, {}, names)
        table = host.add(HostedTable.create(folder, config, bot))  # ``bot``: a seat handed to a bot
        yield host, table
    finally:
        await host.stop()


def link(host: Host, table: HostedTable, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return join_link("ws", LOOPBACK, host.port, table.id, code)


async def joined(host: Host, table: HostedTable, seat: int, name: str) -> RemoteSession:
    """What ``crewkit join`` does before it opens the app: connect, read the welcome and the first state."""
    client = await TableClient.connect(link(host, table, seat), name)
    setup, why = remote_setup(client.welcome)
    assert setup is not None, why
    await client.until(lambda m: m["type"] == "state", timeout=10)
    return RemoteSession(client, setup)


@contextlib.asynccontextmanager
async def ann_and_bob(folder: Path, seed: str) -> AsyncIterator[tuple[HostedTable, RemoteSession, TableClient, SeatApp]]:
    """A table of Ann (the app), Bob (a client the test plays by messages) and Cat (a bot), all connected."""
    async with hosted(folder, ["human", "human", "fast"], seed, ["Ann", "Bob", "Cat"]) as (host, table):
        session = await joined(host, table, 0, "Ann")
        bob = await TableClient.connect(link(host, table, 1), "Bob")
        try:
            yield table, session, bob, SeatApp(session)
        finally:
            await bob.close()
            await session.client.close()


async def settle(pilot: Any, limit: float = 60.0) -> None:
    """Let the host, its bots and the app run until the table has drawn the host's latest state (``limit``: a
    safety net, not a speed)."""
    async with asyncio.timeout(limit):
        while True:
            await pilot.pause(0.01)
            table = pilot.app.table()
            if table is None or not (table._engine_busy or table._scheduled):
                await pilot.pause(0.02)
                return


async def settle_until(pilot: Any, test: Callable[[], bool], what: str, limit: float = 60.0) -> None:
    """Let the host, its bots and the app run until ``test()`` holds (an event; ``limit`` is a safety net)."""
    try:
        async with asyncio.timeout(limit):
            while True:
                await settle(pilot)
                if test():
                    return
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"{what}: not so after {limit} s") from None


KEY_NAMES = {"-": "minus", "=": "equals_sign", "[": "left_square_bracket", "]": "right_square_bracket"}


async def play_legal_card(pilot: Any, hand: HandView) -> Any:
    """The hand's first legal card, chosen with its key (the digits under the cards) and played with Enter."""
    index = next(i for i, c in enumerate(hand.cards) if c.id in hand.legal)
    key = CARD_KEYS[index]
    await pilot.press(KEY_NAMES.get(key, key), "enter")
    return hand.cards[index]


def face_down(engine: Any) -> set[str]:
    """JARVIS's face-down cards (no seat may see them), by name."""
    if engine.dummy_seat is None:
        return set()
    up = set(engine.hand(engine.dummy_seat))
    return {c.name for col in engine.dummy_columns for c in col if c not in up}


async def play_seat_by_keys(pilot: Any, table: HostedTable, max_steps: int = 300,
                            on_turn: Any = None, limit: float = 240.0) -> list[str]:
    """Play the app's seat by keys to the end of the game (the first legal card; space at a window); returns
    every status line seen. Checks every screen for a card of another hand (or a face-down JARVIS card) on the
    way. ``on_turn(screen, hand)`` runs before each card the seat plays (its own or JARVIS's)."""
    statuses: list[str] = []
    steps = 0  # keys pressed: a game has a bounded number of actions (waits for the host are not counted)
    async with asyncio.timeout(limit):  # a safety net, not a speed
        while steps < max_steps:
            step = await _step_by_keys(pilot, table, statuses, on_turn)
            if step < 0:  # the end screen, settled and checked
                return statuses
            steps += step
    raise AssertionError("the game did not end")


async def _step_by_keys(pilot: Any, table: HostedTable, statuses: list[str], on_turn: Any) -> int:
    """One look at the screen (settled) and, when it is the seat's turn, one action by keys: 1, or 0 when it
    waited, -1 at the end screen."""
    app = pilot.app
    await settle(pilot)
    text = screen_text(app)
    engine = table.game.engine  # the host's game: what the seat (its number now) may not see
    table_screen = app.table()  # under any dialog or the end screen too
    assert table_screen is not None
    seat = table_screen.session.seat
    found = leaks(text, hidden_from(engine, seat) | face_down(engine))
    assert not found, (found, text)
    screen = app.screen
    if isinstance(screen, EndScreen):
        return -1
    assert isinstance(screen, TableScreen), type(screen)
    statuses.append(screen.status_text)
    session = screen.session
    assert isinstance(session, RemoteSession)
    state = session.state or {}
    if state.get("over"):
        return 0
    hand = screen.query_one("#hand", HandView)
    if state.get("turn") and hand.legal:
        if on_turn is not None:
            on_turn(screen, hand)
        await play_legal_card(pilot, hand)
    elif state.get("window"):
        await pilot.press("space")
    elif state.get("turn") and screen._other_actions:
        await pilot.press("home", "enter")
    else:
        await pilot.pause(0.05)  # the host's bots are playing
        return 0
    return 1


# planet-nine/01 to its end (a success in trick 3); a Persian game whose secret missions fail in trick 3 (a short game: CI's budget)
@pytest.mark.parametrize(("ruleset", "mission", "seed", "seat"), [("crew", MISSION, "join-4", 1),
                                                                  ("crew-persian", "persian", "p1", 0)])
async def test_a_joined_seat_plays_to_the_end_at_80x24(tmp_path: Path, ruleset: str, mission: str, seed: str,
                                                      seat: int) -> None:
    names = ["Cat", "Dan", "Eve"]
    names[seat] = "Ann"
    seats = ["fast"] * 3
    seats[seat] = "human"
    async with hosted(tmp_path, seats, seed, names, ruleset, mission) as (host, table):
        session = await joined(host, table, seat, "Ann")
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen) and screen.remote
            text = screen_text(app)
            others = [n for n in names if n != "Ann"]
            assert all(n in text for n in others) and "Bot 1" not in text  # names, not seat numbers
            if ruleset == "crew-persian":  # the own secret mission with its card's number, the others' face down
                own = next(t for t in table.game.engine.tasks if t.owner == seat)
                assert f"win {own.card.name} (#{own.number})" in text
                assert "2 secret missions of the others (face" in text
            statuses = await play_seat_by_keys(pilot, table)
            assert isinstance(app.screen, EndScreen)
            assert table.game.is_over()
            assert session.g.outcome().result == table.game.outcome().result
            assert any(s.startswith("Your turn") for s in statuses)
            # the end screen is pushed before it is painted (a loaded machine shows the lag)
            await settle_until(pilot, lambda: "Waiting for the host's next game" in screen_text(app),
                               "the end screen painted")
            end_text = screen_text(app)
            assert "seat " not in end_text  # the end screen's reason names the players
            assert "n: next mission" not in end_text and "Waiting for the host's next game" in end_text
            assert "r: play again" not in end_text and "s: same deal" not in end_text  # no new game offered
            assert "Esc: look at the table" in end_text
            await pilot.press("r")  # a key of a local game: not the seat's (the host decides), nothing happens
            await settle(pilot)
            assert isinstance(app.screen, EndScreen) and app.table() is screen and table.game.is_over()
        await session.client.close()
    # the client never held a game: only the host's messages to its seat and views of them
    held = [*vars(session).values(), *vars(session.g).values()]
    assert not any(isinstance(v, Game | GameInPlay) for v in held)
    assert isinstance(session.game, RemoteGame)


async def test_a_refused_action_is_shown_in_words_and_changes_nothing(tmp_path: Path) -> None:
    async with ann_and_bob(tmp_path, "join-b") as (table, session, bob, app):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            assert table.game.waiting() == (1,)  # Bob, the commander, chooses the first task
            assert "waiting for Bob" in screen.status_text
            before, log = table.applied, (table.folder / "log.jsonl").read_text()
            await pilot.press("home", "enter")  # Ann plays a card: the host refuses it (not her turn)
            await settle(pilot)
            assert screen.status_is_error()
            assert "not Ann's turn" in screen.status_text and "waiting for Bob" in screen.status_text, \
                screen.status_text
            assert "not Ann's turn" in screen_text(app)  # on the screen, in words
            assert table.applied == before and (table.folder / "log.jsonl").read_text() == log
            assert session.g.obs.hand == RemoteGame(table.state_for(0), session.rules).obs.hand


async def test_the_table_says_whom_it_waits_for_by_name_who_left_and_when_the_host_went(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "human", "fast"], "join-b", ["Ann", "Bob", "Cat"]) as (host, table):
        session = await joined(host, table, 0, "Ann")
        bob = await TableClient.connect(link(host, table, 1), "Bob")
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            assert screen.status_text == "waiting for Bob"  # Bob, the commander, chooses the first task
            assert "to act: Bob" in screen_text(app) or "▶ Bob" in screen_text(app)
            await bob.close()
            await settle_until(pilot, lambda: "(disconnected)" in screen.status_text, "Bob shown disconnected")
            assert "waiting for Bob (disconnected)" in screen.status_text
            assert "waiting for Bob (disconnected)" in screen_text(app)
            await host.stop()  # the host goes: Ann's table says so, and that it is trying again
            await settle_until(pilot, lambda: screen.status_text.startswith("reconnecting"), "reconnecting shown")
            assert "reconnecting (attempt" in screen.status_text and "q leaves" in screen.status_text
        await session.client.close()


async def test_keys_that_need_the_host_say_why(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "fast", "fast"], "join-d", ["Ann", "Bot", "Cat"]) as (host, table):
        session = await joined(host, table, 0, "Ann")
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            await pilot.press("u")
            assert "No take-back" in screen.status_text and "host" in screen.status_text
            while not (session.state or {}).get("turn") or (session.state or {}).get("window"):
                await pilot.press("space")
                await settle(pilot)
            footer = screen_text(app).splitlines()[-1]
            assert "Hint" not in footer and "Cards" in footer, footer  # h is not offered at a seat
            before = screen.status_text
            await pilot.press("h")  # the hint would read the engine's view of the seat, on the host: no key
            await settle(pilot)
            assert screen.status_text == before and "hint" not in screen_text(app).lower()
            await pilot.press("q")  # leaving: the seat waits for its person
            await settle(pilot)
            assert "Leave the table?" in screen_text(app)
            await pilot.press("home", "enter")
            await settle(pilot)
        assert app.exit_note is not None and "join again with the same link" in app.exit_note
        await session.client.close()


async def answered_by(client: TableClient, test: Any, timeout: float = 60.0) -> dict[str, Any]:
    """Bob's latest state once it passes ``test`` (his client reads the host's messages meanwhile)."""
    if client.state is not None and test(client.state):
        return client.state
    return await client.until(lambda m: m["type"] == "state" and test(m), timeout)


async def test_communication_and_distress_cross_clients_and_every_person_answers(tmp_path: Path) -> None:
    async with ann_and_bob(tmp_path, "join-x") as (table, session, bob, app):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            await pilot.press("home", "enter")  # Ann, the commander, takes the one task
            await settle(pilot)
            assert (session.state or {}).get("window")  # the window before trick 1: Ann and Bob answer
            assert "space: nothing to say" in screen.status_text and "waiting for you and Bob" in screen.status_text
            await pilot.press("d", "enter")  # Ann calls the distress signal: refused until Bob has answered
            refusal = "Not done: waiting for Bob to communicate or pass first"
            await settle_until(pilot, lambda: screen.status_text == refusal, "the host's refusal shown")
            assert table.game.engine.distress_direction is None
            await answered_by(bob, lambda m: m["window"])
            await bob.pass_window()  # Bob has nothing to say
            await answered_by(bob, lambda m: not m["window"])
            await settle(pilot)
            await pilot.press("c", "enter", "enter")  # Ann communicates her first card (the dialog's two steps)
            await settle(pilot)
            said = [c for c in table.game.engine.communications if c.seat == 0]
            assert len(said) == 1
            bob_state = await answered_by(bob, lambda m: any(c["seat"] == 0 for c in m["observation"]["communications"]))
            assert bob_state["observation"]["communications"][0]["card"] == said[0].card.name
            assert not screen.status_is_error(), screen.status_text


async def test_the_distress_signal_crosses_clients(tmp_path: Path) -> None:
    async with ann_and_bob(tmp_path, "join-x") as (table, session, bob, app):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, TableScreen)
            await pilot.press("home", "enter")  # the task
            await answered_by(bob, lambda m: m["window"])
            await bob.pass_window()
            await answered_by(bob, lambda m: not m["window"])
            await settle(pilot)
            await pilot.press("d", "enter")  # the signal: cards go to the left
            state = await answered_by(bob, lambda m: m["observation"]["distress"] == "left")
            assert any(a["type"] == "pass-card" for a in state["legal"])  # Bob passes a card too
            await settle(pilot)
            assert screen.status_text.startswith("Distress signal (left): choose a card to pass")
            passed = await play_legal_card(pilot, screen.query_one("#hand", HandView))
            await settle(pilot)
            await bob.act(next(a for a in state["legal"] if a["type"] == "pass-card"))
            await answered_by(bob, lambda m: m["observation"]["phase"] != "distress-pass")
            await settle_until(pilot, lambda: session.g.phase != "distress-pass", "Ann's table past the passing")
            assert passed not in session.g.obs.hand  # the card left Ann's hand on her screen too
            assert table.game.engine.distress_direction == "left"


async def test_the_commander_plays_jarvis_at_a_joined_table(tmp_path: Path) -> None:
    """JARVIS at 2 players: Ann, the commander, joins with the table screen; she seats JARVIS (the seats are
    renumbered and her table follows), plays JARVIS's face-up cards when it is JARVIS's turn and her own on
    hers, to the end. No screen shows a card of Bob's hand or one of JARVIS's face-down cards."""
    from test_tui_variants import seed_where

    seed = seed_where("crew-jarvis", MISSION, 2, lambda g: g.commander == 0, "join-jarvis")
    async with hosted(tmp_path, ["human", "fast"], seed, ["Ann", "Bob"], "crew-jarvis") as (host, table):
        session = await joined(host, table, 0, "Ann")
        app = SeatApp(session)
        async with app.run_test(size=SIZE) as pilot:
            turns = {"jarvis": 0, "own": 0}

            def on_turn(screen: TableScreen, hand: HandView) -> None:
                engine = table.game.engine
                assert screen.viewer == session.seat  # the table follows Ann's seat when JARVIS is seated
                if screen.acting() == engine.dummy_seat:
                    turns["jarvis"] += 1
                    assert "JARVIS" in screen.status_text, screen.status_text
                    assert {c.id for c in hand.cards} <= {c.id for c in engine.hand(engine.dummy_seat)}
                else:
                    turns["own"] += 1

            await play_seat_by_keys(pilot, table, max_steps=400, on_turn=on_turn)
            assert isinstance(app.screen, EndScreen) and table.game.is_over(), screen_text(app)
            assert turns["jarvis"] > 0 and turns["own"] > 0
            ann = next(s for s in table.seats if s.name == "Ann")
            assert ann.index == session.seat  # her seat's number followed the renumbering
        await session.client.close()
