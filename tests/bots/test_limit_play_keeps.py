"""The limits' play keeps "a seat wins at most K tricks" and "at most K cards of a set in one trick" where the
earlier play broke them (issue 43, item 2), in the Python play-outs and the C ones alike.

Each position is a short end of a deal of an author's mission (benchmarks/authored/04-quiet-commander.yaml: the
commander, seat 0, wins at most one trick; 13-pink-trickle.yaml: at most one pink on the table of a trick, its
last card not counted) at 4 players, without tasks, played out from one card by both play-outs: 1 = the mission
is kept to the end."""

from __future__ import annotations

from typing import Any

import pytest

from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.bots.condcode import native_program, trick_tail
from crewkit.families.trick_taking.bots.conditions import (
    cond_world,
    condition_setup,
    goal_tail,
    limit_draft,
    rollout_cond,
)
from crewkit.families.trick_taking.bots.fast import FastBot, Position, base_world, native_decider
from crewkit.families.trick_taking.bots.heuristic import HeuristicBot
from crewkit.families.trick_taking.bots.sim import table_for
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.game import Game
from tests import native_marks

needs_c = native_marks.needs_c(fastnative)

QUIET = "benchmarks/authored/04-quiet-commander.yaml"
PINK = "benchmarks/authored/13-pink-trickle.yaml"


def _play_outs(mission: str, hands: list[list[str]], current: list[tuple[int, str]]) -> tuple[int, int | None]:
    """(Python, C) play-out of ``hands`` (the cards not yet played) from the trick ``current`` (its last card is
    the one weighed); C is None without the C library."""
    rules = load_rules("crew", mission, 4)
    deck = rules.deck
    game = Game.new(rules, seed="limit")
    judged = condition_setup(game.observation(0))
    assert judged is not None and game.commander == 0
    t = table_for(rules)
    masks = [sum(deck.card(c).bit for c in h) for h in hands]
    cur = tuple((s, deck.card(c).id) for s, c in current)
    leader = cur[0][0]
    left = len(hands[leader]) + 1
    pos = Position(n=4, me=cur[-1][0], worlds=1, rollouts=True, leader=leader, tricks_left=left,
                   current=cur[:-1], tasks=(), done=0, spare=0, candidates=0, unknown=0, known=(0,) * 4,
                   void=(0,) * 4, need=(0,) * 4)
    w = cond_world(base_world(t, pos, list(masks)), *judged)
    w.play(cur[-1][1])
    py = rollout_cond(w)
    lib = fastnative.load()
    if lib is None:
        return py, None
    d = native_decider(t)
    program, _ = native_program(lib, judged[0])
    assert d is not None and program is not None
    st: list[Any] = [4, leader, left, len(cur)]
    for s, c in cur:
        st += [s, c]
    st += [0, 0, *masks, *trick_tail(judged[1], judged[2], goal_tail(judged))]
    return py, d.rollout_cond(program, st)


# (mission, the cards not yet played by seat, the trick so far): each kept by the new play, broken by the old
POSITIONS = {
    # the commander's rocket 4 wins a trick whatever happens: "at most one" leaves it none for its green 8, so the
    # next seat overtakes with its green 9 (before: it played its green 1 and the rocket won a second trick)
    "teammate-overtakes": (QUIET, [["rocket 4"], ["green 9", "green 1"], ["green 3", "blue 2"], ["blue 1"]],
                           [(3, "green 2"), (0, "green 8")]),
    # void in pink with rockets 4 and 2 only, the commander trumps with the 4 (a trick it wins anyway) and later
    # leads the 2 under the rocket 3 (before: the 2 took this trick and the 4 the next)
    "take-with-the-sure-card": (QUIET, [["rocket 4", "rocket 2"], ["pink 5", "rocket 3"], ["pink 7", "blue 2"],
                                        ["blue 1"]], [(3, "pink 1")]),
    # a pink on the table: the last seat, void in green, sheds its pink 5 there (a trick's last card is judged
    # on no table) and the next trick holds one pink (before: it kept the pink, which then fell on the pink 9)
    "last-card-sheds": (PINK, [["pink 5", "blue 1"], ["blue 3"], ["pink 9"], ["blue 4"]],
                        [(1, "green 6"), (2, "green 9"), (3, "pink 8")]),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_the_python_play_out_keeps_the_limit(name: str) -> None:
    assert _play_outs(*POSITIONS[name])[0] == 1


@needs_c
@pytest.mark.parametrize("name", POSITIONS)
def test_the_c_play_out_keeps_it_alike(name: str) -> None:
    assert _play_outs(*POSITIONS[name])[1] == 1


def test_a_commander_whose_rocket_spends_its_trick_drafts_no_task_it_holds() -> None:
    """At 3 players the commander drafts first: a task card in its own hand would take a trick of its own
    beside the rocket 4's, so it takes a task of another hand (the fast and heuristic bots' drafts, :func:`limit_draft`)."""
    rules = load_rules("crew", QUIET, 3)
    game = Game.new(rules, seed="probe1")
    seat = game.to_act
    assert seat is not None and seat == game.commander
    obs = game.observation(seat)
    req = tuple(a for a in game.legal_actions(seat) if isinstance(a, TakeTask))
    own = [a for a in req if obs.hand_mask >> a.card.id & 1]
    assert own and len(own) < len(req)
    kept = limit_draft(obs, req)
    assert kept and not any(obs.hand_mask >> a.card.id & 1 for a in kept)
    for bot in (FastBot(seat, "probe1"), HeuristicBot(seat, "probe1")):  # before: each took the task of its hand
        chosen = bot.act(obs)
        assert isinstance(chosen, TakeTask) and not obs.hand_mask >> chosen.card.id & 1
