"""Every option of every Not Alone reading gives a rule set that plays to its end (a random game each), and
the options that change what a golden scenario does are pinned by one."""

from __future__ import annotations

import pytest

from crewkit.engine.blocks.board import GiveUp, Pass, PlayCard, Resist
from crewkit.engine.board import BoardGame, load_board_ruleset, with_readings
from crewkit.engine.boardstate import LONE, CardsState
from crewkit.engine.errors import SetupError

from .scenario import choose, creature, places, random_play, scenario, state

BASE = load_board_ruleset("not-alone")
OPTIONS = [(r["id"], o) for r in BASE.data["readings"] for o in r["options"] if o != r["choice"]]


@pytest.mark.parametrize(("reading", "option"), OPTIONS, ids=[f"{r}={o}" for r, o in OPTIONS])
def test_every_reading_option_plays_to_the_end(reading: str, option: str) -> None:
    rs = with_readings(BASE, {reading: option})
    for players, seed in ((4, 1),):
        g = random_play(BoardGame(rs, players, f"{reading}-{seed}"), seed)
        assert g.is_over()


def test_an_unknown_reading_or_option_is_named() -> None:
    with pytest.raises(SetupError, match="no reading 'nope'"):
        with_readings(BASE, {"nope": "x"})
    with pytest.raises(SetupError, match="has no option 'x'; options: creature-decides"):
        with_readings(BASE, {"effect-order": "x"})


def test_resist_limit() -> None:
    for option, again in (("once-per-round", False), ("unlimited", True)):
        g = scenario(2, readings={"resist-limit": option}, discard={1: [1, 2, 3]})
        g.apply(Resist(1, 1))
        choose(g, "1")
        choose(g, "2")
        assert (Resist(1, 1) in g.legal_actions(1)) is again  # 2 will: one more costs 1 and keeps the last


@pytest.mark.parametrize(
    ("option", "rescue"), [("per-place", 2), ("per-place-then-take-back", 2), ("per-hunted", 3)]
)
def test_once_per_round_with_two_hunted_on_the_wreck(option: str, rescue: int) -> None:
    hand = {1: [1, 2, 3, 4, 8], 2: [1, 2, 3, 4, 8]}
    g = scenario(3, readings={"once-per-round": option}, hand=hand, discard={2: [1]})
    places(g, s1=8, s2=8)
    creature(g, 5)
    if option == "per-hunted":
        choose(g, "use the power")  # the second Hunted may use it too (or take back a card)
    # the first moves the Rescue counter; the second too only per Hunted; then the end of the round: +1
    assert state(g)["rescue"] == rescue
    took_back = state(g)["hand"][1] == [1, 2, 3, 4]
    assert took_back is (option == "per-place-then-take-back")


@pytest.mark.parametrize(("catch", "assimilation"), [("once-per-round", 1), ("once-per-token", 2)])
def test_clone_catching_on_two_places(catch: str, assimilation: int) -> None:
    g = scenario(3, readings={"creature-catch-assimilation": catch}, hunt=["clone"])
    places(g, s1=2, s2=3)
    creature(g, 2, ("clone", (3,)))
    assert state(g)["will"] == [2, 2] and state(g)["assimilation"] == assimilation


@pytest.mark.parametrize(("option", "will"), [("stacks", 1), ("once", 2)])
def test_clone_and_creature_token_on_the_same_place(option: str, will: int) -> None:
    g = scenario(2, readings={"clone-double-catch": option}, hunt=["clone"])
    places(g, s1=2)
    creature(g, 2, ("clone", (2,)))
    assert state(g)["will"] == [will] and state(g)["assimilation"] == 1


def test_artemia_on_a_rescue_space_may_or_must() -> None:
    for option, may_pass in (("may", True), ("must", False)):
        g = scenario(2, readings={"artemia-on-rescue-space": option}, rescue=12)
        places(g, s1=2)
        creature_token = [a for a in g.legal_actions(LONE) if a.to_json().get("board_token") == "creature"][0]
        g.apply(creature_token)
        assert (Pass(LONE) in g.legal_actions(LONE)) is may_pass
        assert any(a.to_json().get("board_token") == "artemia" for a in g.legal_actions(LONE))


def test_artemia_spaces_counted_from_either_goal() -> None:
    for option, rescue, assimilation in (("rescue-goal", 12, 0), ("creature-goal", 0, 6)):
        g = scenario(2, readings={"artemia-spaces": option}, rescue=rescue, assimilation=assimilation)
        places(g, s1=2)
        g.apply([a for a in g.legal_actions(LONE) if a.to_json().get("board_token") == "creature"][0])
        assert g.phase == "hunting" and Pass(LONE) in g.legal_actions(LONE), option


def test_creature_phase1_cards_any_time() -> None:
    for option, lone_waits in (("before-hunted-play", False), ("any-time", True)):
        g = scenario(3, readings={"creature-phase1-cards": option}, hunt=["despair"])
        assert g.waiting() == (LONE,)  # the phase-1 window comes first either way
        g.apply(Pass(LONE))
        assert (LONE in g.waiting()) is lone_waits
        if lone_waits:
            places(g, s1=1)
            g.apply(PlayCard(LONE, "despair", (4,)))  # while Player 3 has not chosen yet
            assert g.token_places("artemia") == [4] and g.waiting() == (2,)


@pytest.mark.parametrize(
    ("option", "first"), [("creature-decides", LONE), ("play-order", LONE), ("hunted-decide", 1)]
)
def test_effect_order_who_plays_first_in_a_shared_phase(option: str, first: int) -> None:
    g = scenario(2, readings={"effect-order": option}, hunt=["cataclysm"], survival={1: ["dodge"]})
    places(g, s1=2)
    creature(g, 2)
    assert g.phase == "reckoning" and g.waiting() == (first,)


@pytest.mark.parametrize(("option", "discarded"), [("each-card", 2), ("tokens-once", 1)])
def test_artefact_cards_each_visited(option: str, discarded: int) -> None:
    g = scenario(2, readings={"artefact-two-places": option}, hunt=["virus"], hand={1: [1, 2, 3, 4, 5, 10]})
    places(g, s1=10)
    creature(g, 5)  # the Artefact's power: next round two place cards, both resolved
    assert g.round == 2
    places(g, s1=(1, 2))
    creature(g, 5, ("virus", (1, 2)))
    choose(g, "3")  # the Artemia token on the Lair: a place card discarded
    if discarded == 2:
        choose(g, "4")  # and again on the Jungle
    else:
        choose(g, "use the power")  # the Jungle's power: the token reached the Hunted once already
        choose(g, "10")  # the Jungle back, and the Artefact from the discard pile
    assert g.question is None and g.round == 3
    assert state(g)["discard"][0] == ([1, 2, 3, 4, 10] if discarded == 2 else [1, 3])


def test_empty_decks() -> None:
    for option, cards in (("reshuffle", 2), ("stop", 0)):
        g = scenario(2, readings={"empty-decks": option}, hunt=[], hunt_deck=[])
        g.state(CardsState).discard["hunt"] = ["stasis", "tracking"]
        places(g, s1=2)
        creature(g, 5)
        assert len(g.effect_hand(0, "hunt")) == cards, option


def test_advanced_give_up_two() -> None:
    for option, will in (("give-up-all", 3), ("give-up-two", 2)):
        g = scenario(2, ruleset="not-alone-advanced", readings={"advanced-give-up": option}, will={1: 1})
        g.apply(GiveUp(1))
        assert state(g)["will"] == [will]
