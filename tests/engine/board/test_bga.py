"""Golden scenarios of the points where Not Alone's rule set was checked against Board Game Arena's implementation
(taupe-sadar/notalone: notalone.game.php, material.inc.php) and found wrong or unstated (issue 25). Each
consequence is worked out by hand from the cited source; the readings' other options are pinned too."""

from __future__ import annotations

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.families.not_alone.blocks import GiveUp, Pass, PlaceToken, PlayCard, PlayPlaces
from crewkit.families.not_alone.state import LONE

from .scenario import choose, creature, pins, places, scenario, state

# ------------------------------------------------------------------------------------------------ Flashback


def test_flashback_is_played_in_the_phase_of_the_card_it_copies() -> None:
    # BGA: the copied card's phase ('phase' => 'Phase of the copied card'); Fierceness is a phase-2 card.
    g = scenario(2, hunt=["flashback"], hunt_discard=["fierceness"])
    assert g.phase == "exploration" and g.waiting() == (1,)  # nothing to play in phase 1: the window is skipped
    with pytest.raises(IllegalAction) as err:
        g.apply(PlayCard(LONE, "flashback"))
    assert err.value.code in ("not-your-turn", "card-not-playable")
    places(g, s1=2)
    assert PlayCard(LONE, "flashback") in g.legal_actions(LONE)
    creature(g, 2, ("flashback", ()))
    assert state(g)["will"] == [1]  # caught (1) and Fierceness copied (1 more)
    assert any("Flashback" in line.text and "Fierceness" in line.text for line in g.lines)


def test_flashback_out_of_the_copied_cards_phase_is_refused_with_the_rule() -> None:
    g = scenario(2, hunt=["flashback"], hunt_discard=["stasis"])  # Stasis: phase 4
    places(g, s1=2)
    with pytest.raises(IllegalAction) as err:
        g.apply(PlayCard(LONE, "flashback"))
    assert err.value.code == "card-not-playable"
    assert "Stasis" in err.value.message and "phase 4" in err.value.message


def test_flashback_with_nothing_discarded_cannot_be_played() -> None:
    g = scenario(2, hunt=["flashback"])
    places(g, s1=2)
    assert not any(isinstance(a, PlayCard) for a in g.legal_actions(LONE))
    with pytest.raises(IllegalAction) as err:
        g.apply(PlayCard(LONE, "flashback"))
    assert "no hunt card" in err.value.message and "to copy" in err.value.message


def test_flashback_copying_clone_places_the_target_token_that_catches() -> None:
    # BGA plays the copy with the copied card's symbol: Clone's Target token, a second Creature token.
    g = scenario(3, hunt=["flashback"], hunt_discard=["clone"])
    places(g, s1=2, s2=3)
    assert PlayCard(LONE, "flashback", (3,)) in g.legal_actions(LONE)
    creature(g, 2, ("flashback", (3,)))
    assert g.round == 2
    assert state(g)["will"] == [2, 2] and state(g)["assimilation"] == 1
    assert not any("applies again" in line.text for line in g.lines)


def test_flashback_copying_scream_applies_on_the_target_tokens_place() -> None:
    g = scenario(3, hunt=["flashback"], hunt_discard=["scream"])
    places(g, s1=3, s2=2)
    creature(g, 5, ("flashback", (3,)))
    choose(g, "lose")  # Scream, copied: the Hunted on the Target token's place chooses
    assert state(g)["will"] == [2, 3]


def test_flashback_copying_despair_makes_the_artemia_token_available() -> None:
    g = scenario(2, hunt=["flashback"], hunt_discard=["despair"], survival={1: ["adrenaline"]}, will={1: 2})
    g.apply(PlayCard(LONE, "flashback"))  # phase 1, as Despair: no token placed yet
    assert g.token_places("artemia") == []
    assert not any(isinstance(a, PlayCard) for a in g.legal_actions(1))  # Despair: no survival card
    places(g, s1=2)
    g.apply(PlaceToken(LONE, "creature", (5,)))
    assert Pass(LONE) not in g.legal_actions(LONE)
    g.apply(PlaceToken(LONE, "artemia", (2,)))
    choose(g, "3")  # the Artemia token: a place card discarded
    assert state(g)["discard"] == [[2, 3]]


# ------------------------------------------------------------------------------------------------ Despair


def test_despair_token_is_placed_after_the_hunted_have_played() -> None:
    # BGA: Despair makes the Artemia token available (artemia_token = -1); the Creature places it in the
    # Hunting phase with its own token, after the Hunted have played their place cards.
    g = scenario(3, hunt=["despair"], survival={1: ["adrenaline"]}, will={1: 2})
    g.apply(PlayCard(LONE, "despair"))
    assert g.token_places("artemia") == []
    for seat in (1, 2):
        obs = g.observation(seat)
        assert "artemia" not in obs.tokens
        assert not any("Artemia token goes on" in line for line in obs.log)
    assert not any(isinstance(a, PlayCard) for a in g.legal_actions(1))  # no survival card this round
    places(g, s1=2, s2=3)
    assert g.phase == "hunting"
    g.apply(PlaceToken(LONE, "creature", (5,)))
    assert Pass(LONE) not in g.legal_actions(LONE)  # the token of a card played is placed, not kept back
    assert {a.places for a in g.legal_actions(LONE) if isinstance(a, PlaceToken)} == {(p,) for p in range(1, 11)}
    g.apply(PlaceToken(LONE, "artemia", (2,)))
    texts = [line.text for line in g.lines]
    down = texts.index("Everyone has played their place cards face down.")
    assert down < next(i for i, t in enumerate(texts) if "Artemia token goes on the Jungle" in t)
    choose(g, "4")  # the Hunted on the Jungle discards a place card, and gets neither power nor card back
    assert state(g)["discard"][0] == [2, 4]


def test_despair_cannot_be_played_with_places_for_its_token() -> None:
    g = scenario(2, hunt=["despair"])
    with pytest.raises(IllegalAction) as err:
        g.apply(PlayCard(LONE, "despair", (4,)))
    assert err.value.code == "card-not-playable"


def test_force_field_still_targets_its_places_when_played() -> None:
    g = scenario(2, hunt=["force_field"])
    g.apply(PlayCard(LONE, "force_field", (1, 2)))
    assert g.token_places("target") == [1, 2]
    assert {a.places for a in g.legal_actions(1) if isinstance(a, PlayPlaces)} == {(3,), (4,), (5,)}


# ------------------------------------------------------------------------------------------------ Give Up


def test_give_up_with_full_will_and_nothing_discarded_is_refused() -> None:
    # BGA: "You cannot Give Up: you have all your Will counters and all your places in hand."
    g = scenario(2)
    assert GiveUp(1) not in g.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        g.apply(GiveUp(1))
    assert err.value.code == "cannot-give-up"
    assert "all their will" in err.value.message and "every place card in hand" in err.value.message
    assert state(g)["assimilation"] == 0


@pytest.mark.parametrize(("will", "discard"), [(2, []), (3, [1])])
def test_give_up_with_something_to_bring_back_is_allowed(will: int, discard: list[int]) -> None:
    g = scenario(2, will={1: will}, discard={1: discard})
    assert GiveUp(1) in g.legal_actions(1)
    g.apply(GiveUp(1))
    assert state(g)["will"] == [3] and state(g)["hand"] == [[1, 2, 3, 4, 5]] and state(g)["assimilation"] == 1


@pins("give-up-with-nothing-back", {"refused": False, "allowed": True})
def test_give_up_with_nothing_back_by_reading(option: str, expected: bool) -> None:
    g = scenario(2, readings={"give-up-with-nothing-back": option})
    assert (GiveUp(1) in g.legal_actions(1)) is expected
    if expected:
        g.apply(GiveUp(1))
        assert state(g)["assimilation"] == 1 and state(g)["will"] == [3]


# ------------------------------------------------------------------------------------------------ phase-3 order


@pins("reckoning-order", {"by-token": (1, 2), "by-hunted": (LONE,)})
def test_the_reckoning_order_decides_who_wins(option: str, expected: tuple[int, ...]) -> None:
    # 2 Hunted: Rescue goal 14, Assimilation goal 8, each one space short. Hunted 1 (the Creature's left) is
    # caught on the Jungle; Hunted 2's Wreck has no token. BGA resolves every place without a token first: the
    # Wreck brings the rescue before the catch. One Hunted at a time: the catch comes first.
    g = scenario(3, readings={"reckoning-order": option}, rescue=13, assimilation=7, hand={2: [1, 2, 3, 4, 8]})
    places(g, s1=2, s2=8)
    creature(g, 2)
    assert g.is_over() and g.winners == expected


def test_by_token_order_places_without_token_then_target_then_artemia_then_creature() -> None:
    # 4 Hunted. Hunted 1 on the Creature token (Jungle), 2 on the Artemia token (River, side a with 6 spaces to
    # go), 3 on the Target token of Scream (Beach), 4 on the Rover (no token). BGA's order: 4, then 3, 2, 1.
    g = scenario(5, hunt=["scream"], rescue=10, marker=True)  # 4 Hunted: 16 spaces, 6 to go
    places(g, s1=2, s2=3, s3=4, s4=5)
    g.apply(PlayCard(LONE, "scream", (4,)))
    creature(g, 2, artemia=3)
    choose(g, "6")  # Hunted 4: the Rover first (a place without a token)
    choose(g, "lose")  # Hunted 3: Scream on the Target token's place, then the Beach's power
    choose(g, "4")  # Hunted 2: the Artemia token, a place card discarded
    lines = [line.text for line in g.lines if line.round == 1]
    order = [
        next(i for i, t in enumerate(lines) if t.startswith(who))
        for who in ("Player 5 takes the Swamp", "Player 4 suffers Scream", "Player 3 discards", "Player 2 is caught")
    ]
    assert order == sorted(order)
    s = state(g)
    assert s["will"] == [2, 3, 2, 3] and s["assimilation"] == 1
    assert s["rescue"] == 12  # the Beach's marker taken off (+1), then the end of the round (+1)


def test_by_hunted_order_resolves_one_hunted_at_a_time() -> None:
    g = scenario(5, readings={"reckoning-order": "by-hunted"}, hunt=["scream"], rescue=10, marker=True)
    places(g, s1=2, s2=3, s3=4, s4=5)
    g.apply(PlayCard(LONE, "scream", (4,)))
    creature(g, 2, artemia=3)
    choose(g, "4")  # Hunted 2 first after Hunted 1's catch: the Artemia token
    choose(g, "lose")  # Hunted 3: Scream
    choose(g, "6")  # Hunted 4: the Rover
    lines = [line.text for line in g.lines if line.round == 1]
    order = [
        next(i for i, t in enumerate(lines) if t.startswith(who))
        for who in ("Player 2 is caught", "Player 3 discards", "Player 4 suffers Scream", "Player 5 takes the Swamp")
    ]
    assert order == sorted(order)
    assert state(g)["will"] == [2, 3, 2, 3]


# ------------------------------------------------------------------------------------------------ third will


@pins("third-will-take-back", {"discards": ([2, 3, 4, 5], [1]), "discards-and-played": ([1, 2, 3, 4, 5], [])})
def test_the_third_will_take_back(option: str, expected: tuple[list[int], list[int]]) -> None:
    hand, discard = expected
    # The Hunted on the Lair with 1 will is caught (1 + 1 for the Lair): 0 will. The seed: every discarded
    # place card comes back; BGA's code also returns the card played this round (the Lair).
    g = scenario(2, readings={"third-will-take-back": option}, will={1: 1}, discard={1: [3, 4]})
    places(g, s1=1)
    creature(g, 1)
    s = state(g)
    assert s["will"] == [3] and s["assimilation"] == 2
    assert s["hand"] == [hand] and s["discard"] == [discard]


def test_the_rivers_card_taken_back_stays_secret() -> None:
    # Next round after the River: two place cards face down, one kept before the reveal; which card went back
    # to the hand is the Hunted's own (a log line about played cards taken back names them only once revealed).
    g = scenario(3, hand={1: [1, 2, 3, 4, 5]})
    places(g, s1=3, s2=2)
    creature(g, 5)
    assert g.round == 2
    places(g, s1=(1, 4), s2=2)
    creature(g, 5)
    choose(g, "1")  # Hunted 1 keeps the Lair; the Beach goes back to the hand, face down
    for seat in (0, 2):
        assert not any("Beach" in line for line in g.observation(seat).log), seat
    assert any("takes back the Beach they played" in line for line in g.observation(1).log)
