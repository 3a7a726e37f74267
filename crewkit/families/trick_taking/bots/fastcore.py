"""The fast bot's decision core, below the bot classes: the Python reference decisions
(:func:`decide_py`, :func:`decide_cond`, :func:`draft_py`), the C decider (:class:`NativeDecider`) and the
position it reads. :mod:`crewkit.families.trick_taking.bots.fast` builds the bot on it; the setup choices
(:mod:`crewkit.families.trick_taking.bots.choices`) play out in it without importing the bots (no import cycle).
The sampler (:class:`~crewkit.families.trick_taking.bots.knowledge.Sampler`) is every bot's, in knowledge.py.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from crewkit.families.trick_taking.bots.condcode import NativeProgram, trick_tail
from crewkit.families.trick_taking.bots.conditions import (
    CondSetup,
    choose_play_cond,
    cond_world,
    rollout_cond,
)
from crewkit.families.trick_taking.bots.knowledge import MASK64, Knowledge, Sampler, SplitMix
from crewkit.families.trick_taking.bots.sim import Table, World, choose_play, rollout, table_for, token_kind
from crewkit.families.trick_taking.bots.taskcard_choice import NativeTaskPlays
from crewkit.families.trick_taking.engine.observation import Observation


@dataclass(frozen=True, slots=True)
class Position:
    """What one decision needs, as plain ints (the layout ``fs_decide`` reads)."""

    n: int
    me: int
    worlds: int
    rollouts: bool
    leader: int
    tricks_left: int
    current: tuple[tuple[int, int], ...]  # (seat, card id) of the trick in progress
    tasks: tuple[tuple[int, int, int, int, bool], ...]  # (card bit, owner or -1, token kind, k, pending)
    done: int
    spare: int
    candidates: int  # mask of the cards to evaluate
    unknown: int
    known: tuple[int, ...]
    void: tuple[int, ...]
    need: tuple[int, ...]

    def encode(self) -> list[int]:
        out = [self.n, self.me, self.worlds, int(self.rollouts), self.leader, self.tricks_left, len(self.current)]
        for s, c in self.current:
            out += [s, c]
        out.append(len(self.tasks))
        for bit, owner, kind, k, pending in self.tasks:
            out += [bit, owner, kind, k, int(pending)]
        out += [self.done, self.spare, self.candidates, self.unknown, *self.known, *self.void, *self.need]
        return out


def base_world(t: Table, pos: Position, hands: list[int]) -> World:
    """The world of ``hands`` at ``pos`` (the trick in progress replayed)."""
    w = World.__new__(World)
    w.t = t
    w.n = pos.n
    w.hands = hands
    w.plays = []
    w.trick_mask = 0
    w.led = -1
    w.leader = w.turn = pos.leader
    w.win_seat = -1
    w.win_key = 0
    w.task_bits = [x[0] for x in pos.tasks]
    w.task_owner = [x[1] for x in pos.tasks]
    w.task_kind = [x[2] for x in pos.tasks]
    w.task_k = [x[3] for x in pos.tasks]
    w.pending = sum(1 << i for i, x in enumerate(pos.tasks) if x[4])
    w.done = pos.done
    w.total = len(pos.tasks)
    w.status = 0
    w.tricks_left = pos.tricks_left
    w.refresh_tasks()
    for s, c in pos.current:
        w.turn = s
        w.hands[s] |= 1 << c
        w.play(c)
    return w


def decide_py(t: Table, pos: Position, seed: int, win_weight: int = 10, prog_weight: int = 0,
              progress: list[int] | None = None) -> tuple[int, list[int], list[int]]:
    """The reference decision: (card id or -1, wins per card id, votes per card id); a card scores
    ``win_weight`` per play-out won, ``prog_weight`` per task done in a play-out lost (progress where no
    play-out wins) plus its votes. ``progress``: filled with the tasks done in lost play-outs per card id."""
    rng = SplitMix(seed)
    sampler = Sampler(pos)
    wins = [0] * t.n_cards
    votes = [0] * t.n_cards
    prog = progress if progress is not None else [0] * t.n_cards
    prog[:] = [0] * t.n_cards
    cands: list[int] = []
    m = pos.candidates
    while m:
        low = m & -m
        cands.append(low.bit_length() - 1)
        m ^= low
    active = cands
    check_at = pos.worlds // 2
    for i in range(pos.worlds):
        if pos.rollouts and i == check_at and check_at > 0:
            # half-way: keep the cards within one win of the best; stop when they all won or all lost
            best_w = max(wins[c] for c in cands)
            active = [c for c in cands if wins[c] >= best_w - 1]
            if len({wins[c] for c in active}) == 1 and (best_w == check_at or (best_w == 0 and not prog_weight)):
                break
            if len(active) == 1:  # one card left: it is the choice
                break
        base = base_world(t, pos, sampler.sample(rng))
        if base.status != 0:
            continue
        votes[choose_play(base)] += 1
        if not pos.rollouts:
            continue
        for c in active:
            w = base.copy()
            w.play(c)
            won = rollout(w)
            wins[c] += won
            if not won:
                prog[c] += w.done - pos.done
    best, best_score = -1, -1
    for c in cands:
        score = win_weight * wins[c] + prog_weight * prog[c] + votes[c]
        if score > best_score:
            best, best_score = c, score
    return best, wins, votes


def affinity(t: Table, hand: int, card: int) -> int:
    """How well a hand suits a task, in ninetieths: the heuristic bot's weights in exact integers."""
    score = 0
    above = hand & t.above[card]
    if hand >> card & 1:
        score += 90 + 30 * t.rank[card]
    score += 108 * above.bit_count()
    if above:
        score += 10 * t.rank[above.bit_length() - 1]
    trumps = (hand & t.trump_mask).bit_count()
    score += 36 * trumps
    if not hand & t.suit_masks[t.suit[card]]:
        score += 45 * trumps
    return score


def draft_py(t: Table, pos: Position, seed: int) -> tuple[int, list[int]]:
    """The reference draft: (task index to take, score per task index).

    ``pos.candidates`` is a mask of task indexes. In each sampled world, for each candidate, the other seats
    take the remaining tasks in turn by :func:`affinity` and the deal is played out; a task scores 100000 per
    play-out won plus the affinity of the own hand."""
    rng = SplitMix(seed)
    sampler = Sampler(pos)
    ntasks = len(pos.tasks)
    scores = [0] * ntasks
    cards = [x[0].bit_length() - 1 for x in pos.tasks]
    cands = [i for i in range(ntasks) if pos.candidates >> i & 1]
    n, me = pos.n, pos.me
    for _ in range(pos.worlds):
        hands = sampler.sample(rng)
        for first in cands:
            owners = [x[1] for x in pos.tasks]
            owners[first] = me
            seat = (me + 1) % n
            while True:
                best, best_a = -1, 0
                for i in range(ntasks):
                    if owners[i] != -1:
                        continue
                    a = affinity(t, hands[seat], cards[i])
                    if best < 0 or a > best_a or (a == best_a and cards[i] < cards[best]):
                        best, best_a = i, a
                if best < 0:
                    break
                owners[best] = seat
                seat = (seat + 1) % n
            owned = replace(pos, tasks=tuple((x[0], owners[i], x[2], x[3], x[4]) for i, x in enumerate(pos.tasks)))
            w = base_world(t, owned, list(hands))
            scores[first] += 100000 * rollout(w)
    best, best_score = -1, 0
    for i in cands:
        scores[i] += affinity(t, pos.known[me], cards[i])
        if best < 0 or scores[i] > best_score or (scores[i] == best_score and cards[i] < cards[best]):
            best, best_score = i, scores[i]
    return best, scores


def decide_cond(t: Table, pos: Position, seed: int, cs: CondSetup, tricks: tuple[Any, ...],
                cond_done: tuple[bool, ...], win_weight: int = 10, prog_weight: int = 0,
                progress: list[int] | None = None) -> tuple[int, list[int], list[int]]:
    """:func:`decide_py` for a mission with conditions: the worlds judge them (:mod:`crewkit.families.trick_taking.bots.conditions`);
    a card scores ``win_weight`` per play-out won, ``prog_weight`` per task done and per goal trick won
    (:func:`crewkit.families.trick_taking.bots.conditions.goal_play`) in a play-out lost (progress where no
    play-out wins) plus its votes. ``progress``: filled with that progress per card id when given."""
    rng = SplitMix(seed)
    sampler = Sampler(pos)
    wins = [0] * t.n_cards
    votes = [0] * t.n_cards
    prog = progress if progress is not None else [0] * t.n_cards
    prog[:] = [0] * t.n_cards
    cands: list[int] = []
    m = pos.candidates
    while m:
        low = m & -m
        cands.append(low.bit_length() - 1)
        m ^= low
    active = cands
    check_at = pos.worlds // 2
    for i in range(pos.worlds):
        if i == check_at and check_at > 0:
            best_w = max(wins[c] for c in cands)
            active = [c for c in cands if wins[c] >= best_w - 1]
            if len({wins[c] for c in active}) == 1 and best_w == check_at:
                break  # (not when every card lost so far: a mission's conditions can make wins rare)
            if len(active) == 1:
                break
        base = cond_world(base_world(t, pos, sampler.sample(rng)), cs, tricks, cond_done)
        if base.status != 0:
            continue
        votes[choose_play_cond(base)] += 1
        for c in active:
            w = base.copy()
            w.play(c)
            won = rollout_cond(w)
            wins[c] += won
            if not won:
                prog[c] += w.done - pos.done + min(w.goal_won, w.goal_need)
    best, best_score = -1, -1
    for c in cands:
        score = win_weight * wins[c] + prog_weight * prog[c] + votes[c]
        if score > best_score:
            best, best_score = c, score
    return best, wins, votes


class NativeDecider:
    """``fs_decide`` for one card table."""

    def __init__(self, lib: Any, t: Table) -> None:
        cfg = [t.n_cards, len(t.suit_masks), *t.suit, *t.rank, *t.cat, *t.suit_masks, *t.above]
        for row in t.keys:
            cfg += row
        arr = (ctypes.c_longlong * len(cfg))(*cfg)
        handle = lib.fs_new(arr)
        if not handle:
            raise OSError("the fast bot's C look-ahead does not take these rules")
        self._lib = lib
        self._handle: Any = handle
        self.n_cards = t.n_cards

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.fs_free(handle)

    def decide(self, pos: Position, seed: int, win_weight: int = 10, prog_weight: int = 0,
               progress: list[int] | None = None) -> tuple[int, list[int], list[int]]:
        st = [*pos.encode(), win_weight, prog_weight]
        arr = (ctypes.c_longlong * len(st))(*st)
        wins = (ctypes.c_int * self.n_cards)()
        votes = (ctypes.c_int * self.n_cards)()
        prog = (ctypes.c_int * self.n_cards)()
        best = self._lib.fs_decide(self._handle, arr, seed & MASK64, wins, votes, prog)
        if progress is not None:
            progress[:] = list(prog)
        return int(best), list(wins), list(votes)

    def decide_cond(self, program: NativeProgram, pos: Position, seed: int, tricks: Sequence[Any],
                    cond_done: Sequence[bool], win_weight: int, goal: tuple[int, ...],
                    prog_weight: int = 0, progress: list[int] | None = None) -> tuple[int, list[int], list[int]]:
        """``fs_decide_cond``: as :func:`decide_cond` (``goal``: :func:`conditions.goal_tail`); the card is -2
        when Python must decide."""
        st = [*pos.encode(), win_weight, prog_weight, *trick_tail(tricks, cond_done, goal)]
        arr = (ctypes.c_longlong * len(st))(*st)
        wins = (ctypes.c_int * self.n_cards)()
        votes = (ctypes.c_int * self.n_cards)()
        prog = (ctypes.c_int * self.n_cards)()
        best = self._lib.fs_decide_cond(self._handle, program.handle, arr, seed & MASK64, wins, votes, prog)
        if progress is not None:
            progress[:] = list(prog)
        return int(best), list(wins), list(votes)

    def draft(self, pos: Position, seed: int, trump_mask: int) -> tuple[int, list[int]]:
        st = [*pos.encode(), trump_mask]
        arr = (ctypes.c_longlong * len(st))(*st)
        scores = (ctypes.c_longlong * len(pos.tasks))()
        best = self._lib.fs_draft(self._handle, arr, seed & MASK64, scores)
        return int(best), list(scores)

    def rollout(self, st: Sequence[int]) -> int:
        arr = (ctypes.c_longlong * len(st))(*st)
        return int(self._lib.fs_rollout(self._handle, arr))

    def rollout_cond(self, program: NativeProgram, st: Sequence[int]) -> int:
        """``fs_rollout_cond``: 1 won, 0 lost, -1 decided before the card, -2 when Python must play it out."""
        arr = (ctypes.c_longlong * len(st))(*st)
        return int(self._lib.fs_rollout_cond(self._handle, program.handle, arr))

    def rollout_batch(self, program: NativeProgram | None, sts: Sequence[Sequence[int]]) -> list[int]:
        """:meth:`rollout` (``program`` None) or :meth:`rollout_cond` of each state, in one call to C."""
        if not sts:
            return []
        size = len(sts[0])
        if any(len(st) != size for st in sts):
            raise ValueError("the states of one batch must have one length")
        flat = [v for st in sts for v in st]
        arr = (ctypes.c_longlong * len(flat))(*flat)
        out = (ctypes.c_int * len(sts))()
        self._lib.fs_rollout_batch(self._handle, program.handle if program is not None else None, arr,
                                   len(sts), size, out)
        return list(out)


_DECIDERS: dict[int, tuple[Table, NativeDecider]] = {}


def native_decider(t: Table) -> NativeDecider | None:
    """The C decider for ``t``, or None when the library is not available or the deck does not fit."""
    hit = _DECIDERS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    from crewkit.families.trick_taking.bots import fastnative

    lib = fastnative.load()
    if lib is None or t.n_cards > 63 or len(t.suit_masks) > 16 or t.players > 8:
        return None
    try:
        d = NativeDecider(lib, t)
    except OSError:
        return None
    if len(_DECIDERS) > 64:
        _DECIDERS.clear()
    _DECIDERS[id(t)] = (t, d)
    return d


def position(obs: Observation, know: Knowledge, worlds: int, rollouts: bool, candidates: int) -> Position:
    tasks = []
    done = 0
    for task in obs.tasks:
        kind, k = token_kind(task.token)
        pending = task.trick is None
        if not pending:
            done += 1
        tasks.append((task.card.bit, task.owner if task.owner is not None else -1, kind, k, pending))
    return Position(
        n=obs.players, me=obs.seat, worlds=worlds, rollouts=rollouts, leader=obs.leader,
        tricks_left=obs.total_tricks - len(obs.tricks),
        current=tuple((s, c.id) for s, c in obs.current_trick), tasks=tuple(tasks), done=done,
        spare=know.spare, candidates=candidates, unknown=know.unknown, known=tuple(know.known),
        void=tuple(know.void), need=tuple(know.need),
    )


def rollout_frame(obs: Observation, pos: Position) -> tuple[list[int], list[int]]:
    """``fs_rollout``'s state around the card weighed and the world: the head (seats, leader, tricks left, the trick
    in progress with one more play, the seat playing) before the card, the tail (the tasks, those done) after it;
    a state is ``[*head, card, *tail, *hands]`` (the expert's and the fast bot's explicit worlds)."""
    head = [pos.n, pos.leader, pos.tricks_left, len(pos.current) + 1]
    for st in pos.current:
        head += st
    head.append(obs.seat)
    tail = [len(pos.tasks)]
    for bit, owner, kind, kk, pending in pos.tasks:
        tail += [bit, owner, kind, kk, int(pending)]
    tail.append(pos.done)
    return head, tail


def native_task_plays(obs: Any, know: Knowledge, deals: list[list[int]]) -> NativeTaskPlays | None:
    """The task-card choice's play-outs in C (:mod:`crewkit.families.trick_taking.bots.taskcard_choice`), from the start of the tricks
    only; None where the library does not load."""
    decider = native_decider(table_for(obs.rules))
    if decider is None or obs.current_trick or obs.tricks:
        return None
    pos = position(obs, know, 0, True, 0)
    tail = [len(pos.tasks)]
    for bit, owner, kind, kk, pending in pos.tasks:
        tail += [bit, owner, kind, kk, int(pending)]
    tail.append(pos.done)
    return NativeTaskPlays(decider, [pos.n, pos.leader, pos.tricks_left, 1, pos.leader], tail, deals)
