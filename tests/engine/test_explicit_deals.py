"""Explicit deals and first dealers are checked against the rule set (issue 11 items 7 and 8).

The golden records in tests/records/ (deal-*, hammer-dealer-*) cover records; these cover the Python entry points.
"""

from __future__ import annotations

import pytest

from crewkit.engine.errors import DealerError, SetupError
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.engine.game import (
    Deal,
    Game,
    check_deal,
    deal_from_strings,
    set_aside_count,
)
from crewkit.families.trick_taking.engine.record import game_to_record, replay_record
from crewkit.families.trick_taking.engine.setup import compile_game, new_game

SUITS = ["red", "blue", "yellow", "green"]


def hammer_hands() -> list[list[str]]:
    return [[f"{s} {r}" for r in range(1, 10)] for s in SUITS]


def test_deal_from_strings_refuses_hands_of_the_wrong_size() -> None:
    rules = compile_game("hammer", "hammer", 4)
    hands = hammer_hands()
    hands[0].append(hands[1].pop())
    with pytest.raises(SetupError, match=r"seat 0 is dealt 10 cards; rule set hammer deals 9 to seat 0"):
        deal_from_strings(rules, hands)
    assert deal_from_strings(rules, hammer_hands()).hands[3][0].name == "green 1"


def test_deal_from_strings_refuses_the_undealt_ten_and_duplicates() -> None:
    rules = compile_game("hammer", "hammer", 4)
    hands = hammer_hands()
    hands[2][0] = "10"
    with pytest.raises(SetupError, match="10 is dealt to seat 2, but rule set hammer never deals it"):
        deal_from_strings(rules, hands)
    hands = hammer_hands()
    hands[2][0] = "red 1"
    with pytest.raises(SetupError, match="red 1 is in the deal twice: dealt to seat 0 and dealt to seat 2"):
        deal_from_strings(rules, hands)


@pytest.mark.parametrize(("players", "hand", "aside"), [(3, 10, 10), (4, 8, 8), (5, 7, 5)])
def test_persian_set_aside_sizes(players: int, hand: int, aside: int) -> None:
    rules = compile_game("crew-persian", "persian", players)
    assert rules.hand_sizes == (hand,) * players and set_aside_count(rules) == aside
    cards = rules.deck.cards
    deal = Deal(tuple(tuple(cards[i * hand:(i + 1) * hand]) for i in range(players)), (),
                tuple(cards[players * hand:players * hand + aside - 1]))
    with pytest.raises(SetupError, match=f"the deal sets {aside - 1} cards aside; rule set crew-persian sets "
                                         f"{aside} aside with {players} players"):
        check_deal(rules, deal)


def test_every_seeded_deal_passes_the_check() -> None:
    """The check and the dealer agree: what `deal_from_seed` deals is a deal the rule set accepts."""
    for ruleset, mission, players in [("crew", "planet-nine/01", 3), ("crew", "planet-nine/01", 5),
                                      ("crew-jarvis", "planet-nine/01", 2), ("crew-persian", "persian", 5),
                                      ("crew-3p-challenge", "planet-nine/01", 3), ("hammer", "hammer", 4)]:
        for seed in ("a", "b", "c"):
            game = new_game(ruleset, mission, players, seed=seed)
            assert check_deal(game.rules, game.deal) is not None
            replay = replay_record(game_to_record(game))
            assert replay.error is None, (ruleset, replay.error)


def test_partial_positions_may_have_smaller_hands_only_when_asked() -> None:
    rules = compile_game("crew", "planet-nine/01", 3)
    card = rules.deck.card
    deal = Deal(((card("rocket 4"), card("blue 1")), (card("blue 2"), card("blue 3")), (card("pink 1"), card("pink 2"))),
                (card("pink 1"),))
    with pytest.raises(SetupError, match="seat 0 is dealt 2 cards"):
        Game.new(rules, seed="p", deal=deal)
    assert Game.new(rules, seed="p", deal=deal, partial=True).total_tricks == 2


def test_first_dealer_chosen_round_trips_through_a_record() -> None:
    game = new_game("hammer", "hammer", 4, seed="d", readings={"dealer-start": "chosen"}, dealer=3)
    assert game.dealer == 3 and game.to_act == 3
    record = game_to_record(game)
    assert record["dealer"] == 3
    replay = replay_record(record)
    assert replay.error is None and replay.game is not None and replay.game.dealer == 3


def test_first_dealer_refused_when_not_drawn_or_absent() -> None:
    drawn = new_game("hammer", "hammer", 4, seed="d").state(MatchState).first_dealer
    assert new_game("hammer", "hammer", 4, seed="d", dealer=drawn).dealer == drawn
    with pytest.raises(DealerError, match=f"the seed \\('d' draws seat {drawn}\\)"):
        new_game("hammer", "hammer", 4, seed="d", dealer=(drawn + 1) % 4)
    with pytest.raises(DealerError, match="has seats 0 to 3"):
        new_game("hammer", "hammer", 4, seed="d", readings={"dealer-start": "chosen"}, dealer=4)
    with pytest.raises(DealerError, match="rule set crew has no dealer"):
        new_game("crew", "planet-nine/01", 4, seed="d", dealer=1)
    record = game_to_record(new_game("crew", "planet-nine/01", 4, seed="d"))
    record["dealer"] = 1
    result = replay_record(record)
    assert result.game is None and result.error is not None and result.error.code == "dealer"


def test_jarvis_record_columns_checked_face_down_and_face_up() -> None:
    game = new_game("crew-jarvis", "planet-nine/01", 2, seed="cols", readings={"jarvis-seat": "fixed"})
    record = game_to_record(game)
    dummy = record["deal"]["dummy"]
    dummy["face_down"][3].append(dummy["face_up"][3].pop())  # column 3: two face down, none face up
    result = replay_record(record)
    assert result.game is None and result.error is not None
    assert "dummy column 3 has 2 face-down and 0 face-up cards; rule set crew-jarvis gives each column 1 face " \
           "down and 1 face up" in result.error.message
    dummy["face_up"][3].append(dummy["face_down"][3].pop())
    dummy["face_up"].pop()
    result = replay_record(record)
    assert result.error is not None and "7 face-down and 6 face-up columns" in result.error.message
