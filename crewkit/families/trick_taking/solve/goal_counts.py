"""The goal's count bound: can the goal cards still win the tricks the goal needs, counted per suit and per hand,
and the open tasks their tricks beside them?

The goal (:meth:`TrickSearch._goal`) is "at least K tricks won by a card of a set". This bound applies when every
goal card wins only in its own led suit (``lead_only``), every card of the deck is such a card or a trump
(``trumplike``: strong in every led suit), and no trump shares a suit with a goal card and each beats every other
card whatever is led (the crew's colour cards and rockets). At a trick start with ``left`` tricks to play and ``need`` goal wins
still to make, the position is lost when no order of ``need`` goal tricks, ``W[s]`` of them in suit ``s`` (at most
the goal cards of ``s`` left), lets every hand play its cards and lead them. Proof that every hand ``x`` meets the test below in a won
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
4. In time: a hand that plays a card of ``s`` in the ``i``-th of the goal tricks of ``s`` (leads it, wins it or
   follows) held cards of ``s`` in the ones before, so it followed with a low card in each: it holds ``i`` low
   cards of ``s`` or more. The ``i``-th trick of ``s`` therefore comes after at least ``P`` tricks of other suits
   for every hand with fewer than ``i`` low cards (void by then: its ``P`` high cards went elsewhere first); its
   winner holds a goal card of ``s`` and ``i`` low cards; its leader (the first trick's: the hand to lead now;
   a later one's: the winner of the trick before, when that is a goal trick) holds ``i`` low cards too. When a
   hand holds as many trumps as there are free tricks (and keeps no card), each free trick holds one of them
   and exactly ``need`` tricks are goal tricks: a free trick is won by a hand holding a trump, which leads next.
5. The goal tricks are tried in every order and suit meeting step 4 (the last trick only for the goal of the
   last trick), each split of them over the suits checked once by step 3.
6. Tasks: an open task card ``c`` whose owner ``o`` holds no trump goes to a trick ``o`` wins. A free trick
   holding a trump is won by a trump, so not by ``o``; a hand ``z`` puts its trumps in distinct free tricks (a
   goal trick holds none), all but the ``m - left`` it may keep, so at most ``cap[z]`` (step 3's, the fewest
   over the hands: ``slack``) free tricks hold no trump. So ``c`` is either in a free trick without a trump
   (tasks of different owners, or held by one hand, need different tricks: per owner the most held by one hand,
   summed, must fit ``slack``) or in a goal trick of a suit ``j`` won by ``o``: then ``c`` is the winning goal
   card when ``o`` holds it (a trick has one card per hand); else a card of ``j`` not above the suit's
   strongest goal card, or a card of another suit discarded by its holder, who is void in ``j`` (so it does not
   lead that trick, and its cards of ``j`` took as many tricks before). (A trump ``c`` is in a trick won by a trump, never by ``o``: lost.) The order of step 5
   carries the set of such cards placed in goal tricks; those left must fit ``slack``. Tasks' tokens are not
   read (a relaxation: still sound).
7. The winner of a free trick leads the next one. It played a card stronger than the lead (or led it): so it
   holds now a card stronger, when the lead's suit is led, than some card the leader holds now (hands only
   shrink); in this trick, whose leader is known, a hand holding the lead's suit must follow with it, so only
   its cards of that suit count. The hands that may lead after a free trick are those, for any leader the order
   allows (and among them the trumps' holders when step 4's free tricks all hold a trump).

No card is tried: a position this bound cuts is lost, whoever leads. Mirrors ``goal_counts_short`` in
``_native.c`` (the same nodes in the C and the Python search).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch

# more steps of the trick order than this: no claim (cost)
MAX_STEPS = 2000


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
        # a trump beats every other card whatever is led (a trick holding one is won by a trump: step 4)
        for row in s.power[1:]:
            if any(row[c] <= row[d] for d in range(nc) if not (s.trumplike >> d) & 1):
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


def short(search: TrickSearch, need: int, left: int, last: bool = False) -> bool:
    """At a trick start: True when no order of ``need`` goal tricks (the last trick alone when ``last``) meets
    the tests of steps 4 and 5 (a sound proof of loss), False when one may."""
    s = search
    goal = s.goal_mask & s.remaining
    nab = s.not_above
    hands = s.hands
    n = s.n
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
            suits.append((sm, nab[top], gs))
    k = len(suits)
    count = [gs.bit_count() for _, _, gs in suits]
    if sum(count) < need:
        return True
    free = left - need
    caps: list[int] = []
    q = [[0] * k for _ in range(n)]  # low cards per hand and suit
    p = [[0] * k for _ in range(n)]  # high cards
    for x, h in enumerate(hands):
        m = h.bit_count()
        if m < left:
            return False  # not a hand playing a card in every trick left: no claim
        cap = free + m - left - (h & s.trumplike).bit_count()
        if cap < 0:
            return True  # more trumps than free tricks
        caps.append(cap)
        for j, (sm, lo, _) in enumerate(suits):
            q[x][j] = (h & lo).bit_count()
            p[x][j] = (h & sm & ~lo).bit_count()
    # step 4: the i-th trick of suit j comes after req[j][i] tricks of other suits; its winner holds a goal card
    req = [[max([p[x][j] for x in range(n) if q[x][j] < i] + [0]) for i in range(count[j] + 1)] for j in range(k)]
    winners = [[x for x in range(n) if hands[x] & gs] for _, _, gs in suits]
    # who leads after a free trick (a set of hands): a hand holding a trump when every free trick holds one
    after_free = (1 << n) - 1
    if any(h.bit_count() == left and (h & s.trumplike).bit_count() == free for h in hands):
        after_free = sum(1 << x for x in range(n) if hands[x] & s.trumplike)
    # step 7: who may win a free trick led by each hand (this trick: its leader, following suit)
    everyone = (1 << n) - 1
    beat_first = _winners_of_leads(s, s.leader, True) if s.goal_free_leaders else everyone
    beat = [_winners_of_leads(s, y, False) if s.goal_free_leaders else everyone for y in range(n)]

    def free_winners(t: int, lead: int) -> int:
        if t == 1:
            return beat_first
        out = 0
        for y in range(n):
            if (lead >> y) & 1:
                out |= beat[y]
        return out

    tasks = _task_tricks(s, suits) if s.goal_task_tricks else []
    if tasks is None:
        return True  # a trump task card of an owner holding no trump (step 6)
    slack = min(caps)  # free tricks holding no trump, at most (step 6)
    spare_tricks: dict[int, int] = {}
    if tasks and _free_task_tricks(tasks, 0, spare_tricks) <= slack:
        tasks = []  # the free tricks can take them all: no constraint
    leaves: dict[tuple[int, ...], bool] = {}
    lost: set[tuple[int, tuple[int, ...], int, int]] = set()
    steps = [0]

    def hands_fit(w: tuple[int, ...]) -> bool:  # step 3, every hand
        for x in range(n):
            cap = caps[x]
            high: list[int] = []
            disc: list[int] = []
            for j in range(k):
                e = w[j] - q[x][j]
                if e > 0:
                    if p[x][j]:
                        high.append(p[x][j])
                        disc.append(e)
                    else:
                        cap += e
            if high and not _fits(cap, high, disc):
                return False
        return True

    def order(t: int, rest: int, w: tuple[int, ...], lead: int, done: int) -> bool:
        """Tricks ``t``.. (1: this one) can hold ``rest`` more goal tricks, ``w`` per suit so far, trick ``t``
        led by a hand of the set ``lead``, the task tricks of step 6 in ``done`` made."""
        if not rest:
            if tasks and _free_task_tricks(tasks, done, spare_tricks) > slack:
                return False
            fit = leaves.get(w)
            if fit is None:
                fit = leaves[w] = hands_fit(w)
            return fit
        if left - t + 1 < rest or (t, w, lead, done) in lost:
            return False
        # a goal trick takes at most one task card per holder to one owner: the need of step 6 falls by one at most
        if tasks and _free_task_tricks(tasks, done, spare_tricks) - rest > slack:
            return False
        steps[0] += 1
        if steps[0] > MAX_STEPS:
            return True
        if not last or t == left:
            for j in range(k):
                i = w[j] + 1
                if i > count[j] or t - i < req[j][i]:
                    continue
                leaders = sum(1 << y for y in range(n) if (lead >> y) & 1 and q[y][j] >= i)
                if not leaders:
                    continue
                after = w[:j] + (i,) + w[j + 1:]
                # the task cards this trick may take, when the free tricks cannot take those left
                tight = tasks and _free_task_tricks(tasks, done, spare_tricks) > slack
                for x in winners[j]:
                    if q[x][j] < i:
                        continue
                    for more in _task_sets(tasks, done, x, j, leaders, t) if tight else (0,):
                        if order(t + 1, rest - 1, after, 1 << x, done | more):
                            return True
        if left - t >= rest and order(t + 1, rest, w, after_free & free_winners(t, lead), done):
            return True
        lost.add((t, w, lead, done))
        return False

    return not order(1, need, (0,) * k, 1 << s.leader, 0)


# (owner, holder, the goal suits (indices) whose tricks may take the card, the hands that must not lead such a trick
# per suit: the holder when the card is not of that suit, and the tricks that come before it at least: the holder's
# cards of that suit)
TaskTrick = tuple[int, int, list[int], list[int], list[int]]

# more task cards than this for step 6: no claim from it (its sets are subsets of these)
MAX_TASKS = 6


def _task_tricks(search: TrickSearch, suits: list[tuple[int, int, int]]) -> list[TaskTrick] | None:
    """Step 6: the open task cards whose owner holds no trump, each with the goal tricks that may take it to its
    owner; None when one of them is a trump (the position is lost), [] when there are more than ``MAX_TASKS``."""
    s = search
    n = s.n
    hands = s.hands
    out: list[TaskTrick] = []
    m = s.open_tasks & ~s.undrafted
    owner_of = s.owner_of_card
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        o = owner_of[c]
        if o < 0 or hands[o] & s.trumplike:
            continue
        h = next(x for x in range(n) if hands[x] & low)
        if (s.trumplike >> c) & 1:
            return None  # its trick holds a trump: a free trick, won by a trump, never by o
        ok: list[int] = []
        bad: list[int] = []
        before: list[int] = []
        for j, (sm, lo, gs) in enumerate(suits):
            if h == o:
                if gs & low:  # o plays it, so it is the trick's winning card
                    ok.append(j)
                    bad.append(0)
                    before.append(0)
            elif sm & low:
                if lo & low:  # followed in its own suit: not above the suit's strongest goal card
                    ok.append(j)
                    bad.append(0)
                    before.append(0)
            else:  # discarded: h is void in the led suit (its cards of it played before), so it does not lead it
                ok.append(j)
                bad.append(1 << h)
                before.append((hands[h] & sm).bit_count())
        out.append((o, h, ok, bad, before))
    return out if len(out) <= MAX_TASKS else []


def _free_task_tricks(tasks: list[TaskTrick], done: int, memo: dict[int, int]) -> int:
    """The free tricks step 6's task cards not in ``done`` need at least: per owner, the most of them in one hand."""
    got = memo.get(done)
    if got is None:
        most: dict[tuple[int, int], int] = {}
        for b, (o, h, _ok, _bad, _before) in enumerate(tasks):
            if not (done >> b) & 1:
                most[o, h] = most.get((o, h), 0) + 1
        per: dict[int, int] = {}
        for (o, _h), k in most.items():
            per[o] = max(per.get(o, 0), k)
        got = memo[done] = sum(per.values())
    return got


def _task_sets(tasks: list[TaskTrick], done: int, x: int, j: int, leaders: int, t: int) -> list[int]:
    """The sets of step 6's task cards not yet in ``done`` that trick ``t``, a goal trick of suit ``j`` won by ``x``
    and led by one of ``leaders``, may hold (one card per holder; the most cards first)."""
    mine = [(b, tk) for b, tk in enumerate(tasks)
            if not (done >> b) & 1 and tk[0] == x and j in tk[2] and t > tk[4][tk[2].index(j)]]
    out = []
    for sub in range((1 << len(mine)) - 1, -1, -1):
        more = 0
        holders = 0
        barred = 0
        good = True
        for i, (b, (_o, h, ok, bad, _before)) in enumerate(mine):
            if (sub >> i) & 1:
                if (holders >> h) & 1:
                    good = False
                    break
                holders |= 1 << h
                barred |= bad[ok.index(j)]
                more |= 1 << b
        if good and leaders & ~barred:
            out.append(more)
    return out


def _winners_of_leads(search: TrickSearch, y: int, follow: bool) -> int:
    """Step 7: the hands that may win a trick ``y`` leads with a card it holds (``y`` itself, and a hand holding a card
    stronger than the lead when its suit is led: of that suit when ``follow`` and the hand holds the suit now)."""
    s = search
    hands = s.hands
    n = len(hands)
    out = 1 << y
    best: dict[int, list[int]] = {}  # per led suit, each hand's strongest card in it (of the suit when it follows)
    m = hands[y]
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        su = s.card_suit[c]
        if su < 0:
            return (1 << n) - 1  # a card of no suit: no claim
        top = best.get(su)
        if top is None:
            row = s.power[su + 1]
            sm = s.suit_masks[su]
            top = []
            for h in hands:
                pool = h & sm if follow and h & sm else h
                most = -(1 << 60)  # no card
                while pool:
                    b = pool & -pool
                    pool ^= b
                    most = max(most, row[b.bit_length() - 1])
                top.append(most)
            best[su] = top
        pc = s.power[su + 1][c]
        for z in range(n):
            if top[z] > pc:
                out |= 1 << z
    return out
