"""JARVIS and the Persian reading: their special rules on explicit deals, worked out by hand."""

from __future__ import annotations

import random

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.communication import Signal
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.record import game_to_record, replay_record
from crewkit.families.trick_taking.engine.setup import compile_game

FIXED_SEAT = {"jarvis-seat": "fixed"}


def jarvis_game(columns: list[tuple[str, str]], p0: list[str], p1: list[str], tasks: list[str]) -> Game:
    rules = compile_game("crew-jarvis", "planet-nine/01", 2, FIXED_SEAT)
    card = rules.deck.card
    deal = Deal((tuple(map(card, p0)), tuple(map(card, p1))), tuple(map(card, tasks)),
                dummy_columns=tuple((card(down), card(up)) for down, up in columns))
    return Game.new(rules, seed="j", deal=deal)


def full_jarvis() -> Game:
    # JARVIS (seat 2): face-up pink 2, blue 1..6; face-down under them pink 8 and others.
    columns = [("pink 8", "pink 2"), ("yellow 1", "blue 1"), ("yellow 2", "blue 2"), ("yellow 3", "blue 3"),
               ("yellow 4", "blue 4"), ("yellow 5", "blue 5"), ("yellow 6", "blue 6")]
    p0 = ["rocket 4", "pink 9", "pink 1", "green 1", "green 2", "green 3", "green 4", "green 5", "green 6",
          "green 7", "green 8", "green 9", "yellow 7"]
    p1 = ["pink 3", "pink 4", "pink 5", "pink 6", "pink 7", "blue 7", "blue 8", "blue 9", "yellow 8", "yellow 9",
          "rocket 1", "rocket 2", "rocket 3"]
    return jarvis_game(columns, p0, p1, ["pink 1"])


def test_jarvis_follows_with_face_up_cards_only() -> None:
    game = full_jarvis()
    assert game.commander == 0 and game.dummy_seat == 2
    card = game.rules.deck.card
    game.apply(TakeTask(0, card("pink 1")))
    game.apply(Play(0, card("pink 9")))
    game.apply(Play(1, card("pink 3")))
    # JARVIS must follow pink with its face-up pink 2; the face-down pink 8 is not in its hand
    legal = {a.card.name for a in game.legal_actions(2) if isinstance(a, Play)}
    assert legal == {"pink 2"}
    with pytest.raises(IllegalAction) as err:
        game.apply(Play(2, card("blue 1")))
    assert err.value.code == "must-follow"
    game.apply(Play(2, card("pink 2")))  # the commander plays JARVIS's card, recorded as seat 2's action
    assert game.tricks[0].winner == 0
    # pink 8 turned up once the trick was over: now JARVIS holds it
    assert game.hands[2] & card("pink 8").bit
    assert game.actions[-1].seat == 2


def test_jarvis_face_down_card_not_usable_in_same_trick() -> None:
    game = full_jarvis()
    card = game.rules.deck.card
    game.apply(TakeTask(0, card("pink 1")))
    game.apply(Play(0, card("green 1")))
    game.apply(Play(1, card("rocket 1")))
    game.apply(Play(2, card("blue 1")))  # JARVIS has no green: plays blue 1, yellow 1 lies under it
    assert not game.plays  # 3 seats: the trick is complete
    assert game.hands[2] & card("yellow 1").bit


def test_jarvis_record_round_trip_keeps_columns() -> None:
    game = full_jarvis()
    game.apply(TakeTask(0, game.rules.deck.card("pink 1")))
    record = game_to_record(game)
    assert record["players"] == 2
    assert record["deal"]["dummy"]["face_up"][0] == ["pink 2"]
    assert record["deal"]["dummy"]["face_down"][0] == ["pink 8"]
    replay = replay_record(record)
    assert replay.error is None and replay.game is not None
    assert replay.game.hands == game.hands


def persian(players: int, secret: list[list[str]], readings: dict[str, str] | None = None,
            seed: str = "p") -> Game:
    rules = compile_game("crew-persian", "persian", players, readings)
    base = Game.new(rules, seed=seed)  # a seeded deal; only the secret cards are fixed by the test
    deal = Deal(base.deal.hands, (), base.deal.set_aside, secret=tuple(tuple(s) for s in secret))
    return Game.new(rules, seed=seed, deal=deal)


def test_persian_commander_holds_card_1_and_number_order() -> None:
    game = persian(3, [["persian/03"], ["persian/01"], ["persian/02"]])
    assert game.commander == 1  # the holder of mission card 1
    assert [len(h) for h in game.deal.hands] == [10, 10, 10] and len(game.deal.set_aside) == 10
    assert next(t for t in game.tasks if t.number == 2).owner == 2
    game2 = persian(3, [["persian/03"], ["persian/04"], ["persian/05"]])
    assert game2.commander == 2  # nobody holds 1: the highest number


def test_persian_number_order_enforced() -> None:
    # find a seeded game in which mission card 2 is completed before card 1: the engine must fail it
    for i in range(400):
        game = persian(3, [["persian/01"], ["persian/02"], ["persian/03"]], seed=f"order-{i}")
        rng = random.Random(i)
        while not game.is_over():
            game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)] or game.legal_actions()))
        if "was completed before mission card 1" in game.outcome().reason:
            done = {t.number: t.trick for t in game.tasks}
            assert done[1] is None or done[1] > done[2]  # type: ignore[operator]
            return
    pytest.fail("no game broke the number order")


def test_persian_secret_hidden_until_done() -> None:
    game = persian(3, [["persian/01"], ["persian/02"], ["persian/03"]])
    own = {t.card.name for t in game.observation(0).tasks}
    assert own == {"blue 8"}  # persian/01: win blue 8
    assert game.observation(1).hidden_tasks == 3
    assert "blue 8" not in {t.card.name for t in game.observation(1).tasks}


def test_persian_signal_timing() -> None:
    game = persian(4, [["persian/01"], ["persian/02"], ["persian/03"], ["persian/04"]])
    commander = game.commander
    assert commander == 0
    card = game.hand(commander)[0]
    with pytest.raises(IllegalAction) as err:  # not before the first card of the trick
        game.apply(Signal(commander, card))
    assert err.value.code == "signal-closed"
    first = next(a for a in game.legal_actions() if isinstance(a, Play))
    game.apply(first)
    other = (commander + 1) % 4
    with pytest.raises(IllegalAction) as err:  # only the commander signals (the default reading)
        game.apply(Signal(other, game.hand(other)[0]))
    assert err.value.code == "not-commander"
    game.apply(Signal(commander, game.hand(commander)[0]))
    assert game.communications[-1].statement == "signal"
    with pytest.raises(IllegalAction):  # once per game per player (and once per trick)
        game.apply(Signal(commander, game.hand(commander)[0]))


def test_persian_everyone_once_reading() -> None:
    game = persian(4, [["persian/01"], ["persian/02"], ["persian/03"], ["persian/04"]],
                   readings={"signal-who": "everyone-once"})
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Play)))
    other = (game.commander + 1) % 4  # type: ignore[operator]
    game.apply(Signal(other, game.hand(other)[0]))
    with pytest.raises(IllegalAction) as err:
        game.apply(Signal(game.commander, game.hand(game.commander)[0]))  # type: ignore[arg-type]
    assert err.value.code == "signal-this-trick"


def test_level_two_cards_counted_as_missions() -> None:
    rules = compile_game("crew-persian", "persian/level-2", 4)
    game = Game.new(rules, seed="lvl2")
    obs = game.observation(0)
    assert obs.hidden_tasks == 8  # four mission cards of two tasks each, all face down
    assert obs.hidden_missions_of_others == 3
    assert len([t for t in obs.tasks if t.owner == 0]) == 2  # the own card's two tasks are shown to seat 0
