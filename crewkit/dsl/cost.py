"""A static upper bound of the work and memory of one evaluation, computed before a mission is accepted.

Every expression gets an abstract :class:`Size` (how long a list can be, how long its items are, how many
bits an integer can have) and a cost in steps (one quantifier iteration or one list item built, as the
evaluator's budget counts them). Sizes come from the deck (``deck``, ``tricks``, ``hand(p)`` hold at most
as many items as the deck has cards) and from the number of seats; they grow through list literals, ``+``
and quantifier variables (``any(x in [xs + xs]: ...)`` binds ``x`` to a list twice as long), and integers
grow through ``*`` (bits add up) and ``+``/``-`` (one bit). A quantifier costs its source plus, for every
item, one step and its body. The first node whose bound passes a limit of :mod:`crewkit.dsl.limits` is
reported, so the message points at the smallest part that is too costly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from crewkit.cards import Deck

from . import ast as A
from . import limits
from .errors import DslError

#: players at a table when the caller does not say (the bundled rule sets seat at most 5)
DEFAULT_SEATS = 8
#: bits of any number the vocabulary returns (counts, ranks, trick numbers, seats)
_WORD_BITS = 16


@dataclass(frozen=True, slots=True)
class Size:
    """An upper bound of a value: ``n`` items (1 for a scalar), items bounded by ``elem`` (lists only),
    ``bits`` for integers."""

    n: int = 1
    bits: int = 1
    elem: Size | None = None

    @property
    def is_list(self) -> bool:
        return self.elem is not None

    def cells(self) -> int:
        """Items in all, nested lists included."""
        if self.elem is None:
            return 1
        return self.n * (1 + self.elem.cells())


SCALAR = Size()
WORD = Size(bits=_WORD_BITS)


def join(a: Size, b: Size) -> Size:
    """A bound of a value that is either ``a`` or ``b``."""
    if a.elem is None and b.elem is None:
        return Size(max(a.n, b.n), max(a.bits, b.bits))
    return Size(max(a.n, b.n), max(a.bits, b.bits), join(a.elem or SCALAR, b.elem or SCALAR))


class CostError(DslError):
    """An expression whose evaluation could take too long or too much memory."""


class _TooCostly(Exception):
    def __init__(self, error: CostError) -> None:
        self.error = error


def _list(n: int, elem: Size = SCALAR) -> Size:
    return Size(n=n, elem=elem)


def _fail(node: A.Expr, message: str) -> _TooCostly:
    pos = node.pos
    end = pos.end_column if pos.end_line == pos.line and pos.end_column > pos.column else None
    return _TooCostly(CostError(message, line=pos.line, column=pos.column, offset=pos.offset, end_column=end))


def estimate(expr: A.Expr, deck: Deck, seats: int | None = None,
             bound: Mapping[str, Size] | None = None) -> tuple[int, Size]:
    """``(steps, size)`` bounds of one evaluation of ``expr``; raise :class:`CostError` past a limit."""
    est = _Estimator(deck, seats or DEFAULT_SEATS)
    try:
        return est.visit(expr, dict(bound or {}))
    except _TooCostly as exc:
        raise exc.error from None


def cost_errors(expr: A.Expr, deck: Deck, seats: int | None = None) -> list[DslError]:
    """The cost error of ``expr`` as a list (empty when it is within the limits)."""
    try:
        estimate(expr, deck, seats)
    except CostError as exc:
        return [exc]
    return []


class _Estimator:
    def __init__(self, deck: Deck, seats: int) -> None:
        cards = len(deck.cards)
        suits = len(deck.suits)
        suit_size = max((len(deck.cards_of_suit(s)) for s in deck.suits), default=0)
        self.cards = cards
        self.seats = seats
        card_list = _list(cards)
        seat_list = _list(seats)
        # names: their size; each costs one step (the engine's lists are built once per view)
        self.names: dict[str, Size] = {
            "players": seat_list,
            "tricks": _list((cards + 1) // 2),  # at least two cards a trick
            "tasks": card_list,
            "deck": card_list,
            "suits": _list(suits),
            "current_cards": seat_list,
        }
        # functions returning lists, and what building them costs
        self.functions: dict[str, tuple[int, Size]] = {
            "cards_won": (cards, card_list),
            "hand": (cards, card_list),
            "cards_of": (suit_size, _list(suit_size)),
            "cards_of_rank": (suits, _list(suits)),
            "tasks_of": (cards, card_list),
            "won_by": (cards, WORD),
            "played": (cards, SCALAR),
            "trick_of": (cards, SCALAR),
            "task_of": (cards, SCALAR),
            "tricks_won": (cards, WORD),
            "lost_for": (cards, SCALAR),
            "longest_run": (cards, WORD),
            "others": (seats, seat_list),
        }

    def check(self, node: A.Expr, cost: int, size: Size) -> tuple[int, Size]:
        if size.is_list and size.n > limits.MAX_LIST:
            raise _fail(node, f"this can build a list of up to {size.n:,} items (at most {limits.MAX_LIST:,}); "
                              "joining lists inside quantifiers doubles them at every level")
        if size.is_list and size.cells() > limits.MAX_LIST * 10:
            raise _fail(node, f"this can build lists of up to {size.cells():,} items in all "
                              f"(at most {limits.MAX_LIST * 10:,})")
        if size.bits > limits.MAX_INT_BITS:
            raise _fail(node, f"this can compute a number of up to {size.bits:,} bits (at most "
                              f"{limits.MAX_INT_BITS:,}); repeated `*` makes numbers grow fast")
        if cost > limits.MAX_COST:
            raise _fail(node, f"this can take up to {cost:,} steps to evaluate (at most {limits.MAX_COST:,}, "
                              "evaluated after every trick or card); nest fewer quantifiers over long lists")
        return cost, size

    def visit(self, node: A.Expr, scope: dict[str, Size]) -> tuple[int, Size]:
        cost, size = self._visit(node, scope)
        return self.check(node, cost, size)

    def _visit(self, node: A.Expr, scope: dict[str, Size]) -> tuple[int, Size]:
        if isinstance(node, A.Int):
            return 1, Size(bits=max(1, node.value.bit_length()))
        if isinstance(node, A.Bool | A.NoneLit | A.Str | A.CardLit):
            return 1, SCALAR
        if isinstance(node, A.Name):
            if node.name in scope:
                return 1, scope[node.name]
            named = self.names.get(node.name)
            if named is not None:
                return 1, named
            return 1, WORD
        if isinstance(node, A.ListLit):
            cost, elem = len(node.items), SCALAR
            first = True
            for item in node.items:
                c, s = self.visit(item, scope)
                cost += c
                elem = s if first else join(elem, s)
                first = False
            return cost, _list(len(node.items), elem)
        if isinstance(node, A.Unary):
            c, s = self.visit(node.operand, scope)
            return c + 1, s
        if isinstance(node, A.Binary | A.Compare):
            return self.binary(node, scope)
        if isinstance(node, A.Call):
            cost = 1
            sizes = []
            for arg in node.args:
                c, s = self.visit(arg, scope)
                cost += c
                sizes.append(s)
            return self.call(node.func, cost, sizes)
        if isinstance(node, A.Field):
            c, _ = self.visit(node.obj, scope)
            if node.name == "cards":
                return c + self.seats, _list(self.seats)
            return c + 1, WORD
        if isinstance(node, A.Quant):
            return self.quant(node, scope)
        if isinstance(node, A.Conditional):
            c1, s1 = self.visit(node.then, scope)
            c2, _ = self.visit(node.cond, scope)
            c3, s3 = self.visit(node.other, scope)
            return c1 + c2 + c3 + 1, join(s1, s3)
        return 1, SCALAR  # pragma: no cover - every node kind is handled above

    def binary(self, node: A.Binary | A.Compare, scope: dict[str, Size]) -> tuple[int, Size]:
        lc, ls = self.visit(node.left, scope)
        rc, rs = self.visit(node.right, scope)
        cost = lc + rc + 1
        op = node.op
        if isinstance(node, A.Compare):
            if op in ("in", "not in", "==", "!="):
                cost += rs.cells() if rs.is_list else 0
            return cost, SCALAR
        if op in ("and", "or"):
            return cost, SCALAR
        if op == "+" and (ls.is_list or rs.is_list):
            n = ls.n + rs.n
            return cost + n, _list(n, join(ls.elem or SCALAR, rs.elem or SCALAR))
        if op == "*":
            bits = ls.bits + rs.bits
        elif op == "//":
            bits = ls.bits
        elif op == "%":
            bits = rs.bits
        else:
            bits = max(ls.bits, rs.bits) + 1
        return cost, Size(bits=bits)

    def call(self, name: str, cost: int, args: list[Size]) -> tuple[int, Size]:
        known = self.functions.get(name)
        if known is not None:
            return cost + known[0], known[1]
        if name == "count":
            n = args[0].n if args else 1
            return cost, Size(bits=max(1, n.bit_length()))
        if name in ("abs", "max", "min") and args:
            return cost, Size(bits=max(s.bits for s in args))
        return cost, WORD

    def quant(self, node: A.Quant, scope: dict[str, Size]) -> tuple[int, Size]:
        sc, ss = self.visit(node.source, scope)
        inner = dict(scope)
        inner[node.var] = ss.elem or SCALAR
        bc, bs = self.visit(node.body, inner)
        cost = sc + ss.n * (1 + bc)
        if node.kind in ("all", "any"):
            return cost, SCALAR
        if node.kind == "count":
            return cost, Size(bits=max(1, ss.n.bit_length()))
        if node.kind == "sum":
            return cost, Size(bits=bs.bits + max(1, ss.n.bit_length()))
        return cost, Size(bits=bs.bits)


__all__ = ["DEFAULT_SEATS", "CostError", "Size", "cost_errors", "estimate"]
