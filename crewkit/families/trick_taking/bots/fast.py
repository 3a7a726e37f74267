"""The fast bot: the heuristic bot's determinized look-ahead, with the play-outs in C.

Per decision it samples ``worlds`` complete deals consistent with what it knows (:class:`Knowledge`),
asks the cooperative full-information policy of :mod:`crewkit.families.trick_taking.bots.sim` for its choice in each (a vote) and
plays every legal card out to the end in each world (a win or a loss). The card with the most wins (ten
times), then the most votes, then the lowest id, is played.

Two implementations make the same decisions:

* :func:`decide_py`, the reference: :class:`~crewkit.families.trick_taking.bots.knowledge.Sampler` (every bot's sampler, a splitmix64 generator, so that C can draw the same
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

from collections.abc import Sequence
from typing import Any

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.condcode import native_program, trick_tail
from crewkit.families.trick_taking.bots.conditions import (
    CondSetup,
    cond_world,
    condition_setup,
    goal_tail,
    limit_draft,
    rollout_cond,
)

# the decision core (re-exported: tests, benchmarks and the expert bot read it from here)
from crewkit.families.trick_taking.bots.fastcore import (
    Position,
    Sampler,
    SplitMix,
    affinity,
    base_world,
    decide_cond,
    decide_py,
    draft_py,
    native_decider,
    native_task_plays,
    position,
    rollout_frame,
)
from crewkit.families.trick_taking.bots.heuristic import (
    HeuristicBot,
    Knowledge,
    _model_fits,
    _simple_play,
    world_from,
)
from crewkit.families.trick_taking.bots.safety import safe_plays
from crewkit.families.trick_taking.bots.sim import Table, table_for
from crewkit.families.trick_taking.bots.taskcard_choice import choose_task_card_action
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.step_actions import ChoosePlayer


class FastBot(HeuristicBot):
    """The heuristic bot's look-ahead with a fixed number of worlds per decision, played out in C."""

    name = "fast"

    def __init__(self, seat: int, seed: str = "", worlds: int = 32, draft_worlds: int = 8,
                 native: bool | None = None, budget: int = 4800, min_worlds: int = 24,
                 cond_worlds: int = 48, task_scaling: bool = True, cond_win_weight: int | None = None,
                 win_weight: int = 10, prog_weight: int = 0, answer_worlds: int = 16, answer_tries: int = 8) -> None:
        super().__init__(seat, seed, draft_worlds=draft_worlds)
        # card play after the players answered questions about their hands ("who wants this task?"): worlds in
        # which every other seat's hand gives the answers it gave, played out in C (0: the plain look-ahead)
        self.answer_worlds = answer_worlds
        self.answer_tries = answer_tries  # draws per world: the one that meets the most answers is kept
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
        self.distress_worlds = 16  # the play-outs in C: the distress signal is weighed once a game

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
    def _distress_native(self, obs: Observation) -> Any:
        return native_decider(table_for(obs.rules)) if self.native is not False else None

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

    def _read_answers(self, obs: Observation, know: Knowledge, t: Table, pos: Position, cands: list[int],
                      plain_best: int) -> int:
        """The card that wins most play-outs over worlds consistent with the other seats' answers to the
        setup's questions (:func:`choices.consistent_sample`); the plain look-ahead's card where they tie. The
        plain look-ahead's worlds (drawn in C) know only the cards seen and the voids, and a "yes, I want this
        task" says where its card's suit lies: on 36, 400 paired deals, 0.153 without and 0.206 with (p 0.07 over
        262; docs/performance.md)."""
        from crewkit.families.trick_taking.bots import choices

        checks = choices.answer_checks(obs)
        d = native_decider(t) if self.native is not False else None
        if not checks:
            return plain_best
        worlds = [choices.consistent_sample(know, obs, self.rng, checks, self.answer_tries)
                  for _ in range(self.answer_worlds)]
        wins = answer_world_wins(obs, pos, cands, worlds, d)
        top = max(wins.values())
        return plain_best if wins[plain_best] == top else min(c for c in cands if wins[c] == top)

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
        req = limit_draft(obs, req)
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
        if open_tasks and self.answer_worlds and obs.questions and best in by_card:
            best = self._read_answers(obs, know, t, pos, sorted(by_card), best)
        if best not in by_card:  # no world could be played (contradictory knowledge): simple rules
            return _simple_play(obs, req)
        return by_card[best]


def answer_world_wins(obs: Observation, pos: Position, cands: Sequence[int], worlds: Sequence[Sequence[int]],
                      decider: Any) -> dict[int, int]:
    """Per candidate card: the cooperative play-outs it wins over ``worlds`` (hands of every seat), in C
    (``decider``: ``fs_rollout_batch``, all in one call) or, without it, in Python (the same play-outs)."""
    wins = dict.fromkeys(cands, 0)
    if decider is not None:
        head, tail = rollout_frame(obs, pos)
        results = decider.rollout_batch(None, [[*head, cid, *tail, *hands] for hands in worlds for cid in cands])
        for k, won in enumerate(results):
            wins[cands[k % len(cands)]] += max(0, won)
        return wins
    from crewkit.families.trick_taking.bots.sim import rollout

    for hands in worlds:
        base = world_from(obs, list(hands))
        if base.status != 0:
            continue
        for cid in cands:
            w = base.copy()
            w.play(cid)
            wins[cid] += rollout(w)
    return wins


def make(seat: int, seed: str) -> FastBot:
    return FastBot(seat, seed)


__all__ = ["FastBot", "Position", "Sampler", "SplitMix", "answer_world_wins", "base_world", "decide_cond", "decide_py", "draft_py",
           "native_decider", "native_task_plays", "position", "rollout_frame"]
