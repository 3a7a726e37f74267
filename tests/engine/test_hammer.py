"""Hammer's mission game, worked out by hand from the table in RULES.md §4 on explicit deals.

Every test uses the `dealer-start=chosen` reading, so seat 0 deals the first round.
"""

from __future__ import annotations

import random

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, MatchState
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game

CHOSEN = {"dealer-start": "chosen"}
SUITS = ["red", "blue", "yellow", "green"]


def deal(rules, hands: list[list[str]]) -> Deal:  # type: ignore[no-untyped-def]
    return Deal(tuple(tuple(rules.deck.card(c) for c in h) for h in hands), ())


def suit_hands() -> list[list[str]]:
    """Seat 0 red 1 and blue 1-8; seat 1 red 2-9 and blue 9; seat 2 all yellows; seat 3 all greens."""
    return [["red 1"] + [f"blue {r}" for r in range(1, 9)],
            [f"red {r}" for r in range(2, 10)] + ["blue 9"],
            [f"yellow {r}" for r in range(1, 10)],
            [f"green {r}" for r in range(1, 10)]]


def lowest_first(game: Game) -> None:
    """Play out the round: everyone plays their lowest legal card (never the 10 unless forced)."""
    start = game.state(MatchState).round
    while not game.is_over() and game.state(MatchState).round == start:
        actions = [a for a in game.legal_actions() if isinstance(a, Play)]
        plain = [a for a in actions if not a.card.is_special] or actions
        game.apply(min(plain, key=lambda a: a.card.id))


def test_hidden_mission_adds_to_penalty_score() -> None:
    rules = compile_game("hammer", "hammer/01", 4, CHOSEN)
    game = Game.new(rules, seed="h", deal=deal(rules, suit_hands()))
    assert game.dealer == 0 and game.phase == "choose-mission"
    game.apply(ChooseMission(0, "hammer/01", "penalty"))
    lowest_first(game)
    result = game.state(MatchState).round_results[0]
    assert [t.winner for t in game.state(MatchState).round_tricks[0]] == [1] * 9  # seat 1 took every trick
    # penalty: +90, -40 per trick -> seat 1: 90 - 360 = -270, others +90;
    # hidden: seat 1 (not the dealer) took every trick -> 150 from each other player
    assert [int(d) for d in result.deltas] == [90 - 150, -270 + 450, 90 - 150, 90 - 150]
    assert [int(c) for c in game.state(MatchState).chips] == [440, 680, 440, 440]


def test_hidden_payment_replaces_reading() -> None:
    rules = compile_game("hammer", "hammer/01", 4, {**CHOSEN, "hidden-payment": "replaces"})
    game = Game.new(rules, seed="h", deal=deal(rules, suit_hands()))
    game.apply(ChooseMission(0, "hammer/01", "penalty"))
    lowest_first(game)
    assert [int(d) for d in game.state(MatchState).round_results[0].deltas] == [-60, 450, -60, -60]


def test_challenge_success_settles_early() -> None:
    # mission 5, challenge: the dealer must take blue 7. Seat 0 leads blue 7 in trick 1; nobody else has blue.
    rules = compile_game("hammer", "hammer/05", 4, CHOSEN)
    hands = [[f"blue {r}" for r in range(1, 10)], [f"red {r}" for r in range(1, 10)],
             [f"yellow {r}" for r in range(1, 10)], [f"green {r}" for r in range(1, 10)]]
    game = Game.new(rules, seed="c", deal=deal(rules, hands))
    game.apply(ChooseMission(0, "hammer/05", "challenge"))
    assert game.hands[0].bit_count() == 10  # the dealer took the 10 into hand
    card = rules.deck.card
    game.apply(Play(0, card("blue 7")))
    for seat, c in ((1, "red 1"), (2, "yellow 1"), (3, "green 1")):
        game.apply(Play(seat, card(c)))
    res = game.state(MatchState).round_results[0]
    assert res.result == "success" and res.tricks == 1  # settled after trick 1, not after trick 9
    assert [int(d) for d in res.deltas] == [120, -40, -40, -40]  # +40 from each
    assert game.state(MatchState).round == 2 and game.dealer == 1  # the dealer moved left


def test_challenge_failure_pays_each() -> None:
    # mission 5, challenge: seat 1 drops blue 7 under seat 2's blue 9 -> the dealer pays 90 to each.
    rules = compile_game("hammer", "hammer/05", 4, CHOSEN)
    hands = [["blue 1"] + [f"red {r}" for r in range(1, 9)], ["blue 7"] + [f"yellow {r}" for r in range(1, 9)],
             ["blue 9"] + [f"green {r}" for r in range(1, 9)],
             ["red 9", "yellow 9", "green 9", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6", "blue 8"]]
    game = Game.new(rules, seed="f", deal=deal(rules, hands))
    game.apply(ChooseMission(0, "hammer/05", "challenge"))
    card = rules.deck.card
    for seat, c in ((0, "blue 1"), (1, "blue 7"), (2, "blue 9"), (3, "blue 2")):
        game.apply(Play(seat, card(c)))
    res = game.state(MatchState).round_results[0]
    assert res.result == "failure" and res.tricks == 1
    assert [int(d) for d in res.deltas] == [-270, 90, 90, 90]


def test_ten_refused_in_first_trick_and_beats_a_led_nine() -> None:
    rules = compile_game("hammer", "hammer/05", 4, CHOSEN)
    hands = [["red 1", "red 2"] + [f"blue {r}" for r in range(1, 8)], ["red 9"] + [f"yellow {r}" for r in range(1, 9)],
             ["red 3", "red 4"] + [f"green {r}" for r in range(1, 8)],
             ["red 5", "red 6", "red 7", "red 8", "blue 8", "blue 9", "yellow 9", "green 8", "green 9"]]
    game = Game.new(rules, seed="t", deal=deal(rules, hands))
    game.apply(ChooseMission(0, "hammer/05", "challenge"))
    card = rules.deck.card
    ten = card("10")
    assert Play(0, ten) not in game.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        game.apply(Play(0, ten))
    assert err.value.code == "not-in-first-trick"
    for seat, c in ((0, "red 1"), (1, "red 9"), (2, "red 3"), (3, "red 5")):
        game.apply(Play(seat, card(c)))
    assert game.tricks[-1].winner == 1
    # trick 2: seat 1 leads red... it has no red left: it leads yellow 1; the dealer, void in yellow, plays the 10
    game.apply(Play(1, card("yellow 1")))
    game.apply(Play(2, card("green 1")))
    game.apply(Play(3, card("yellow 9")))
    game.apply(Play(0, ten))
    assert game.tricks[-1].winner == 0 and game.tricks[-1].winning_card == ten
    # and the 10 may be played even when its holder could follow (seat 0 still holds red 2)
    game2 = Game.new(rules, seed="t", deal=deal(rules, hands))
    game2.apply(ChooseMission(0, "hammer/05", "challenge"))
    for seat, c in ((0, "red 1"), (1, "red 9"), (2, "red 3"), (3, "red 5")):
        game2.apply(Play(seat, card(c)))
    game2.apply(Play(1, card("yellow 1")))
    game2.apply(Play(2, card("green 1")))
    game2.apply(Play(3, card("yellow 9")))
    assert Play(0, ten) in game2.legal_actions(0)


def test_mission_4_challenge_bars_the_ten_from_the_last_trick() -> None:
    rules = compile_game("hammer", "hammer/04", 4, CHOSEN)
    game = Game.new(rules, seed="m4")
    game.apply(ChooseMission(game.dealer, "hammer/04", "challenge"))  # type: ignore[arg-type]
    ten = rules.deck.card("10")
    rng = random.Random(4)
    while not game.state(MatchState).round_results:
        actions = [a for a in game.legal_actions() if isinstance(a, Play)]
        if len(game.tricks) == game.total_tricks - 1 and game.to_act == game.dealer:
            assert Play(game.dealer, ten) not in actions, "the 10 is barred from the last trick"  # type: ignore[arg-type]
            break
        choice = [a for a in actions if a.card != ten] or actions
        game.apply(rng.choice(choice))
    # in a penalty round of mission 4 the ten is not dealt at all
    game2 = Game.new(rules, seed="m4")
    game2.apply(ChooseMission(game2.dealer, "hammer/04", "penalty"))  # type: ignore[arg-type]
    assert not any(h & ten.bit for h in game2.hands)


def test_eight_rounds_then_the_winner() -> None:
    rules = compile_game("hammer", "hammer", 4)
    game = Game.new(rules, seed="eight")
    rng = random.Random(8)
    dealers = []
    while not game.is_over():
        if game.phase == "choose-mission":
            dealers.append(game.dealer)
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.state(MatchState).round_results) == 8
    assert dealers == [(dealers[0] + i) % 4 for i in range(8)]  # each player deals twice, moving left
    chips = [500 + sum(r.deltas[s] for r in game.state(MatchState).round_results) for s in range(4)]
    assert chips == list(game.state(MatchState).chips)
    best = max(game.state(MatchState).chips)
    assert game.outcome().result == "finished"
    assert f"seat {list(game.state(MatchState).chips).index(best)}" in game.outcome().reason
