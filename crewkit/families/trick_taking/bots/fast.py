"""The fast bot: the heuristic bot's determinized look-ahead, with the play-outs in C.

Per decision it samples ``worlds`` complete deals consistent with what it knows (:class:`Knowledge`),
asks the cooperative full-information policy of :mod:`crewkit.families.trick_taking.bots.sim` for its choice in each (a vote) and
plays every legal card out to the end in each world (a win or a loss). The card with the most wins (ten
times), then the most votes, then the lowest id, is played.

Two implementations make the same decisions:

* :func:`decide_py`, the reference: :class:`Sampler` (a splitmix64 generator, so that C can draw the same
  numbers) plus :func:`crewkit.families.trick_taking.bots.sim.rollout`;
* ``fs_decide`` in ``_fastsim.c`` (:mod:`crewkit.families.trick_taking.bots.fastnative`), a line-by-line port, about a hundred
  times faster. ``tests/bots/test_fast.py`` proves they agree (wins and votes per card, and whole games).

Missions with conditions (``fail_if``/``done_if``, roles) are judged in the play-outs by the mission's own
conditions (:mod:`crewkit.families.trick_taking.bots.conditions`, :func:`decide_cond`); the C port evaluates them translated into a
small tree program (:mod:`crewkit.families.trick_taking.bots.condcode`, ``fs_decide_cond``), and a condition it cannot translate
or evaluate leaves that decision to Python. With conditions, a play-out lost still counts its progress (tasks
done, tricks won toward a goal of :func:`crewkit.families.trick_taking.bots.conditions.goal_play`) above every
vote and below a play-out won. Everything is deterministic given the seed.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.condcode import NativeProgram, native_program, trick_tail
from crewkit.families.trick_taking.bots.conditions import (
    CondSetup,
    choose_play_cond,
    cond_world,
    condition_setup,
    goal_tail,
    rollout_cond,
)
from crewkit.families.trick_taking.bots.heuristic import (
    HeuristicBot,
    Knowledge,
    _model_fits,
    _simple_play,
    world_from,
)
from crewkit.families.trick_taking.bots.safety import safe_plays
from crewkit.families.trick_taking.bots.sim import Table, World, choose_play, rollout, table_for, token_kind
from crewkit.families.trick_taking.bots.taskcard_choice import NativeTaskPlays, choose_task_card_action
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.step_actions import ChoosePlayer

MASK64 = (1 << 64) - 1


class SplitMix:
    """splitmix64: the generator both implementations draw from (``_fastsim.c``: ``splitmix``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


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


class Sampler:
    """Deals consistent with a :class:`Position` (``_fastsim.c``: ``sampler_init``/``sample``)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        n, me = pos.n, pos.me
        cards: list[tuple[int, int]] = []
        m = pos.unknown
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            cnt = sum(1 for s in range(n) if s != me and pos.need[s] and not pos.void[s] >> c & 1)
            cards.append((cnt, c))
        cards.sort()  # by count, then id: the C insertion sort is stable over ascending ids
        self.order = [c for _, c in cards]

    def sample(self, rng: SplitMix) -> list[int]:
        pos = self.pos
        n, me, void = pos.n, pos.me, pos.void
        for _attempt in range(8):
            hands = list(pos.known)
            need = list(pos.need)
            spare = pos.spare
            ok = True
            for c in self.order:
                total = spare
                for s in range(n):
                    if s != me and need[s] and not void[s] >> c & 1:
                        total += need[s]
                if total <= 0:
                    ok = False
                    break
                r = rng.next() % total
                chosen = -1
                for s in range(n):
                    if s == me or not need[s] or void[s] >> c & 1:
                        continue
                    if r < need[s]:
                        chosen = s
                        break
                    r -= need[s]
                if chosen < 0:
                    spare -= 1
                    continue
                hands[chosen] |= 1 << c
                need[chosen] -= 1
            if ok and not any(need):
                return hands
        rest: list[int] = []
        m = pos.unknown
        while m:
            low = m & -m
            rest.append(low.bit_length() - 1)
            m ^= low
        for i in range(len(rest) - 1, 0, -1):
            j = rng.next() % (i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        hands = list(pos.known)
        for s in range(n):
            for _ in range(pos.need[s]):
                if rest:
                    hands[s] |= 1 << rest.pop()
        return hands


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
                    cond_done: Sequence[bool], win_weight: int, goal: tuple[int, int],
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


class FastBot(HeuristicBot):
    """The heuristic bot's look-ahead with a fixed number of worlds per decision, played out in C."""

    name = "fast"

    def __init__(self, seat: int, seed: str = "", worlds: int = 32, draft_worlds: int = 8,
                 native: bool | None = None, budget: int = 4800, min_worlds: int = 24,
                 cond_worlds: int = 48, task_scaling: bool = True, cond_win_weight: int | None = None,
                 win_weight: int = 10, prog_weight: int = 0) -> None:
        super().__init__(seat, seed, draft_worlds=draft_worlds)
        self.fast_worlds = worlds
        self.fast_budget = budget
        self.min_worlds = min(min_worlds, worlds)
        self._fits: tuple[object, bool] | None = None
        self.cond_worlds = cond_worlds
        self.win_weight = win_weight  # missions of task cards: a play-out won counts this many votes
        self.prog_weight = prog_weight  # and a task done in a play-out lost this many
        # with conditions: a play-out won counts this many votes (None: more than all the votes, so they only
        # break ties; 48 worlds so, measured on missions 05, 09, 16 and 29: +5 to +34 points against 10 worlds
        # with a win worth 10 votes; in the history of docs/performance.md)
        self.cond_win_weight = cond_win_weight if cond_win_weight is not None else cond_worlds + 1
        self.task_scaling = task_scaling
        self.cond_task_progress = True  # with conditions, tasks done count as progress too
        self.native = native  # None: C when available; False: always Python (the twin)
        self.taker_worlds = 48  # the play-outs in C: a one-taker choice is one decision a game

    def _choose_player(self, obs: Observation, req: tuple[ChoosePlayer, ...]) -> Action:
        """The heuristic's role choice (:meth:`HeuristicBot._choose_player`: play-outs of each candidate over
        the same sampled worlds), its play-outs in C where the conditions translate: the same wins, the same
        player (``tests/bots/test_fast_conditions.py``), about ten times faster. Python plays out what C
        leaves to it, and the whole choice while a task has no owner yet."""
        d = native_decider(table_for(obs.rules)) if self.native is not False else None
        if d is None or any(t.owner is None for t in obs.tasks):
            return super()._choose_player(obs, req)
        roles = dict(obs.roles)
        judged = [condition_setup(obs, {**roles, a.role: a.player}) for a in req]
        programs = [None if j is None else native_program(d._lib, j[0])[0] for j in judged]
        if any(j is not None and p is None for j, p in zip(judged, programs, strict=True)):
            return super()._choose_player(obs, req)
        know = Knowledge(obs)
        pos = position(obs, know, 0, True, 0)
        head = [pos.n, pos.leader, pos.tricks_left, 0]
        tail = [len(pos.tasks)]
        for bit, owner, kind, kk, pending in pos.tasks:
            tail += [bit, owner, kind, kk, int(pending)]
        tail.append(pos.done)
        wins = [0] * len(req)
        for _ in range(self.role_worlds):
            hands = self._sample(obs, know)
            base = None
            for i, j in enumerate(judged):
                if j is None:
                    continue
                won = d.rollout_cond(programs[i], [*head, *tail, *hands, *trick_tail(j[1], j[2], goal_tail(j))])  # type: ignore[arg-type]
                if won == -2:  # a condition C leaves to Python: this play-out in Python
                    base = base if base is not None else world_from(obs, hands)
                    w = cond_world(base, *j)
                    won = rollout_cond(w) if w.status == 0 else 0
                wins[i] += max(0, won)
        self.last_role_wins = wins
        best = max(range(len(req)), key=lambda i: (wins[i], -i))
        return req[best]
    def _native_of(self) -> Any:
        return native_task_plays if self.native is not False else None

    def _choose_task_card(self, obs: Observation, req: tuple[Action, ...]) -> Action:
        return choose_task_card_action(obs, req, self.rng, self.draft_worlds, Knowledge, world_from,
                                       native_task_plays if self.native is not False else None)

    def _decide(self, t: Table, pos: Position, seed: int) -> int:
        if self.native is not False:
            d = native_decider(t)
            if d is not None:
                return d.decide(pos, seed, self.win_weight, self.prog_weight)[0]
            if self.native:
                raise RuntimeError("the fast bot's C look-ahead is not available")
        return decide_py(t, pos, seed, self.win_weight, self.prog_weight)[0]

    def _decide_cond(self, t: Table, pos: Position, seed: int,
                     judged: tuple[CondSetup, tuple[Any, ...], tuple[bool, ...]]) -> int:
        """The decision with the mission's conditions: in C when they translate (:mod:`condcode`), else,
        or when a condition meets what C leaves to Python, by :func:`decide_cond`; the same card either way."""
        # progress (the open tasks, a goal of conditions.goal_play): a play-out that fails counts each task it
        # did and goal trick it won above every vote; a play-out won counts more than all the progress
        goal = goal_tail(judged)
        most = goal[1] + (sum(1 for x in pos.tasks if x[4]) if self.cond_task_progress else 0)
        prog_weight = self.cond_worlds + 1 if most else 0
        win_weight = self.cond_win_weight * (most + 1)
        if self.native is not False:
            d = native_decider(t)
            if d is not None:
                program = native_program(d._lib, judged[0])[0]
                if program is not None:
                    best = d.decide_cond(program, pos, seed, judged[1], judged[2], win_weight, goal, prog_weight)[0]
                    if best != -2:
                        return best
        return decide_cond(t, pos, seed, *judged, win_weight=win_weight, prog_weight=prog_weight)[0]

    def _draft(self, obs: Observation, req: tuple[TakeTask, ...]) -> Action:
        t = table_for(obs.rules)
        if not _model_fits(obs) or obs.current_trick or obs.tricks or any(
                x.owner is None and x.trick is not None for x in obs.tasks):
            return max(req, key=lambda a: (affinity(t, obs.hand_mask, a.card.id), -a.card.id))
        index = {x.card.id: i for i, x in enumerate(obs.tasks)}
        cands = 0
        for a in req:
            cands |= 1 << index[a.card.id]
        know = Knowledge(obs)
        pos = position(obs, know, self.draft_worlds, True, cands)
        seed = self.rng.getrandbits(64)
        d = native_decider(t) if self.native is not False else None
        if d is None and self.native:
            raise RuntimeError("the fast bot's C look-ahead is not available")
        best = d.draft(pos, seed, t.trump_mask)[0] if d is not None else draft_py(t, pos, seed)[0]
        by_index = {index[a.card.id]: a for a in req}
        return by_index.get(best) or max(req, key=lambda a: (affinity(t, obs.hand_mask, a.card.id), -a.card.id))

    def _play(self, obs: Observation, req: tuple[Play, ...]) -> Action:
        req = safe_plays(obs, req)
        if len(req) == 1:
            return req[0]
        if self._fits is None or self._fits[0] is not obs.rules:
            self._fits = (obs.rules, _model_fits(obs))  # fixed for a game: who sees which cards
        if not self._fits[1]:
            return _simple_play(obs, req)
        by_card = {a.card.id: a for a in req}
        cands = 0
        for c in by_card:
            cands |= 1 << c
        know = Knowledge(obs)
        t = table_for(obs.rules)
        if obs.conditions:
            judged = condition_setup(obs)
            if judged is not None:
                pos = position(obs, know, self.cond_worlds, True, cands)
                best = self._decide_cond(t, pos, self.rng.getrandbits(64), judged)
                return by_card[best] if best in by_card else _simple_play(obs, req)
        open_tasks = any(t.trick is None for t in obs.tasks)
        worlds = 3
        if open_tasks:
            # fewer worlds while the play-outs are long (about ``budget`` card plays per decision with four
            # open tasks), more when few tasks are open (play-outs end once they are done): at least
            # ``min_worlds``, up to twice ``worlds`` with one or two open tasks
            open_count = sum(1 for x in obs.tasks if x.trick is None)
            scale = min(2.0, 4 / max(1, open_count)) if self.task_scaling else 1.0
            remaining = max(1, sum(obs.hand_sizes)) * len(by_card)
            cap = int(self.fast_worlds * max(1.0, scale))
            worlds = max(self.min_worlds, min(cap, int(self.fast_budget * scale) // remaining))
        pos = position(obs, know, worlds, open_tasks, cands)
        seed = self.rng.getrandbits(64)
        best = self._decide(t, pos, seed)
        if best not in by_card:  # no world could be played (contradictory knowledge): simple rules
            return _simple_play(obs, req)
        return by_card[best]


def make(seat: int, seed: str) -> FastBot:
    return FastBot(seat, seed)


__all__ = ["FastBot", "Position", "Sampler", "SplitMix", "decide_py", "native_decider", "position"]


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
