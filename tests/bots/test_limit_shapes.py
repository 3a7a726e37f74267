"""Limits planned from the first trick (issue 43, item 2): "a seat wins at most K tricks", "at most K cards of a
set in one trick".

The authored missions 04 (benchmarks/authored/04-quiet-commander.yaml: the commander wins at most one trick) and
13 (13-pink-trickle.yaml: at most one pink a trick) state them in ``fail_if``. The bots read both shapes from
the syntax tree (:func:`crewkit.families.trick_taking.condshapes.match_tricks_won_limit`,
:func:`~crewkit.families.trick_taking.condshapes.match_cards_per_trick_limit`), and their play-outs keep them
(:func:`crewkit.families.trick_taking.bots.conditions.limit_play`): the limited seat ducks and sheds its high
cards, the others overtake it; pinks are shed one a trick by the seats void in the led suit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from crewkit.dsl.parser import parse
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.bots.condcode import native_program
from crewkit.families.trick_taking.bots.conditions import (
    CondWorld,
    choose_play_cond,
    cond_world,
    condition_setup,
    goal_tail,
    setup_for,
)
from crewkit.families.trick_taking.bots.fast import FastBot, Position, decide_cond, native_decider
from crewkit.families.trick_taking.bots.knowledge import world_from
from crewkit.families.trick_taking.bots.sim import Table
from crewkit.families.trick_taking.condshapes import match_cards_per_trick_limit, match_tricks_won_limit
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.family import play_game
from tests import native_marks

needs_c = native_marks.needs_c(fastnative)

QUIET = "benchmarks/authored/04-quiet-commander.yaml"
PINK = "benchmarks/authored/13-pink-trickle.yaml"


def _card(mission: str, hands: list[list[str]], plays: list[str], leader: int, limits: bool = True,
          spent: bool = False) -> str:
    """The play-out policy's card in a world of ``mission`` at 4 players (seat 0 the commander; the deal's tasks,
    blue 8, green 9 and yellow 2, in no hand), ``leader`` leading ``plays``; ``limits`` False: as before;
    ``spent``: the commander may win no trick (its allowance used up)."""
    rules = load_rules("crew", mission, 4)
    deck = rules.deck
    game = Game.new(rules, seed="limit")
    obs = game.observation(game.to_act if game.to_act is not None else 0)
    judged = condition_setup(obs)
    assert judged is not None and obs.commander == 0
    cs = judged[0] if limits else replace(judged[0], lim_seat=-1, cap_mask=0)
    if spent:
        cs = replace(cs, lim_k=0)
    base = world_from(obs, [sum(deck.card(c).bit for c in h) for h in hands])
    base.leader = base.turn = leader
    w: CondWorld = cond_world(base, cs, judged[1], judged[2])
    for c in plays:
        w.play(deck.card(c).id)
    return deck.cards[choose_play_cond(w)].name


def test_the_limits_are_read_from_the_condition_words() -> None:
    assert match_tricks_won_limit(parse("tricks_won(commander) > 1")) == (parse("commander"), 1)
    assert match_tricks_won_limit(parse("0 < tricks_won(sick) or tricks_left == 0")) == (parse("sick"), 0)
    assert match_tricks_won_limit(parse("tricks_won(volunteer) >= 2")) == (parse("volunteer"), 1)
    assert match_tricks_won_limit(parse("tricks_won(commander) >= tricks_won(2) + tricks_left")) is None
    caps = match_cards_per_trick_limit(parse("count(c in current_cards: c.suit == pink) >= 2"))
    assert [(k, on_table) for _, k, on_table in caps] == [(1, True)]
    caps = match_cards_per_trick_limit(parse(
        "count(c in current_cards: is_trump(c)) >= 2 or any(t in tricks: count(c in t.cards: is_trump(c)) > 1)"))
    assert [(k, on_table) for _, k, on_table in caps] == [(1, True), (1, False)]
    assert match_cards_per_trick_limit(parse("count(c in current_cards: c.suit == won_by(c)) >= 2")) == []
    # the missions' seats and cards at a table
    cs = setup_for(load_rules("crew", QUIET, 4), {}, 2, 10, [])
    assert (cs.lim_seat, cs.lim_k, cs.cap_mask) == (2, 1, 0)
    rules = load_rules("crew", PINK, 4)
    cs = setup_for(rules, {}, 0, 10, [])
    assert (cs.lim_seat, cs.cap_k, cs.cap_free) == (-1, 1, True)
    assert {c.name for c in rules.deck.from_mask(cs.cap_mask)} == {f"pink {r}" for r in range(1, 10)}
    # planet-nine 13 counts the finished tricks too: a trick's last rocket counts
    rules = load_rules("crew", "planet-nine/13", 4)
    cs = setup_for(rules, {}, 0, 10, [])
    assert (cs.cap_k, cs.cap_free, cs.cap_mask) == (1, False, rules.trump_mask)
    cs = setup_for(load_rules("crew", "planet-nine/05", 4), {"sick": 3}, 0, 10, [])
    assert (cs.lim_seat, cs.lim_k) == (3, 0)


def test_exactly_k_tricks_is_not_read_as_a_limit() -> None:
    """Deep Sea's "I win exactly one trick" also fails on too few tricks: ducking to keep the allowance would work
    against it, so only a pure upper limit is read (another seat's lower bound leaves the limit standing)."""
    assert match_tricks_won_limit(parse("tricks_won(owner) > 1 or tricks_won(owner) + tricks_left < 1")) is None
    assert match_tricks_won_limit(parse("tricks_won(owner) > chosen or tricks_won(owner) + tricks_left < chosen")) \
        is None
    assert match_tricks_won_limit(parse("tricks_won(owner) > 1 or 1 > tricks_won(owner) + tricks_left")) is None
    assert match_tricks_won_limit(parse("tricks_won(owner) > 1 or tricks_won(commander) + tricks_left < 1")) \
        == (parse("owner"), 1)
    assert match_tricks_won_limit(parse("tricks_won(owner) > 0")) == (parse("owner"), 0)


def test_the_limited_seat_stays_under_the_trick_with_its_highest_card() -> None:
    hands = [["green 7", "green 4", "green 1"], ["blue 3", "yellow 5"], ["blue 4", "yellow 6"], ["green 5", "blue 9"]]
    assert _card(QUIET, hands, ["green 5"], 3) == "green 4"
    assert _card(QUIET, hands, ["green 5"], 3, limits=False) == "green 1"  # before: the 4 kept, to win later


def test_a_teammate_overtakes_the_limited_seat_once_its_allowance_is_spent() -> None:
    hands = [["green 7", "blue 3"], ["green 3", "blue 5"], ["green 8", "green 2"], ["green 5", "blue 9"]]
    assert _card(QUIET, hands, ["green 5", "green 7", "green 3"], 3, spent=True) == "green 8"
    assert _card(QUIET, hands, ["green 5", "green 7", "green 3"], 3) == "green 2"  # its one trick: it may keep it
    assert _card(QUIET, hands, ["green 5", "green 7", "green 3"], 3, spent=True, limits=False) == "green 2"


def test_the_limited_seat_that_must_take_a_trick_as_its_last_player_takes_it_with_its_strongest_card() -> None:
    hands = [["pink 9", "pink 8", "blue 1"], ["pink 3", "blue 5"], ["pink 4", "blue 6"], ["pink 5", "blue 9"]]
    assert _card(QUIET, hands, ["pink 3", "pink 4", "pink 5"], 1) == "pink 9"
    assert _card(QUIET, hands, ["pink 3", "pink 4", "pink 5"], 1, limits=False) == "pink 8"  # the 9 kept: a win later


def test_a_seat_void_in_the_led_suit_sheds_a_capped_card_into_a_trick_without_one() -> None:
    hands = [["green 6", "blue 1"], ["pink 8", "blue 2"], ["green 4", "blue 3"], ["green 7", "blue 6"]]
    assert _card(PINK, hands, ["green 6"], 0) == "pink 8"
    assert _card(PINK, hands, ["green 6"], 0, limits=False) == "blue 2"  # before: the pink kept


@needs_c
@pytest.mark.parametrize(("mission", "players"), [(QUIET, 4), (PINK, 5)])
def test_c_and_python_decide_alike_with_limits(mission: str, players: int) -> None:
    """The C decision reads the limits from its input as the Python twin does (the play-outs themselves:
    ``tests/bots/test_fast_conditions.py``, test_c_play_outs_with_conditions_match_python)."""
    log: list[Any] = []

    class Recorder(FastBot):
        def _decide_cond(self, t: Table, pos: Position, seed: int, judged: Any) -> int:
            log.append((t, pos, seed, judged))
            return super()._decide_cond(t, pos, seed, judged)

    rules = load_rules("crew", mission, players)
    play_game(Game.new(rules, seed="twin-limit"), [Recorder(s, "twin-limit", cond_worlds=3, draft_worlds=2)
                                                    for s in range(players)])
    lib = fastnative.load()
    assert lib is not None
    assert len(log) >= 8
    for t, pos, seed, judged in log[2::6]:
        assert judged[0].lim_seat >= 0 or judged[0].cap_mask
        d = native_decider(t)
        assert d is not None
        program, why = native_program(lib, judged[0])
        assert program is not None, why
        prog_c: list[int] = []
        prog_py: list[int] = []
        assert (d.decide_cond(program, pos, seed, judged[1], judged[2], 1000, goal_tail(judged), 7, prog_c)
                == decide_cond(t, pos, seed, *judged, win_weight=1000, prog_weight=7, progress=prog_py))
        assert prog_c == prog_py
