"""Not Alone at the terminal (issue 14, item 6): the dialogs offer exactly the engine's legal actions, a full
game is played by keys to its end screen on either side and at a hotseat table, and nothing on the screen
reveals a card the seat at the keyboard cannot see (checked over random games, two ways: hidden card names never
appear, and changing what the seat cannot see changes nothing on its screen)."""

from __future__ import annotations

import asyncio
import random
import re
import sys
from typing import Any

import pytest
from hunt_helpers import dialog_of, make_hunt_app, play_to_end, settle
from screen_text import screen_text

from crewkit.engine.machine import Pick
from crewkit.errors import UsageError
from crewkit.families.not_alone.blocks import PlayPlaces
from crewkit.families.not_alone.board import BoardGame, new_board_game
from crewkit.families.not_alone.family import NotAloneGame
from crewkit.families.not_alone.state import CardsState, PilesState
from crewkit.families.not_alone.tui.end import HuntEndScreen
from crewkit.families.not_alone.tui.session import HuntSession, seat_kinds, seat_names
from crewkit.families.not_alone.tui.table import HuntTableScreen
from crewkit.families.not_alone.tui.text import (
    Catalog,
    hand_words,
    is_seat_question,
    menu,
    option_label,
    played_this_round,
)
from crewkit.tui.screens.dialogs import HandoffScreen

SIZE = (120, 40)


# ------------------------------------------------------------------------------------------------ words


def random_states(players: int, seed: str, limit: int = 400) -> Any:
    """Every state of a random game, with the seat the game waits for."""
    game = new_board_game(
        "not-alone", players, seed=seed, names=seat_names(["human"] + ["random"] * (players - 1))
    )
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over():
            return
        seat = game.waiting()[0]
        yield game, seat
        game.apply(rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_menu_offers_every_legal_action_once_and_nothing_else(players: int) -> None:
    for game, seat in random_states(players, f"menu-{players}"):
        legal = game.legal_actions(seat)
        if game.question is not None:
            continue  # a question is its own dialog (its options below)
        items = menu(Catalog.of(game), game.observation(seat), legal)
        offered = [a for item in items for a in item.actions]
        assert sorted(map(repr, offered)) == sorted(map(repr, legal))
        for item in items:
            assert "{" not in item.label and "seat" not in item.label.lower(), item.label


def test_a_copy_and_a_token_placed_later_in_words() -> None:
    """Flashback says what it copies (its phase is that card's); Despair's Artemia token waits to be placed."""
    game = new_board_game("not-alone", 2, seed="words")
    game.apply(Pick(0, "a"))
    cards = game.state(CardsState)
    cards.hands["hunt"][0] = ["flashback", "despair"]
    cards.discard["hunt"] = ["clone"]
    cat = Catalog.of(game)
    words = hand_words(cat, game.observation(0))[1]
    assert words == "Flashback (as Clone, phase 2), Despair (phase 1)"
    cards.discard["hunt"] = []
    assert hand_words(cat, game.observation(0))[1] == "Flashback (nothing to copy yet), Despair (phase 1)"
    cards.discard["hunt"] = ["clone"]
    items = menu(cat, game.observation(0), game.legal_actions(0))
    plays = [i.label.split(":")[0] for i in items if any(getattr(a, "card", "") for a in i.actions)]
    assert plays == ["Play Despair"]  # in phase 1 Flashback (as Clone, a phase-2 card) is not offered
    game.apply(next(a for a in game.legal_actions(0) if getattr(a, "card", "") == "despair"))
    assert played_this_round(cat, game.observation(1)) == [
        "Player 1: Despair", "the Artemia token, to be placed"]
    # Flashback in the Hunting phase, copying Clone: the copy is named, and so is the Target token it places
    game = new_board_game("not-alone", 2, seed="words")
    cards = game.state(CardsState)
    cards.hands["hunt"][0], cards.discard["hunt"] = ["flashback"], ["clone"]
    game.apply(Pick(0, "a"))
    game.apply(next(a for a in game.legal_actions(1) if isinstance(a, PlayPlaces)))
    item = next(i for i in menu(cat, game.observation(0), game.legal_actions(0)) if i.label.startswith("Play Fl"))
    assert item.label.startswith("Play Flashback, copying Clone: ")
    assert item.then == "Where does the Target token of Flashback go?" and len(item.actions) == 10


def test_questions_name_players_and_places_in_words() -> None:
    seen = set()
    for players in (3, 5):
        for game, seat in random_states(players, f"q-{players}"):
            q = game.question
            if q is None:
                continue
            obs = game.observation(seat)
            assert obs.question is not None
            cat = Catalog.of(game)
            for value in obs.question.options:
                label = option_label(cat, obs, obs.question, value)
                assert label and not re.fullmatch(r"\d+", label), (q.why, value, label)
                if isinstance(value, int) and is_seat_question(q.why):
                    assert label == game.seat_name(value)
                    seen.add("seat")
                elif isinstance(value, int):
                    assert label.endswith(cat.place_name(value))
                    seen.add("place")
    assert seen == {"seat", "place"}


def test_seats_and_names() -> None:
    assert seat_kinds(4, "creature", None) == ["human", "heuristic", "heuristic", "heuristic"]
    assert seat_kinds(3, None, None) == ["heuristic", "human", "heuristic"]
    assert seat_names(["random", "human", "random"]) == ["Bot 1", "Player", "Bot 2"]
    assert seat_names(["human", "human", "random"]) == ["Player 1", "Player 2", "Bot"]
    with pytest.raises(UsageError, match="3 seats for 4 players"):
        seat_kinds(4, None, ["human", "bot", "bot"])
    with pytest.raises(UsageError, match="no Not Alone bot 'expert'"):
        seat_kinds(2, None, ["human", "expert"])
    with pytest.raises(UsageError, match="--bot expert: Not Alone bots"):
        seat_kinds(2, "creature", None, "expert")
    from crewkit.tui.app import CrewApp

    assert CrewApp.plays_alone("not-alone") and CrewApp.plays_alone("not-alone-advanced")
    assert not CrewApp.plays_alone("crew") and not CrewApp.plays_alone("nothing-such")


# ------------------------------------------------------------------------------------------------ full games


# the Hunted side; the Creature's full game by keys, to its end screen, is test_hunt_shell.py's finished game
@pytest.mark.parametrize("side", ["hunted"])
def test_a_full_game_by_keys_reaches_the_end_screen(side: str) -> None:
    seed = "a"  # a short game (9 rounds, the Creature wins: 6.5 s; "full-hunted" took 10 rounds and 10.5 s)

    async def run() -> None:
        app = make_hunt_app(players=3, side=side, seed=seed)
        async with app.run_test(size=(80, 24)) as pilot:  # a whole game at the smallest supported terminal
            await play_to_end(pilot, random.Random(side))
            assert isinstance(app.screen, HuntEndScreen)
            game = app.session.game
            assert game.is_over()
            text = screen_text(app)
            human = app.session.humans[0]
            assert ("You win!" if human in game.winners else "You lose.") in text
            assert ("The Creature wins" if game.winners == (0,) else "The Hunted win") in text
            await pilot.press("escape")  # the final table stays readable
            await pilot.pause()
            assert isinstance(app.screen, HuntTableScreen)
            assert "over" in screen_text(app)
            await pilot.press("enter")  # the end screen again, then a new game at the same table
            await pilot.pause()
            assert isinstance(app.screen, HuntEndScreen)
            await pilot.press("n")
            await settle(pilot)
            assert not app.session.game.is_over() and app.session.seed != seed
            assert dialog_of(app) is not None or isinstance(app.screen, HuntTableScreen)

    asyncio.run(run())


def test_hotseat_hands_over_and_hides_everything_private() -> None:
    """Two people and a bot: the hand-over screen comes whenever the other person must choose, and shows
    neither hand; after it, the table is the new person's."""

    async def run() -> None:
        # (seed d: the six hand-overs in round 3 as with seed "hotseat", in three quarters of its time)
        app = make_hunt_app(players=3, side=None, seed="d", seats=["human", "human", "bot"])
        handovers = 0

        async def check(pilot: Any) -> None:
            nonlocal handovers
            screen = pilot.app.screen
            table = pilot.app.table()
            if isinstance(screen, HandoffScreen):
                handovers += 1
                text = screen_text(pilot.app)
                assert "Pass the keyboard to" in text and app.session.names[screen.seat] in text
                assert table.viewer is None
                assert "Your place cards" not in text and "Your hunt cards" not in text
            elif table is not None and dialog_of(pilot.app) is not None:
                assert table.viewer == app.session.human_seat()

        async with app.run_test(size=SIZE) as pilot:  # a few rounds of hand-overs (a whole game: CI's budget)
            await play_to_end(pilot, random.Random(3), each=check, until=lambda: handovers >= 6)
        assert handovers >= 6

    asyncio.run(run())


# ------------------------------------------------------------------------------------------------ hidden


def hidden_card_names(game: BoardGame, viewer: int, read: set[str]) -> set[str]:
    """Names of the hunt and survival cards in hands the viewer cannot see, less any name the viewer may
    read anyway (its own cards, the discards, the cards played, the printed powers, and ``read``: every log
    line its observations showed so far, kept on the screen: a card played, then shuffled back, was seen)."""
    cards = game.state(CardsState)
    hidden_ids: set[str] = set()
    if viewer != 0:
        hidden_ids |= set(cards.hands["hunt"][0]) | set(cards.draw["hunt"])
    for seat in game.other_seats():
        if seat != viewer:
            hidden_ids |= set(cards.hands["survival"][seat])
    hidden_ids |= set(cards.draw["survival"])
    obs = game.observation(viewer)
    read |= set(obs.log)
    cat = Catalog.of(game)
    known = "\n".join(
        [
            *read,
            *obs.rules_in_force,
            *(c.text for c in cat.places.values()),
            *(
                cat.cards[c].name + " " + cat.cards[c].text
                for c in (
                    *obs.effect_cards,
                    *obs.discards["hunt"],
                    *obs.discards["survival"],
                    *(card for _, card, _ in obs.cards_played),
                )
            ),
        ]
    )
    return {cat.card_name(c) for c in hidden_ids} - {n for n in map(cat.card_name, hidden_ids) if n in known}


def altered(game: BoardGame, viewer: int) -> BoardGame | None:
    """A copy that differs from ``game`` only in what ``viewer`` cannot see (another Hunted's face-down card
    and hand, the Creature's hunt cards and the decks), or None when there is nothing to change."""
    other = game.clone()
    piles, cards = other.state(PilesState), other.state(CardsState)
    changed = False
    for seat in other.other_seats():
        if seat == viewer:
            continue
        hand, played = piles.hand[seat], piles.played[seat]
        swap = next(((i, j) for i, h in enumerate(hand) for j, p in enumerate(played) if h != p), None)
        if swap is not None and not game.observation(viewer).seats[seat].revealed:
            i, j = swap
            hand[i], played[j] = played[j], hand[i]
            changed = True
        if cards.hands["survival"][seat] and cards.draw["survival"]:
            cards.hands["survival"][seat][0], cards.draw["survival"][0] = cards.draw["survival"][0], cards.hands["survival"][seat][0]
            changed = True
    if viewer != 0 and cards.hands["hunt"][0] and cards.draw["hunt"]:
        cards.hands["hunt"][0][0], cards.draw["hunt"][-1] = cards.draw["hunt"][-1], cards.hands["hunt"][0][0]
        changed = True
    return other if changed else None


async def table_text(pilot: Any) -> str:
    """The screen once it no longer changes (a panel of ``height: auto`` takes a frame to find its size)."""
    text = ""
    for _ in range(10):
        await pilot.pause()
        again = screen_text(pilot.app)
        if again == text:
            return text
        text = again
    return text


@pytest.mark.parametrize(
    # the Hunted at 6 players (the most hands to hide) and the Creature at 3 (CI's time budget: a third table,
    # the Hunted at 4, found nothing the other two do not)
    ("side", "players", "seed"), [("creature", 3, "hide-2"), ("hunted", 6, "hide-3")]
)
def test_nothing_on_screen_reveals_a_card_the_seat_cannot_see(side: str, players: int, seed: str) -> None:
    async def run() -> None:
        app = make_hunt_app(players=players, side=side, seed=seed)
        checks = {"names": 0, "same-screen": 0}
        read: set[str] = set()

        async def check(pilot: Any) -> None:
            table = pilot.app.table()
            game = app.session.game
            viewer = table.viewer
            assert viewer is not None
            text = screen_text(pilot.app)
            for name in hidden_card_names(game, viewer, read):
                assert not re.search(rf"\b{re.escape(name)}\b", text), (name, text)
            checks["names"] += 1
            # (every third dialog: redrawing the table under it twice is the slowest part of the suite)
            if dialog_of(pilot.app) is None or game.question is not None or checks["names"] % 3:
                return
            # the table under the dialog, drawn from a game that differs only in what the viewer cannot see
            other = altered(game, viewer)
            if other is None:
                return
            assert other.observation(viewer) == game.observation(viewer)
            await pilot.press("escape")
            before = await table_text(pilot)
            play = app.session.play
            app.session.play = NotAloneGame(other)
            table.refresh_view()
            after = await table_text(pilot)
            app.session.play = play
            table.refresh_view()
            await table_text(pilot)
            assert before == after
            checks["same-screen"] += 1
            await pilot.press("enter")  # the dialog again
            await settle(pilot)

        def four_rounds() -> bool:  # every kind of choice comes in the first rounds (CI's time budget)
            return app.session.observation(app.session.humans[0]).round > 4

        async with app.run_test(size=SIZE) as pilot:
            await play_to_end(pilot, random.Random(seed), each=check, until=four_rounds)
            if isinstance(app.screen, HuntEndScreen):  # a game over within four rounds: its end, to this seat
                game = app.session.game
                text = screen_text(app)
                assert ("You win!" if app.session.humans[0] in game.winners else "You lose.") in text
        assert checks["names"] >= 10 and checks["same-screen"] >= 3, checks

    asyncio.run(run())


def test_the_session_asks_the_game_only() -> None:
    """Bots act only through the engine's legal actions of their own seat (one function, swappable)."""
    session = HuntSession("not-alone", 3, ["random", "human", "random"], "bots")
    moves = 0
    while not session.game.is_over() and moves < 2000:
        seat = session.bot_seat()
        if seat is None:
            seat = session.human_seat()
            assert seat is not None
            session.apply(session.game.legal_actions(seat)[0])
        else:
            legal = session.game.legal_actions(seat)
            action = session.bot_move(seat)
            assert action in legal or isinstance(action, Pick)
        moves += 1
    assert session.game.is_over()


# ------------------------------------------------------------------------------------------------ the command


def test_crewkit_play_dispatches_not_alone_and_refuses_what_it_cannot_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from crewkit.cli.core import main
    from crewkit.tui import launch

    opened: list[tuple[Any, Any]] = []
    monkeypatch.setattr(
        sys, "stdout", sys.stdout
    )  # crewkit play wraps the streams for the app: put them back
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    monkeypatch.setattr(launch, "run_play", lambda options: opened.append((options, options.side)) or 0)
    assert (
        main(["play", "--ruleset", "not-alone", "--players", "3", "--seat", "creature", "--seed", "s"]) == 0
    )
    options, side = opened[0]
    assert (options.ruleset, options.players, options.seed, side) == ("not-alone", 3, "s", "creature")
    assert main(["play", "--ruleset", "not-alone-advanced", "--seats", "human,human,bot"]) == 0
    assert opened[1][0].players == 3 and opened[1][0].seats == ["human", "human", "bot"]
    capsys.readouterr()
    assert main(["play", "--ruleset", "not-alone", "--players", "9"]) == 1
    assert "not 9" in capsys.readouterr().err
    assert main(["play", "--ruleset", "not-alone", "--bot", "expert"]) == 2
    assert "Not Alone bots: heuristic, random" in capsys.readouterr().err
    assert main(["play", "--ruleset", "not-alone", "--reading", "nope=x"]) == 1
    assert "has no reading 'nope'" in capsys.readouterr().err
    assert main(["play", "--ruleset", "not-alone", "--mission", "planet-nine/01"]) == 2
    assert main(["play", "--ruleset", "crew", "--seat", "hunted"]) == 2
    assert "--seat creature|hunted is for Not Alone" in capsys.readouterr().err
    assert len(opened) == 2


@pytest.mark.parametrize("how", ["digit", "mouse"])
def test_a_place_card_by_its_number_or_by_the_mouse(how: str) -> None:
    async def run() -> None:
        app = make_hunt_app(players=3, side="hunted", seed="keys")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            dialog = dialog_of(app)
            assert dialog is not None and "place card" in dialog.title_text
            if how == "digit":
                await pilot.press("4")
            else:
                await pilot.click(".hunt-options", offset=(5, 2))  # the third line: the River
            await pilot.pause()
            played = app.session.game.state(PilesState).played[1]
            assert played == ([4] if how == "digit" else [3])

    asyncio.run(run())


async def test_below_80x24_the_hunt_table_says_what_it_needs() -> None:
    """The same sentence as the Crew table's (crewkit.tui.sizes): a notice over the dialog that opens first, and
    first on the table's status line once the person looks at the table."""
    need = "The terminal is 70x20: the table needs at least 80x24"
    app = make_hunt_app(players=3, side="hunted", seed="small")
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot)
        assert any(need in str(n.message) for n in app._notifications)
        await pilot.press("escape")  # look at the table
        await pilot.pause()
        assert need in screen_text(app)
    app = make_hunt_app(players=3, side="hunted", seed="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not any("needs at least" in str(n.message) for n in app._notifications)
        assert "the table needs at least" not in screen_text(app)


async def test_the_help_wraps_as_paragraphs_at_80x24() -> None:
    """The app shell's help screen with Not Alone's rules and keys; no short line followed by the rest of its
    sentence (a hard break inside a paragraph wrapped again)."""
    from crewkit.tui.screens.help import HelpScreen

    app = make_hunt_app(players=3, side="hunted", seed="help")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = [line.strip("█ ").rstrip() for line in screen_text(app).splitlines()][:-1]  # less the footer
        await pilot.press("escape")  # back to the table
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
    text = "\n".join(lines)
    assert "Exploration: every Hunted plays a place card" in text
    assert "The Crew in short" not in text  # Not Alone's content, not the Crew's
    assert "Enter      open your choice again" in text  # a key line kept whole
    for line, after in zip(lines, lines[1:], strict=False):
        if after[:1].islower():  # the line goes on with the same sentence: this one must be full
            assert len(line) >= 60, (line, after)


async def test_the_whole_game_log_is_read_with_g() -> None:
    """At 80x24 the log panel holds a few lines: ``g`` shows every line the seat was shown, the first included."""
    from crewkit.families.not_alone.tui.end import HuntLogScreen

    app = make_hunt_app(players=3, side="hunted", seed="log")
    async with app.run_test(size=(80, 24)) as pilot:
        rng = random.Random(3)
        for _ in range(40):  # a few rounds: more lines than the panel shows
            await settle(pilot)
            if app.table() is None or app.table().session.is_over() or app.table().observation().round >= 3:
                break
            if dialog_of(app) is not None:
                from hunt_helpers import choose

                await choose(pilot, rng)
        table = app.table()
        shown = table.observation().log
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, HuntLogScreen)
        text = str(app.screen.query_one("#hunt-log-text").render())
        assert all(line in text for line in shown)
        assert text.index(shown[-1]) > text.index(shown[0])
        assert len(text.splitlines()) > 6  # more than the panel's lines at 80x24
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HuntLogScreen)


async def test_a_places_power_is_read_under_the_planet_at_80x24() -> None:
    """The boxes of the planet show the start of each power; the lines below show the cursor's (7 players:
    two lines, then where the rest is: tests/tui/test_hunt_places.py reads every power in full)."""
    app = make_hunt_app(players=7, side="hunted", seed="detail")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        text = screen_text(app)
    assert "1 Lair: Either take every place card of your discard pile" in text
    assert "or use the power of the place where the Creature" in text and "i: every place in full" in text
    assert "Bot 6" in text  # six Hunted still fit in the players panel
