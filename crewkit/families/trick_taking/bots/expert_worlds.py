"""The expert bot's worlds: which sampled deals explain what the teammates did.

:class:`Inference` scores a sampled world by how well the bots' rules explain the teammates' communications
(and, optionally, their cards); :func:`consistent_draw` samples worlds that the communication rule explains
(rejection sampling: a teammate that spoke, or kept silent, at a window said something about its hand);
:func:`with_owner_prior` places open tasks' cards in their owners' hands in a share of the worlds.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from typing import Any

from crewkit.cards import mask_ids
from crewkit.families.trick_taking.bots.comm_rule import comm_pick
from crewkit.families.trick_taking.bots.heuristic import Knowledge
from crewkit.families.trick_taking.bots.sim import World, choose_play, table_for, token_kind
from crewkit.families.trick_taking.engine.blocks.communication import AFTER_FIRST_CARD, hand_statements
from crewkit.families.trick_taking.engine.observation import Observation


class Inference:
    """How likely each sampled world makes what the teammates did, when they play as the bots do.

    Teammates are assumed to play by the bots' rules (the expert's and the heuristic's communication rule,
    :func:`crewkit.families.trick_taking.bots.heuristic.comm_pick`, and for cards the cooperative policy of
    :mod:`crewkit.families.trick_taking.bots.sim` that the bots' play-outs follow). A world is replayed from
    the start of every trick (each seat's hand then is its sampled hand plus the cards it has played since):
    each teammate's card that the policy would not have played there costs a factor ``play_miss``, each
    communication window where the communication rule would have said something else than the teammate did
    (spoken, or kept silent) ``comm_miss``. The log of the product is :meth:`loglik`.
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


def consistent_draw(sampler: Knowledge, inf: Inference, tries: int) -> Callable[[random.Random], list[int]]:
    """A sampler of worlds that explain the teammates' communications: up to ``tries`` worlds are drawn and
    the first one the communication rule explains is kept (else the one with the fewest misses)."""

    def draw(rng: random.Random) -> list[int]:
        best: list[int] = []
        best_ll = -math.inf
        for _ in range(tries):
            hands = sampler.sample(rng)
            ll = inf.loglik(hands)
            if ll >= 0:
                return hands
            if ll > best_ll:
                best, best_ll = hands, ll
        return best

    return draw


def with_owner_prior(know: Knowledge, obs: Observation, prior: float, rng: random.Random) -> Knowledge:
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


__all__ = ["Inference", "consistent_draw", "pick_worlds", "with_owner_prior"]
