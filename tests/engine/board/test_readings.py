"""Every option of every reading of the bundled board-family rule sets (not-alone, not-alone-advanced: every
bundled rule set of the family, found by its `family:`), the default ones included: played to the end with the
family's invariants checked after every action, and pinned by a golden scenario whose outcome differs between
the options (``@pins``; the last test checks none is missing, so a new reading or option fails here until it
is pinned). The trick-taking rule sets' readings are swept by tests/engine/test_reading_sweep.py."""

from __future__ import annotations

import pytest

from crewkit.engine.errors import SetupError
from crewkit.families.not_alone.blocks import GiveUp, Pass, PlayCard, Resist
from crewkit.families.not_alone.board import BoardGame, load_board_ruleset, with_readings
from crewkit.families.not_alone.state import LONE, BoardState, CardsState, ResourceState
from crewkit.spec import bundled

from . import test_bga  # noqa: F401 - its scenarios pin the readings added against Board Game Arena
from .scenario import PINNED, checked_random_play, choose, creature, pins, places, scenario, state

RULESETS = {p.stem: load_board_ruleset(p) for p in bundled.bundled_rulesets("not-alone")}
CASES = [
    (name, r["id"], option)
    for name, rs in RULESETS.items()
    for r in rs.data["readings"]
    for option in r["options"]
]


@pytest.mark.parametrize(("ruleset", "reading", "option"), CASES, ids=[f"{n}:{r}={o}" for n, r, o in CASES])
def test_every_reading_option_plays_to_the_end_keeping_the_invariants(ruleset: str, reading: str, option: str) -> None:
    rs = with_readings(RULESETS[ruleset], {reading: option})
    for players in (2, 4, 7):
        checked_random_play(BoardGame(rs, players, f"{reading}={option}-{players}"), f"{reading}={option}:{players}")


def test_the_sweep_covers_both_bundled_rule_sets() -> None:
    assert set(RULESETS) == {"not-alone", "not-alone-advanced"}
    assert {(n, r) for n, r, _ in CASES} >= {("not-alone-advanced", "advanced-give-up"), ("not-alone", "reckoning-order")}


def test_an_unknown_reading_or_option_is_named() -> None:
    base = RULESETS["not-alone"]
    with pytest.raises(SetupError, match="no reading 'nope'"):
        with_readings(base, {"nope": "x"})
    with pytest.raises(SetupError, match="has no option 'x'; options: creature-decides"):
        with_readings(base, {"effect-order": "x"})


# ------------------------------------------------------------------------------------------------ pinned


@pins("resist-limit", {"once-per-round": False, "unlimited": True})
def test_resist_limit(option: str, expected: bool) -> None:
    g = scenario(2, readings={"resist-limit": option}, discard={1: [1, 2, 3]})
    g.apply(Resist(1, 1))
    choose(g, "1")
    choose(g, "2")
    assert (Resist(1, 1) in g.legal_actions(1)) is expected  # 2 will: one more costs 1 and keeps the last


@pins("once-per-round", {"per-place": (2, False), "per-place-then-take-back": (2, True), "per-hunted": (3, False)})
def test_once_per_round_with_two_hunted_on_the_wreck(option: str, expected: tuple[int, bool]) -> None:
    rescue, took_back = expected
    hand = {1: [1, 2, 3, 4, 8], 2: [1, 2, 3, 4, 8]}
    g = scenario(3, readings={"once-per-round": option}, hand=hand, discard={2: [1]})
    places(g, s1=8, s2=8)
    creature(g, 5)
    if option == "per-hunted":
        choose(g, "use the power")  # the second Hunted may use it too (or take back a card)
    # the first moves the Rescue counter; the second too only per Hunted; then the end of the round: +1
    assert state(g)["rescue"] == rescue
    assert (state(g)["hand"][1] == [1, 2, 3, 4]) is took_back


@pins("creature-catch-assimilation", {"once-per-round": 1, "once-per-token": 2})
def test_clone_catching_on_two_places(option: str, expected: int) -> None:
    g = scenario(3, readings={"creature-catch-assimilation": option}, hunt=["clone"])
    places(g, s1=2, s2=3)
    creature(g, 2, ("clone", (3,)))
    assert state(g)["will"] == [2, 2] and state(g)["assimilation"] == expected


@pins("clone-double-catch", {"stacks": 1, "once": 2})
def test_clone_and_creature_token_on_the_same_place(option: str, expected: int) -> None:
    g = scenario(2, readings={"clone-double-catch": option}, hunt=["clone"])
    places(g, s1=2)
    creature(g, 2, ("clone", (2,)))
    assert state(g)["will"] == [expected] and state(g)["assimilation"] == 1


@pins("artemia-on-rescue-space", {"may": True, "must": False})
def test_artemia_on_a_rescue_space_may_or_must(option: str, expected: bool) -> None:
    g = scenario(2, readings={"artemia-on-rescue-space": option}, rescue=12)
    places(g, s1=2)
    creature_token = [a for a in g.legal_actions(LONE) if a.to_json().get("board_token") == "creature"][0]
    g.apply(creature_token)
    assert (Pass(LONE) in g.legal_actions(LONE)) is expected
    assert any(a.to_json().get("board_token") == "artemia" for a in g.legal_actions(LONE))


@pins("artemia-spaces", {"rescue-goal": (12, 0), "creature-goal": (0, 6)})
def test_artemia_spaces_counted_from_either_goal(option: str, expected: tuple[int, int]) -> None:
    rescue, assimilation = expected  # 1 Hunted: 13 and 7 spaces; 1 to go on the track the option names
    for other in ("rescue-goal", "creature-goal"):
        g = scenario(2, readings={"artemia-spaces": other}, rescue=rescue, assimilation=assimilation)
        places(g, s1=2)
        g.apply([a for a in g.legal_actions(LONE) if a.to_json().get("board_token") == "creature"][0])
        assert (g.phase == "hunting" and Pass(LONE) in g.legal_actions(LONE)) is (other == option), other


@pins("creature-phase1-cards", {"before-hunted-play": False, "any-time": True})
def test_creature_phase1_cards_any_time(option: str, expected: bool) -> None:
    g = scenario(3, readings={"creature-phase1-cards": option}, hunt=["despair"])
    assert g.waiting() == (LONE,)  # the phase-1 window comes first either way
    g.apply(Pass(LONE))
    assert (LONE in g.waiting()) is expected
    if expected:
        places(g, s1=1)
        g.apply(PlayCard(LONE, "despair"))  # while Player 3 has not chosen yet
        assert g.state(BoardState).to_place == {"artemia": 1} and g.waiting() == (2,)


@pins("effect-order", {"creature-decides": LONE, "play-order": LONE, "hunted-decide": 1})
def test_effect_order_who_plays_first_in_a_shared_phase(option: str, expected: int) -> None:
    g = scenario(2, readings={"effect-order": option}, hunt=["cataclysm"], survival={1: ["dodge"]})
    places(g, s1=2)
    creature(g, 2)
    assert g.phase == "reckoning" and g.waiting() == (expected,)


@pins("artefact-two-places", {"each-card": [1, 2, 3, 4, 10], "tokens-once": [1, 3]})
def test_artefact_cards_each_visited(option: str, expected: list[int]) -> None:
    g = scenario(2, readings={"artefact-two-places": option}, hunt=["virus"], hand={1: [1, 2, 3, 4, 5, 10]})
    places(g, s1=10)
    creature(g, 5)  # the Artefact's power: next round two place cards, both resolved
    assert g.round == 2
    places(g, s1=(1, 2))
    creature(g, 5, ("virus", (1, 2)))
    if option == "each-card":
        choose(g, "3")  # the Artemia token on the Lair: a place card discarded
        choose(g, "4")  # and again on the Jungle
    else:
        # the token reached the Hunted on the Lair only: the Jungle has no token and is resolved first
        # (reading reckoning-order): its power, the Jungle back and the Artefact from the discard pile
        choose(g, "use the power")
        choose(g, "3")  # then the Artemia token on the Lair
    assert g.question is None and g.round == 3
    assert state(g)["discard"][0] == expected


@pins("last-will-outside-reckoning", {"same-as-reckoning": (1, 3), "at-next-reckoning": (0, 0)})
def test_last_will_lost_outside_the_reckoning(option: str, expected: tuple[int, int]) -> None:
    # No shipped card takes will outside the Reckoning, so an effect's loss is driven directly (the engine's
    # counter, as an effect word changes it) while the Hunted choose their places.
    g = scenario(3, readings={"last-will-outside-reckoning": option}, will={1: 1}, discard={1: [3]})
    g.change_will(1, -1)
    assert (state(g)["assimilation"], state(g)["will"][0]) == expected
    places(g, s1=2, s2=4)
    creature(g, 5)
    if g.question is not None:  # the Jungle: its power, or the discarded River back
        choose(g, "use the power")
    # the end of the Reckoning: the rule applies now if it waited
    assert state(g)["assimilation"] == 1 and state(g)["will"][0] == 3 and g.state(ResourceState).lost_last == []


@pins("empty-decks", {"reshuffle": 2, "stop": 0})
def test_empty_decks(option: str, expected: int) -> None:
    g = scenario(2, readings={"empty-decks": option}, hunt=[], hunt_deck=[])
    g.state(CardsState).discard["hunt"] = ["stasis", "tracking"]
    places(g, s1=2)
    creature(g, 5)
    assert len(g.effect_hand(0, "hunt")) == expected


@pins("advanced-give-up", {"give-up-all": 3, "give-up-two": 2})
def test_advanced_give_up_two(option: str, expected: int) -> None:
    g = scenario(2, ruleset="not-alone-advanced", readings={"advanced-give-up": option}, will={1: 1})
    g.apply(GiveUp(1))
    assert state(g)["will"] == [expected]


def test_every_option_of_every_reading_is_pinned() -> None:
    wanted: dict[str, set[str]] = {}
    for rs in RULESETS.values():
        for r in rs.data["readings"]:
            wanted[r["id"]] = set(r["options"])
    missing = {rid: sorted(opts - PINNED.get(rid, set())) for rid, opts in wanted.items() if opts - PINNED.get(rid, set())}
    assert missing == {}, f"readings whose options no golden scenario pins: {missing}"
    unknown = sorted(set(PINNED) - set(wanted))
    assert unknown == [], f"pinned readings the rule sets no longer have: {unknown}"
