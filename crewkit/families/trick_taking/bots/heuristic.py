"""The heuristic bot: cooperative rules plus a short determinized lookahead.

It sees only its :class:`~crewkit.families.trick_taking.engine.observation.Observation`. From it, it works out
what is known about the other hands (:class:`Knowledge`): cards already played are gone; a seat that did not
follow the led suit is void in it; a communicated card is in its owner's hand until played, and its statement
(highest / lowest / only) rules out cards above, below or beside it; the commander holds the commander's card.
It then samples complete deals consistent with that knowledge (*worlds*) and, for each candidate action, plays
each world to its end with the cooperative full-information policy of
:mod:`crewkit.families.trick_taking.bots.sim` (task owners win their cards, others dump task cards on their
owners' tricks, nobody takes a task card that is not theirs, token order respected). The action with the most
successful play-outs wins; ties go to the policy's own choice.

Everything is deterministic given the seed: the number of worlds and play-outs is fixed (scaled down as
hands shrink), never taken from the clock.

Communication: the bot communicates at most once, when it holds a card of an open task that is either a
task it must win (telling that it holds a high card there) or another seat's task card (telling where
it is). The distress signal: the first seat asked (the leader) weighs it by play-outs and calls it only when it
pays the logbook's extra attempt; every seat passes the card its tasks miss least and its neighbour's need most
(:mod:`crewkit.families.trick_taking.bots.distress_choice`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots import choices
from crewkit.families.trick_taking.bots.comm_rule import comm_pick
from crewkit.families.trick_taking.bots.conditions import (
    choose_play_cond,
    cond_world,
    condition_setup,
    goal_tail,
    limit_draft,
    rollout_cond,
)
from crewkit.families.trick_taking.bots.distress_choice import decide as decide_distress
from crewkit.families.trick_taking.bots.distress_choice import pass_card_id
from crewkit.families.trick_taking.bots.distress_choice import weigh as weigh_distress
from crewkit.families.trick_taking.bots.knowledge import (
    Knowledge,
    _full_view,
    _model_fits,
    _task_affinity,
    draft_by_affinity,
    world_from,
)
from crewkit.families.trick_taking.bots.safety import safe_plays
from crewkit.families.trick_taking.bots.sim import choose_play, rollout
from crewkit.families.trick_taking.bots.taskcard_choice import (
    TASK_CARD_ACTIONS,
    choose_task_card_action,
    taker_scores,
)
from crewkit.families.trick_taking.bots.undecided import seeded_choice
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress, PassCard, receiver
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.step_actions import (
    Answer,
    ChoosePlayer,
    GiveAllTasks,
    GiveTask,
    MoveToken,
    Skip,
    SwapTokens,
)

__all__ = ["HeuristicBot", "Knowledge", "world_from"]


class HeuristicBot:
    name = "heuristic"
    # what the last setup choices weighed (choices.py): JARVIS's seat, Hammer's dealer
    last_seat_wins: dict[str, float]
    last_dealer_values: list[Any]
    # the token choice: play-outs won per option (its index in the offered actions)
    last_token_wins: dict[int, int]
    # the distress signal: play-outs won per option ("none", "left", "right") out of "worlds" (distress_choice.weigh)
    # and the call (None: no signal)
    last_distress_wins: dict[str, int] | None = None
    last_distress: str | None = None


    @staticmethod
    def without_lookahead(seat: int, seed: str) -> HeuristicBot:
        """The rules bot (no look-ahead) in ``seat``: a player of the play-outs that weigh a setup choice (Hammer's
        dealer), built here so that the choices need not import the bot classes."""
        return HeuristicBot(seat, seed, lookahead=False)

    @staticmethod
    def rules_playout_bot(seat: int) -> HeuristicBot:
        """The rules bot with the setup's play-outs cut to the least: every seat of a whole game a bot plays
        out to weigh a choice (JARVIS's seat, :mod:`crewkit.families.trick_taking.bots.jarvis_seat`)."""
        b = HeuristicBot(seat, "jarvis-seat", lookahead=False, worlds=1, draft_worlds=1)
        b.role_worlds = b.taker_worlds = b.handout_worlds = b.cond_worlds = 1
        return b

    def __init__(
        self,
        seat: int,
        seed: str = "",
        lookahead: bool = True,
        worlds: int = 24,
        draft_worlds: int = 6,
        budget: int = 3200,
    ) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")
        self.lookahead = lookahead
        self.worlds = worlds
        self.draft_worlds = draft_worlds
        self.budget = budget  # simulated card plays per decision (fixed: deterministic)
        self.role_worlds = 8
        self.taker_worlds = 16  # deals behind a one-taker choice or a volunteer's answer
        self.handout_worlds = 32  # worlds behind each task the commander hands out (play-outs per candidate, in C)
        # swaps that mend each of those worlds until it meets the answers (0: the best of a few draws; the expert's
        # commander mends them: choices.give_task)
        self.handout_repair = 0
        self.cond_worlds = 8  # at most this many worlds when the play-outs judge mission conditions
        self.distress_worlds = 12  # worlds behind the distress signal (three play-outs each, once a game)
        # its own draws: weighing the signal leaves every other decision as it was where it is not called
        self.distress_rng = random.Random(f"{seed}:{seat}:distress")
        self._distress_key: object = None

    # ------------------------------------------------------------------ protocol
    def act(self, obs: Observation) -> Action:
        req = obs.required or obs.legal
        if len(req) == 1:
            return req[0]
        kinds = {type(a) for a in req}
        if kinds == {Play}:
            return self._play(obs, req)  # type: ignore[arg-type]
        if kinds == {TakeTask}:
            return self._draft(obs, req)  # type: ignore[arg-type]
        if kinds == {PassCard}:
            return self._pass(obs, req)  # type: ignore[arg-type]
        if kinds == {ChoosePlayer} and obs.conditions and _model_fits(_full_view(obs), setup=True):
            # roles still to be chosen later (mission 50's closer): judged together (choices.py)
            paired = choices.choose_with_open_roles(self, _full_view(obs), req)  # type: ignore[arg-type]
            return paired if paired is not None else self._choose_player(_full_view(obs), req)  # type: ignore[arg-type]
        if kinds <= TASK_CARD_ACTIONS:  # task cards with objectives: by play-outs
            return self._choose_task_card(_full_view(obs), req)
        return self._setup_choice(obs, req, kinds)

    def _setup_choice(self, obs: Observation, req: tuple[Action, ...], kinds: set[type]) -> Action:
        """The setup's other decisions: :mod:`crewkit.families.trick_taking.bots.choices`."""
        if kinds == {Answer}:
            return choices.answer(self, obs, req)  # type: ignore[arg-type]
        if kinds == {GiveTask}:
            return choices.give_task(self, obs, req)  # type: ignore[arg-type]
        if kinds == {GiveAllTasks}:
            return choices.give_all_tasks(self, obs, req)  # type: ignore[arg-type]
        if kinds == {ChoosePlayer}:
            return choices.choose_player(self, obs, req)  # type: ignore[arg-type]
        if kinds == {ChooseDummySeat}:
            return choices.choose_dummy_seat(self, obs, req)
        if kinds <= {SwapTokens, MoveToken, Skip}:
            return choices.tokens(self, obs, req)
        if kinds == {ChooseMission}:
            return choices.choose_mission(self, obs, req)
        return seeded_choice(self.rng, req, self.name)

    def taker_scores(self, obs: Observation, seats: Sequence[int]) -> list[float] | None:
        """Per seat: play-outs won when it takes every open task card (None where the play-outs cannot judge)."""
        obs = _full_view(obs)
        if not _model_fits(obs, setup=True):
            return None
        scores = taker_scores(obs, seats, self.rng, self.taker_worlds, Knowledge, world_from, self._native_of())
        return None if all(x < 0 for x in scores) else scores

    def _native_of(self) -> Any:
        return None

    def _sample(self, obs: Observation, know: Knowledge) -> list[int]:
        """A world consistent with what is known and, once questions were answered, with the answers."""
        if not obs.questions:
            return know.sample(self.rng)
        return choices.consistent_sample(know, obs, self.rng, choices.answer_checks(obs))

    def optional(self, obs: Observation) -> Action | None:
        call = self._distress(obs)
        if call is not None:
            return call
        comms = [a for a in obs.legal if isinstance(a, Communicate)]
        if not comms or obs.comm_used[self.seat]:
            return None
        i = comm_pick(self.seat, [(a.card, a.position) for a in comms],
                      [(t.card, t.owner) for t in obs.tasks if t.trick is None])
        return None if i is None else comms[i]

    # ------------------------------------------------------------------ roles
    def _choose_player(self, obs: Observation, req: tuple[ChoosePlayer, ...]) -> Action:
        """Bind a role by play-outs: the player with whom the mission's conditions hold most often."""
        know = Knowledge(obs)
        wins = [0] * len(req)
        roles = dict(obs.roles)
        judged = [condition_setup(obs, {**roles, a.role: a.player}) for a in req]
        for _ in range(self.role_worlds):
            hands = self._sample(obs, know)
            base = world_from(obs, hands)
            for i, j in enumerate(judged):
                if j is None:
                    continue
                w = cond_world(base, *j)
                if w.status == 0:
                    wins[i] += rollout_cond(w)
        self.last_role_wins = wins
        best = max(range(len(req)), key=lambda i: (wins[i], -i))
        return req[best]

    # ------------------------------------------------------------------ draft
    def _draft(self, obs: Observation, req: tuple[TakeTask, ...]) -> Action:
        req = limit_draft(obs, req)
        scores = {a.card.id: _task_affinity(obs.rules, obs.hand_mask, a.card.id) for a in req}
        if not self.lookahead or len(req) == 1 or not _model_fits(obs):
            return max(req, key=lambda a: (scores[a.card.id], -a.card.id))
        know = Knowledge(obs)
        wins = {a.card.id: 0.0 for a in req}
        for _ in range(self.draft_worlds):
            hands = know.sample(self.rng)
            for a in req:
                owners = _finish_draft(obs, hands, a.card.id)
                w = world_from(_with_owners(obs, owners), list(hands))
                wins[a.card.id] += rollout(w)
        return max(req, key=lambda a: (wins[a.card.id] + 0.01 * scores[a.card.id], -a.card.id))

    def _choose_task_card(self, obs: Observation, req: tuple[Action, ...]) -> Action:
        """Task cards with objectives (Mission Deep Sea):
        :mod:`crewkit.families.trick_taking.bots.taskcard_choice`."""
        return choose_task_card_action(obs, req, self.rng, self.draft_worlds, Knowledge, world_from)

    # ------------------------------------------------------------------ distress
    def _distress(self, obs: Observation) -> Action | None:
        """The distress signal, weighed once a game by the first seat asked (the leader, before the first
        trick): :mod:`crewkit.families.trick_taking.bots.distress_choice`."""
        if obs.seat != obs.leader or obs.tricks or obs.current_trick or obs.distress_direction is not None:
            return None
        calls = {a.direction: a for a in obs.legal if isinstance(a, Distress)}
        if not calls:
            return None
        key = (obs.hand_mask, tuple((t.card.id, t.owner) for t in obs.tasks))
        if key != self._distress_key:  # weighed once: the window may be offered again before the first trick
            self._distress_key = key
            self.last_distress_wins = weigh_distress(obs, self.distress_rng, self.distress_worlds,
                                                     (lambda k: choices.consistent_sample(
                                                         k, obs, self.distress_rng, choices.answer_checks(obs)))
                                                     if obs.questions else None,
                                                     self._distress_native(obs))
            wins = self.last_distress_wins
            self.last_distress = None if wins is None else decide_distress(wins)
        return calls.get(self.last_distress) if self.last_distress is not None else None

    def _distress_native(self, obs: Observation) -> Any:
        """The C play-outs for the distress signal (the fast bot's: the same play-outs as in Python, much cheaper
        with many tasks); None: in Python (the library does not load, or the bot is kept in Python)."""
        from crewkit.families.trick_taking.bots.fastcore import native_decider
        from crewkit.families.trick_taking.bots.sim import table_for

        return native_decider(table_for(obs.rules)) if getattr(self, "native", None) is not False else None

    def _pass(self, obs: Observation, req: tuple[PassCard, ...]) -> Action:
        """The card this seat's tasks miss least and its neighbour's tasks need most (distress_choice)."""
        direction = obs.distress_direction or "left"
        to = receiver(_Seats(obs), self.seat, direction)
        tasks = [(t.card.id, t.owner) for t in obs.tasks if t.trick is None]
        allowed = 0
        for a in req:
            allowed |= a.card.bit
        best = pass_card_id(obs.rules, obs.hand_mask & allowed, tasks, self.seat, to)
        return next((a for a in req if a.card.id == best), min(req, key=lambda a: (a.card.rank, a.card.id)))

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, req: tuple[Play, ...]) -> Action:
        req = safe_plays(obs, req)
        if len(req) == 1:
            return req[0]
        if not _model_fits(obs):
            return _simple_play(obs, req)
        know = Knowledge(obs)
        judged = condition_setup(obs) if obs.conditions else None
        choose: Callable[[Any], int] = choose_play_cond if judged is not None else choose_play
        play_out: Callable[[Any], int] = rollout_cond if judged is not None else rollout
        by_card = {a.card.id: a for a in req}
        cands = list(by_card)
        n_worlds = self.worlds if self.lookahead else 3
        votes: dict[int, float] = dict.fromkeys(cands, 0.0)
        wins: dict[int, float] = dict.fromkeys(cands, 0.0)
        prog: dict[int, int] = dict.fromkeys(cands, 0)  # with conditions: progress of the play-outs lost
        most = 0  # the most progress a play-out can make: a play-out won counts one more
        if judged is not None:
            most = goal_tail(judged)[1] + sum(1 for t in obs.tasks if t.trick is None)
        open_tasks = any(t.trick is None for t in obs.tasks) or judged is not None
        if self.lookahead and open_tasks:
            remaining = max(1, sum(obs.hand_sizes))
            per = max(2, min(n_worlds, self.budget // (remaining * len(cands))))
            if judged is not None:
                per = min(per, self.cond_worlds)
        else:
            per = 0
        for i in range(max(per, 3)):
            hands = know.sample(self.rng)
            base = world_from(obs, hands)
            if judged is not None:
                base = cond_world(base, *judged)
            if base.status != 0:
                continue
            v = choose(base)
            if v in votes:  # the policy may pick a card the safety rule set aside
                votes[v] += 1
            if i < per:
                for c in cands:
                    w = base.copy()
                    w.play(c)
                    won = play_out(w)
                    wins[c] += won
                    if judged is not None and not won:
                        # tasks done and goal tricks won (conditions.goal_play) where the play-out fails
                        prog[c] += w.done - base.done + min(w.goal_won, w.goal_need)  # type: ignore[attr-defined]
        best = max(cands, key=lambda c: ((most + 1) * wins[c] + prog[c] + 0.1 * votes[c], -c))
        return by_card[best]


def _finish_draft(obs: Observation, hands: list[int], first: int) -> list[int]:
    """Owners of every task if this seat takes ``first`` and the others draft by affinity."""
    owners = [t.owner if t.owner is not None else -1 for t in obs.tasks]
    owners[[t.card.id for t in obs.tasks].index(first)] = obs.seat
    return draft_by_affinity(obs, hands, owners, (obs.seat + 1) % obs.players)


class _Seats:
    """What :func:`receiver` reads of a game, from an observation."""

    def __init__(self, obs: Observation) -> None:
        self.n = obs.players
        self.dummy_seat = obs.dummy_seat
        self.rules = obs.rules


class _OwnedView:
    """An observation with task owners filled in (for draft play-outs)."""

    def __init__(self, obs: Observation, owners: list[int]) -> None:
        from crewkit.families.trick_taking.engine.observation import TaskInfo

        self._obs = obs
        self.tasks = tuple(
            TaskInfo(t.card, t.token, owners[i], t.trick) for i, t in enumerate(obs.tasks)
        )

    def __getattr__(self, name: str) -> object:
        return getattr(self._obs, name)


def _with_owners(obs: Observation, owners: list[int]) -> Observation:
    return _OwnedView(obs, owners)  # type: ignore[return-value]




def _simple_play(obs: Observation, req: tuple[Play, ...]) -> Action:
    """Cooperative rules without lookahead: win tricks holding your own task cards, stay low otherwise."""
    in_trick = {c.id for _, c in obs.current_trick}
    mine = {t.card.id for t in obs.tasks if t.owner == obs.seat and t.trick is None}
    theirs = {t.card.id for t in obs.tasks if t.owner not in (None, obs.seat) and t.trick is None}
    by_strength = sorted(req, key=lambda a: (a.card.is_special, a.card.is_trump, a.card.rank, a.card.id))
    if in_trick & mine:
        return by_strength[-1]
    if not obs.current_trick:  # leading: pull one of my task cards with a high card of its suit
        for a in reversed(by_strength):
            if any(a.card.suit is not None and obs.rules.deck.cards[c].suit is a.card.suit for c in mine):
                return a
        safe = [a for a in by_strength if a.card.id not in theirs]
        return (safe or by_strength)[0]
    for a in by_strength:  # give a task card to its owner? only when nothing better: play low
        if a.card.id not in theirs:
            return a
    return by_strength[0]
