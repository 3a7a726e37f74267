"""What a mission condition can ever be: its values over every position of every deal, bounded from the rules.

``crewkit check`` asks, per player count, whether a ``done_if`` can ever become true and whether a
``fail_if`` is true whatever happens (then the mission fails at the condition's first check, before any
deal is played out). The answer comes from an abstract evaluation of the condition's syntax tree: each
expression stands for the set of values it may take in any reachable position (numbers as ranges, truth as
the set of possible truth values, cards as the set of cards they may be, lists as an element and a length
range), from what the rules fix: the deck (ranks, suits, trumps), the number of players and of tricks, the
hands' sizes, the tasks. A quantifier over cards is evaluated once per card it may range over, so
"a trick won by a 10" (no card has rank 10) and "five rockets won" (there are four) are seen never to hold.

The bounds are sound, never exact: "never true" is said only when no position can make it true; anything
the evaluation cannot bound (strings, task tokens, arithmetic it does not follow) is "anything", which
decides nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from crewkit.dsl import ast as A

BIG = 1 << 40  # an unbounded end of a range
BOTH = frozenset((True, False))


@dataclass(frozen=True)
class Val:
    """The values an expression may take. ``kind``: int, bool, player, card, suit, trick, task, list, top
    (anything). ``none``: it may be none."""

    kind: str
    lo: int = -BIG  # int / player: the range
    hi: int = BIG
    truth: frozenset[bool] = BOTH  # bool
    cards: frozenset[int] = frozenset()  # card: the card ids it may be
    suits: frozenset[int] = frozenset()  # suit
    elem: Val | None = None  # list: what each element may be
    lmin: int = 0  # list: its length
    lmax: int = BIG
    none: bool = False
    fields: tuple[tuple[str, Val], ...] = ()  # trick / task: what its fields may be (others: anything)

    def field(self, name: str) -> Val | None:
        for k, v in self.fields:
            if k == name:
                return v
        return None


TOP = Val("top", none=True)


def num(lo: int, hi: int, none: bool = False) -> Val:
    return Val("int", lo=lo, hi=hi, none=none)


def boolean(truth: frozenset[bool] = BOTH) -> Val:
    return Val("bool", truth=truth)


@dataclass
class Table:
    """What the rules fix for one player count: the deck, the players, the tricks, the tasks, the roles."""

    deck: Any
    players: int
    total: int  # tricks in a full game
    hand_max: int
    tasks: int
    task_cards: frozenset[int]
    roles: Sequence[str] = ()
    # the position of a condition's first check instead of any position: "after-trick" (one trick played) or
    # "after-play" (one card on the table); None: any position
    first: str | None = None

    @classmethod
    def of(cls, rules: Any) -> Table:
        sizes = [int(x) for x in rules.hand_sizes] or [0]
        deck = rules.deck
        pool = frozenset(c.id for c in rules.task_pool) or frozenset(c.id for c in deck.cards)
        # the largest hand bounds the tricks (a dummy seat's or an extra card's hand only widens the bounds)
        return cls(deck, max(rules.players, len(sizes)), max(sizes), max(sizes), rules.task_count, pool,
                   tuple(rules.roles))

    # ------------------------------------------------------------ shapes of things
    def all_cards(self) -> frozenset[int]:
        return frozenset(c.id for c in self.deck.cards)

    def card(self, ids: frozenset[int] | None = None, none: bool = False) -> Val:
        return Val("card", cards=self.all_cards() if ids is None else ids, none=none)

    def player(self, none: bool = False) -> Val:
        return Val("player", lo=0, hi=self.players - 1, none=none)

    def played(self) -> tuple[int, int]:
        """The range of tricks played in the positions evaluated."""
        if self.first == "after-trick":
            return 1, 1
        if self.first == "after-play":
            return 0, 0
        return 0, self.total

    def trick(self, none: bool = False) -> Val:
        n, total = self.players, self.total
        hi = max(1, self.played()[1])
        return Val("trick", none=none, fields=(
            ("number", num(1, hi)), ("leader", self.player()), ("winner", self.player()),
            ("winning_card", self.card()), ("cards", Val("list", elem=self.card(), lmin=1, lmax=n)),
            ("led_suit", Val("suit", suits=frozenset(range(len(self.deck.suits))), none=True)),
            ("is_first", boolean() if hi > 1 else boolean(frozenset((True,)))),
            ("is_last", boolean() if hi > 1 and total > 1 else boolean(frozenset((hi >= total,))))))

    def task(self, none: bool = False) -> Val:
        return Val("task", none=none, fields=(
            ("card", self.card(self.task_cards)), ("owner", self.player(none=True)), ("token", TOP),
            ("done", boolean()), ("trick", num(1, self.total, none=True))))

    def cards_list(self, ids: frozenset[int], lmin: int, lmax: int) -> Val:
        return Val("list", elem=self.card(ids), lmin=lmin, lmax=lmax)


def _truth(v: Val) -> frozenset[bool]:
    """The truth values ``v`` may have (as Python's ``bool``)."""
    out: set[bool] = set()
    if v.none:
        out.add(False)
    if v.kind == "bool":
        out |= v.truth
    elif v.kind in ("int", "player"):
        if v.lo <= 0 <= v.hi:
            out.add(False)
        if v.lo != 0 or v.hi != 0:
            out.add(True)
    elif v.kind == "list":
        if v.lmin == 0:
            out.add(False)
        if v.lmax > 0:
            out.add(True)
    elif v.kind == "top":
        return BOTH
    else:
        out.add(True)
    return frozenset(out) if out else frozenset((False,))


def _join(a: Val, b: Val) -> Val:
    if a.kind != b.kind:
        return TOP
    if a.kind in ("int", "player"):
        return replace(a, lo=min(a.lo, b.lo), hi=max(a.hi, b.hi), none=a.none or b.none)
    if a.kind == "bool":
        return replace(a, truth=a.truth | b.truth, none=a.none or b.none)
    if a.kind == "card":
        return replace(a, cards=a.cards | b.cards, none=a.none or b.none)
    if a.kind == "list" and a.elem is not None and b.elem is not None:
        return replace(a, elem=_join(a.elem, b.elem), lmin=min(a.lmin, b.lmin), lmax=max(a.lmax, b.lmax),
                       none=a.none or b.none)
    return replace(a, none=a.none or b.none) if a == replace(b, none=a.none) else TOP


class Bounds:
    """The abstract evaluator (see the module's docs) for one :class:`Table`."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.deck = table.deck

    # ------------------------------------------------------------ entry points
    def truth(self, expr: A.Expr) -> frozenset[bool]:
        """The truth values ``expr`` may take in a reachable position."""
        try:
            return _truth(self.ev(expr, {}))
        except (RecursionError, KeyError, ValueError, TypeError, AttributeError, IndexError):
            return BOTH  # a construct the evaluation does not follow decides nothing

    # ------------------------------------------------------------ evaluation
    def ev(self, node: A.Expr, env: Mapping[str, Val]) -> Val:
        t = self.t
        if isinstance(node, A.Int):
            return num(node.value, node.value)
        if isinstance(node, A.Bool):
            return boolean(frozenset((node.value,)))
        if isinstance(node, A.NoneLit):
            return Val("none", none=True)
        if isinstance(node, A.CardLit):
            card = self.deck.card(f"{node.suit} {node.rank}")
            return t.card(frozenset((card.id,)))
        if isinstance(node, A.Name):
            return self.name(node.name, env)
        if isinstance(node, A.ListLit):
            items = [self.ev(i, env) for i in node.items]
            if not items:
                return Val("list", elem=TOP, lmin=0, lmax=0)
            elem = items[0]
            for x in items[1:]:
                elem = _join(elem, x)
            return Val("list", elem=elem, lmin=len(items), lmax=len(items))
        if isinstance(node, A.Unary):
            v = self.ev(node.operand, env)
            if node.op == "not":
                return boolean(frozenset(not x for x in _truth(v)))
            if v.kind == "int":
                return num(-v.hi, -v.lo, v.none)
            return num(-BIG, BIG)
        if isinstance(node, A.Binary):
            return self.binary(node, env)
        if isinstance(node, A.Compare):
            return self.compare(node, env)
        if isinstance(node, A.Call):
            return self.call(node, env)
        if isinstance(node, A.Field):
            return self.fieldof(self.ev(node.obj, env), node.name)
        if isinstance(node, A.Quant):
            return self.quant(node, env)
        if isinstance(node, A.Conditional):
            cond = _truth(self.ev(node.cond, env))
            then, other = self.ev(node.then, env), self.ev(node.other, env)
            if cond == frozenset((True,)):
                return then
            if cond == frozenset((False,)):
                return other
            return _join(then, other)
        return TOP

    def name(self, n: str, env: Mapping[str, Val]) -> Val:
        t = self.t
        if n in env:
            return env[n]
        if n in t.roles:
            return t.player()
        total = t.total
        lo, hi = t.played()
        table = {"after-trick": (0, 0), "after-play": (1, 1)}.get(t.first or "", (0, t.players))
        names: dict[str, Val] = {
            "players": Val("list", elem=t.player(), lmin=t.players, lmax=t.players),
            "commander": t.player(),
            "dealer": t.player(none=True),
            "tricks": Val("list", elem=t.trick(), lmin=lo, lmax=hi),
            "trick": t.trick(none=True),
            "first_trick": t.trick(none=lo == 0) if hi else Val("none", none=True),
            "last_trick": t.trick(none=lo < total) if hi >= total else Val("none", none=True),
            "total_tricks": num(total, total),
            "tricks_played": num(lo, hi),
            "tricks_left": num(total - hi, total - lo),
            "tasks": Val("list", elem=t.task(), lmin=t.tasks, lmax=t.tasks),
            "deck": t.cards_list(t.all_cards(), len(self.deck.cards), len(self.deck.cards)),
            "current_cards": t.cards_list(t.all_cards(), *table),
        }
        if n in names:
            return names[n]
        if self.deck.has_suit(n):
            return Val("suit", suits=frozenset((self.deck.suit(n).index,)))
        return TOP

    def binary(self, node: A.Binary, env: Mapping[str, Val]) -> Val:
        a, b = self.ev(node.left, env), self.ev(node.right, env)
        if node.op in ("and", "or"):
            ta, tb = _truth(a), _truth(b)
            if node.op == "and":
                out = {x and y for x in ta for y in tb} if True in ta else {False}
            else:
                out = {x or y for x in ta for y in tb} if False in ta else {True}
            return boolean(frozenset(out))
        if a.kind not in ("int", "player") or b.kind not in ("int", "player"):
            return num(-BIG, BIG) if node.op != "+" or a.kind != "list" else TOP
        none = a.none or b.none
        if node.op == "+":
            return num(_clip(a.lo + b.lo), _clip(a.hi + b.hi), none)
        if node.op == "-":
            return num(_clip(a.lo - b.hi), _clip(a.hi - b.lo), none)
        if node.op == "*":
            ends = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            return num(_clip(min(ends)), _clip(max(ends)), none)
        return num(-BIG, BIG, none)

    def compare(self, node: A.Compare, env: Mapping[str, Val]) -> Val:
        a, b = self.ev(node.left, env), self.ev(node.right, env)
        op = node.op
        if op in ("in", "not in"):
            return boolean()
        if op in ("==", "!="):
            eq = self._equal(a, b)
            return boolean(eq if op == "==" else frozenset(not x for x in eq))
        if a.kind not in ("int", "player") or b.kind not in ("int", "player"):
            return boolean()
        out: set[bool] = set()
        pairs = {"<": (a.lo < b.hi, a.hi >= b.lo), "<=": (a.lo <= b.hi, a.hi > b.lo),
                 ">": (a.hi > b.lo, a.lo <= b.hi), ">=": (a.hi >= b.lo, a.lo < b.hi)}
        can_true, can_false = pairs[op]
        if can_true:
            out.add(True)
        if can_false:
            out.add(False)
        return boolean(frozenset(out) or BOTH)

    def _equal(self, a: Val, b: Val) -> frozenset[bool]:
        """Whether ``a == b`` may be true, false."""
        if a.kind == "none" or b.kind == "none":
            other = b if a.kind == "none" else a
            if other.kind == "none":
                return frozenset((True,))
            return BOTH if other.none else frozenset((False,))
        both_none = a.none and b.none
        if a.kind in ("int", "player") and b.kind in ("int", "player"):
            overlap = a.lo <= b.hi and b.lo <= a.hi
            out = set()
            if overlap or both_none:
                out.add(True)
            if not (a.lo == a.hi == b.lo == b.hi and not a.none and not b.none):
                out.add(False)
            return frozenset(out)
        if a.kind == "card" and b.kind == "card":
            out = set()
            if a.cards & b.cards or both_none:
                out.add(True)
            if not (len(a.cards) == 1 and a.cards == b.cards and not a.none and not b.none):
                out.add(False)
            return frozenset(out)
        if a.kind == "suit" and b.kind == "suit":
            out = set()
            if a.suits & b.suits or both_none:
                out.add(True)
            if not (len(a.suits) == 1 and a.suits == b.suits and not a.none and not b.none):
                out.add(False)
            return frozenset(out)
        return BOTH

    def call(self, node: A.Call, env: Mapping[str, Val]) -> Val:
        t = self.t
        f = node.func
        args = [self.ev(x, env) for x in node.args]
        n_cards = len(self.deck.cards)
        if f == "tricks_won":
            return num(0, t.played()[1])
        if f == "cards_won":
            return t.cards_list(t.all_cards(), 0, min(n_cards, t.played()[1] * t.players))
        if f == "hand":
            return t.cards_list(t.all_cards(), 0, t.hand_max)
        if f == "won_by":
            return t.player(none=True)
        if f in ("played", "left_unplayed"):
            return boolean()
        if f in ("trick_of", "trick_at"):
            return t.trick(none=True)
        if f in ("left_of", "right_of"):
            return t.player()
        if f == "cards_of":
            s = args[0]
            if s.kind == "suit" and not s.none:
                ids = frozenset(c.id for c in self.deck.cards if c.suit is not None and c.suit.index in s.suits)
                sizes = [sum(1 for c in self.deck.cards if c.suit is not None and c.suit.index == i) for i in s.suits]
                return t.cards_list(ids, min(sizes, default=0), max(sizes, default=0))
            return t.cards_list(t.all_cards(), 0, n_cards)
        if f == "cards_of_rank":
            r = args[0]
            if r.kind == "int" and not r.none:
                ids = frozenset(c.id for c in self.deck.cards if r.lo <= c.rank <= r.hi)
                per = [sum(1 for c in self.deck.cards if c.rank == k) for k in range(max(r.lo, 0), min(r.hi, 99) + 1)]
                return t.cards_list(ids, min(per, default=0), max(per, default=0))
            return t.cards_list(t.all_cards(), 0, n_cards)
        if f in ("is_trump", "is_colour"):
            c = args[0]
            if c.kind != "card":
                return boolean()
            trump = {self.deck.cards[i].is_trump for i in c.cards}
            colour = {self.deck.cards[i].suit is not None and not self.deck.cards[i].is_trump for i in c.cards}
            out = trump if f == "is_trump" else colour
            return boolean(frozenset(out) or BOTH)
        if f == "count":
            lst = args[0]
            return num(lst.lmin, lst.lmax) if lst.kind == "list" else num(0, BIG)
        if f == "abs":
            v = args[0]
            if v.kind != "int":
                return num(0, BIG)
            lo = 0 if v.lo <= 0 <= v.hi else min(abs(v.lo), abs(v.hi))
            return num(lo, max(abs(v.lo), abs(v.hi)), v.none)
        if f in ("max", "min") and len(args) == 2 and all(a.kind in ("int", "player") for a in args):
            a, b = args
            pick = max if f == "max" else min
            return num(pick(a.lo, b.lo), pick(a.hi, b.hi), a.none or b.none)
        if f == "task_of":
            return t.task(none=True)
        if f == "done":
            return boolean()
        if f == "tasks_of":
            return Val("list", elem=t.task(), lmin=0, lmax=t.tasks)
        return TOP

    def fieldof(self, obj: Val, name: str) -> Val:
        """A field of ``obj``; a field of none is none (the evaluator's rule), so a maybe-none object's field
        may be none too."""
        if obj.kind == "none":
            return Val("none", none=True)
        got = self._field(obj, name)
        return replace(got, none=True) if obj.none and not got.none else got

    def _field(self, obj: Val, name: str) -> Val:
        if obj.kind == "card":
            cards = [self.deck.cards[i] for i in obj.cards]
            if name == "rank":
                ranks = [c.rank for c in cards] or [0]
                return num(min(ranks), max(ranks))
            if name == "suit":
                return Val("suit", suits=frozenset(c.suit.index for c in cards if c.suit is not None),
                           none=any(c.suit is None for c in cards))
            if name == "is_trump":
                return boolean(frozenset(c.is_trump for c in cards) or BOTH)
            if name == "is_special":
                return boolean(frozenset(c.suit is None for c in cards) or BOTH)
            return TOP
        if obj.kind in ("trick", "task"):
            got = obj.field(name)
            return got if got is not None else TOP
        if obj.kind == "suit" and name == "is_trump":
            return boolean(frozenset(self.deck.suits[i].trump for i in obj.suits) or BOTH)
        return TOP

    def quant(self, node: A.Quant, env: Mapping[str, Val]) -> Val:
        src = self.ev(node.source, env)
        if src.kind != "list" or src.elem is None:
            return TOP if node.kind in ("max", "min", "sum") else (
                num(0, BIG) if node.kind == "count" else boolean())
        lmin, lmax = src.lmin, src.lmax
        elem = src.elem
        # a card set: the body once per card it may be (exact for what a card alone decides)
        if elem.kind == "card" and 0 < len(elem.cards) <= 64:
            bodies = [self.ev(node.body, {**env, node.var: self.t.card(frozenset((cid,)))})
                      for cid in sorted(elem.cards)]
            if elem.none:
                bodies.append(self.ev(node.body, {**env, node.var: Val("none", none=True)}))
        else:
            bodies = [self.ev(node.body, {**env, node.var: elem})]
        truths = [_truth(b) for b in bodies]
        may_true = sum(1 for x in truths if True in x)
        may_false = sum(1 for x in truths if False in x)
        # a list of cards holds distinct cards (a hand, the deck, the cards won): k of them need k cards whose
        # body may hold; of anything else, one element stands for all
        distinct = elem.kind == "card" and len(bodies) > 1
        need = lmin if distinct else min(lmin, 1)
        if node.kind in ("count", "any", "all"):
            cap = min(lmax, may_true) if distinct else (lmax if may_true else 0)
            floor = max(0, lmin - may_false) if distinct else (lmin if not may_false else 0)
            if node.kind == "count":
                return num(floor, cap)
            out = set()
            if node.kind == "any":
                if cap > 0:
                    out.add(True)
                if lmin == 0 or may_false >= need:
                    out.add(False)
            else:
                if lmin == 0 or may_true >= need:
                    out.add(True)
                if lmax > 0 and may_false:
                    out.add(False)
            return boolean(frozenset(out) or BOTH)
        vals = [b for b in bodies if b.kind in ("int", "player")]
        if len(vals) != len(bodies) or not vals:
            return num(-BIG, BIG, True)
        lo, hi = min(v.lo for v in vals), max(v.hi for v in vals)
        if node.kind == "sum":
            ends = [0] + [k * x for k in (lmin, min(lmax, BIG)) for x in (lo, hi)]
            return num(_clip(min(ends)), _clip(max(ends)))
        return num(lo, hi, none=lmin == 0)


def _clip(x: int) -> int:
    return max(-BIG, min(BIG, x))


def never_true(rules: Any, expr: A.Expr) -> bool:
    """``expr`` is false (or none) in every position a game of ``rules`` can reach."""
    return True not in Bounds(Table.of(rules)).truth(expr)


def always_true(rules: Any, expr: A.Expr) -> bool:
    """``expr`` is true in every position a game of ``rules`` can reach."""
    return Bounds(Table.of(rules)).truth(expr) == frozenset((True,))


def impossible_conditions(rules: Any) -> list[tuple[str, str]]:
    """(condition id, what is wrong) for each condition of ``rules`` that no deal can get past: a ``done_if``
    that can never become true, a ``fail_if`` true whatever happened by its first check (after the first
    trick, or the first card for a condition checked after every play): the mission fails there."""
    table = Table.of(rules)
    bounds = Bounds(table)
    out: list[tuple[str, str]] = []
    for c in rules.conditions:
        if c.done_expr is not None and True not in bounds.truth(c.done_expr):
            out.append((c.id, "done_if"))
        elif c.fail_expr is not None:
            first = Bounds(replace(table, first="after-play" if c.check == "after-play" else "after-trick"))
            if first.truth(c.fail_expr) == frozenset((True,)):
                out.append((c.id, "fail_if"))
    return out
