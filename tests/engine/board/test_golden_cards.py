"""Golden scenarios: every place power, hunt card and survival card of Not Alone used at least once, each
consequence worked out by hand from the card's text (rulesets/not-alone/*.yaml)."""

from __future__ import annotations

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.families.not_alone.blocks import PlayCard, PlayPlaces
from crewkit.families.not_alone.blocks.cards import play_limit
from crewkit.families.not_alone.state import LONE, BoardState, CardsState

from .scenario import choose, creature, places, scenario, state

# ------------------------------------------------------------------------------------------------ places


def test_lair_takes_back_every_discarded_card() -> None:
    g = scenario(2, discard={1: [2, 3]})
    places(g, s1=1)
    creature(g, 5)
    choose(g, "use the power")
    choose(g, "take back all")
    assert state(g)["hand"] == [[2, 3, 4, 5]] and state(g)["discard"] == [[1]]


def test_lair_copies_the_place_of_the_creature_token() -> None:
    g = scenario(2, discard={1: [2]})
    places(g, s1=1)
    creature(g, 8)
    choose(g, "use the power")
    choose(g, "Creature token")  # the Wreck's power: Rescue +1
    assert state(g)["rescue"] == 2  # and +1 at the end of the round


def test_beach_takes_the_marker_off_to_move_rescue() -> None:
    g = scenario(2, marker=True)
    places(g, s1=4)
    creature(g, 1)
    assert not g.state(BoardState).marker and state(g)["rescue"] == 2


def test_swamp_comes_back_with_two_cards() -> None:
    g = scenario(2, hand={1: [1, 2, 3, 4, 5, 6]}, discard={1: [1, 2, 3]})
    places(g, s1=6)
    creature(g, 5)
    choose(g, "use the power")
    choose(g, "1")
    choose(g, "3")
    assert state(g)["hand"] == [[1, 3, 4, 5, 6]] and state(g)["discard"] == [[2]]


def test_shelter_draws_two_keeps_one() -> None:
    g = scenario(2, hand={1: [1, 2, 3, 4, 7]}, survival_deck=["adrenaline", "dodge", "gate"])
    places(g, s1=7)
    creature(g, 5)
    choose(g, "dodge")
    assert g.effect_hand(1, "survival") == ["dodge"] and g.state(CardsState).discard["survival"] == ["adrenaline"]


def test_source_gives_will_to_a_hunted_of_your_choice() -> None:
    g = scenario(3, hand={1: [1, 2, 3, 4, 9]}, will={2: 1})
    places(g, s1=9, s2=2)
    creature(g, 5)
    choose(g, "regain")
    choose(g, "2")  # the other Hunted
    assert state(g)["will"] == [3, 2]


def test_source_or_a_survival_card() -> None:
    g = scenario(2, hand={1: [1, 2, 3, 4, 9]}, survival_deck=["gate"])
    places(g, s1=9)
    creature(g, 5)
    choose(g, "draw")
    assert g.effect_hand(1, "survival") == ["gate"]


# ------------------------------------------------------------------------------------------------ hunt cards


def test_anticipation() -> None:
    g = scenario(3, hunt=["anticipation"])
    places(g, s1=2, s2=3)
    g.apply(PlayCard(LONE, "anticipation"))
    choose(g, "1")
    creature(g, 2)  # the other Hunted, on the River, uses its power (nothing to take back)
    assert state(g)["assimilation"] == 2  # the catch, and one more for the named Hunted


def test_ascendancy() -> None:
    g = scenario(2, hunt=["ascendancy"])
    places(g, s1=2)
    g.apply(PlayCard(LONE, "ascendancy"))
    choose(g, "1")  # the Hunted keeps the Lair and the River
    choose(g, "3")
    assert state(g)["hand"] == [[1, 3]]
    creature(g, 5)
    choose(g, "use the power")  # the Jungle: back, with one card from the discard pile
    choose(g, "4")
    assert state(g)["hand"] == [[1, 2, 3, 4]] and state(g)["discard"] == [[5]]


def test_cataclysm() -> None:
    g = scenario(2, hunt=["cataclysm"], hand={1: [1, 2, 3, 4, 8]})
    places(g, s1=8)
    creature(g, 1)
    g.apply(PlayCard(LONE, "cataclysm"))
    choose(g, "8")
    assert state(g)["rescue"] == 1  # the Wreck did nothing; the end of the round moved it


def test_despair() -> None:
    g = scenario(2, hunt=["despair"], survival={1: ["adrenaline"]}, will={1: 2}, hand={1: [1, 2, 3, 4, 7]})
    g.apply(PlayCard(LONE, "despair"))  # its Artemia token is placed in the Hunting phase (test_bga.py)
    assert not any(isinstance(a, PlayCard) for a in g.legal_actions(1))  # no survival card this round
    places(g, s1=7)
    creature(g, 5, artemia=2)
    assert g.effect_hand(1, "survival") == ["adrenaline"]  # the Shelter drew nothing: no survival card drawn
    assert g.state(CardsState).discard["survival"] == []


def test_detour() -> None:
    g = scenario(3, hunt=["detour"])
    places(g, s1=2, s2=5)
    creature(g, 3)
    g.apply(PlayCard(LONE, "detour"))
    choose(g, "1")
    choose(g, "3")  # from the Jungle to the River, under the Creature token
    choose(g, "6")  # the other Hunted's Rover
    assert state(g)["will"] == [2, 3] and state(g)["assimilation"] == 1


def test_fierceness() -> None:
    g = scenario(2, hunt=["fierceness"])
    places(g, s1=2)
    creature(g, 2, ("fierceness", ()))
    assert state(g)["will"] == [1]


def test_flashback() -> None:
    g = scenario(2, hunt=["flashback"], hunt_discard=["fierceness"])
    places(g, s1=2)
    creature(g, 2, ("flashback", ()))  # in phase 2, Fierceness's phase: Fierceness again (test_bga.py)
    assert state(g)["will"] == [1]


def test_forbidden_zone() -> None:
    g = scenario(3, hunt=["forbidden_zone"])
    places(g, s1=2, s2=3)
    g.apply(PlayCard(LONE, "forbidden_zone"))
    choose(g, "5")
    choose(g, "4")
    creature(g, 1)
    choose(g, "use the power")  # the Jungle back, and the only discarded card
    choose(g, "take back")  # the River's Hunted takes back the card it discarded
    assert state(g)["discard"] == [[], [3]] and state(g)["hand"] == [[1, 2, 3, 4, 5], [1, 2, 4, 5]]


def test_force_field() -> None:
    g = scenario(2, hunt=["force_field"])
    g.apply(PlayCard(LONE, "force_field", (1, 2)))
    assert {a.places for a in g.legal_actions(1) if isinstance(a, PlayPlaces)} == {(3,), (4,), (5,)}
    with pytest.raises(IllegalAction) as err:
        g.apply(PlayPlaces(1, (2,)))
    assert err.value.code == "place-not-playable" and "may not be played" in err.value.message


def test_interference() -> None:
    g = scenario(2, hunt=["interference"], hand={1: [1, 2, 3, 4, 8]})
    places(g, s1=8)
    creature(g, 1, ("interference", ()))
    assert state(g)["rescue"] == 1


def test_mirage() -> None:
    g = scenario(2, hunt=["mirage"])
    places(g, s1=4)
    creature(g, 1, ("mirage", (3, 4)))
    assert not g.state(BoardState).marker and g.round == 2


def test_mutation() -> None:
    g = scenario(2, hunt=["mutation"])
    places(g, s1=2)
    creature(g, 5, ("mutation", (2,)))
    choose(g, "4")
    assert state(g)["will"] == [2] and state(g)["discard"] == [[2, 4]]


def test_persecution() -> None:
    g = scenario(2, hunt=["persecution"], hand={1: [1, 2, 3, 4, 5, 6]}, discard={1: [1, 2, 3]})
    places(g, s1=6)
    creature(g, 5, ("persecution", ()))
    choose(g, "use the power")
    choose(g, "3")  # the Swamp comes back and only one card, not two
    assert state(g)["hand"] == [[3, 4, 5, 6]] and state(g)["discard"] == [[1, 2]]


def test_phobia_shows_cards_to_the_creature_only() -> None:
    g = scenario(2, hunt=["phobia"])
    places(g, s1=2)
    g.apply(PlayCard(LONE, "phobia", (9,)))
    choose(g, "1")  # kept hidden: the Lair and the River
    choose(g, "3")
    assert g.observation(LONE).shown_to_me == ((1, (4, 5)),)
    assert g.observation(1).shown_to_me == ()
    assert any("shows you: Beach and Rover" in line for line in g.observation(LONE).log)
    assert not any("Beach and Rover" in line for line in g.observation(1).log)
    creature(g, 5)


def test_stasis() -> None:
    g = scenario(2, hunt=["stasis"])
    places(g, s1=2)
    creature(g, 5)
    g.apply(PlayCard(LONE, "stasis"))  # phase 4
    assert state(g)["rescue"] == 0 and g.round == 2


def test_toxin() -> None:
    g = scenario(2, hunt=["toxin"], survival={1: ["adrenaline"]}, hand={1: [1, 2, 3, 4, 8]})
    places(g, s1=8)
    creature(g, 1, ("toxin", (8,)))
    assert g.effect_hand(1, "survival") == [] and state(g)["rescue"] == 1  # card discarded, the Wreck cancelled


def test_tracking() -> None:
    g = scenario(2, hunt=["tracking"])
    places(g, s1=2)
    creature(g, 5)
    g.apply(PlayCard(LONE, "tracking"))  # phase 4: next round, two hunt cards
    assert g.round == 2 and play_limit(g, "hunt") == 2


# ------------------------------------------------------------------------------------------------ survival


def test_adrenaline() -> None:
    g = scenario(2, survival={1: ["adrenaline"]}, will={1: 2})
    g.apply(PlayCard(1, "adrenaline"))
    assert state(g)["will"] == [3]


def test_amplifier() -> None:
    g = scenario(2, survival={1: ["amplifier"]}, marker=True)
    places(g, s1=2)
    creature(g, 5)
    g.apply(PlayCard(1, "amplifier"))  # phase 4
    assert not g.state(BoardState).marker and state(g)["rescue"] == 2


def test_detector() -> None:
    g = scenario(2, survival={1: ["detector"]}, rescue=7)  # 6 spaces to go: the Artemia token
    places(g, s1=2)
    creature(g, 5, artemia=2)
    g.apply(PlayCard(1, "detector"))
    assert state(g)["hand"] == [[1, 2, 3, 4, 5]]  # no card discarded; the Jungle came back


def test_dodge() -> None:
    g = scenario(2, survival={1: ["dodge"]})
    places(g, s1=2)
    creature(g, 2)
    g.apply(PlayCard(1, "dodge"))
    assert state(g)["will"] == [3] and state(g)["assimilation"] == 0


def test_double_back() -> None:
    g = scenario(2, survival={1: ["double_back"]})
    places(g, s1=5)
    creature(g, 1)
    choose(g, "6")
    g.apply(PlayCard(1, "double_back"))  # phase 4: the Rover back to the hand
    assert state(g)["hand"] == [[1, 2, 3, 4, 5, 6]] and state(g)["discard"] == [[]]


def test_drone() -> None:
    g = scenario(2, survival={1: ["drone"]})
    places(g, s1=2)
    creature(g, 1)
    g.apply(PlayCard(1, "drone"))
    choose(g, "6")  # the Rover's power instead of the Jungle's
    assert state(g)["hand"] == [[1, 3, 4, 5, 6]] and state(g)["discard"] == [[2]]


def test_gate() -> None:
    g = scenario(2, survival={1: ["gate"]})
    places(g, s1=3)
    creature(g, 1)
    g.apply(PlayCard(1, "gate"))
    choose(g, "8")  # the Wreck, next to the River
    assert state(g)["rescue"] == 2


def test_hologram() -> None:
    g = scenario(2, survival={1: ["hologram"]}, rescue=7)
    places(g, s1=2)
    creature(g, 5, artemia=2)
    g.apply(PlayCard(1, "hologram"))
    choose(g, "7")
    assert g.round == 2 and state(g)["hand"] == [[1, 2, 3, 4, 5]]  # not caught: the Jungle's power


def test_ingenuity() -> None:
    g = scenario(2, survival={1: ["ingenuity"]})
    g.apply(PlayCard(1, "ingenuity"))
    assert g.state(BoardState).marker


def test_sacrifice() -> None:
    g = scenario(2, survival={1: ["sacrifice"]}, hunt=["fierceness"])
    g.apply(PlayCard(1, "sacrifice"))
    choose(g, "5")
    places(g, s1=2)
    assert not any(isinstance(a, PlayCard) for a in g.legal_actions(LONE))
    assert state(g)["discard"] == [[5]]


def test_sixth_sense() -> None:
    g = scenario(2, survival={1: ["sixth_sense"]}, discard={1: [1, 2, 3]})
    g.apply(PlayCard(1, "sixth_sense"))
    choose(g, "1")
    choose(g, "2")
    assert state(g)["hand"] == [[1, 2, 4, 5]]


def test_smokescreen() -> None:
    g = scenario(2, survival={1: ["smokescreen"]}, discard={1: [3]})
    g.apply(PlayCard(1, "smokescreen"))
    assert g.observation(LONE).seats[1].discard is None and g.observation(LONE).seats[1].discard_size == 1
    assert g.observation(1).seats[1].discard == (3,)
    places(g, s1=2)
    creature(g, 5)
    choose(g, "use the power")  # the Jungle: it and the River come back; the Creature is not told which
    assert any("takes back the River" in line for line in g.observation(1).log)
    assert not any("River" in line for line in g.observation(LONE).log)
    assert any("takes back 1 place card(s)" in line for line in g.observation(LONE).log)


def test_strike_back() -> None:
    g = scenario(2, survival={1: ["strike_back"]}, hunt=["stasis", "tracking", "clone"], hunt_deck=["mirage"])
    g.apply(PlayCard(1, "strike_back"))
    cards = g.state(CardsState)
    assert len(cards.hands["hunt"][0]) == 1 and cards.draw["hunt"][0] == "mirage" and len(cards.draw["hunt"]) == 3


def test_vortex() -> None:
    g = scenario(2, survival={1: ["vortex"]}, discard={1: [3]})
    places(g, s1=2)
    creature(g, 3)
    g.apply(PlayCard(1, "vortex"))  # phase 2: the Jungle for the River from the discard pile
    assert state(g)["will"] == [2]  # now on the River, under the Creature token


def test_wrong_track() -> None:
    g = scenario(2, survival={1: ["wrong_track"]})
    places(g, s1=2)
    creature(g, 2)
    g.apply(PlayCard(1, "wrong_track"))
    choose(g, "7")
    assert state(g)["will"] == [3] and state(g)["assimilation"] == 0
