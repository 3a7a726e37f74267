"""The goal's count bound: can the goal cards still win the tricks the goal needs, counted per suit and per hand?

The goal (:meth:`TrickSearch._goal`) is "at least K tricks won by a card of a set". This bound applies when every
goal card wins only in its own led suit (``lead_only``), every card of the deck is such a card or a trump
(``trumplike``: strong in every led suit), and no trump shares a suit with a goal card and each beats every goal
card (the crew's colour cards and rockets). At a trick start with ``left`` tricks to play and ``need`` goal wins
still to make, the position is lost when no split of ``need`` into ``W[s]`` wins per suit ``s`` (at most the goal
cards of ``s`` left) lets every hand play its cards. Proof that every hand ``x`` meets the test below in a won
play-out (so a position the test fails for is lost):

1. Take ``need`` of the goal wins, ``W[s]`` of them in suit ``s``; every other trick is *free* (``N = left - need``
   of them; a hand keeping ``k`` cards, more than ``left``, has ``k`` more free places: a kept card is in no
   trick). A trick won by goal card ``g`` of ``s`` is led in ``s`` and holds no card stronger than ``g``: no
   trump, no card of ``s`` above ``top[s]``, the strongest goal card of ``s`` left. So ``x`` plays in it a card
   of ``s`` not above ``top[s]`` (a *low* card: ``Q`` of them) while it holds a card of ``s`` (it must
   follow), else, void in ``s``, a non-trump card of another suit (a *discard*). Its trumps go to free tricks.
2. Exchange: while ``x`` holds a low card of ``s`` played outside the tricks of ``s``, and discards in one of
   them (the first, at trick ``i``: the low card was played before ``i``), swapping the two plays keeps every
   constraint (the low card follows at ``i``; the discarded card, of no suit ``x`` is void in at the low card's
   trick, is a discard or free there; ``x`` becomes void in ``s`` at ``i``, before any later discard in ``s``).
   So ``x`` follows in ``min(W[s], Q)`` tricks of ``s`` and discards in ``E[s] = W[s] - min(W[s], Q)``, which
   come after all its cards of ``s``: its ``P`` cards of ``s`` above ``top[s]`` go to free tricks or to
   discards in suits ``x`` is void in by then.
3. Order the suits ``x`` discards in by when ``x`` becomes void in them. The cards to place are: trumps (free
   tricks only), the high cards of the ``j``-th suit (free tricks, discards in suits ``x`` holds nothing of, or
   discards in the suits before ``j``), and the rest (anywhere but their own suit's tricks). These are nested
   sets of places, as many places as cards, so by Hall's theorem they fit exactly when trumps <= ``N`` and for
   every ``j``: trumps + the high cards of the first ``j`` suits <= ``N`` + the discards in suits ``x`` holds
   nothing of (or only low cards of) + the discards in the first ``j - 1`` suits. Some order of the suits must
   meet it (tried over the subsets of suits).

No card is tried: a position this bound cuts is lost, whoever leads. Mirrors ``goal_counts_short`` in
``_native.c`` (the same nodes in the C and the Python search).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch

# more ways to split the wins over the suits than this: the bound is not tried (cost)
MAX_SPLITS = 500


def applies(search: TrickSearch) -> bool:
    """Does the bound hold for the search's deck and goal (see the module's first paragraph)?"""
    s = search
    goal = s.goal_mask
    nc = len(s.cards)
    if not goal or goal & ~s.lead_only or ((1 << nc) - 1) & ~(s.lead_only | s.trumplike):
        return False
    goal_suits = {s.card_suit[g] for g in range(nc) if (goal >> g) & 1}
    for c in range(nc):
        if not (s.trumplike >> c) & 1:
            continue
        if s.card_suit[c] in goal_suits:
            return False
        for g in range(nc):
            if (goal >> g) & 1 and s.power[s.card_suit[g] + 1][c] <= s.power[s.card_suit[g] + 1][g]:
                return False
    return True


def not_above(search: TrickSearch) -> list[int]:
    """Per card: the cards of its suit no stronger than it when its suit is led (0 for a card of no suit)."""
    s = search
    nc = len(s.cards)
    out = [0] * nc
    for c in range(nc):
        si = s.card_suit[c]
        if si < 0:
            continue
        row = s.power[si + 1]
        out[c] = sum(1 << d for d in range(nc) if s.card_suit[d] == si and row[d] <= row[c])
    return out


def _fits(cap: int, high: list[int], disc: list[int]) -> bool:
    """Some order of the suits meets step 3's test: the high cards of the suits up to each one fit ``cap`` and
    the discards of the suits before it (subsets of suits, each reachable from one a suit smaller)."""
    k = len(high)
    good = 1  # bit S: the suits of S can be the first ones, in some order
    for subset in range(1, 1 << k):
        hi = 0
        for i in range(k):
            if (subset >> i) & 1:
                hi += high[i]
        for i in range(k):
            if (subset >> i) & 1 and (good >> (subset ^ (1 << i))) & 1:
                rest = subset ^ (1 << i)
                ds = 0
                for j in range(k):
                    if (rest >> j) & 1:
                        ds += disc[j]
                if hi - ds <= cap:
                    good |= 1 << subset
                    break
    return bool((good >> ((1 << k) - 1)) & 1)


def short(search: TrickSearch, need: int, left: int) -> bool:
    """At a trick start: True when no split of the ``need`` goal wins over the suits lets every hand play (the
    module's test; a sound proof of loss), False when one may."""
    s = search
    goal = s.goal_mask & s.remaining
    nab = s.not_above
    hands = s.hands
    suits: list[tuple[int, int, int]] = []  # (suit's cards, its low cards: not above top, goal cards left)
    for sm in s.suit_masks:
        gs = goal & sm
        if gs:
            top = gs.bit_length() - 1
            m = gs
            while m:  # the strongest goal card of the suit (ids need not follow the power)
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                if not (nab[top] >> c) & 1:
                    top = c
            suits.append((sm, nab[top], gs.bit_count()))
    if sum(t[2] for t in suits) < need:
        return True
    free = left - need
    players: list[tuple[int, list[tuple[int, int]]]] = []  # (free places left for high cards, per suit (Q, P))
    for h in hands:
        m = h.bit_count()
        if m < left:
            return False  # not a hand playing a card in every trick left: no claim
        cap = free + m - left - (h & s.trumplike).bit_count()
        if cap < 0:
            return True  # more trumps than free tricks
        players.append((cap, [((h & lo).bit_count(), (h & sm & ~lo).bit_count()) for sm, lo, _ in suits]))
    k = len(suits)
    w = [0] * k
    splits = [0]

    def fits(i: int, rest: int) -> bool:
        if i == k - 1:
            if rest > suits[i][2]:
                return False
            w[i] = rest
            splits[0] += 1
            for cap, qp in players:
                high: list[int] = []
                disc: list[int] = []
                for j in range(k):
                    e = w[j] - qp[j][0]
                    if e > 0:
                        if qp[j][1]:
                            high.append(qp[j][1])
                            disc.append(e)
                        else:
                            cap += e
                if high and not _fits(cap, high, disc):
                    return False
            return True
        for x in range(min(rest, suits[i][2]), -1, -1):
            w[i] = x
            if fits(i + 1, rest - x):
                return True
            if splits[0] > MAX_SPLITS:
                return True
        return False

    return not fits(0, need)
