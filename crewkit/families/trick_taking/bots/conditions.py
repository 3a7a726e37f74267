"""Mission conditions in the bots' look-ahead: worlds that judge ``fail_if``/``done_if`` as the engine does.

:class:`CondWorld` is a :class:`~crewkit.families.trick_taking.bots.sim.World` that also keeps the tricks
played (the observed ones and the simulated ones) and evaluates the mission's compiled conditions on them
through a read-only view (:class:`SimView`, the DSL's ``View`` protocol), with the engine's timing:
``after-play`` conditions after every card that does not end a trick, every condition after each trick (after
the task cards were scored), success once every task is done and every condition is done (a condition without
``done_if`` is done when the hands run out), failure at the first ``fail_if`` or when the hands run out first.
Roles are the table's (or, when a bot weighs a ``ChoosePlayer`` choice, the one it is trying).

:func:`choose_play_cond` is the cooperative policy of :mod:`crewkit.families.trick_taking.bots.sim` made to
read the conditions: a seat that plays last in a trick takes the card whose finished trick does not fail and
completes the most conditions; an earlier seat keeps the policy's card unless finishing the trick with the
policy fails, then tries its other cards the same way. Everything here sees only a sampled world, never a
game.

A condition of one of the goal shapes :mod:`crewkit.families.trick_taking.condshapes` reads from the syntax
tree is also a goal the policy pursues from the first trick (:func:`goal_play`): K tricks to be won by a card of
a fixed set, counted in any trick (a ``done_if`` "at least K tricks won by a card of the set": mission 26's two
colour 1s) or in the round's last trick only (a ``fail_if`` "the last trick is not won by a card of the set",
K = 1). A play-out that fails reports its progress (goal tricks won, tasks done) so that the bots can rank
cards where no play-out wins. The limits read there ("a seat wins more than K tricks", "more than K cards of a
set in one trick": :func:`limits_of`) are kept from the first trick too (:func:`limit_play`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from crewkit.cards import Card, Deck
from crewkit.dsl.view import SimpleTask, SimpleTrick
from crewkit.families.trick_taking.bots.sim import (
    Table,
    World,
    _can_duck,
    _duck,
    _follow,
    _rest_can_duck,
    choose_play,
    table_for,
)
from crewkit.families.trick_taking.engine.rules import Condition, Rules


class _HasCard(Protocol):
    @property
    def card(self) -> Card: ...


_A = TypeVar("_A", bound=_HasCard)

_FAIL = -1
_OPEN = 0
_WON = 1


@dataclass(frozen=True, slots=True)
class CondSetup:
    """What the conditions need that does not change during one decision."""

    rules: Rules
    deck: Deck
    cards: tuple[Card, ...]
    conditions: tuple[Condition, ...]
    roles: Mapping[str, int | None]
    commander: int | None
    total_tricks: int
    tasks: tuple[tuple[Card, str | None], ...]  # card and token per task (owners live in the world)
    after_play: bool  # some condition is judged after every card
    # a goal the play-outs pursue (see goal_of): goal_k tricks won by a card of goal_mask (or, goal_seat >= 0,
    # by that seat), counted in any trick or (goal_last) in the round's last trick only; (0, 0) when no condition
    # has a goal's shape
    goal_mask: int = 0
    goal_k: int = 0
    goal_last: bool = False
    goal_seat: int = -1
    # limits the play-outs keep (see limits_of, limit_play): lim_seat may win at most lim_k tricks (-1: none);
    # at most cap_k cards of cap_mask in one trick (cap_mask 0: none)
    lim_seat: int = -1
    lim_k: int = 0
    cap_mask: int = 0
    cap_k: int = 0
    cap_free: bool = False  # a trick's last card is not counted (judged on the cards on the table only)


class SimView:
    """The DSL ``View`` over a :class:`CondWorld` (full information: it judges a sampled world)."""

    __slots__ = ("_w", "deck")

    def __init__(self, w: CondWorld) -> None:
        self._w = w
        self.deck = w.cs.deck

    def seats(self) -> Sequence[int]:
        return range(self._w.n)

    def commander(self) -> int | None:
        return self._w.cs.commander

    def dealer(self) -> int | None:
        return None

    def role(self, name: str) -> int | None:
        return self._w.cs.roles.get(name)

    def roles(self) -> Mapping[str, int | None]:
        return self._w.cs.roles

    def mode(self) -> str | None:
        return None

    def tricks(self) -> Sequence[Any]:
        return self._w.tricks

    def total_tricks(self) -> int:
        return self._w.cs.total_tricks

    def tricks_won(self, seat: int) -> int:
        return self._w.won_count[seat]

    def won_cards(self, seat: int) -> Sequence[Card]:
        return [c for t in self._w.tricks if t.winner == seat for _, c in t.plays]

    def hand(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._w.hands[seat])

    def current_plays(self) -> Sequence[tuple[int, Card]]:
        cards = self._w.cs.cards
        return [(s, cards[c]) for s, c in self._w.plays]

    def trick_of(self, card: Card) -> Any:
        w = self._w
        cid = card.id
        for i, m in enumerate(w.trick_masks):
            if m >> cid & 1:
                return w.tricks[i]
        return None

    def tasks(self) -> Sequence[SimpleTask]:
        w = self._w
        out = []
        for i, (card, token) in enumerate(w.cs.tasks):
            owner = w.task_owner[i] if i < len(w.task_owner) else -1
            done = not w.pending >> i & 1
            trick = self.trick_of(card) if done else None
            out.append(SimpleTask(card, owner if owner >= 0 else None, token, done,
                                  trick.number if trick is not None else None))
        return out

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self._w.n

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self._w.n


class CondWorld(World):
    """A world that also judges the mission's conditions (see the module docstring)."""

    __slots__ = ("cs", "tricks", "trick_masks", "won_count", "cond_done", "goal_need", "goal_won")

    cs: CondSetup
    tricks: tuple[Any, ...]
    trick_masks: tuple[int, ...]
    won_count: tuple[int, ...]
    cond_done: tuple[bool, ...]
    goal_need: int  # tricks still to be won by a goal card (cs.goal_k less those of the observed tricks)
    goal_won: int  # tricks won by a goal card in this play-out: its progress when it fails

    def copy(self) -> CondWorld:
        w = CondWorld.__new__(CondWorld)
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
        w.cs = self.cs
        w.tricks = self.tricks
        w.trick_masks = self.trick_masks
        w.won_count = self.won_count
        w.cond_done = self.cond_done
        w.goal_need = self.goal_need
        w.goal_won = self.goal_won
        return w

    def play(self, card: int) -> None:
        if len(self.plays) == self.n - 1:
            leader = self.leader
            plays = (*self.plays, (self.turn, card))
            super().play(card)  # finishes the trick: tasks scored, status set
            self._after_trick(leader, plays)
            return
        super().play(card)
        if self.cs.after_play and self.status == _OPEN:
            self._judge("after-play")

    def _after_trick(self, leader: int, plays: tuple[tuple[int, int], ...]) -> None:
        cards = self.cs.cards
        winner = self.leader  # the winner leads the next trick
        number = len(self.tricks) + 1
        first = cards[plays[0][1]]
        win_card = _winning_card(self, plays, winner)
        last = self.tricks_left <= 0 or number >= self.cs.total_tricks
        seat = self.cs.goal_seat
        if (winner == seat if seat >= 0 else self.cs.goal_mask >> win_card.id & 1) and (last or not self.cs.goal_last):
            self.goal_won += 1
        trick = SimpleTrick(number, leader, tuple((s, cards[c]) for s, c in plays), winner, win_card, first.suit)
        self.tricks = (*self.tricks, trick)
        m = 0
        for _, c in plays:
            m |= 1 << c
        self.trick_masks = (*self.trick_masks, m)
        won = list(self.won_count)
        won[winner] += 1
        self.won_count = tuple(won)
        if self.status == _FAIL:
            return
        tasks_won = self.status == _WON
        if tasks_won:
            self.status = _OPEN
        self._judge("after-trick")
        if self.status == _FAIL:
            return
        conds_done = all(d or (last and c.done_if is None) for d, c in zip(self.cond_done, self.cs.conditions,
                                                                             strict=True))
        if not self.pending and conds_done:
            self.status = _WON
        elif last:
            self.status = _FAIL

    def _judge(self, when: str) -> None:
        view = SimView(self)
        done = list(self.cond_done)
        for i, cond in enumerate(self.cs.conditions):
            if done[i]:
                continue
            if cond.check != when and not (when == "after-trick" and cond.check == "after-play"):
                continue
            if cond.fail_if is not None and cond.fail_if(view, {}):
                self.status = _FAIL
                return
            if cond.done_if is not None and cond.done_if(view, {}):
                done[i] = True
        self.cond_done = tuple(done)


def _winning_card(w: World, plays: tuple[tuple[int, int], ...], winner: int) -> Card:
    for s, c in plays:
        if s == winner:
            return w.cs.cards[c]  # type: ignore[attr-defined]
    raise AssertionError("the winner played no card")


def cond_world(base: World, cs: CondSetup, tricks: Sequence[Any], cond_done: Sequence[bool]) -> CondWorld:
    """``base`` (a world at a trick start or mid-trick, already replayed) as a :class:`CondWorld`."""
    w = CondWorld.__new__(CondWorld)
    for name in World.__slots__:
        setattr(w, name, getattr(base, name))
    w.hands = base.hands.copy()
    w.plays = base.plays.copy()
    w.cs = cs
    w.tricks = tuple(tricks)
    w.trick_masks = tuple(sum(c.bit for _, c in t.plays) for t in w.tricks)
    won = [0] * base.n
    for t in w.tricks:
        won[t.winner] += 1
    w.won_count = tuple(won)
    w.cond_done = tuple(cond_done)
    w.goal_need = goal_need(cs, w.tricks)
    w.goal_won = 0
    return w


def goal_need(cs: CondSetup, tricks: Sequence[Any]) -> int:
    """How many tricks a goal card must still win after ``tricks`` (0: no goal, or reached)."""
    if not cs.goal_k:
        return 0
    got = sum(1 for t in tricks if (t.winner == cs.goal_seat if cs.goal_seat >= 0
                                    else cs.goal_mask >> t.winning_card.id & 1)
              and (not cs.goal_last or t.number >= cs.total_tricks))
    return max(0, cs.goal_k - got)


def goal_tail(judged: tuple[CondSetup, tuple[Any, ...], tuple[bool, ...]]) -> tuple[int, ...]:
    """The goal and the limits as the C play-outs read them (``condcode.trick_tail``): (cards, tricks still to
    win, 1 when only the last trick counts, the seat or -1; the limited seat or -1, its most tricks, the
    capped cards, their most in one trick, 1 when a trick's last card is not counted)."""
    cs = judged[0]
    return (cs.goal_mask, goal_need(cs, judged[1]), int(cs.goal_last), cs.goal_seat,
            cs.lim_seat, cs.lim_k, cs.cap_mask, cs.cap_k, int(cs.cap_free))


def goal_of(cs: CondSetup, conditions: Sequence[Condition]) -> tuple[int, int, bool, int]:
    """(cards, K, last, seat) of the first condition of a goal's shape: a ``done_if`` "at least K tricks won by
    a card of a fixed set" (:func:`crewkit.families.trick_taking.condshapes.match_tricks_won_by_cards`), a
    ``fail_if`` "the last trick is not won by a card of a fixed set" (K = 1 and last:
    :func:`~crewkit.families.trick_taking.condshapes.match_last_trick_won_by_cards`) or "... not won by one
    seat" (K = 1, last, that seat and no cards: :func:`~crewkit.families.trick_taking.condshapes.
    match_last_trick_won_by_seat`); (0, 0, False, -1) when none."""
    from crewkit.families.trick_taking.condshapes import (
        goal_cards,
        goal_seat,
        match_last_trick_won_by_cards,
        match_last_trick_won_by_seat,
        match_tricks_won_by_cards,
    )

    for c in conditions:
        shape = match_tricks_won_by_cards(getattr(c, "done_expr", None))
        if shape is not None:
            mask = goal_cards(shape[0], cs.deck)
            if mask:
                return mask, shape[1], False, -1
        fail = getattr(c, "fail_expr", None)
        pred = match_last_trick_won_by_cards(fail)
        if pred is not None:
            mask = goal_cards(pred, cs.deck)
            if mask:
                return mask, 1, True, -1
        who = match_last_trick_won_by_seat(fail)
        if who is not None:
            seat = goal_seat(who, cs.deck, cs.rules.players, cs.commander, dict(cs.roles))
            if seat is not None:
                return 0, 1, True, seat
    return 0, 0, False, -1


def limits_of(cs: CondSetup, conditions: Sequence[Condition]) -> tuple[int, int, int, int, bool]:
    """(seat, K, cards, J, FREE) of the first conditions of the limits' shapes: a ``fail_if`` "a seat won more
    than K tricks" (:func:`~crewkit.families.trick_taking.condshapes.match_tricks_won_limit`) and "more than J
    cards of a fixed set in one trick" (:func:`~crewkit.families.trick_taking.condshapes.
    match_cards_per_trick_limit`; FREE when only the cards on the table are counted, after every play: a
    trick's last card is judged once the trick is over, so it is not counted); -1 and 0 where none."""
    from crewkit.families.trick_taking.condshapes import (
        goal_cards,
        goal_seat,
        match_cards_per_trick_limit,
        match_tricks_won_limit,
    )

    seat, k, mask, j, free = -1, 0, 0, 0, False
    for c in conditions:
        fail = getattr(c, "fail_expr", None)
        lim = match_tricks_won_limit(fail) if seat < 0 else None
        if lim is not None:
            s = goal_seat(lim[0], cs.deck, cs.rules.players, cs.commander, dict(cs.roles))
            if s is not None:
                seat, k = s, lim[1]
        caps = match_cards_per_trick_limit(fail) if not mask else []
        if caps:
            m = goal_cards(caps[0][0], cs.deck)
            if m:
                mask, j = m, caps[0][1]
                free = c.check == "after-play" and all(x[2] for x in caps)
    return seat, k, mask, j, free


def setup_for(rules: Rules, roles: Mapping[str, int | None], commander: int | None, total_tricks: int,
              tasks: Sequence[tuple[Card, str | None]], conditions: Sequence[Any] | None = None) -> CondSetup:
    """``conditions``: the ones the seat knows (``Observation.conditions``: the task cards' too); the mission's
    when None."""
    conds = tuple(rules.conditions if conditions is None else conditions)
    cs = CondSetup(rules, rules.deck, tuple(rules.deck.cards), conds, dict(roles), commander,
                   total_tricks, tuple(tasks), any(c.check == "after-play" for c in conds))
    (mask, k, last, seat), (lseat, lk, cmask, ck, free) = _goal_cached(cs)
    if k:
        cs = replace(cs, goal_mask=mask, goal_k=k, goal_last=last, goal_seat=seat)
    if lseat >= 0 or cmask:
        cs = replace(cs, lim_seat=lseat, lim_k=lk, cap_mask=cmask, cap_k=ck, cap_free=free)
    return cs


_GOALS: dict[tuple[object, ...], tuple[tuple[object, ...], tuple[tuple[int, int, bool, int],
                                                               tuple[int, int, int, int, bool]]]] = {}


def _goal_cached(cs: CondSetup) -> tuple[tuple[int, int, bool, int], tuple[int, int, int, int, bool]]:
    """:func:`goal_of` and :func:`limits_of` once per deck, conditions and seating (a bot asks at every
    decision)."""
    held = (cs.deck, cs.rules, *cs.conditions)
    key = (*map(id, held), cs.commander, tuple(sorted(cs.roles.items())))
    hit = _GOALS.get(key)
    if hit is not None:
        return hit[1]
    answer = (goal_of(cs, cs.conditions), limits_of(cs, cs.conditions))
    if len(_GOALS) >= _DONE_SIZE:
        _GOALS.clear()
    _GOALS[key] = (held, answer)
    return answer


# done_so_far's answers: key (see _done_key) -> (what the key's ids name, kept alive so that no id is reused
# while its entry lives; the answer)
_DONE: dict[tuple[object, ...], tuple[tuple[object, ...], tuple[bool, ...] | None]] = {}
_DONE_SIZE = 256


def _done_key(cs: CondSetup, tricks: Sequence[Any], n: int, owners: Sequence[int | None]
              ) -> tuple[tuple[object, ...], tuple[object, ...]]:
    held = (cs.deck, *cs.conditions, *tricks)
    tasks = tuple((card.id, token, owner) for (card, token), owner in zip(cs.tasks, owners, strict=True))
    return (tuple(map(id, held)), len(cs.conditions), tuple(sorted(cs.roles.items())), cs.commander,
            cs.total_tricks, n, tasks), held


def done_so_far(cs: CondSetup, tricks: Sequence[Any], n: int, owners: Sequence[int | None] | None = None
                ) -> tuple[bool, ...] | None:
    """Which conditions the observed tricks already completed (None: a condition cannot be read here).

    ``owners``: the owner of each of ``cs.tasks`` (None: no owners yet). The conditions see the tasks as
    the engine shows them after each prefix of the tricks: a ``done_if`` such as "every task is done" must
    not hold vacuously before the first trick.

    A bot asks this at every decision of a game, with one trick more now and then: the answer for the tricks
    but the last is kept, so only the newest prefix is judged (the same answers: a condition is done when
    its ``done_if`` held after some prefix of the tricks)."""
    if owners is None:
        owners = (None,) * len(cs.tasks)
    key, held = _done_key(cs, tricks, n, owners)
    hit = _DONE.get(key)
    if hit is not None:
        return hit[1]
    earlier = _DONE.get(_done_key(cs, tricks[:-1], n, owners)[0]) if tricks else None
    first = len(tricks) if earlier is not None and earlier[1] is not None else 0
    known = earlier[1] if earlier is not None and earlier[1] is not None else (False,) * len(cs.conditions)
    answer = _judge_done(cs, tricks, n, first, known, owners)
    if len(_DONE) >= _DONE_SIZE:
        _DONE.clear()
    _DONE[key] = (held, answer)
    return answer


def _tasks_after(cs: CondSetup, tricks: Sequence[Any], owners: Sequence[int | None]) -> list[SimpleTask]:
    """The tasks as they stand after ``tricks``: a task is done once its card was played (by its owner's
    win: any other winner failed the mission already)."""
    out = []
    for (card, token), owner in zip(cs.tasks, owners, strict=True):
        number = next((t.number for t in tricks if any(c.id == card.id for _, c in t.plays)), None)
        out.append(SimpleTask(card, owner, token, number is not None, number))
    return out


def _judge_done(cs: CondSetup, tricks: Sequence[Any], n: int, first: int, known: Sequence[bool],
                owners: Sequence[int | None]) -> tuple[bool, ...] | None:
    """done_so_far judged on the prefixes of ``tricks`` from ``first`` tricks on (``known``: done before)."""
    from crewkit.dsl.view import SimpleView

    view = SimpleView(deck=cs.deck, n_players=n, commander_seat=cs.commander, role_seats=dict(cs.roles),
                      completed=list(tricks), total=cs.total_tricks, task_list=_tasks_after(cs, tricks, owners))
    out = []
    try:
        for cond, before in zip(cs.conditions, known, strict=True):
            # done_if is monotone in the standard missions; judged on every prefix as the engine did
            done = before
            if cond.done_if is not None and not done:
                for k in range(first, len(tricks) + 1):
                    view.completed = list(tricks[:k])
                    view.task_list = _tasks_after(cs, tricks[:k], owners)
                    if cond.done_if(view, {}):
                        done = True
                        break
            out.append(done)
    except Exception:  # noqa: BLE001 - a condition this view cannot answer: play without conditions
        return None
    return tuple(out)


def choose_play_cond(w: CondWorld) -> int:
    """:func:`crewkit.families.trick_taking.bots.sim.choose_play`, reading the mission's conditions (see the
    module docstring)."""
    c = choose_play(w)
    if w.goal_won < w.goal_need:
        c = goal_play(w, c)
    if w.cs.lim_seat >= 0 or w.cs.cap_mask:
        c = limit_play(w, c)
    if not w.plays:
        return c
    legal = w.legal(w.turn)
    if legal & (legal - 1) == 0:
        return c
    last = len(w.plays) == w.n - 1
    if last:
        best, best_score = c, _score_after(w, c, last)
        m = legal
        while m:
            low = m & -m
            x = low.bit_length() - 1
            m ^= low
            if x == c:
                continue
            s = _score_after(w, x, last)
            if s > best_score:
                best, best_score = x, s
        return best
    if _score_after(w, c, last) >= 0:
        return c
    m = legal
    while m:
        low = m & -m
        x = low.bit_length() - 1
        m ^= low
        if x != c and _score_after(w, x, last) >= 0:
            return x
    return c


def _holder(w: World, card: int) -> int:
    for s, h in enumerate(w.hands):
        if h >> card & 1:
            return s
    return -1


def _lowest(m: int) -> int:
    return (m & -m).bit_length() - 1


def goal_play(w: CondWorld, c: int) -> int:
    """The policy's card ``c``, or a card that makes progress toward the goal (:attr:`CondSetup.goal_mask`:
    tricks to be won by a goal card). A goal card wins a trick when it is led and no other seat can stay
    below it, so: lead a goal card that wins now; else, without open tasks, lead the goal's suit to strip the
    other seats of it (the goal card with the fewest cards above it in other hands); a goal card that can win
    the trick now takes it; the others stay under a goal card that wins the trick; a seat keeps its goal
    cards back while it has others and, void in the led suit, sheds a card that stands above a goal card of
    another seat. Before the tricks that count (:attr:`CondSetup.goal_last`: the round's last) the goal is
    prepared instead (:func:`_goal_prepare`). ``_fastsim.c``: goal_play (the same choices)."""
    t = w.t
    n = w.n
    seat = w.turn
    hands = w.hands
    live = 0
    for h in hands:
        live |= h
    mask = hands[w.cs.goal_seat] if w.cs.goal_seat >= 0 else w.cs.goal_mask  # a seat's goal: its cards
    goals = mask & live
    if w.cs.goal_last and w.tricks_left > 1:
        return _goal_prepare(w, c, goals, live) if goals else c
    if not goals and not w.plays:
        return c
    hand = hands[seat]
    block = 0  # cards above a goal card in the hands of the other seats
    best_goal, best_count = -1, 99
    g = goals
    while g:
        x = _lowest(g)
        g &= g - 1
        b = t.above[x] & live & ~hands[_holder(w, x)]
        block |= b
        if b.bit_count() < best_count:
            best_goal, best_count = x, b.bit_count()
    if not w.plays:
        foreign = w.pmask & ~w.own[seat]
        m = goals & hand
        while m:
            x = _lowest(m)
            m &= m - 1
            led = t.suit[x]
            keys = t.keys[led + 1]
            if all(_can_duck(w, (seat + i) % n, keys, led, keys[x], foreign) for i in range(1, n)):
                return x
        if w.pending or t.suit[best_goal] < 0:
            return c
        strip = hand & t.suit_masks[t.suit[best_goal]] & ~goals
        if strip and block & t.suit_masks[t.suit[best_goal]]:
            return strip.bit_length() - 1
        return c
    legal = w.legal(seat)
    if legal & (legal - 1) == 0:
        return c
    keys = t.keys[w.led + 1]
    win_key = w.win_key
    win_card = -1
    for s_, card in w.plays:
        if s_ == w.win_seat:
            win_card = card
    rest = legal & ~goals
    if mask >> win_card & 1:
        under = 0
        m = rest
        while m:
            x = _lowest(m)
            m &= m - 1
            if keys[x] < win_key:
                under |= 1 << x
        if under & block:
            return _lowest(under & block)
        if under:
            return _duck(w, under, keys, win_key, w.pmask, False)
        return c
    m = goals & legal
    while m:
        x = _lowest(m)
        m &= m - 1
        if keys[x] > win_key and _rest_can_duck(w, seat, keys, keys[x], seat):
            return x
    if (w.trick_mask | 1 << c) & w.pmask or not rest:
        return c  # a task card in play: the tasks' policy
    if (w.led < 0 or not hand & t.suit_masks[w.led]) and rest & block:
        return _lowest(rest & block)
    if goals >> c & 1:
        return _duck(w, rest, keys, win_key, w.pmask, False)
    return c


def _beaters(t: Table, x: int, m: int) -> int:
    """The cards of ``m`` that beat ``x`` when ``x`` leads a trick (its suit's higher cards, trumps)."""
    keys = t.keys[t.suit[x] + 1]
    kx = keys[x]
    out = 0
    while m:
        low = m & -m
        m ^= low
        if keys[low.bit_length() - 1] > kx:
            out |= low
    return out


def _goal_prepare(w: CondWorld, c: int, goals: int, live: int) -> int:
    """The policy's card ``c``, or one that prepares a goal counted only in the last trick: the goal card led
    then wins when no other seat keeps a card that beats it. The goal card with the fewest such cards in the
    other hands is the one aimed at; every seat keeps its goal cards back while it has others; its holder
    leads the suits of those cards to strip them (no tasks open), another seat leads or sheds them (not into
    a suit where the holder has only goal cards); in the trick before the last the holder plays to win it
    (it leads the last trick), the others stay under the holder and keep a card that does not beat the goal
    card."""
    t = w.t
    seat = w.turn
    hands = w.hands
    aim, holder, block = -1, -1, 0
    g = goals
    while g:
        x = _lowest(g)
        g &= g - 1
        h = _holder(w, x)
        b = _beaters(t, x, live & ~hands[h])
        if aim < 0 or b.bit_count() < block.bit_count():
            aim, holder, block = x, h, b
    if w.cs.goal_seat >= 0:
        goals = 1 << aim  # a seat's goal: the card of its hand aimed at is the one kept back
    hand = hands[seat]
    rest = hand & ~goals
    if not w.plays:
        if not rest:
            return c
        if w.pending:
            return c if not goals >> c & 1 else _lowest(rest)
        if w.tricks_left == 2:
            return _lead_before_last(w, c, rest, block, holder)
        if seat == holder:
            m = block
            while m:
                x = _lowest(m)
                m &= m - 1
                strip = rest & t.suit_masks[t.suit[x]] if t.suit[x] >= 0 else 0
                if strip:
                    return strip.bit_length() - 1
        else:
            m = rest & block
            while m:
                x = m.bit_length() - 1  # the strongest first: the hardest to shed later
                m ^= 1 << x
                s = t.suit[x]
                suit = t.suit_masks[s] if s >= 0 else 0
                if not hands[holder] & suit or hands[holder] & suit & ~goals:
                    return x
        return c if not goals >> c & 1 else _lowest(rest)
    legal = w.legal(seat)
    if legal & (legal - 1) == 0:
        return c
    rest = legal & ~goals
    if not rest:
        return c
    keys = t.keys[w.led + 1]
    win_key = w.win_key
    if w.tricks_left == 2:
        if seat == holder:
            top, top_k = -1, -1
            m = rest
            while m:
                x = _lowest(m)
                m &= m - 1
                k = keys[x]
                if k > win_key and _rest_can_duck(w, seat, keys, k, seat):
                    return x
                if k > top_k:
                    top, top_k = x, k
            return top
        if any(s == holder for s, _ in w.plays) and w.win_seat != holder:
            return c if not goals >> c & 1 else _lowest(rest)
        under = 0
        m = rest
        while m:
            x = _lowest(m)
            m &= m - 1
            if keys[x] < win_key:
                under |= 1 << x
        keep_safe = 0  # cards whose play leaves this seat a card that does not beat the goal card
        m = rest
        while m:
            x = _lowest(m)
            m &= m - 1
            if not hand & ~(1 << x) & block:
                keep_safe |= 1 << x
        for pick in (under & keep_safe, under, keep_safe):
            if pick:
                return _lowest(pick)
        return c if not goals >> c & 1 else _lowest(rest)
    if (w.trick_mask | 1 << c) & w.pmask:
        return c if not goals >> c & 1 else _duck(w, rest, keys, win_key, w.pmask, True)
    if seat != holder and (w.led < 0 or not hand & t.suit_masks[w.led]) and rest & block:
        return (rest & block).bit_length() - 1
    if goals >> c & 1:
        return _duck(w, rest, keys, win_key, w.pmask, False)
    return c


def _lead_before_last(w: CondWorld, c: int, rest: int, block: int, holder: int) -> int:
    """A lead into the trick before the last (see :func:`_goal_prepare`): the goal card's holder leads a card
    the others cannot beat (it then leads the last trick); another seat leads its lowest card among those that
    leave it a card not beating the goal card (the holder can take the trick over)."""
    t = w.t
    seat = w.turn
    n = w.n
    if seat == holder:
        foreign = w.pmask & ~w.own[seat]
        m = rest
        while m:
            x = m.bit_length() - 1
            m ^= 1 << x
            led = t.suit[x]
            keys = t.keys[led + 1]
            if all(_can_duck(w, (seat + i) % n, keys, led, keys[x], foreign) for i in range(1, n)):
                return x
        return c if rest >> c & 1 else rest.bit_length() - 1
    hand = w.hands[seat]
    best, best_rank = -1, 1 << 30
    m = rest
    while m:
        x = _lowest(m)
        m &= m - 1
        if not hand & ~(1 << x) & block and t.rank[x] < best_rank:
            best, best_rank = x, t.rank[x]
    if best >= 0:
        return best
    return c if rest >> c & 1 else _lowest(rest)


def _score_after(w: CondWorld, card: int, last: bool) -> int:
    """-1 when the trick, finished by the policy, fails; else the number of conditions then done (+ won)."""
    trial = w.copy()
    trial.play(card)
    if not last:
        while trial.plays and trial.status == _OPEN:
            trial.play(_follow(trial))
    if trial.status == _FAIL:
        return -1
    return sum(trial.cond_done) + (10 if trial.status == _WON else 0)


def rollout_cond(w: CondWorld) -> int:
    """Play ``w`` to its end with :func:`choose_play_cond`; 1 for success, 0 for failure."""
    while w.status == _OPEN:
        w.play(choose_play_cond(w))
    return 1 if w.status == _WON else 0


def condition_setup(obs: Any, roles: Mapping[str, int | None] | None = None, conditions: Sequence[Any] | None = None,
                    ) -> tuple[CondSetup, tuple[Any, ...], tuple[bool, ...]] | None:
    """The conditions' setup, the observed tricks and the conditions they completed, for one observation
    (None when the mission has no conditions or one cannot be read from a simulated world). ``conditions``:
    those to judge (a task card weighed for the draft among them); the ones the seat knows when None."""
    rules = obs.rules
    if conditions is None:
        conditions = obs.conditions  # the mission's and the task cards' this seat knows
    if not conditions:
        return None
    bound = dict(obs.roles) if roles is None else roles
    if any(bound.get(role) is None for role in rules.roles):
        # a role not bound yet (mission 50 weighs the opener while the closer is still open): a condition may
        # name it, and the simulated world cannot answer it, so these play-outs go without conditions
        return None
    cs = setup_for(rules, bound, obs.commander, obs.total_tricks,
                   [(t.card, t.token) for t in obs.tasks], conditions)
    tricks = tuple(obs.tricks)
    done = done_so_far(cs, tricks, obs.players, [t.owner for t in obs.tasks])
    if done is None:
        return None
    return cs, tricks, done


def limit_play(w: CondWorld, c: int) -> int:
    """The policy's card ``c``, or one that keeps the limits of :func:`limits_of` for the tricks to come (a task
    card in the trick, or ``c`` one, leaves the tasks' policy in charge, but the limited seat wins such a trick
    with a card that would win a trick anyway when it has one). The limited seat's allowance counts the tricks
    its sure cards (:func:`_sure_cards`) will win whatever happens: the commander's top rocket spends the one
    trick "at most one" leaves it. ``_fastsim.c``: limit_play (the same choices)."""
    cs = w.cs
    task = (w.trick_mask | 1 << c) & w.pmask
    if cs.lim_seat >= 0:
        lim = cs.lim_seat
        left = cs.lim_k - w.won_count[lim]
        sure = _sure_cards(w, lim)
        left -= sure.bit_count()
        if task:
            if w.turn == lim and left <= 0 and sure:
                c = _spend_sure(w, c, sure)
        elif left <= 1:
            # one trick left to it: it ducks itself, and the others overtake it once none is left
            c = _seat_limit_play(w, c, lim, left <= 0, sure)
    if cs.cap_mask and not task:
        c = _cap_play(w, c, cs.cap_mask, cs.cap_k, cs.cap_free)
    return c


def _sure_cards(w: World, seat: int) -> int:
    """The cards of ``seat`` that win whatever trick they fall in (a trump above every trump of the other hands):
    each of them costs a trick of its allowance."""
    hand = w.hands[seat]
    others = 0
    for s, h in enumerate(w.hands):
        if s != seat:
            others |= h
    return sure_cards(w.t, hand, others)


def sure_cards(t: Table, hand: int, others: int) -> int:
    """The cards of ``hand`` above every card of ``others`` whatever suit is led (trumps or specials)."""
    out = 0
    m = hand
    while m:
        x = _lowest(m)
        m &= m - 1
        if t.cat[x] >= 2 and all(keys[x] > 0 and all(keys[x] > keys[y] for y in _bits(others)) for keys in t.keys):
            out |= 1 << x
    return out


def limit_allows_task(judged: tuple[CondSetup, tuple[Any, ...], tuple[bool, ...]], seat: int, hand: int,
                      others: int, card: int, won: int = 0) -> bool:
    """False when ``seat`` is the limited seat, its sure cards (:func:`sure_cards` against ``others``, every card
    it may meet) spend its whole allowance, and the task's ``card`` is in its hand and not sure: it would have to
    win that card's trick with the card itself, a trick beyond its allowance (the draft then takes another)."""
    cs = judged[0]
    if cs.lim_seat != seat or not hand >> card & 1:
        return True
    t = table_for(cs.rules)
    sure = sure_cards(t, hand, others)
    return bool(sure >> card & 1) or cs.lim_k - won - sure.bit_count() > 0


def limit_draft(obs: Any, req: tuple[_A, ...]) -> tuple[_A, ...]:
    """The task choices of ``req`` (actions with a ``card``) that :func:`limit_allows_task` allows the seat of
    ``obs``; all of them when it allows none."""
    judged = condition_setup(obs)
    if judged is None or judged[0].lim_seat != obs.seat:
        return req
    hand = obs.hand_mask
    played = 0
    for tr in obs.tricks:
        for _, card in tr.plays:
            played |= card.bit
    for _, card in obs.current_trick:
        played |= card.bit
    others = sum(c.bit for c in obs.rules.deck.cards) & ~hand & ~played
    won = sum(1 for tr in obs.tricks if tr.winner == obs.seat)
    keep = tuple(a for a in req if limit_allows_task(judged, obs.seat, hand, others, a.card.id, won))
    return keep or req


def _bits(m: int) -> list[int]:
    out = []
    while m:
        out.append(_lowest(m))
        m &= m - 1
    return out


def _spend_sure(w: CondWorld, c: int, sure: int) -> int:
    """The limited seat takes a trick (a task card in it): with a sure card when ``c`` would take it and one is
    legal, so that the sure card does not take a trick of its own later."""
    legal = w.legal(w.turn)
    if sure >> c & 1 or not legal & sure or not w.plays:
        return c
    if w.t.keys[w.led + 1][c] < w.win_key:
        return c
    return _lowest(legal & sure)


def _seat_limit_play(w: CondWorld, c: int, lim: int, full: bool, sure: int) -> int:
    """``lim`` may win no more tricks: it leads the card another seat can beat that the fewest cards of the others
    beat (then the lowest; ``full``, with a task card of its own in another hand that a seat can add: a sure
    card, also when it follows and a later seat can add it), stays under the trick's
    winning card with its highest card that does (void: sheds its highest card), else takes the trick with a sure
    card (:func:`_sure_cards`), or with its weakest card when a later seat can take the trick over, else its
    strongest (the trick is its anyway); the others overtake it when it holds the trick, and play above its cards when it has to follow later."""
    t = w.t
    n = w.n
    seat = w.turn
    hand = w.hands[seat]
    others = 0
    for s, h in enumerate(w.hands):
        if s != lim:
            others |= h
    catch = w.own[lim] & others  # its task cards in other hands: its one trick should take them
    if not w.plays:
        if seat != lim:
            return c
        if full and catch:
            m = sure
            while m:
                x = _lowest(m)
                m &= m - 1
                if any(w.legal_for((seat + i) % n, t.suit[x]) & catch for i in range(1, n)):
                    return x
        best, best_key = -1, 1 << 30
        m = hand
        while m:
            x = _lowest(m)
            m &= m - 1
            led = t.suit[x]
            keys = t.keys[led + 1]
            # the card the fewest others' cards beat first (it is the likeliest to win a trick later)
            kx = _beaters(t, x, others).bit_count() * 1000 + keys[x]
            if kx < best_key and any(w.legal_for((seat + i) % n, led) and _max_key(w, (seat + i) % n, led) > keys[x]
                                     for i in range(1, n)):
                best, best_key = x, kx
        return best if best >= 0 else c
    legal = w.legal(seat)
    if legal & (legal - 1) == 0:
        return c
    keys = t.keys[w.led + 1]
    win_key = w.win_key
    if seat == lim:
        if full and legal & sure and any(w.legal_for((seat + i) % n, w.led) & catch
                                         for i in range(1, n - len(w.plays))):
            return _lowest(legal & sure)  # a seat after it may add its task card to the trick its sure card takes
        top = -1
        m = legal
        while m:
            x = _lowest(m)
            m &= m - 1
            if keys[x] < win_key and (top < 0 or t.rank[x] > t.rank[top]):
                top = x
        if top >= 0:
            return top
        if legal & sure:
            return _lowest(legal & sure)  # it takes this trick: with a card that would take one anyway
        # else with its strongest card, or its weakest when a later seat can take the trick over from it
        low, high = -1, -1
        m = legal
        while m:
            x = _lowest(m)
            m &= m - 1
            if low < 0 or keys[x] < keys[low]:
                low = x
            if high < 0 or keys[x] > keys[high]:
                high = x
        if any(_max_key(w, (seat + i) % n, w.led) > keys[low] for i in range(1, n - len(w.plays))):
            return low
        return high
    if not full:
        return c
    if w.win_seat == lim:
        over = _lowest_above(keys, legal, win_key)
        return over if over >= 0 else c
    if any(s == lim for s, _ in w.plays):
        return c
    top = _max_key(w, lim, w.led)  # lim plays later: take the trick above its best card when it can
    if top > win_key and keys[c] <= top:
        over = _lowest_above(keys, legal, top)
        return over if over >= 0 else c
    return c


def _lowest_above(keys: Sequence[int], legal: int, key: int) -> int:
    """The legal card of the lowest key above ``key``; -1 when none."""
    over = -1
    m = legal
    while m:
        x = _lowest(m)
        m &= m - 1
        if keys[x] > key and (over < 0 or keys[x] < keys[over]):
            over = x
    return over


def _max_key(w: World, seat: int, led: int) -> int:
    """The strongest key ``seat`` can play into a trick led in ``led`` (-1 with no card)."""
    keys = w.t.keys[led + 1]
    m = w.legal_for(seat, led)
    top = -1
    while m:
        x = _lowest(m)
        m &= m - 1
        if keys[x] > top:
            top = keys[x]
    return top


def _forced(w: World, seat: int, led: int, cap: int) -> int:
    """1 when ``seat`` holds a card of ``cap`` and only such cards can follow ``led``."""
    legal = w.legal_for(seat, led)
    return 1 if legal and not legal & ~cap else 0


def _shed_lead(w: World, c: int, cands: int, cap: int) -> int:
    """A lead among ``cands`` in a suit that a seat holding cards of ``cap`` is void in (it can shed one there):
    ``c`` when it is one, else the lowest; else ``c`` when it is not of ``cap``, else the lowest of ``cands``."""
    t = w.t
    n = w.n
    seat = w.turn
    shed = 0
    m = cands
    while m:
        x = _lowest(m)
        m &= m - 1
        s = t.suit[x]
        if s >= 0 and any(w.hands[(seat + i) % n] & cap and not w.hands[(seat + i) % n] & t.suit_masks[s]
                          for i in range(1, n)):
            shed |= 1 << x
    if shed:
        return c if shed >> c & 1 else _lowest(shed)
    if cap >> c & 1 and cands:
        return _lowest(cands)
    return c


def _cap_play(w: CondWorld, c: int, cap: int, k: int, free: bool) -> int:
    """At most ``k`` cards of ``cap`` in a trick (``free``: its last card not counted): a leader leads such a
    card when the seats after it can play others (then the lowest it holds), else a suit a seat holding such
    cards is void in (it sheds one), never one the others must follow with theirs; a follower adds one
    only while the trick stays within ``k`` with the seats after it that must add theirs (``free``: the last seat
    always may), and a follower void in the led suit sheds one then."""
    t = w.t
    n = w.n
    ends = n - 1 if free else n  # the seats whose cards count, from the leader on
    seat = w.turn
    hand = w.hands[seat]
    if not w.plays:
        mine = hand & cap
        if not mine:
            # invite a shed only of cards that cannot take the trick (a shed trump would win it)
            return _shed_lead(w, c, hand & ~cap, cap) if not cap & ~t.plain_mask else c
        safe = 0
        m = mine
        while m:
            x = _lowest(m)
            m &= m - 1
            led = t.suit[x]
            if 1 + sum(_forced(w, (seat + i) % n, led, cap) for i in range(1, ends)) <= k:
                safe |= 1 << x
        if safe:
            return c if safe >> c & 1 else _lowest(safe)
        # else a suit that a seat holding such cards is void in: it can shed one
        return _shed_lead(w, c, hand & ~cap, cap)
    legal = w.legal(seat)
    if legal & (legal - 1) == 0:
        return c
    led = w.led
    after = sum(_forced(w, (seat + i) % n, led, cap) for i in range(1, ends - len(w.plays)))
    room = k - (w.trick_mask & cap).bit_count() - after  # cards of cap this seat may add
    if free and len(w.plays) == n - 1:
        room = 1  # the trick's last card is not counted: a free place for one more
    keys = t.keys[led + 1]
    if cap >> c & 1:
        if room >= 1 or not legal & ~cap:
            return c
        return _duck(w, legal & ~cap, keys, w.win_key, w.pmask, False)
    if room >= 1 and legal & cap and not hand & t.suit_masks[led]:
        return _duck(w, legal & cap, keys, w.win_key, w.pmask, False)
    return c
