"""A small, fast trick-play simulator over bitmasks, and a full-information cooperative policy.

The heuristic bot samples complete deals consistent with what it has seen (a *determinization*) and
plays them out here with :func:`choose_play` for every seat. Nothing in this module sees a
:class:`~crewkit.families.trick_taking.engine.game.Game`: worlds are built from observations only.

Card ids are the deck's (suits in order, ranks ascending inside a suit, specials last), so "higher in the same
suit" is a mask operation. The trick winner, the follow rule and the task-token order are the rules kernel's
(:mod:`crewkit.families.trick_taking.engine.kernel`); free cards and mission conditions are not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from crewkit.families.trick_taking.engine.kernel import (
    ARROW,
    LAST,
    NONE,
    NUMBER,
    deck_strength_table,
    follow_mask,
    token_kind,
    token_violation,
)
from crewkit.families.trick_taking.engine.rules import Rules

# re-exported for the heuristic bot (and any branch that imports them from here)
__all__ = ["ARROW", "LAST", "NONE", "NUMBER", "Table", "World", "choose_play", "rollout", "table_for", "token_kind"]

# see World.refresh_tasks: tricks a lead looks further, and from how many tasks (planet-nine/10's four: none)
LOOK = 2
MANY_TASKS = 5

_FAIL = -1
_OPEN = 0
_WON = 1


@dataclass(frozen=True, slots=True)
class Table:
    """Per-rules card facts."""

    n_cards: int
    suit: tuple[int, ...]  # suit index per card id; -1 for a special card
    rank: tuple[int, ...]
    cat: tuple[int, ...]  # 3 special, 2 trump, 1 plain
    suit_masks: tuple[int, ...]
    trump_mask: int
    plain_mask: int  # colour cards
    above: tuple[int, ...]  # per card: cards of its suit ranked higher
    below: tuple[int, ...]
    players: int
    keys: tuple[tuple[int, ...], ...]  # kernel.strength_table: [led suit + 1][card], 0 when it cannot win


_TABLES: dict[int, tuple[Rules, Table]] = {}


def table_for(rules: Rules) -> Table:
    hit = _TABLES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    cards = rules.deck.cards
    suit = tuple(c.suit.index if c.suit is not None else -1 for c in cards)
    cat = tuple(3 if c.suit is None else 2 if c.suit.trump else 1 for c in cards)
    masks = rules.suit_masks
    above = []
    below = []
    for c in cards:
        if c.suit is None:
            above.append(0)
            below.append(0)
            continue
        m = masks[c.suit.index]
        above.append(m & ~((c.bit << 1) - 1))
        below.append(m & (c.bit - 1))
    plain = 0
    for c in cards:
        if c.suit is not None and not c.suit.trump:
            plain |= c.bit
    keys = deck_strength_table(rules.deck, rules.precedence)
    t = Table(
        keys=keys,
        n_cards=len(cards),
        suit=suit,
        rank=tuple(c.rank for c in cards),
        cat=cat,
        suit_masks=tuple(masks),
        trump_mask=rules.trump_mask,
        plain_mask=plain,
        above=tuple(above),
        below=tuple(below),
        players=rules.players,
    )
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, t)
    return t


def low_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high_bit(mask: int) -> int:
    return mask.bit_length() - 1



class World:
    """One fully known trick-play state (hands of every seat), mutable; copy with :meth:`copy`."""

    __slots__ = (
        "t", "n", "hands", "plays", "trick_mask", "led", "leader", "turn", "win_seat", "win_key",
        "task_bits", "task_owner", "task_kind", "task_k", "pending", "done", "total", "status", "tricks_left",
        "pmask", "own", "allowed_cards", "threat", "look",
    )

    t: Table
    n: int
    hands: list[int]
    plays: list[tuple[int, int]]
    trick_mask: int
    led: int
    leader: int
    turn: int
    win_seat: int
    win_key: int
    task_bits: list[int]
    task_owner: list[int]
    task_kind: list[int]
    task_k: list[int]
    pending: int  # bitmask over task indexes still undone
    done: int
    total: int
    status: int
    tricks_left: int
    pmask: int  # cards of the pending tasks
    own: list[int]  # per seat: cards of its pending tasks that may be completed now
    allowed_cards: int
    threat: int  # cards above a pending task card that its owner does not hold
    look: int  # tricks a lead looks further (0 with fewer than MANY_TASKS tasks: see refresh_tasks)

    def copy(self) -> World:
        w = World.__new__(World)
        w.t = self.t
        w.n = self.n
        w.hands = self.hands.copy()
        w.plays = self.plays.copy()
        w.trick_mask = self.trick_mask
        w.led = self.led
        w.leader = self.leader
        w.turn = self.turn
        w.win_seat = self.win_seat
        w.win_key = self.win_key
        w.task_bits = self.task_bits
        w.task_owner = self.task_owner
        w.task_kind = self.task_kind
        w.task_k = self.task_k
        w.pending = self.pending
        w.done = self.done
        w.total = self.total
        w.status = self.status
        w.tricks_left = self.tricks_left
        w.pmask = self.pmask
        w.own = self.own
        w.allowed_cards = self.allowed_cards
        w.threat = self.threat
        w.look = self.look
        return w

    def refresh_tasks(self) -> None:
        """Recompute the cached task masks (after tasks were completed)."""
        self.pmask = self.pending_mask()
        own = [0] * self.n
        p = self.allowed_tasks()
        allowed = 0
        while p:
            low = p & -p
            i = low.bit_length() - 1
            p ^= low
            own[self.task_owner[i]] |= self.task_bits[i]
            allowed |= self.task_bits[i]
        self.own = own
        self.allowed_cards = allowed
        threat = 0
        p = self.pending
        above = self.t.above
        while p:
            low = p & -p
            i = low.bit_length() - 1
            p ^= low
            owner = self.task_owner[i]
            b = self.task_bits[i]
            if owner >= 0:
                threat |= above[b.bit_length() - 1] & ~self.hands[owner]
        self.threat = threat
        # many tasks: a lead judged by its own trick misses that a task left to the end cannot be won, or that
        # a seat holding only task cards it must not give up yet (an order token) has no safe card later
        self.look = LOOK if self.total >= MANY_TASKS else 0

    # ------------------------------------------------------------------ rules
    def key(self, card: int) -> int:
        """Strength of ``card`` in the current trick (0: cannot win)."""
        return self.t.keys[self.led + 1][card]

    def legal(self, seat: int) -> int:
        return self.legal_for(seat, self.led)

    def legal_for(self, seat: int, led: int) -> int:
        return follow_mask(self.hands[seat], self.t.suit_masks[led] if led >= 0 else 0)

    def pending_mask(self) -> int:
        m = 0
        p = self.pending
        bits_ = self.task_bits
        while p:
            low = p & -p
            m |= bits_[low.bit_length() - 1]
            p ^= low
        return m

    def allowed_tasks(self) -> int:
        """Task indexes whose completion now would not break the token order (alone in a trick)."""
        p = self.pending
        if not p:
            return 0
        kinds = self.task_kind
        ks = self.task_k
        nxt = self.done + 1
        out = 0
        forced = -1
        lowest_arrow = 99
        last_only = p & (p - 1) == 0
        q = p
        while q:
            low = q & -q
            i = low.bit_length() - 1
            q ^= low
            if kinds[i] == NUMBER and ks[i] == nxt:
                forced = i
            elif kinds[i] == ARROW and ks[i] < lowest_arrow:
                lowest_arrow = ks[i]
        if forced >= 0:
            return 1 << forced
        q = p
        while q:
            low = q & -q
            i = low.bit_length() - 1
            q ^= low
            kind = kinds[i]
            if kind == NONE:
                out |= low
            elif kind == ARROW:
                if ks[i] == lowest_arrow:
                    out |= low
            elif kind == LAST:
                if last_only:
                    out |= low
        return out

    def play(self, card: int) -> None:
        seat = self.turn
        bit = 1 << card
        self.hands[seat] &= ~bit
        if not self.plays:
            led = self.led = self.t.suit[card]
            self.win_seat = seat
            self.win_key = self.t.keys[led + 1][card]
        else:
            k = self.t.keys[self.led + 1][card]
            if k > self.win_key:
                self.win_key = k
                self.win_seat = seat
        self.plays.append((seat, card))
        self.trick_mask |= bit
        if len(self.plays) == self.n:
            self._finish()
        else:
            self.turn = (seat + 1) % self.n

    def _finish(self) -> None:
        winner = self.win_seat
        mask = self.trick_mask
        self.plays = []
        self.trick_mask = 0
        self.led = -1
        self.leader = self.turn = winner
        self.tricks_left -= 1
        p = self.pending
        if p:
            completed = 0
            q = p
            tb = self.task_bits
            owner = self.task_owner
            while q:
                low = q & -q
                i = low.bit_length() - 1
                q ^= low
                if tb[i] & mask:
                    if owner[i] != winner:
                        self.status = _FAIL
                        return
                    completed |= low
            if completed:
                if token_violation(self.task_kind, self.task_k, p, completed, self.done) is not None:
                    self.status = _FAIL
                    return
                after = self.done + completed.bit_count()
                rest = p & ~completed
                self.pending = rest
                self.done = after
                if not rest:
                    self.status = _WON
                    return
                self.refresh_tasks()
        if self.tricks_left <= 0:
            self.status = _FAIL if self.pending else _WON


# ---------------------------------------------------------------------------- the policy
def _can_duck(w: World, seat: int, keys: tuple[int, ...], led: int, beat_key: int, foreign: int) -> bool:
    """Can ``seat`` play without beating ``beat_key`` and without giving up a ``foreign`` task card?"""
    hand = w.hands[seat]
    legal = hand
    if led >= 0:
        follow = hand & w.t.suit_masks[led]
        if follow:
            legal = follow
    legal &= ~foreign
    while legal:
        low = legal & -legal
        if keys[low.bit_length() - 1] < beat_key:
            return True
        legal ^= low
    return False


def _rest_can_duck(w: World, seat: int, keys: tuple[int, ...], beat_key: int, winner: int) -> bool:
    """Can every seat still to play after ``seat`` stay below ``beat_key`` (``winner`` keeps the trick)?"""
    foreign = w.pmask & ~w.own[winner]
    n = w.n
    led = w.led
    for i in range(1, n - len(w.plays)):
        if not _can_duck(w, (seat + i) % n, keys, led, beat_key, foreign):
            return False
    return True


def _others_can_duck(w: World, seat: int, skip: int, keys: tuple[int, ...], beat_key: int) -> bool:
    """Can every seat after ``seat`` except ``skip`` stay below ``beat_key`` (``skip`` keeps the trick)?"""
    foreign = w.pmask & ~w.own[skip]
    n = w.n
    led = w.led
    for i in range(1, n - len(w.plays)):
        s = (seat + i) % n
        if s != skip and not _can_duck(w, s, keys, led, beat_key, foreign):
            return False
    return True


def choose_play(w: World) -> int:
    """A cooperative full-information choice for the seat to play in ``w``."""
    if w.plays:
        return _follow(w)
    return _lead(w)


def _follow(w: World) -> int:
    seat = w.turn
    legal = w.legal(seat)
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    keys = w.t.keys[w.led + 1]
    pend = w.pmask
    own = w.own
    in_trick = w.trick_mask & pend
    win_seat = w.win_seat
    win_key = w.win_key

    desired = -1
    if in_trick:
        for s in range(w.n):
            if own[s] & in_trick:
                desired = s
                break
    else:
        mine = own[seat] & legal
        # a task card of mine that I can win with now (the rest can duck)
        while mine:
            low = mine & -mine
            c = low.bit_length() - 1
            mine ^= low
            k = keys[c]
            if k > win_key and _rest_can_duck(w, seat, keys, k, seat):
                return c
        # a task card whose owner already wins this trick: dump it if the rest can duck
        if win_seat != seat:
            dump = own[win_seat] & legal
            while dump:
                low = dump & -dump
                c = low.bit_length() - 1
                dump ^= low
                if keys[c] < win_key and _rest_can_duck(w, seat, keys, win_key, win_seat):
                    return c

        # a task card whose owner plays after me and can surely beat everything: give it now
        give = legal & pend & ~own[seat]
        if give:
            n = w.n
            led = w.led
            for i in range(1, n - len(w.plays)):
                o = (seat + i) % n
                theirs = give & own[o]
                if not theirs:
                    continue
                top = w.legal_for(o, led)
                best_k = 0
                while top:
                    low = top & -top
                    k = keys[low.bit_length() - 1]
                    if k > best_k:
                        best_k = k
                    top ^= low
                c = theirs.bit_length() - 1
                if best_k > win_key and best_k > keys[c] and _others_can_duck(w, seat, o, keys, best_k):
                    return c

    if desired == seat:
        # win it: the lowest card that wins and that the rest cannot beat; else the strongest
        best = -1
        best_k = -1
        cands = legal & ~(pend & ~own[seat])
        while cands:
            low = cands & -cands
            c = low.bit_length() - 1
            cands ^= low
            k = keys[c]
            if k > win_key and _rest_can_duck(w, seat, keys, k, seat):
                return c
            if k > best_k:
                best, best_k = c, k
        if best >= 0:
            return best
    elif desired >= 0 and win_seat == desired:
        # dump another of the winner's tasks if it stays below
        dump = own[desired] & legal
        while dump:
            low = dump & -dump
            c = low.bit_length() - 1
            dump ^= low
            if keys[c] < win_key:
                return c
    return _duck(w, legal, keys, win_key, pend, desired >= 0)


def _duck(w: World, legal: int, keys: tuple[int, ...], win_key: int, pend: int, task_trick: bool) -> int:
    """A harmless card: no foreign task card, not winning if it can be helped, low; rockets shed late."""
    t = w.t
    rank = t.rank
    cat = t.cat
    safe = legal & ~pend
    if not safe:
        safe = legal
    best = -1
    best_score = 1 << 30
    last = len(w.plays) == w.n - 1
    if task_trick:
        over = 100
    elif last:
        over = 0  # nobody can add a task card after me: winning a neutral trick is harmless
    else:
        over = 12
    trump_cost = 2 if (last and not task_trick) else 8
    threat = w.threat
    while safe:
        low = safe & -safe
        c = low.bit_length() - 1
        safe ^= low
        score = rank[c]
        if keys[c] > win_key:
            score += over
        if not task_trick and low & threat:
            score -= 12
        if cat[c] >= 2:
            score += trump_cost - (10 if last and not task_trick else 0)
        if score < best_score:
            best, best_score = c, score
    return best


def _lead(w: World) -> int:
    """Lead: try a few candidate cards, play the trick out greedily, keep the best outcome."""
    return _lead_eval(w, 0)[0]


def _lead_eval(w: World, depth: int) -> tuple[int, int]:
    """The lead of :func:`_lead` and its score. Where the world looks further (:attr:`World.look`), each
    trial's score adds half the score of the best lead of the next trick (its winner's, looking one trick less
    far): a lead after which every lead fails, or one that prepares a task for the next trick, is seen early."""
    seat = w.turn
    hand = w.hands[seat]
    if hand & (hand - 1) == 0:
        return low_bit(hand), 0
    t = w.t
    cands = 0
    for m in t.suit_masks:
        s = hand & m
        if s:
            cands |= (s & -s) | (1 << (s.bit_length() - 1))
    pend = w.pmask
    cands |= hand & pend
    best = -1
    best_score = -(1 << 30)
    rank = t.rank
    cat = t.cat
    done = w.done
    while cands:
        low = cands & -cands
        c = low.bit_length() - 1
        cands ^= low
        trial = w.copy()
        trial.play(c)
        while trial.plays and trial.status == _OPEN:
            trial.play(_follow(trial))
        if trial.status == _FAIL:
            score = -10_000
        else:
            score = 1000 * (trial.done - done)
            if trial.status == _WON:
                score += 5000
            threat = w.threat
            if threat:
                gone = 0
                for s_, h in enumerate(w.hands):
                    gone |= h & ~trial.hands[s_]
                score += 40 * (gone & threat).bit_count()
        score -= rank[c] * 3
        if cat[c] >= 2:
            score -= 40
        if pend & low and trial.done == done:
            score -= 200  # a task card led without completing it
        if depth < w.look and trial.status == _OPEN:
            nxt = _lead_eval(trial, depth + 1)[1]
            score += nxt // 2 if nxt >= 0 else -(-nxt // 2)  # C's division
        if score > best_score:
            best, best_score = c, score
    return best, best_score


def rollout(w: World) -> int:
    """Play ``w`` to its end with :func:`choose_play`; 1 for success, 0 for failure."""
    while w.status == _OPEN:
        w.play(choose_play(w))
    return 1 if w.status == _WON else 0
