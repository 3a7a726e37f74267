"""What a bot knows of the hands it cannot see, from its observation alone: :class:`Knowledge` (cards gone,
voids, communicated cards, the commander's card; the one derivation of those facts: the fast bot's position is
built from it), the worlds (complete deals) consistent with it (:class:`Sampler`, every bot's sampler, twin of
``_fastsim.c``'s), and the
measures the heuristic bot and the setup's choices share (a hand's affinity for a task; whether the world model
describes the game). Shared by :mod:`~crewkit.families.trick_taking.bots.heuristic` and
:mod:`~crewkit.families.trick_taking.bots.choices`, which import it and not each other."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from crewkit.cards import mask_ids
from crewkit.families.trick_taking.bots.sim import World, table_for, token_kind
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.tracking import shown_voids


class Knowledge:
    """What one seat knows about where the unseen cards are."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        t = table_for(rules)
        self.t = t
        self.n = n = obs.players
        self.seat = me = obs.seat
        played = 0
        for plays in [*(tr.plays for tr in obs.tricks), obs.current_trick]:
            for _, c in plays:
                played |= c.bit
        void = [0] * n  # per seat: mask of cards it cannot hold
        for s, suits in shown_voids(obs).items():
            for suit in suits:
                void[s] |= t.suit_masks[suit.index]
        self.played = played
        known = [0] * n  # cards known to be in a seat's hand
        for com in obs.communications:
            if com.played:
                continue
            c = com.card
            known[com.seat] |= c.bit
            st = com.statement
            if st == "top":
                void[com.seat] |= t.above[c.id]
            elif st == "bottom":
                void[com.seat] |= t.below[c.id]
            elif st == "only":
                void[com.seat] |= t.above[c.id] | t.below[c.id]
        cc = rules.commander_card
        if cc is not None and obs.commander is not None and not played & cc.bit and obs.distress_direction is None:
            known[obs.commander] |= cc.bit
        # cards the rules never deal (Hammer's 10): the dealer's in a challenge round (it is added to their hand in
        # everyone's sight), else out of play
        undealt = rules.undealt_mask & ~played
        adds = getattr(rules.scoring, "challenge_adds", None)
        match = obs.match
        if adds is not None and match is not None and match.mode == "challenge" and match.dealer is not None:
            known[match.dealer] |= adds.bit & undealt
            undealt &= ~adds.bit
        if obs.dummy_seat is not None:  # JARVIS's face-up cards are public
            for c in obs.dummy_up:
                known[obs.dummy_seat] |= c.bit
        for giver, to, c in obs.passes_seen:  # the card this seat passed in the distress signal is its receiver's
            if giver == me:
                known[to] |= c.bit
        hand = obs.hand_mask
        known[me] = hand
        for s in range(n):
            known[s] &= ~played
            if s != me:
                known[s] &= ~hand
        self.known = known
        self.void = void
        self.sizes = list(obs.hand_sizes)
        all_cards = (1 << t.n_cards) - 1
        located = 0
        for k in known:
            located |= k
        # cards never dealt (3 players: one card stays out) are unknown but belong to nobody
        self.unknown = all_cards & ~played & ~located
        self.need = [max(0, self.sizes[s] - known[s].bit_count()) for s in range(n)]
        if me != obs.dummy_seat:  # JARVIS's own view (:func:`_full_view`): its face-down cards are unseen
            self.need[me] = 0
        self.unknown &= ~undealt  # never sampled into a hand
        total_need = sum(self.need)
        self.spare = self.unknown.bit_count() - total_need  # cards that are out of the game

    def sample(self, rng: random.Random) -> list[int]:
        """Hands for every seat consistent with what is known (best effort if constraints clash): one deal of
        :class:`Sampler` (the fast bot's sampler, the one algorithm), seeded from ``rng``."""
        # the sampler's set-up (the cards' order) depends only on these facts: kept while they hold (a copy,
        # as :func:`expert_worlds.with_owner_prior` makes, builds its own)
        key = (self.unknown, tuple(self.need), tuple(self.void))
        cached: tuple[Any, Sampler] | None = getattr(self, "_sampler", None)
        if cached is None or cached[0] != key or cached[1].facts is not self:
            cached = (key, Sampler(self))
            self._sampler = cached
        return cached[1].sample(SplitMix(rng.getrandbits(64)))


MASK64 = (1 << 64) - 1


class SplitMix:
    """splitmix64: the generator the Python and C samplers draw from (``_fastsim.c``: ``splitmix``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


class Facts(Protocol):
    """What :class:`Sampler` reads: a :class:`Knowledge`, or the fast bot's ``Position`` built from one."""

    @property
    def n(self) -> int: ...
    @property
    def unknown(self) -> int: ...
    @property
    def spare(self) -> int: ...
    @property
    def known(self) -> Sequence[int]: ...
    @property
    def void(self) -> Sequence[int]: ...
    @property
    def need(self) -> Sequence[int]: ...


class Sampler:
    """Deals consistent with what a seat knows: the bots' one sampler, the reference of ``_fastsim.c``'s
    ``sampler_init``/``sample`` (the same deals from the same seed; ``tests/bots/test_fast.py``).

    The unknown cards, those with the fewest seats that may hold them first (in a random order among cards with as
    many: a fixed order would bias the deals), each go to a seat that may hold it (not void, cards still to
    receive) or out of play (``spare``), weighted by the cards each still needs; after 8 failed attempts the
    voids are ignored."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        n, need, void = facts.n, facts.need, facts.void
        cards: list[tuple[int, int, tuple[int, ...]]] = []
        for c in mask_ids(facts.unknown):
            seats = tuple(s for s in range(n) if need[s] and not void[s] >> c & 1)
            cards.append((len(seats), c, seats))
        cards.sort(key=lambda x: (x[0], x[1]))  # by count, then id (the C insertion sort is stable over ids)
        self.order = [(c, seats) for _, c, seats in cards]
        # the runs of cards with as many seats, (start, end), longer than one card
        self.ties = [(a, b) for a, b in _runs([x[0] for x in cards]) if b - a > 1]

    def sample(self, rng: SplitMix) -> list[int]:
        f = self.facts
        for _attempt in range(8):
            order = list(self.order)
            for a, b in self.ties:  # shuffle each run (Fisher-Yates from its end)
                for i in range(b - 1, a, -1):
                    j = a + rng.next() % (i - a + 1)
                    order[i], order[j] = order[j], order[i]
            hands = list(f.known)
            need = list(f.need)
            spare = f.spare
            ok = True
            for c, seats in order:
                total = spare
                for s in seats:
                    total += need[s]
                if total <= 0:
                    ok = False
                    break
                r = rng.next() % total
                chosen = -1
                for s in seats:
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
        rest = mask_ids(f.unknown)
        for i in range(len(rest) - 1, 0, -1):
            j = rng.next() % (i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        hands = list(f.known)
        for s in range(f.n):
            for _ in range(f.need[s]):
                if rest:
                    hands[s] |= 1 << rest.pop()
        return hands


def _runs(keys: list[int]) -> list[tuple[int, int]]:
    """The runs of equal ``keys``, as (start, end) indexes."""
    out: list[tuple[int, int]] = []
    a = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[a]:
            out.append((a, i))
            a = i
    return out


def world_from(obs: Observation, hands: list[int]) -> World:
    t = table_for(obs.rules)
    w = World.__new__(World)
    w.t = t
    w.n = obs.players
    w.hands = hands
    w.plays = []
    w.trick_mask = 0
    w.led = -1
    w.leader = obs.leader
    w.turn = obs.leader
    w.win_seat = -1
    w.win_key = 0
    tb: list[int] = []
    to: list[int] = []
    tk: list[int] = []
    tkk: list[int] = []
    pending = 0
    done = 0
    for i, task in enumerate(obs.tasks):
        tb.append(task.card.bit)
        to.append(task.owner if task.owner is not None else -1)
        kind, k = token_kind(task.token)
        tk.append(kind)
        tkk.append(k)
        if task.trick is None:
            pending |= 1 << i
        else:
            done += 1
    w.task_bits = tb
    w.task_owner = to
    w.task_kind = tk
    w.task_k = tkk
    w.pending = pending
    w.done = done
    w.total = len(tb)
    w.status = 0
    w.tricks_left = obs.total_tricks - len(obs.tricks)
    w.refresh_tasks()
    for s, c in obs.current_trick:
        # hands of the world exclude played cards already; replay the trick's plays without removing
        w.turn = s
        w.hands[s] |= c.bit
        w.play(c.id)
    return w


def _task_affinity(rules: Rules, hand: int, card: int) -> float:
    """How well a hand suits a task: holding it high, holding cards above it, rockets, length."""
    t = table_for(rules)
    bit = 1 << card
    score = 0.0
    suit_cards = hand & t.suit_masks[t.suit[card]]
    above = hand & t.above[card]
    if hand & bit:
        score += 1.0 + t.rank[card] / 3
    score += 1.2 * above.bit_count()
    if above and (1 << (above.bit_length() - 1)) & t.suit_masks[t.suit[card]]:
        score += t.rank[above.bit_length() - 1] / 9
    score += 0.4 * (hand & t.trump_mask).bit_count()
    if not suit_cards:
        score += 0.5 * (hand & t.trump_mask).bit_count()
    return score


class _DummyView:
    """An observation in which JARVIS holds its face-down cards too (unseen, like another seat's hand): the
    world model of the setup's play-outs, which judge task cards and takers before any card is played (an
    approximation: in the play-outs a face-down card may be played before it is turned up)."""

    def __init__(self, obs: Observation) -> None:
        self._obs = obs
        d = obs.dummy_seat
        sizes = list(obs.hand_sizes)
        if d is not None:  # as many cards as another hand (the rest, never played, out of the play-outs)
            others = max((x for s, x in enumerate(sizes) if s != d), default=0)
            sizes[d] = min(others, sizes[d] + sum(down for _, down in obs.dummy_columns))
        self.hand_sizes = tuple(sizes)

    def __getattr__(self, name: str) -> object:
        return getattr(self._obs, name)


def _full_view(obs: Observation) -> Observation:
    if obs.dummy_seat is None or not obs.dummy_columns:
        return obs
    view: Any = _DummyView(obs)
    return view


def _model_fits(obs: Observation, setup: bool = False, tasks_to_come: bool = False) -> bool:
    """Whether the lookahead's world model (every unseen card in a known hand) describes this game.

    It does not for a dummy seat with face-down columns (JARVIS), for cards set aside unseen (Persian
    reading, Hammer) or for hidden tasks; the bot then plays by simple rules alone. With ``setup``, a dummy
    seat seen through :func:`_full_view` (its face-down cards in its hand) is a fit. With ``tasks_to_come``,
    tasks not yet revealed (the commander's distribution) are left out of the model rather than spoiling it."""
    if (obs.dummy_seat is not None and not setup) or (obs.hidden_tasks and not tasks_to_come):
        return False
    seen = sum(obs.hand_sizes) + sum(len(t.plays) for t in obs.tricks) + len(obs.current_trick)
    return seen == len(obs.rules.deck)


def draft_by_affinity(obs: Observation, hands: list[int], owners: list[int], seat: int) -> list[int]:
    """``owners`` (a task's owner by index, -1: not taken yet) completed by a draft in turn from ``seat``, each
    seat taking the free task its hand suits best (:func:`_task_affinity`)."""
    ids = [t.card.id for t in obs.tasks]
    owners = list(owners)
    while -1 in owners:
        free = [i for i, o in enumerate(owners) if o == -1]
        best = max(free, key=lambda i: (_task_affinity(obs.rules, hands[seat], ids[i]), -ids[i]))
        owners[best] = seat
        seat = (seat + 1) % obs.players
    return owners
