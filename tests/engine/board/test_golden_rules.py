"""Golden scenarios of Not Alone's core rules, each worked out by hand from RULES.md §5 (see the comments)."""

from __future__ import annotations

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.families.not_alone.blocks import GiveUp, PlayCard, PlayPlaces, Resist
from crewkit.families.not_alone.state import LONE, BoardState

from .scenario import choose, creature, places, scenario, state


def test_the_creature_token_catches_two_hunted_assimilation_moves_once() -> None:
    # 3 Hunted: two on the Jungle with the Creature token, one on the Rover (no token: its power).
    g = scenario(4)
    places(g, s1=2, s2=2, s3=5)
    creature(g, 2)
    choose(g, "8")  # the Rover: a place card from the reserve the Hunted does not own (6 to 10): the Wreck
    s = state(g)
    assert s["will"] == [2, 2, 3]  # each caught Hunted loses 1 will
    assert s["assimilation"] == 1  # once, however many were caught
    assert s["rescue"] == 1  # end of round
    assert s["hand"] == [[1, 3, 4, 5], [1, 3, 4, 5], [1, 2, 3, 4, 8]]
    assert s["discard"] == [[2], [2], [5]]  # played cards face up on the discard piles
    assert s["round"] == 2


@pytest.mark.parametrize(("ruleset", "back"), [("not-alone", 3), ("not-alone-advanced", 2)])
def test_the_third_will_rule(ruleset: str, back: int) -> None:
    # The Hunted on the Lair has 1 will: the Creature token takes 1, the Lair 1 more; 0 will.
    g = scenario(3, ruleset=ruleset, will={1: 1}, discard={1: [3, 4]})
    places(g, s1=1, s2=2)
    creature(g, 1)
    s = state(g)
    # catch: Assimilation +1; a Hunted lost their last will: +1 more; they take back every discarded place
    # card and 3 will (the advanced variant: 2)
    assert s["assimilation"] == 2
    assert s["will"] == [back, 3]
    assert s["hand"][0] == [2, 3, 4, 5] and s["discard"][0] == [1]
    # the Jungle: the Jungle comes back (and no card from an empty discard pile)
    assert s["hand"][1] == [1, 2, 3, 4, 5] and s["discard"][1] == []


def test_resist_costs_1_will_for_2_cards() -> None:
    g = scenario(2, discard={1: [1, 2, 3]})
    g.apply(Resist(1, 1))
    choose(g, "1")
    choose(g, "3")
    assert state(g)["will"] == [2] and state(g)["hand"] == [[1, 3, 4, 5]] and state(g)["discard"] == [[2]]
    with pytest.raises(IllegalAction) as err:  # once a round
        g.apply(Resist(1, 1))
    assert err.value.code == "cannot-resist"


def test_resist_costs_2_will_for_4_cards_but_never_the_last_will() -> None:
    g = scenario(2, discard={1: [1, 2, 3]})
    g.apply(Resist(1, 2))  # 4 cards: all three come back, nothing to choose
    assert state(g)["will"] == [1] and state(g)["hand"] == [[1, 2, 3, 4, 5]]
    g = scenario(2, will={1: 2}, discard={1: [1, 2]})
    assert Resist(1, 2) not in g.legal_actions(1) and Resist(1, 1) in g.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        g.apply(Resist(1, 2))  # it would cost the last will: Give Up instead
    assert err.value.code == "cannot-resist" and "last will" in err.value.message


def test_give_up_brings_back_will_and_cards_and_moves_assimilation() -> None:
    g = scenario(2, will={1: 1}, discard={1: [1, 2, 3]})
    g.apply(GiveUp(1))
    s = state(g)
    assert s["will"] == [3] and s["hand"] == [[1, 2, 3, 4, 5]] and s["discard"] == [[]]
    assert s["assimilation"] == 1


def test_the_artemia_token_discards_a_place_card_and_cancels_the_power() -> None:
    # 3 Hunted: Rescue goal 15, the counter at 9: 6 spaces to go, an Artemia space of side a.
    g = scenario(4, rescue=9)
    places(g, s1=3, s2=4, s3=5)
    creature(g, 1, artemia=3)
    # the places without a token first (reading reckoning-order): the Beach, then the Rover
    choose(g, "6")  # the Rover takes the Swamp
    choose(g, "4")  # the Hunted on the River discards the Beach from hand; no power, no card back
    s = state(g)
    assert s["discard"][0] == [3, 4] and s["hand"][0] == [1, 2, 5]
    assert g.state(BoardState).marker  # the Beach (no token): the marker goes on it
    assert s["will"] == [3, 3, 3] and s["assimilation"] == 0


def test_no_artemia_token_without_a_card_or_an_artemia_space() -> None:
    g = scenario(4)
    places(g, s1=3, s2=4, s3=5)
    creature(g, 1)
    assert g.phase == "reckoning" and not g.token_places("artemia")


def test_a_target_card_scream_and_the_river_next_round() -> None:
    g = scenario(3, hunt=["scream"], hunt_deck=["stasis", "tracking", "cataclysm"])
    places(g, s1=3, s2=2)
    g.apply(PlayCard(LONE, "scream", (3,)))
    assert g.token_places("target") == [3]
    creature(g, 5)
    choose(g, "lose")  # Scream: the Hunted on the target chooses: discard 2 place cards or lose 1 will
    s = state(g)
    assert s["will"] == [2, 3]
    # then the River's power (the Target token does not stop it): next round, two place cards
    assert g.round == 2 and g.phase == "exploration"
    while g.waiting() == (LONE,):
        g.apply(g.legal_actions(LONE)[-1])  # the Creature passes its phase-1 cards
    plays = [a for a in g.legal_actions(1) if isinstance(a, PlayPlaces)]
    assert plays and all(len(a.places) == 2 for a in plays)
    assert all(len(a.places) == 1 for a in g.legal_actions(2) if isinstance(a, PlayPlaces))


def test_the_rescue_counter_reaching_its_goal_at_the_end_of_the_round() -> None:
    g = scenario(2, rescue=12)  # 1 Hunted: 13 spaces
    places(g, s1=5)
    creature(g, 1)
    choose(g, "6")
    assert g.is_over() and g.winners == (1,) and state(g)["rescue"] == 13


def test_the_game_ends_at_once_when_the_wreck_moves_rescue_to_its_goal() -> None:
    g = scenario(3, rescue=13, hand={1: [1, 2, 3, 4, 8]})  # 2 Hunted: 14 spaces
    places(g, s1=8, s2=5)
    creature(g, 1)
    assert g.is_over() and g.winners == (1, 2)
    assert state(g)["hand"][1] == [1, 2, 3, 4]  # the second Hunted's Rover was never resolved


def test_the_creature_wins_at_once_on_the_assimilation_goal() -> None:
    g = scenario(2, assimilation=6)  # 1 Hunted: 7 spaces
    places(g, s1=2)
    creature(g, 2)
    assert g.is_over() and g.winners == (LONE,) and g.round == 1
    assert g.legal_actions(1) == []
    with pytest.raises(IllegalAction) as err:
        g.apply(GiveUp(1))
    assert err.value.code == "game-over"
