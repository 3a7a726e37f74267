"""The expert bot: perfect-information search over worlds sampled from what the seat knows.

It sees only its :class:`~crewkit.engine.observation.Observation`. At a card play it samples complete
deals consistent with what it knows (:class:`~crewkit.bots.heuristic.Knowledge`: cards played, suits a seat
showed void in, communicated cards and what their statements rule out, the commander's card, hand sizes),
builds for each sampled world a game at the current position (:func:`world_game`, engine state only from
the observation plus the sampled hands) and, for each card it may play, asks the perfect-information solver
(:class:`crewkit.solve.TrickSearch`, the C search where it applies) whether the crew can still win after
that play, within a node budget. Each card scores the share of worlds it keeps winnable plus the share of
cooperative play-outs (:func:`crewkit.bots.sim.rollout`) it wins, so the bot stays robust to teammates who
cannot see the hands it imagined (early in a deal most plays keep every world winnable). The play-outs run
in C (the fast bot's port, :mod:`crewkit.bots.fast`: the same results, much cheaper than a solver call), so
they are also played in more worlds than the solver sees (``rollout_worlds``). Safe plays come first
(:func:`crewkit.bots.safety.safe_plays`). :class:`Inference` can weight the sampled worlds by how likely
they make the teammates' cards and communications under the bots' rules (off by default: not shown to help,
see docs/performance.md). Mission conditions, task tokens and neighbour draws are the engine's and the solver's,
so every mission is read as written.

Where its world model does not describe the game (a dummy seat with face-down columns, cards set aside
unseen, hidden or secret tasks, a competitive scoring game) and outside the trick phase (setup choices, the
task draft, passing cards), it plays as the heuristic bot does; communication follows the heuristic bot's
rules too (tell where a teammate's task card is, or a high card in a task's suit).

Everything is deterministic given the seed: world counts and node budgets are fixed, never taken from the
clock; the budgets keep a decision under about a second on a slow machine.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

from crewkit.bots.fast import native_decider, position
from crewkit.bots.heuristic import HeuristicBot, Knowledge, comm_pick, world_from
from crewkit.bots.safety import safe_plays
from crewkit.bots.sim import World, choose_play, rollout, table_for, token_kind
from crewkit.cards import mask_ids
from crewkit.engine.actions import Action
from crewkit.engine.blocks.communication import AFTER_FIRST_CARD, hand_statements
from crewkit.engine.blocks.tricks import Play
from crewkit.engine.errors import IllegalAction
from crewkit.engine.game import TRICKS, Game, Task
from crewkit.engine.observation import Observation

#: the score of a world the solver could not decide within its budget (between lost 0 and won 1)
UNKNOWN_SCORE = 0.5
#: node budgets are divided by this where the solver runs its Python search (mission conditions, draws):
#: it is about fifty times slower per node than the C search
PYTHON_SLOWDOWN = 40


class ExpertBot:
    name = "expert"

    def __init__(self, seat: int, seed: str = "", worlds: int = 12, nodes: int = 4_000, rollouts: bool = True,
                 total_nodes: int = 120_000, rollout_weight: float = 1.0, policy_trick: bool = False,
                 owner_prior: float = 0.0, oversample: int = 1, play_miss: float = 1.0,
                 comm_miss: float = 1.0, native_rollouts: bool = True, rollout_worlds: int = 96) -> None:
        self.seat = seat
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
        self.fallback = HeuristicBot(seat, seed)
        self.last: dict[str, Any] = {}  # what the last decision saw (for benchmarks and tests)

    # ------------------------------------------------------------------ protocol
    def act(self, obs: Observation) -> Action:
        req = obs.required or obs.legal
        if len(req) == 1:
            return req[0]
        if obs.phase == TRICKS and all(type(a) is Play for a in req) and model_fits(obs):
            return self._play(obs, req)  # type: ignore[arg-type]
        return self.fallback.act(obs)

    def optional(self, obs: Observation) -> Action | None:
        return self.fallback.optional(obs)

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, req: tuple[Play, ...]) -> Action:
        from crewkit.solve import SearchAborted, TrickSearch
        from crewkit.solve.core import Unsupported

        req = safe_plays(obs, req)
        if len(req) == 1:
            return req[0]
        know = Knowledge(obs)
        template = template_game(obs)
        sampler = _with_owner_prior(know, obs, self.owner_prior, self.rng)
        pool: list[list[int]] = []
        if self.oversample > 1:
            inf = Inference(obs, self.play_miss, self.comm_miss)
            if inf.active:
                pool = [sampler.sample(self.rng) for _ in range(self.worlds * self.oversample)]
                lls = [inf.loglik(h) for h in pool]
                pool = [pool[i] for i in pick_worlds(self.rng, lls, self.worlds)]
        by_card = {a.card.id: a for a in req}
        cands = sorted(by_card)
        # play-outs in C (the fast bot's port of the same policy: the same results, faster) where it loads
        native = native_decider(table_for(obs.rules)) if self.rollouts and self.native_rollouts else None
        head: list[int] = []
        tail: list[int] = []
        if native is not None:
            pos = position(obs, know, 0, True, 0)
            head = [pos.n, pos.leader, pos.tricks_left, len(pos.current) + 1]
            for st in pos.current:
                head += st
            head.append(obs.seat)
            tail = [len(pos.tasks)]
            for bit, owner, kind, kk, pending in pos.tasks:
                tail += [bit, owner, kind, kk, int(pending)]
            tail.append(pos.done)
        solved = dict.fromkeys(cands, 0.0)
        played_out = dict.fromkeys(cands, 0.0)
        used = 0
        worlds = 0
        decided = 0
        nodes, total = self.nodes, self.total_nodes
        n_worlds = self.worlds
        for k in range(self.worlds):
            if used >= total or k >= n_worlds:
                break
            hands = pool[k] if k < len(pool) else sampler.sample(self.rng)
            game = world_game(template, obs, hands)
            base = world_from(obs, list(hands)) if self.rollouts else None
            worlds += 1
            search: Any = None
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
                        if search is not None and search.shares_positions:
                            before = search.nodes
                            ok = search.run_from(g, max_nodes=nodes)
                        else:
                            search = TrickSearch(g)
                            if not search.native and nodes == self.nodes:
                                # the Python search (conditions, draws): about 50 times slower per node
                                nodes, total = max(50, nodes // PYTHON_SLOWDOWN), max(500, total // PYTHON_SLOWDOWN)
                                n_worlds = max(2, self.worlds // 3)  # building each search costs too
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
                if base is not None and base.status == 0:
                    if native is not None:
                        played_out[cid] += native.rollout([*head, cid, *tail, *hands])
                    else:
                        w = base.copy()
                        w.play(cid)
                        played_out[cid] += rollout(w)
        n_roll = n_w = max(1, worlds)
        if native is not None and self.rollout_worlds > worlds:
            # more worlds for the play-outs alone: in C they cost microseconds where a solver call costs a
            # fresh search (the fast bot's look-ahead as a second, cheaper judge)
            for _ in range(self.rollout_worlds - worlds):
                hands = sampler.sample(self.rng)
                for cid in cands:
                    played_out[cid] += native.rollout([*head, cid, *tail, *hands])
                n_roll += 1
        self.last = {"worlds": worlds, "nodes": used, "decided": decided, "scores": dict(solved),
                     "played_out": dict(played_out), "rollout_worlds": n_roll}
        rw = self.rollout_weight
        best = max(cands, key=lambda c: (solved[c] / n_w + rw * played_out[c] / n_roll, -c))
        return by_card[best]


def _with_owner_prior(know: Knowledge, obs: Observation, prior: float, rng: random.Random) -> Knowledge:
    """``know``, or a copy in which some open tasks' cards are placed in their owners' hands (each with
    probability ``prior``, where the owner may hold it: not void in its suit, room in the hand)."""
    if prior <= 0:
        return know
    placed: list[tuple[int, int]] = []
    need = list(know.need)
    for t in obs.tasks:
        o = t.owner
        bit = t.card.bit
        if o is None or o == obs.seat or t.trick is not None or not know.unknown & bit:
            continue
        if know.void[o] & bit or need[o] <= 0 or rng.random() >= prior:
            continue
        need[o] -= 1
        placed.append((o, bit))
    if not placed:
        return know
    k = copy.copy(know)
    k.known = list(know.known)
    k.need = need
    for o, bit in placed:
        k.known[o] |= bit
        k.unknown &= ~bit
    return k


def _finish_trick_by_policy(g: Game, base: Any, cid: int) -> None:
    """Play the rest of ``g``'s current trick with the cooperative policy of :mod:`crewkit.bots.sim` on its
    twin world ``base`` (after this seat's card ``cid``); stop early where the two disagree."""
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
    g.step_index = len(g.steps)
    g.place_in(TRICKS)
    g.actions = []
    g.events = []
    g._outcome = None
    g.cond_done = _conditions_done(g)
    return g


def _conditions_done(g: Game) -> list[bool]:
    """Which ``done_if`` conditions are already fulfilled at this position (evaluated on its view)."""
    conds = g.rules.conditions
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


class Inference:
    """How likely each sampled world makes what the teammates did, when they play as the bots do.

    Teammates are assumed to play by the bots' rules (the expert's and the heuristic's communication rule,
    :func:`crewkit.bots.heuristic.comm_pick`, and for cards the cooperative policy of :mod:`crewkit.bots.sim`
    that the bots' play-outs follow). A world is replayed from the start of every trick (each seat's hand
    then is its sampled hand plus the cards it has played since): each teammate's card that the policy would
    not have played there costs a factor ``play_miss``, each communication window where the communication
    rule would have said something else than the teammate did (spoken, or kept silent) ``comm_miss``.
    The log of the product is :meth:`loglik`.
    """

    def __init__(self, obs: Observation, play_miss: float, comm_miss: float) -> None:
        self.obs = obs
        self.me = me = obs.seat
        self.n = n = obs.players
        self.t = table_for(obs.rules)
        self.play_cost = math.log(play_miss) if 0 < play_miss < 1 else 0.0
        self.comm_cost = math.log(comm_miss) if 0 < comm_miss < 1 else 0.0
        tricks = [[(s, c.id) for s, c in t.plays] for t in obs.tricks]
        if obs.current_trick:
            tricks.append([(s, c.id) for s, c in obs.current_trick])
        self.tricks = tricks
        # later[k][s]: the cards seat s played in trick k or after (its hand then = its hand now | these)
        later: list[list[int]] = [[0] * n for _ in range(len(tricks) + 1)]
        for k in range(len(tricks) - 1, -1, -1):
            row = list(later[k + 1])
            for s, c in tricks[k]:
                row[s] |= 1 << c
            later[k] = row
        self.later = later
        self.task_rows = [(t.card.bit, t.owner if t.owner is not None else -1, *token_kind(t.token), t.trick)
                          for t in obs.tasks]
        self.windows = self._windows(obs) if self.comm_cost else []
        self.active = bool(self.play_cost and any(s != me for tr in tricks for s, _ in tr)) or bool(self.windows)

    def _windows(self, obs: Observation) -> list[tuple[int, int, int]]:
        """(trick index k, seat, card communicated before trick k + 1 or -1) for each window a teammate was
        offered by the communication rule the bots follow (it speaks once)."""
        r = obs.rules
        if not r.comm_enabled or r.comm_window == AFTER_FIRST_CARD or r.comm_per_player < 1:
            return []
        made: dict[int, tuple[int, int]] = {}  # seat -> (trick index of its first communication, card)
        for com in obs.communications:
            before = com.before_trick
            if not before or com.seat in made:
                continue
            made[com.seat] = (before - 1, com.card.id)
        if len(made) < sum(1 for c in obs.communications if c.seat != obs.seat):
            return []  # more than one communication per seat: not the bots' rule
        barred = {seat for role, seat in obs.roles if role in r.comm_barred_roles}
        first = max(0, (r.disruption or 1) - 1)
        out = []
        for k in range(first, len(obs.tricks) + (1 if obs.current_trick else 0)):
            for s in range(obs.players):
                if s == obs.seat or s in barred:
                    continue
                m = made.get(s)
                if m is not None and m[0] < k:
                    continue  # it has spoken already
                out.append((k, s, m[1] if m is not None and m[0] == k else -1))
        return out

    def loglik(self, hands: list[int]) -> float:
        if not self.active:
            return 0.0
        ll = 0.0
        if self.play_cost:
            for k in range(len(self.tricks)):
                ll += self._trick(k, hands)
        if self.windows:
            ll += self._comms(hands)
        return ll

    def _open_tasks(self, k: int) -> tuple[int, int]:
        """(pending task index mask, tasks done) at the start of trick index ``k``."""
        pending = done = 0
        for i, row in enumerate(self.task_rows):
            trick = row[4]
            if trick is None or trick > k:
                pending |= 1 << i
            else:
                done += 1
        return pending, done

    def _trick(self, k: int, hands: list[int]) -> float:
        plays = self.tricks[k]
        if not any(s != self.me for s, _ in plays):
            return 0.0
        w = World.__new__(World)
        w.t = t = self.t
        w.n = self.n
        w.hands = [h | x for h, x in zip(hands, self.later[k], strict=True)]
        w.plays = []
        w.trick_mask = 0
        w.led = -1
        w.leader = w.turn = plays[0][0]
        w.win_seat = -1
        w.win_key = 0
        rows = self.task_rows
        w.task_bits = [r[0] for r in rows]
        w.task_owner = [r[1] for r in rows]
        w.task_kind = [r[2] for r in rows]
        w.task_k = [r[3] for r in rows]
        w.pending, w.done = self._open_tasks(k)
        w.total = len(rows)
        w.status = 0
        w.tricks_left = self.obs.total_tricks - k
        w.refresh_tasks()
        ll = 0.0
        for s, c in plays:
            if w.status != 0:
                break
            w.turn = s
            if s != self.me:
                legal = w.legal(s)
                if legal & (legal - 1):
                    pick = choose_play(w)
                    if pick != c and not _equivalent(t, w.hands[s], pick, c):
                        ll += self.play_cost
            w.play(c)
        return ll

    def _comms(self, hands: list[int]) -> float:
        rules = self.obs.rules
        cards = rules.deck.cards
        excluded = rules.comm_excluded_mask
        dead = rules.dead_zone
        ll = 0.0
        for k, s, said in self.windows:
            hand = hands[s] | self.later[k][s]
            options: list[tuple[Any, str | None]] = []
            for i in mask_ids(hand & ~excluded):
                sts = hand_statements(rules, hand, cards[i])
                if dead:
                    if sts:
                        options.append((cards[i], None))
                else:
                    options.extend((cards[i], st) for st in sts)
            open_tasks = [(t.card, t.owner) for t, row in zip(self.obs.tasks, self.task_rows, strict=True)
                          if row[4] is None or row[4] > k]
            pick = comm_pick(s, options, open_tasks)
            would = options[pick][0].id if pick is not None else -1
            if would != said:
                ll += self.comm_cost
        return ll


def _equivalent(t: Any, hand: int, a: int, b: int) -> bool:
    """Cards ``a`` and ``b`` of one suit with nothing between them but cards of ``hand`` (same effect)."""
    if t.suit[a] != t.suit[b] or t.suit[a] < 0:
        return False
    lo, hi = min(a, b), max(a, b)
    between = ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1) & t.suit_masks[t.suit[a]]
    return not between & ~hand


def pick_worlds(rng: random.Random, logliks: list[float], k: int) -> list[int]:
    """``k`` indexes drawn without replacement with probability proportional to ``exp(loglik)``
    (Efraimidis and Spirakis: the ``k`` largest ``log(u) / weight``)."""
    top = max(logliks)
    keys = []
    for i, ll in enumerate(logliks):
        weight = math.exp(max(ll - top, -30.0))
        u = rng.random() or 1e-300
        keys.append((math.log(u) / weight, i))
    keys.sort(reverse=True)
    return sorted(i for _, i in keys[:k])
