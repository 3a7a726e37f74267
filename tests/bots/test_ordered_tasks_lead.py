"""The play-out policy with many tasks (issue 43): a lead looks two tricks further.

The cooperative play-out policy (:func:`crewkit.families.trick_taking.bots.sim.choose_play`, its C twin in
``_fastsim.c``) judged a lead by the trick it starts only. With five tasks or more (planet-nine/24, 32, 36) a lead
that keeps this trick safe can leave the next one no safe lead, and with an order token a task waits for the one
before it: in the positions below the old policy broke the order (a task done before the task marked 2) where the
policy that looks two tricks further wins the deal. The fast bot and the expert's play-outs share this policy, so
the C play-outs must give the same answers as Python's.
"""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.bots.fast import native_decider
from crewkit.families.trick_taking.bots.sim import NONE, NUMBER, World, rollout, table_for
from tests import native_marks

needs_c = native_marks.needs_c(fastnative)

RULES = load_rules("crew", "planet-nine/15", 4)
DECK = RULES.deck

# (hands of seats 0-3, leader, tasks as (card, owner, token kind, k)): three tricks left, five tasks, none done
POSITIONS = [
    pytest.param(
        [["yellow 6", "yellow 9", "rocket 2"], ["yellow 1", "pink 3", "pink 5"], ["green 7", "yellow 2", "yellow 8"],
         ["blue 1", "green 1", "pink 8"]], 3,
        [("green 1", 0, NUMBER, 1), ("yellow 8", 0, NUMBER, 2), ("yellow 9", 0, NONE, 0), ("pink 8", 0, NONE, 0),
         ("yellow 1", 0, NONE, 0)],
        # old: green 1 led at once (the 1, done), then seat 0 must lead yellow and the yellow 1 falls before the 2.
        # now: blue 1 first; the 1 next, and the 2 falls with the other tasks in the last trick
        id="the-1-led-too-soon"),
    pytest.param(
        [["blue 2", "blue 7", "pink 6"], ["blue 6", "yellow 4", "pink 2"], ["green 7", "green 8", "yellow 1"],
         ["blue 1", "yellow 3", "rocket 4"]], 3,
        [("green 8", 3, NUMBER, 1), ("blue 2", 3, NUMBER, 2), ("blue 6", 0, NONE, 0), ("blue 7", 0, NONE, 0),
         ("green 7", 0, NONE, 0)],
        # old: rocket 4 led (the 1, done), then blue 1: seat 0 wins blue 7 and blue 6 before the 2 (blue 2).
        # now: yellow 3 first, so that seat 1 leads pink and seat 0 sheds the blue 2 under seat 3's rocket 4
        id="the-2-shed-under-the-rocket"),
]


def _world(hands: list[list[str]], leader: int, tasks: list[tuple[str, int, int, int]]) -> World:
    w = World.__new__(World)
    w.t = table_for(RULES)
    w.n = 4
    w.hands = [sum(DECK.card(c).bit for c in h) for h in hands]
    w.plays = []
    w.trick_mask = 0
    w.led = -1
    w.leader = w.turn = leader
    w.win_seat = -1
    w.win_key = 0
    w.task_bits = [DECK.card(c).bit for c, _, _, _ in tasks]
    w.task_owner = [o for _, o, _, _ in tasks]
    w.task_kind = [k for _, _, k, _ in tasks]
    w.task_k = [kk for _, _, _, kk in tasks]
    w.pending = (1 << len(tasks)) - 1
    w.done = 0
    w.total = len(tasks)
    w.status = 0
    w.tricks_left = len(hands[0])
    w.refresh_tasks()
    return w


@pytest.mark.parametrize(("hands", "leader", "tasks"), POSITIONS)
def test_the_policy_keeps_the_order_tokens(hands: list[list[str]], leader: int,
                                           tasks: list[tuple[str, int, int, int]]) -> None:
    assert rollout(_world(hands, leader, tasks)) == 1


@needs_c
@pytest.mark.parametrize(("hands", "leader", "tasks"), POSITIONS)
def test_c_plays_the_position_out_alike(hands: list[list[str]], leader: int,
                                        tasks: list[tuple[str, int, int, int]]) -> None:
    w = _world(hands, leader, tasks)
    d = native_decider(w.t)
    assert d is not None
    st = [4, leader, w.tricks_left, 0, len(tasks)]
    for bit, owner, kind, k in zip(w.task_bits, w.task_owner, w.task_kind, w.task_k, strict=True):
        st += [bit, owner, kind, k, 1]
    st += [0, *w.hands]
    assert d.rollout(st) == rollout(_world(hands, leader, tasks)) == 1


def test_four_tasks_keep_the_one_trick_lead() -> None:
    """Four tasks (planet-nine/10's, the fast bot's speed target) keep the old, faster lead: the same games."""
    hands, leader, tasks = POSITIONS[0].values
    assert _world(hands, leader, tasks).look == 2  # type: ignore[arg-type]
    assert _world(hands, leader, tasks[:4]).look == 0  # type: ignore[arg-type,index]
