"""A goal counted in the round's last trick only (issue 43, item 2): "the last trick won by a card of a set".

The authored mission 14 (benchmarks/authored/14-last-by-a-one.yaml) fails when the last trick is not won by a
colour 1. The bots read that ``fail_if`` shape (:func:`crewkit.families.trick_taking.condshapes.
match_last_trick_won_by_cards`) as the same goal as mission 26's "K tricks won by a card of a set", with only
the last trick counting (:func:`crewkit.families.trick_taking.bots.conditions.goal_of`), and their play-outs
prepare it (:func:`crewkit.families.trick_taking.bots.conditions._goal_prepare`): keep the 1 back, strip the
suits that beat it, shed those cards, hand its holder the lead into the last trick. Before, the fast bot won
none of these deals (0/75 at 3, 4 and 5 players in ``crewkit check``) while the solver won every one."""

from __future__ import annotations

from pathlib import Path
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
from crewkit.families.trick_taking.condshapes import match_last_trick_won_by_seat
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.family import play_game
from tests import native_marks

needs_c = native_marks.needs_c(fastnative)

AUTHORED = Path(__file__).resolve().parents[2] / "benchmarks" / "authored"
MISSION = str(AUTHORED / "14-last-by-a-one.yaml")
SEAT_MISSION = str(AUTHORED / "07-left-closes.yaml")  # the player on the commander's left wins the last trick
RULES = load_rules("crew", MISSION, 4)
DECK = RULES.deck


def _world(hands: list[list[str]], leader_plays: list[str] = (), tricks_left: int = 10,  # type: ignore[assignment]
           rules: Any = RULES, leader: int = 0) -> CondWorld:
    """A world of the mission with these hands (seat ``leader`` leads) and ``tricks_left`` tricks to play,
    after the cards ``leader_plays`` (played in turn from the leader)."""
    game = Game.new(rules, seed="goal-last")
    obs = game.observation(game.to_act if game.to_act is not None else 0)
    judged = condition_setup(obs)
    assert judged is not None
    base = world_from(obs, [sum(DECK.card(c).bit for c in h) for h in hands])
    base.leader = base.turn = leader
    base.tricks_left = tricks_left
    w = cond_world(base, *judged)
    for c in leader_plays:
        w.play(DECK.card(c).id)
    return w


def _seat_world(by_offset: list[list[str]], leader_plays: list[str], tricks_left: int = 10) -> CondWorld:
    """A world of the seat's mission (07) with the hands given from the goal's seat on (offset 0: that seat),
    the seat after it leading."""
    rules = load_rules("crew", SEAT_MISSION, 4)
    game = Game.new(rules, seed="goal-last")
    obs = game.observation(game.to_act if game.to_act is not None else 0)
    judged = condition_setup(obs)
    assert judged is not None
    goal = judged[0].goal_seat
    assert goal == (obs.commander + 1) % 4
    hands: list[list[str]] = [[] for _ in range(4)]
    for i, h in enumerate(by_offset):
        hands[(goal + i) % 4] = h
    return _world(hands, leader_plays, tricks_left, rules, (goal + 1) % 4)


def _card(w: CondWorld) -> str:
    return DECK.cards[choose_play_cond(w)].name


def test_the_last_trick_goal_is_read_from_the_condition_words() -> None:
    cs = setup_for(RULES, {}, 0, 10, [])
    assert cs.goal_last and cs.goal_k == 1
    assert {c.name for c in DECK.from_mask(cs.goal_mask)} == {"blue 1", "green 1", "pink 1", "yellow 1"}
    # mission 26's goal counts in any trick
    cs26 = setup_for(load_rules("crew", "planet-nine/26", 4), {}, 0, 10, [])
    assert cs26.goal_k == 2 and not cs26.goal_last
    # "the last trick is won by one seat" (07: the commander's left) is the same goal, won by a seat's card
    for commander in range(4):
        cs07 = setup_for(load_rules("crew", SEAT_MISSION, 4), {}, commander, 10, [])
        assert (cs07.goal_k, cs07.goal_last, cs07.goal_mask, cs07.goal_seat) == (1, True, 0, (commander + 1) % 4)
    shape = match_last_trick_won_by_seat(parse("last_trick != none and not (last_trick.winner == commander)"))
    assert shape == parse("commander")
    assert match_last_trick_won_by_seat(parse("last_trick != none and last_trick.winner != last_trick.leader")) is None


def test_a_goal_card_is_kept_back_before_the_last_trick() -> None:
    w = _world([["pink 9", "blue 9"], ["pink 1", "pink 5", "green 3"], ["green 2", "yellow 3"],
                ["green 7", "yellow 5"]], ["pink 9"])
    assert _card(w) == "pink 5"  # before: the lowest card, the 1


def test_the_holder_leads_the_suit_that_beats_its_goal_card() -> None:
    w = _world([["pink 1", "pink 8", "green 9", "green 2"], ["pink 5", "green 5"], ["pink 6", "yellow 3"],
                ["green 7", "yellow 5"]])
    assert _card(w) == "pink 8"  # before: the 1 itself


def test_a_seat_void_in_the_led_suit_sheds_a_card_that_beats_the_goal_card() -> None:
    w = _world([["blue 9", "green 9"], ["pink 5", "yellow 2"], ["pink 1", "yellow 3"], ["blue 7", "yellow 5"]],
               ["blue 9"])
    assert _card(w) == "pink 5"  # before: yellow 2, the lowest card


def test_in_the_trick_before_the_last_the_others_keep_a_card_that_does_not_beat_the_goal_card() -> None:
    w = _world([["green 9", "pink 1"], ["yellow 2", "pink 7"], ["green 3", "yellow 3"], ["green 4", "blue 5"]],
               ["green 9"], tricks_left=2)
    assert _card(w) == "pink 7"  # before: yellow 2, and the pink 7 kept beat the 1 in the last trick


def test_in_the_trick_before_the_last_the_holder_takes_the_lead() -> None:
    w = _world([["green 5", "blue 2"], ["pink 1", "green 9", "green 2"], ["green 3", "yellow 3"],
                ["green 4", "blue 5"]], ["green 5"], tricks_left=2)
    assert _card(w) == "green 9"  # before: green 2, and another seat led the last trick


def test_a_seat_void_in_the_led_suit_sheds_a_card_that_beats_the_goal_seats_best_card() -> None:
    # (the deal's tasks, blue 8 and pink 9, are in no hand here)
    w = _seat_world([["pink 7", "green 2"], ["blue 9", "green 5"], ["pink 8", "yellow 3"], ["blue 5", "green 7"]],
                    ["blue 9"])
    assert _card(w) == "pink 8"  # before: yellow 3, and the pink 8 kept could beat the pink 7 in the last trick


def test_in_the_trick_before_the_last_the_goal_seat_takes_the_lead() -> None:
    w = _seat_world([["rocket 4", "green 9", "green 2"], ["green 5", "blue 2"], ["green 3", "yellow 3"],
                     ["green 4", "blue 5"]], ["green 5", "green 3", "green 4"], tricks_left=2)
    assert _card(w) == "green 9"  # before: green 2, and another seat led the last trick


def test_the_fast_bot_wins_the_last_trick_with_a_one() -> None:
    """12 fixed deals at 4 players: none won before the goal (0/75 in ``crewkit check``), most with it."""
    wins = 0
    for i in range(12):
        seed = f"last-by-a-one-{i}"
        game = Game.new(RULES, seed=seed)
        play_game(game, [FastBot(s, seed) for s in range(4)])
        wins += game.outcome().result == "success"
    assert wins >= 5


@needs_c
@pytest.mark.parametrize(("mission", "players"), [(MISSION, 5), (SEAT_MISSION, 4)])
def test_c_and_python_decide_alike_with_a_last_trick_goal(mission: str, players: int) -> None:
    """The C decision reads the goal's "last trick only" from its input as the Python twin does (the play-outs
    themselves: ``tests/bots/test_fast_conditions.py``, test_c_play_outs_with_conditions_match_python)."""
    log: list[Any] = []

    class Recorder(FastBot):
        def _decide_cond(self, t: Table, pos: Position, seed: int, judged: Any) -> int:
            log.append((t, pos, seed, judged))
            return super()._decide_cond(t, pos, seed, judged)

    rules = load_rules("crew", mission, players)
    play_game(Game.new(rules, seed="twin-last"), [Recorder(s, "twin-last", cond_worlds=3, draft_worlds=2)
                                                   for s in range(players)])
    lib = fastnative.load()
    assert lib is not None
    assert len(log) >= 20
    for t, pos, seed, judged in log[4::8]:  # a few decisions spread over the game
        assert judged[0].goal_last
        d = native_decider(t)
        assert d is not None
        program, why = native_program(lib, judged[0])
        assert program is not None, why
        prog_c: list[int] = []
        prog_py: list[int] = []
        assert (d.decide_cond(program, pos, seed, judged[1], judged[2], 1000, goal_tail(judged), 7, prog_c)
                == decide_cond(t, pos, seed, *judged, win_weight=1000, prog_weight=7, progress=prog_py))
        assert prog_c == prog_py
