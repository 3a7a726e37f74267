"""The expert bot: perfect-information search over worlds sampled from what the seat knows.

It sees only its :class:`~crewkit.families.trick_taking.engine.observation.Observation`. At a card play it
samples complete deals consistent with what it knows
(:class:`~crewkit.families.trick_taking.bots.heuristic.Knowledge`: cards played, suits a seat showed void in,
communicated cards and what their statements rule out, the commander's card, hand sizes), builds for each
sampled world a game at the current position (:func:`world_game`, engine state only from the observation plus
the sampled hands) and, for each card it may play, asks the perfect-information solver
(:class:`crewkit.families.trick_taking.solve.TrickSearch`, the C search where it applies) whether the crew can
still win after that play, within a node budget. Each card scores the share of worlds it keeps winnable plus
the share of cooperative play-outs (:func:`crewkit.families.trick_taking.bots.sim.rollout`) it wins, so the
bot stays robust to teammates who cannot see the hands it imagined (early in a deal most plays keep every
world winnable). The play-outs run in C (the fast bot's port, :mod:`crewkit.families.trick_taking.bots.fast`:
the same results, much cheaper than a solver call), so they are also played in more worlds than the solver
sees (``rollout_worlds``). Safe plays (:func:`crewkit.families.trick_taking.bots.safety.safe_plays`: not taking a
teammate's task card) get a small bonus, not a veto: the search judges every legal card. The worlds are
those the teammates' play explains (:mod:`crewkit.families.trick_taking.bots.expert_worlds`): each is drawn again until the bots'
communication rule explains every teammate's communication and silence, then mended until every answer a
teammate gave to the setup's questions fits its hand (:mod:`crewkit.families.trick_taking.bots.mended_worlds`), and
a solved world in which the position is already lost (where the teammates would have blundered) is dropped for another. :class:`Inference`
can also weight the worlds by how likely the policy makes the teammates' cards (off by default: the teammates
play by the solver, not by the policy; measured in the history of docs/performance.md). Mission conditions,
task tokens and neighbour draws are the engine's and the solver's, so every mission is read as written.

Where its world model does not describe the game (a dummy seat with face-down columns, cards set aside
unseen, hidden or secret tasks, a competitive scoring game) and outside the trick phase (setup choices,
passing cards), it plays as the heuristic bot does; communication follows the heuristic bot's rules too (tell
where a teammate's task card is, or a high card in a task's suit). It drafts tasks as the fast bot does, with
many more worlds (each task weighed by C play-outs of 200 sampled deals, the others drafting by affinity).

Everything is deterministic given the seed: world counts and node budgets are fixed, never taken from the
clock; the budgets keep a decision under about a second on a slow machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.bots import choices
from crewkit.families.trick_taking.bots.condcode import native_program, trick_tail
from crewkit.families.trick_taking.bots.conditions import cond_world, condition_setup, goal_tail, rollout_cond
from crewkit.families.trick_taking.bots.expert_worlds import (
    Inference,
    _equivalent,
    consistent_draw,
    pick_worlds,
    with_owner_prior,
)
from crewkit.families.trick_taking.bots.fast import FastBot, native_decider, position, rollout_frame
from crewkit.families.trick_taking.bots.heuristic import HeuristicBot, Knowledge, world_from
from crewkit.families.trick_taking.bots.safety import safe_plays
from crewkit.families.trick_taking.bots.sim import choose_play, rollout, table_for
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import TRICKS, Game, Task
from crewkit.families.trick_taking.engine.observation import Observation

#: the score of a world the solver could not decide within its budget (between lost 0 and won 1)
UNKNOWN_SCORE = 0.5
#: node budgets are divided by this where the solver runs its Python search (mission conditions, draws):
#: it is about fifty times slower per node than the C search
PYTHON_SLOWDOWN = 40


class ExpertBot:
    name = "expert"

    def __init__(self, seat: int, seed: str = "", worlds: int = 48, nodes: int = 16_000, rollouts: bool = True,
                 total_nodes: int = 2_000_000, rollout_weight: float = 1.0, policy_trick: bool = False,
                 owner_prior: float = 0.0, oversample: int = 1, play_miss: float = 1.0,
                 comm_miss: float = 1.0, native_rollouts: bool = True, rollout_worlds: int = 400,
                 winnable_filter: int = 3, comm_tries: int = 8, python_worlds: int = 4,
                 python_total_nodes: int = 3_000, draft_worlds: int = 200, answer_tries: int = 8,
                 safe_bonus: float | None = 0.05, merge_equivalent: bool = False, handout_worlds: int = 64,
                 handout_repair: int = 200, answer_repair: int = 200) -> None:
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(f"{seed}:{seat}:expert")
        self.worlds = worlds
        self.nodes = nodes  # solver budget per (world, candidate)
        self.total_nodes = total_nodes  # solver budget per decision (worlds are cut short beyond it)
        self.rollouts = rollouts  # a cooperative play-out per (world, candidate) (deterministic: one is enough)
        self.rollout_weight = rollout_weight  # their success share counts this much next to the solver's
        # the rest of the current trick is played by the cooperative policy (what teammates who cannot see the
        # sampled hands would do) before the solver takes over
        self.policy_trick = policy_trick
        # a seat took a task: in this share of the worlds it holds the task's card when that is possible (players
        # take the tasks they can win, mostly the ones whose card they hold); off by default: 0.5 measured 59%
        # against 64% without on planet-nine/10 (100 deals, benchmarks/expert_strength.py)
        self.owner_prior = owner_prior
        # inference (:class:`Inference`): ``oversample`` times the worlds are sampled and ``worlds`` of them
        # drawn with probability proportional to how likely they make the teammates' plays and communications
        self.oversample = oversample
        self.native_rollouts = native_rollouts
        self.rollout_worlds = rollout_worlds  # worlds for the play-outs (the first ``worlds`` also solved)
        self.play_miss = play_miss
        self.comm_miss = comm_miss
        # the teammates play well: a solved world in which the position before this card is already lost is
        # dropped (a world where they have blundered); up to ``worlds * winnable_filter`` worlds are drawn
        self.winnable_filter = winnable_filter
        # the teammates communicate by the bots' rule: each world is drawn up to ``comm_tries`` times until
        # that rule explains every communication and every silence (:func:`consistent_draw`)
        self.comm_tries = comm_tries
        # the setup's questions answered ("who wants this task?"): each solved world is a draw mended by up to
        # ``answer_repair`` swaps between two other seats until it meets every answer
        # (:func:`mended_worlds.repaired_sample`: with seven tasks a plain draw almost never does); with
        # ``answer_repair`` 0, the draw of up to ``answer_tries`` that meets the most; ``answer_tries`` 0: not read
        self.answer_tries = answer_tries
        self.answer_repair = answer_repair
        # where the solver runs its Python search (mission conditions, draws: about fifty times slower per
        # node), this many worlds and this node budget per decision (per world and candidate: nodes / 40)
        self.python_worlds = python_worlds
        self.python_total_nodes = python_total_nodes
        # the plays that take a teammate's task card (:func:`safe_plays`): None drops them before the search (the
        # only card that keeps a deal winnable may be one: overtaken later by the owner); a number lets the search
        # judge every legal card and adds this to the score of the others (docs/performance.md, issue 43)
        self.safe_bonus = safe_bonus
        # cards of one suit with nothing unseen between them and no task among them play alike: one of them is
        # searched and played out, the others share its scores (the budget goes to more worlds)
        self.merge_equivalent = merge_equivalent
        self.fallback = HeuristicBot(seat, seed)
        # the commander's hand-out (choices.give_task, by the fallback): its worlds mended until they meet every
        # answer (a plain draw meets them all almost never by the fifth task), and more of them
        self.fallback.handout_worlds = handout_worlds
        self.fallback.handout_repair = handout_repair
        # the task draft: the fast bot's, its play-outs in C, in ``draft_worlds`` worlds per task (the
        # heuristic's 6 worlds in Python where C is not available)
        self.draft_worlds = draft_worlds
        self._drafter: HeuristicBot | None = None
        self.last: dict[str, Any] = {}  # what the last decision saw (for benchmarks and tests)

    # ------------------------------------------------------------------ protocol
    def act(self, obs: Observation) -> Action:
        req = obs.required or obs.legal
        if len(req) == 1:
            return req[0]
        if obs.phase == TRICKS and all(type(a) is Play for a in req) and model_fits(obs):
            return self._play(obs, req)  # type: ignore[arg-type]
        if all(type(a) is TakeTask for a in req):
            return self._drafting(obs).act(obs)
        return self.fallback.act(obs)

    def optional(self, obs: Observation) -> Action | None:
        return self.fallback.optional(obs)

    def _drafting(self, obs: Observation) -> HeuristicBot:
        if self._drafter is None:
            native = native_decider(table_for(obs.rules)) is not None
            self._drafter = FastBot(self.seat, self.seed, draft_worlds=self.draft_worlds) if native else self.fallback
        return self._drafter

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, req: tuple[Play, ...]) -> Action:
        from crewkit.families.trick_taking.solve import SearchAborted, TrickSearch
        from crewkit.families.trick_taking.solve.core import Unsupported

        safe = safe_plays(obs, req)
        if self.safe_bonus is None:
            req = safe
        bonus = {a.card.id: self.safe_bonus or 0.0 for a in safe} if len(safe) < len(req) else {}
        if len(req) == 1:
            return req[0]
        know = Knowledge(obs)
        template = template_game(obs)
        sampler = with_owner_prior(know, obs, self.owner_prior, self.rng)
        pool: list[list[int]] = []
        if self.oversample > 1:
            inf = Inference(obs, self.play_miss, self.comm_miss)
            if inf.active:
                pool = [sampler.sample(self.rng) for _ in range(self.worlds * self.oversample)]
                lls = [inf.loglik(h) for h in pool]
                pool = [pool[i] for i in pick_worlds(self.rng, lls, self.worlds)]
        draw: Callable[[random.Random], list[int]] = sampler.sample
        if self.comm_tries > 0:
            comm_inf = Inference(obs, 1.0, 0.5)
            if comm_inf.windows:
                draw = consistent_draw(sampler, comm_inf, self.comm_tries)
        solved_draw = draw
        checks = choices.answer_checks(obs) if self.answer_tries > 0 and obs.questions else []
        if checks:
            drawing = SimpleNamespace(sample=draw)

            if self.answer_repair > 0:
                from crewkit.families.trick_taking.bots.mended_worlds import repaired_sample

                mending = SimpleNamespace(sample=draw, n=know.n, seat=know.seat, need=know.need, known=know.known,
                                          void=know.void)

                def solved_draw(rng: random.Random) -> list[int]:
                    return repaired_sample(mending, obs, rng, checks, self.answer_repair)
            else:
                def solved_draw(rng: random.Random) -> list[int]:
                    return choices.consistent_sample(drawing, obs, rng, checks, self.answer_tries)
        by_card = {a.card.id: a for a in req}
        every = sorted(by_card)
        same = equivalent_cards(obs, every) if self.merge_equivalent else {c: c for c in every}
        cands = sorted(set(same.values()))
        # play-outs in C (the fast bot's port of the same policy: the same results, faster) where it loads
        native = native_decider(table_for(obs.rules)) if self.rollouts and self.native_rollouts else None
        head: list[int] = []
        tail: list[int] = []
        if native is not None:
            head, tail = rollout_frame(obs, position(obs, know, 0, True, 0))
        # the mission's conditions in the play-outs (as the fast bot judges them): in C where they translate
        judged = condition_setup(obs) if obs.conditions else None
        program = None
        cond_tail: list[int] = []
        if judged is not None and native is not None:
            program = native_program(native._lib, judged[0])[0]
            cond_tail = trick_tail(judged[1], judged[2], goal_tail(judged))

        def play_out(cid: int, hands: list[int], base: Any) -> int:
            """One cooperative play-out of ``cid`` in the world ``hands`` (``base``: its Python world)."""
            if native is not None and (judged is None or program is not None):
                if judged is None:
                    return native.rollout([*head, cid, *tail, *hands])
                won = native.rollout_cond(program, [*head, cid, *tail, *hands, *cond_tail])  # type: ignore[arg-type]
                if won != -2:
                    return max(0, won)
            if base is None:
                base = world_from(obs, list(hands))
            if base.status != 0:
                return 0
            if judged is not None:
                w = cond_world(base, *judged).copy()
                w.play(cid)
                return rollout_cond(w)
            w = base.copy()
            w.play(cid)
            return rollout(w)

        solved = dict.fromkeys(cands, 0.0)
        played_out = dict.fromkeys(cands, 0.0)
        used = 0
        worlds = 0
        decided = 0
        nodes, total = self.nodes, self.total_nodes
        n_worlds = self.worlds
        attempts = rejected = unsure = lost_worlds = 0
        # the hands of every world solved, and whether the winnable filter's search decided it (not "unsure"),
        # for tests and benchmarks to check with a solver of their own
        kept: list[tuple[tuple[int, ...], bool]] = []
        max_attempts = self.worlds * max(1, self.winnable_filter)
        filtering = self.winnable_filter > 0
        while worlds < n_worlds and attempts < max_attempts and used < total:
            k = attempts
            attempts += 1
            hands = pool[k] if k < len(pool) else solved_draw(self.rng)
            game = world_game(template, obs, hands)
            search: Any = None
            checked = False
            if filtering:
                # is the position before this card winnable in this world? (the lost positions the search
                # stores serve the candidates' searches after it)
                try:
                    search = TrickSearch(game)
                    if not search.native:
                        filtering, search = False, None
                    elif not search.run(max_nodes=nodes):
                        used += search.nodes
                        rejected += 1
                        continue
                    else:
                        checked = True
                except SearchAborted:
                    unsure += 1  # kept: not known to be lost
                except (Unsupported, ValueError):
                    filtering, search = False, None
                if search is not None:
                    used += search.nodes
            # the filter's search, built at this world's position: every candidate's position is one it can
            # reach, so it may search each of them with its table of lost positions, conditions or not
            root = search
            base = world_from(obs, list(hands)) if self.rollouts else None
            worlds += 1
            kept.append((tuple(hands), checked))
            best_here = 0.0
            for cid in cands:
                g = game.clone()
                g.apply(by_card[cid])
                if self.policy_trick and base is not None and base.status == 0 and g.plays and not g.is_over():
                    _finish_trick_by_policy(g, base, cid)
                if g.is_over():
                    score = 1.0 if g.outcome().result == "success" else 0.0
                elif g.phase != TRICKS:
                    score = UNKNOWN_SCORE
                else:
                    try:
                        if search is not None and (search is root or search.shares_positions):
                            before = search.nodes
                            search.move_to(g)
                            ok = search.run(max_nodes=nodes)
                        else:
                            search = TrickSearch(g)
                            if not search.native and nodes == self.nodes:
                                # the Python search (conditions, draws): about 50 times slower per node
                                nodes = max(50, nodes // PYTHON_SLOWDOWN)
                                total = self.python_total_nodes
                                n_worlds = min(n_worlds, self.python_worlds)  # building each search costs too
                            before = 0
                            ok = search.run(max_nodes=nodes)
                        score = 1.0 if ok else 0.0
                        decided += 1
                    except SearchAborted:
                        score = UNKNOWN_SCORE
                    except (Unsupported, ValueError):
                        search = None
                        score = UNKNOWN_SCORE
                    if search is not None:
                        used += search.nodes - before
                solved[cid] += score
                best_here = max(best_here, score)
                if base is not None and base.status == 0:
                    played_out[cid] += play_out(cid, hands, base)
            lost_worlds += best_here == 0.0  # every card loses in it (where all were decided)
        n_roll = n_w = max(1, worlds)
        if native is not None and self.rollout_worlds > worlds:
            # more worlds for the play-outs alone: in C they cost microseconds where a solver call costs a
            # fresh search (the fast bot's look-ahead as a second, cheaper judge), all in one call
            extra = [draw(self.rng) for _ in range(self.rollout_worlds - worlds)]
            if judged is None or program is not None:
                sts = [[*head, cid, *tail, *hands, *cond_tail] for hands in extra for cid in cands]
                results = native.rollout_batch(program, sts)
            else:
                results = [-2] * (len(extra) * len(cands))
            for k, hands in enumerate(extra):
                for j, cid in enumerate(cands):
                    won = results[k * len(cands) + j]
                    # -2: Python must play it out (a condition C leaves to it); -1: decided before the card
                    played_out[cid] += play_out(cid, hands, None) if won == -2 else max(0, won)
                n_roll += 1
        for c in every:
            solved[c], played_out[c] = solved[same[c]], played_out[same[c]]
        cands = every
        self.last = {"worlds": worlds, "nodes": used, "decided": decided, "scores": dict(solved), "lost_worlds": lost_worlds,
                     "played_out": dict(played_out), "rollout_worlds": n_roll, "rejected": rejected, "unsure": unsure,
                     "world_hands": kept}
        rw = self.rollout_weight
        best = max(cands, key=lambda c: (solved[c] / n_w + rw * played_out[c] / n_roll + bonus.get(c, 0.0), -c))
        return by_card[best]


def equivalent_cards(obs: Observation, cards: list[int]) -> dict[int, int]:
    """Each of ``cards`` (ascending ids) to the lowest of its run of equivalent cards: one suit, every card
    between them in this hand or played already, none a task card, in a mission without conditions (which may
    read a card's rank)."""
    if obs.conditions:
        return {c: c for c in cards}
    t = table_for(obs.rules)
    gone = obs.hand_mask
    for tr in obs.tricks:
        for _, card in tr.plays:
            gone |= card.bit
    for _, card in obs.current_trick:
        gone |= card.bit
    tasks = 0
    for task in obs.tasks:
        tasks |= task.card.bit
    out: dict[int, int] = {}
    prev = -1
    for c in cards:
        if prev >= 0 and not (tasks >> c) & 1 and not (tasks >> prev) & 1 and _equivalent(t, gone, prev, c):
            out[c] = out[prev]
        else:
            out[c] = c
        prev = c
    return out


def _finish_trick_by_policy(g: Game, base: Any, cid: int) -> None:
    """Play the rest of ``g``'s current trick with the cooperative policy of
    :mod:`crewkit.families.trick_taking.bots.sim` on its twin world ``base`` (after this seat's card ``cid``);
    stop early where the two disagree."""
    w = base.copy()
    w.play(cid)
    cards = g.rules.deck.cards
    while g.plays and not g.is_over() and w.status == 0:
        seat = g.turn
        card = choose_play(w)
        try:
            g.apply(Play(seat, cards[card]))
        except IllegalAction:
            return
        w.play(card)


def model_fits(obs: Observation) -> bool:
    """Whether every unseen card is in a known seat's hand and the game is a cooperative one the solver
    searches: no dummy seat, no hidden or secret tasks, no cards set aside, no scoring."""
    if obs.dummy_seat is not None or obs.hidden_tasks or obs.rules.scoring is not None:
        return False
    if obs.rules.secret is not None:
        return False
    seen = sum(obs.hand_sizes) + sum(len(t.plays) for t in obs.tricks) + len(obs.current_trick)
    return seen == len(obs.rules.deck)


_TEMPLATES: dict[int, tuple[Any, Game]] = {}


def template_game(obs: Observation) -> Game:
    """A game of ``obs``'s rules (a seeded deal, one per rules object): :func:`world_game` copies it and
    replaces everything that belongs to a position."""
    rules = obs.rules
    hit = _TEMPLATES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    game = Game.new(rules, "expert-world")
    if len(_TEMPLATES) > 64:
        _TEMPLATES.clear()
    _TEMPLATES[id(rules)] = (rules, game)
    return game


def world_game(template: Game, obs: Observation, hands: list[int]) -> Game:
    """The position of ``obs`` with the sampled ``hands`` (bitmasks, one per seat): a game in its trick
    phase that the engine can play on and the solver can search."""
    g = template.clone()
    g.hands = list(hands)
    g.tricks = list(obs.tricks)
    g.card_trick = {c.id: t for t in g.tricks for _, c in t.plays}
    won = [0] * g.n
    tricks_won = [0] * g.n
    for t in g.tricks:
        for _, c in t.plays:
            won[t.winner] |= c.bit
        tricks_won[t.winner] += 1
    g.won = won
    g.tricks_won = tricks_won
    g.plays = list(obs.current_trick)
    g.led_suit = obs.led_suit
    g.tasks = [Task(t.card, t.token, t.owner, t.trick) for t in obs.tasks]
    g._task_by_card = {t.card.id: t for t in g.tasks}
    g._task_mask = obs.rules.deck.mask(t.card for t in g.tasks)
    g.tasks_done = sum(t.trick is not None for t in obs.tasks)
    g.comm_used = list(obs.comm_used)
    g.roles = dict(obs.roles)
    g.distress_direction = obs.distress_direction
    g.leader = obs.leader
    g.turn = obs.to_act if obs.to_act is not None else obs.leader
    g.commander = obs.commander
    g.conditions = obs.conditions  # the task cards' objectives this seat knows, bound to their owners
    g.task_cards = []
    g.step_index = len(g.steps)
    g.place_in(TRICKS)
    g.actions = []
    g.events = []
    g._outcome = None
    g.cond_done = _conditions_done(g)
    return g


def _conditions_done(g: Game) -> list[bool]:
    """Which ``done_if`` conditions are already fulfilled at this position (evaluated on its view)."""
    conds = g.conditions
    if not conds:
        return []
    view = g.view()
    out = []
    for c in conds:
        try:
            out.append(bool(c.done_if is not None and c.done_if(view, {})))
        except Exception:  # a condition that cannot be read here counts as not yet done
            out.append(False)
    return out


__all__ = ["ExpertBot", "model_fits", "template_game", "world_game"]
