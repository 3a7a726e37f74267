"""The bots decide the distress signal with a reason (issue 43): they call it, in the direction that helps, only
where the play-outs say it pays the logbook's extra attempt, and every seat passes the card its neighbour's
tasks need most."""

from __future__ import annotations

import dataclasses
import random

import pytest

from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.bots.distress_choice import MAX_BASE, pass_card_id, weigh
from crewkit.families.trick_taking.bots.fastcore import native_decider
from crewkit.families.trick_taking.bots.sim import table_for
from crewkit.families.trick_taking.engine.blocks.distress import Distress, PassCard
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.rules import Rules
from tests.fast_setup import at_tricks, fast_game_until

# the leader (commander) holds every pink above 5: a teammate whose task is the pink 4 cannot win it unless a
# pink comes its way
TOP_PINKS = ("pink 9", "pink 8", "pink 7", "pink 6", "pink 5", "green 9", "green 8", "yellow 9", "yellow 8",
             "rocket 4")
# the leader's own task, the pink 4, with the pinks above it and high cards: the crew needs no help
EASY = ("pink 4", "pink 9", "pink 8", "green 9", "yellow 9", "blue 9", "rocket 4", "rocket 3", "green 1", "yellow 1")


def _mask(rules: Rules, names: tuple[str, ...]) -> int:
    by = {str(c): c for c in rules.deck.cards}
    return sum(by[n].bit for n in names)


def _deal(leader_hand: tuple[str, ...], task: str, owner_step: int) -> Game:
    """planet-nine/01 at 4 players after the draft, the leader holding ``leader_hand`` and the one task ``task``
    owned by the seat ``owner_step`` to the leader's left (the rest dealt by a fixed shuffle)."""
    rules = load_rules("crew", "planet-nine/01", 4)
    g = fast_game_until("planet-nine/01", "distress", at_tricks)
    lead = g.leader
    card = next(c for c in rules.deck.cards if str(c) == task)
    g.tasks[0] = dataclasses.replace(g.tasks[0], card=card, owner=(lead + owner_step) % g.n)
    mine = _mask(rules, leader_hand)
    rest = [c.id for c in rules.deck.cards if not mine >> c.id & 1]
    random.Random(7).shuffle(rest)
    hands = [0] * g.n
    hands[lead] = mine
    others = [s for s in range(g.n) if s != lead]
    for i, c in enumerate(rest):
        hands[others[i % len(others)]] |= 1 << c
    g.hands[:] = hands
    return g


@pytest.mark.parametrize("bot", ["fast", "heuristic"])
@pytest.mark.parametrize(("owner_step", "direction"), [(-1, "right"), (1, "left")])
def test_calls_distress_toward_the_seat_that_needs_a_card(bot: str, owner_step: int, direction: str) -> None:
    g = _deal(TOP_PINKS, "pink 4", owner_step)
    b = make_bot(bot, g.leader, "t")
    action = b.optional(g.observation(g.leader))
    assert action == Distress(g.leader, direction)
    wins = b.last_distress_wins  # type: ignore[attr-defined]
    assert wins is not None and wins[direction] >= 2 * wins["none"] and "worlds" in wins
    assert b.last_distress == direction  # type: ignore[attr-defined]


@pytest.mark.parametrize("bot", ["fast", "heuristic"])
def test_no_distress_where_the_crew_wins_without(bot: str) -> None:
    g = _deal(EASY, "pink 4", 0)
    b = make_bot(bot, g.leader, "t")
    action = b.optional(g.observation(g.leader))
    assert not isinstance(action, Distress)
    wins = b.last_distress_wins  # type: ignore[attr-defined]
    assert wins is not None and wins["none"] > MAX_BASE * wins["worlds"]
    assert b.last_distress is None  # type: ignore[attr-defined]


def test_only_the_first_seat_asked_weighs_it() -> None:
    g = _deal(TOP_PINKS, "pink 4", -1)
    other = (g.leader + 1) % g.n
    b = make_bot("fast", other, "t")
    assert not isinstance(b.optional(g.observation(other)), Distress)
    assert b.last_distress_wins is None  # type: ignore[attr-defined]


def test_the_leader_passes_the_card_the_task_needs() -> None:
    g = _deal(TOP_PINKS, "pink 4", -1)
    g.apply(Distress(g.leader, "right"))
    obs = g.observation(g.leader)
    action = make_bot("fast", g.leader, "t").act(obs)
    # the pink 9 beats the pink 4 for its owner (the lowest card, the old choice, was the pink 5)
    assert isinstance(action, PassCard) and str(action.card) == "pink 9"


def test_a_seat_keeps_what_its_own_task_needs() -> None:
    rules = load_rules("crew", "planet-nine/01", 4)
    t = table_for(rules)
    hand = _mask(rules, ("pink 3", "pink 9", "pink 8", "green 2", "green 5", "blue 1", "blue 6", "yellow 7",
                         "rocket 1", "rocket 2"))
    pink3 = next(c.id for c in rules.deck.cards if str(c) == "pink 3")
    # seat 0 must win the pink 3, seat 1 has no task: not the pink 3 or a pink above it; the yellow 7 leaves
    # seat 0 void in yellow (a void lets it trump or discard)
    c = pass_card_id(rules, hand, [(pink3, 0)], 0, 1)
    assert c is not None and t.suit[c] != t.suit[pink3]
    assert str(rules.deck.cards[c]) == "yellow 7"


def test_the_c_play_outs_count_as_the_python_ones() -> None:
    g = _deal(TOP_PINKS, "pink 4", -1)
    obs = g.observation(g.leader)
    d = native_decider(table_for(obs.rules))
    if d is None:
        pytest.skip("the fast bot's C library is not available")
    assert weigh(obs, random.Random(3), 8, None, d) == weigh(obs, random.Random(3), 8, None, None)


def test_check_reports_the_signal_and_the_success_then() -> None:
    from crewkit.analysis.choice_report import ChoiceStats
    from crewkit.families.trick_taking.analysis.choices import QUIET, choice_labels

    g = _deal(TOP_PINKS, "pink 4", -1)
    assert choice_labels(g) == (("the distress signal", "not called"),)
    g.apply(Distress(g.leader, "right"))
    called = choice_labels(g)
    assert called == (("the distress signal", "called to the right"),)
    stats = ChoiceStats(quiet=QUIET)
    for _ in range(3):
        stats.add((("the distress signal", "not called"),), False)
    assert stats.rows() == []  # never called: nothing to say
    stats.add(called, True)
    row = next(r for r in stats.rows() if r["chosen"] == "called to the right")
    assert (row["count"], row["of"], row["success_then"], row["success_otherwise"]) == (1, 4, 1.0, 0.0)
    assert any("the distress signal: called to the right in 25% of 4; success 100% then, 0% otherwise" in line
               for line in stats.lines())
