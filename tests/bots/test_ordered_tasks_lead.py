"""The play-out policy with order tokens (issue 43): a lead looks two tricks further.

The cooperative play-out policy (:func:`crewkit.families.trick_taking.bots.sim.choose_play`, its C twin in
``_fastsim.c``) judged a lead by the trick it starts only. With an order token a task waits for the one before it,
so a lead that keeps this trick safe can leave the next one no safe lead: in the positions below the old policy
broke the order (a task done before the task marked 1, or the 1's card won by another seat) where the policy
that looks two tricks further wins the deal. The fast bot and the expert's play-outs share this policy, so the
C play-outs must give the same answers as Python's.
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

# (hands of seats 0-3, leader, tasks as (card, owner, token kind, k)): three tricks left, nothing done yet
POSITIONS = [
    pytest.param(
        [["blue 9", "green 7", "pink 4"], ["blue 7", "pink 2", "pink 7"], ["blue 5", "pink 1", "rocket 3"],
         ["green 3", "yellow 2", "yellow 6"]], 1,
        [("blue 9", 1, NUMBER, 1), ("blue 7", 2, NUMBER, 2), ("rocket 3", 2, NONE, 0)],
        # old: pink 2 led, seat 0 takes the lead and the 1 (blue 9) ends in seat 2's trick with the 2.
        # now: pink 7 keeps the lead, pink 2 next, and seat 0 (void in pink) gives seat 1 its blue 9
        id="keep-the-lead-for-the-1"),
    pytest.param(
        [["blue 5", "blue 9", "pink 5"], ["blue 1", "blue 4", "yellow 5"], ["green 3", "pink 2", "pink 3"],
         ["blue 6", "yellow 3", "yellow 8"]], 3,
        [("pink 3", 0, NUMBER, 1), ("blue 6", 0, NUMBER, 2), ("blue 1", 0, NONE, 0)],
        # old: yellow 3 led, seat 1 wins and leads blue: the 2 (blue 6) is done before the 1 (pink 3).
        # now: yellow 8 keeps the lead until the 1, the 2 and the plain task fall in seat 0's last trick
        id="hold-the-2-back"),
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


def test_few_unordered_tasks_keep_the_one_trick_lead() -> None:
    """Four tasks without tokens (planet-nine/10's kind) keep the old, faster lead: the same games."""
    w = _world([["blue 9", "green 7", "pink 4"], ["blue 7", "pink 2", "pink 7"], ["blue 5", "pink 1", "rocket 3"],
                ["green 3", "yellow 2", "yellow 6"]], 1,
               [("blue 9", 1, NONE, 0), ("blue 7", 2, NONE, 0), ("rocket 3", 2, NONE, 0), ("green 3", 3, NONE, 0)])
    assert w.look == 0
