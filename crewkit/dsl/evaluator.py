"""Compiling the syntax tree into nested closures, once.

``compile_expr(expr)`` walks the tree a single time and returns a function ``f(view, bindings)``; calling
it does no tree walking, no name lookups in tables and no ``eval``. Name resolution for words that are
not built in (bindings, roles, suits, special cards) happens at call time in that order, with suits and
cards memoised per deck.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from crewkit.cards import Card, CardError, Deck, Suit

from . import ast as A
from . import limits
from .errors import ConditionError, DslError, DslInterrupted, DslNameError, DslRuntimeError
from .parser import MAX_DEPTH
from .view import View
from .vocabulary import FIELD_CLASSES, FIELDS, FUNCTIONS, NAMES, Word

Bindings = Mapping[str, Any]
Compiled = Callable[[View, Bindings], Any]
_EMPTY: Bindings = MappingProxyType({})
_MISSING = object()


def describe_value(x: object) -> str:
    """Words for a run-time value: ``none``, ``a number``, ``a card (pink 9)``."""
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, int):
        return f"a number ({x})"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, Card):
        return f"a card ({x.name})"
    if isinstance(x, Suit):
        return f"a suit ({x.name})"
    if isinstance(x, list | tuple):
        return "a list"
    return "a value"


def _err(message: str, pos: A.Pos) -> DslRuntimeError:
    end = pos.end_column if pos.end_line == pos.line and pos.end_column > pos.column else None
    return DslRuntimeError(message, line=pos.line, column=pos.column, offset=pos.offset, end_column=end)


def compile_expr(expr: A.Expr) -> Callable[..., Any]:
    """Compile once; the result is ``f(view, bindings={}) -> value`` raising only :class:`DslError`."""
    if A.depth(expr) > MAX_DEPTH + 1:
        raise DslError(f"expression nested too deeply (more than {MAX_DEPTH} levels)", line=1, column=1)
    inner = _compile(expr, frozenset())
    pos = expr.pos

    budget = limits.state

    def run(view: View, bindings: Bindings = _EMPTY) -> Any:
        budget.base = budget.steps  # limits.start(), inline
        try:
            return inner(view, bindings)
        except DslError:
            raise
        except (
            TypeError,
            ValueError,
            AttributeError,
            KeyError,
            IndexError,
            ZeroDivisionError,
            OverflowError,
            CardError,
        ) as e:
            raise _err(f"evaluation failed: {type(e).__name__}: {e}", pos) from e
        except (MemoryError, RecursionError) as e:
            raise _err(f"evaluation ran out of {'memory' if isinstance(e, MemoryError) else 'stack'}", pos) from None

    return run


def located(fn: Callable[..., Any], source: str, where: str, text: str) -> Callable[..., Any]:
    """``fn`` (a compiled expression or template) whose errors name the file, the expression and its text.

    :class:`DslInterrupted` (a deadline or a cancel from outside) passes through unchanged.
    """

    def run(view: View, bindings: Bindings = _EMPTY) -> Any:
        try:
            return fn(view, bindings)
        except DslInterrupted:
            raise
        except DslError as e:
            raise ConditionError.wrap(e, source, where, text) from None

    return run


def compile_located(expr: A.Expr, source: str, where: str, text: str) -> Callable[..., Any]:
    """:func:`compile_expr` of a checked tree, :func:`located` at ``source``/``where``; the closure's
    ``dsl_text`` attribute is ``text`` (for messages and for comparing compiled rules)."""
    fn = located(compile_expr(expr), source, where, text)
    fn.dsl_text = text  # type: ignore[attr-defined]
    return fn


@functools.lru_cache(maxsize=512)
def _cached(expr: A.Expr) -> Callable[..., Any]:
    return compile_expr(expr)


def evaluate(expr: A.Expr, view: View, bindings: Bindings = _EMPTY) -> Any:
    """Compile (cached by structure) and evaluate ``expr``."""
    return _cached(expr)(view, bindings)


# ------------------------------------------------------------------------------------------- compile


def _const(value: Any) -> Compiled:
    def f(view: View, b: Bindings) -> Any:
        return value

    return f


def _compile(node: A.Expr, scope: frozenset[str]) -> Compiled:
    if isinstance(node, A.Int | A.Bool | A.Str):
        return _const(node.value)
    if isinstance(node, A.NoneLit):
        return _const(None)
    if isinstance(node, A.Name):
        return _name(node, scope)
    if isinstance(node, A.CardLit):
        return _card(node)
    if isinstance(node, A.ListLit):
        items = tuple(_compile(i, scope) for i in node.items)
        return lambda v, b: [f(v, b) for f in items]
    if isinstance(node, A.Unary):
        return _unary(node, scope)
    if isinstance(node, A.Binary):
        return _binary(node, scope)
    if isinstance(node, A.Compare):
        return _compare(node, scope)
    if isinstance(node, A.Call):
        return _call(node, scope)
    if isinstance(node, A.Field):
        return _field(node, scope)
    if isinstance(node, A.Quant):
        return _quant(node, scope)
    if isinstance(node, A.Conditional):
        then, cond, other = (_compile(n, scope) for n in (node.then, node.cond, node.other))
        return lambda v, b: then(v, b) if cond(v, b) else other(v, b)
    raise DslError(f"cannot compile {type(node).__name__}")  # pragma: no cover


def _name(node: A.Name, scope: frozenset[str]) -> Compiled:
    n = node.name
    if n in scope:
        return lambda v, b: b[n]
    word = NAMES.get(n)
    if word is not None:
        impl = word.impl
        return lambda v, b: impl(v)
    memo: list[Any] = [None, _MISSING]
    pos = node.pos

    def f(v: View, b: Bindings) -> Any:
        if n in b:
            return b[n]
        roles = v.roles()
        if n in roles:
            return roles[n]
        deck = v.deck
        if memo[0] is not deck:
            memo[1] = _deck_name(deck, n)
            memo[0] = deck
        value = memo[1]
        if value is _MISSING:
            raise _err(f"unknown name `{n}`", pos)
        return value

    return f


def _deck_name(deck: Deck, n: str) -> Any:
    from .checker import special_card

    if deck.has_suit(n):
        return deck.suit(n)
    card = special_card(deck, n)
    return _MISSING if card is None else card


def _card(node: A.CardLit) -> Compiled:
    memo: list[Any] = [None, None]
    text = f"{node.suit} {node.rank}"
    pos = node.pos

    def f(v: View, b: Bindings) -> Any:
        deck = v.deck
        if memo[0] is not deck:
            try:
                card = deck.card(text)
            except CardError:
                raise _err(f"{text} is not in this deck", pos) from None
            memo[1] = card
            memo[0] = deck
        return memo[1]

    return f


def _unary(node: A.Unary, scope: frozenset[str]) -> Compiled:
    x = _compile(node.operand, scope)
    pos = node.pos
    if node.op == "not":
        return lambda v, b: not x(v, b)

    def neg(v: View, b: Bindings) -> Any:
        value = x(v, b)
        if type(value) is not int:
            raise _err(f"`-` needs a number, found {describe_value(value)}", pos)
        return -value

    return neg


def _binary(node: A.Binary, scope: frozenset[str]) -> Compiled:
    lf = _compile(node.left, scope)
    rf = _compile(node.right, scope)
    op = node.op
    pos = node.pos
    if op == "and":

        def and_(v: View, b: Bindings) -> bool:
            return bool(lf(v, b)) and bool(rf(v, b))

        return and_
    if op == "or":

        def or_(v: View, b: Bindings) -> bool:
            return bool(lf(v, b)) or bool(rf(v, b))

        return or_

    def bad(left: Any, right: Any) -> DslRuntimeError:
        return _err(f"`{op}` needs numbers, found {describe_value(left)} and {describe_value(right)}", pos)

    if op == "+":

        def add(v: View, b: Bindings) -> Any:
            left, right = lf(v, b), rf(v, b)
            try:
                if isinstance(left, list | tuple) and isinstance(right, list | tuple):
                    n = len(left) + len(right)
                    if n > limits.MAX_LIST:
                        raise _err(f"`+` made a list of {n:,} items (at most {limits.MAX_LIST:,})", pos)
                    limits.charge(n, pos)
                    return [*left, *right]
                return left + right
            except TypeError:
                raise bad(left, right) from None

        return add
    if op == "-":

        def sub(v: View, b: Bindings) -> Any:
            left, right = lf(v, b), rf(v, b)
            try:
                return left - right
            except TypeError:
                raise bad(left, right) from None

        return sub
    if op == "*":

        def mul(v: View, b: Bindings) -> Any:
            left, right = lf(v, b), rf(v, b)
            if type(left) is not int or type(right) is not int:
                raise bad(left, right)
            if left.bit_length() + right.bit_length() > limits.MAX_INT_BITS:
                return limits.check_int(left * right, "*", pos)
            return left * right

        return mul
    if op in ("//", "%"):
        floor = op == "//"

        def div(v: View, b: Bindings) -> Any:
            left, right = lf(v, b), rf(v, b)
            if type(left) is not int or type(right) is not int:
                raise bad(left, right)
            if right == 0:
                raise _err(f"division by zero in `{op}`", pos)
            return left // right if floor else left % right

        return div
    raise DslError(f"unknown operator {op!r}")  # pragma: no cover


def _compare(node: A.Compare, scope: frozenset[str]) -> Compiled:
    lf = _compile(node.left, scope)
    rf = _compile(node.right, scope)
    op = node.op
    pos = node.pos
    if op == "==":
        return lambda v, b: lf(v, b) == rf(v, b)
    if op == "!=":
        return lambda v, b: lf(v, b) != rf(v, b)
    if op in ("in", "not in"):
        negate = op == "not in"

        def member(v: View, b: Bindings) -> bool:
            left, right = lf(v, b), rf(v, b)
            if not isinstance(right, Sequence) or isinstance(right, str):
                raise _err(f"`{op}` needs a list on the right, found {describe_value(right)}", pos)
            return (left in right) != negate

        return member

    def order(v: View, b: Bindings) -> bool:
        left, right = lf(v, b), rf(v, b)
        if type(left) is not int or type(right) is not int:
            raise _err(
                f"`{op}` compares numbers, found {describe_value(left)} and {describe_value(right)}", pos
            )
        if op == "<":
            return left < right
        if op == "<=":
            return left <= right
        if op == ">":
            return left > right
        return left >= right

    return order


def _call(node: A.Call, scope: frozenset[str]) -> Compiled:
    word = FUNCTIONS.get(node.func)
    if word is None:
        raise DslNameError(
            f"unknown function `{node.func}`",
            line=node.pos.line,
            column=node.pos.column,
            offset=node.pos.offset,
        )
    if len(node.args) != len(word.params):
        raise DslNameError(
            f"`{node.func}` takes {word.arity_text()}, found {len(node.args)}",
            line=node.pos.line,
            column=node.pos.column,
            offset=node.pos.offset,
        )
    impl = word.impl
    args = tuple(_compile(a, scope) for a in node.args)
    guards = tuple(not p.type.maybe for p in word.params)
    pos = node.pos
    name = node.func

    def none_error(i: int) -> DslRuntimeError:
        p = word.params[i]
        return _err(f"`{name}` needs {p.describe()}, found none", pos)

    seat_params = tuple(i for i, p in enumerate(word.params) if p.type.kind == "player")
    if seat_params == (0,) and len(args) == 1:  # tricks_won(p), hand(p), ...: the common case, kept cheap
        (a0,) = args
        g0 = guards[0]

        def call_seat(v: View, b: Bindings) -> Any:
            x = a0(v, b)
            if x is None and g0:
                raise none_error(0)
            if type(x) is int and x < 0:  # would silently index from the end
                raise _bad_seat(v, x, name, pos)
            try:
                return impl(v, x)
            except IndexError:  # a seat past the table fails in the view
                if type(x) is int and x >= len(v.seats()):
                    raise _bad_seat(v, x, name, pos) from None
                raise

        return call_seat
    if seat_params:
        impl = _seat_checked(impl, seat_params, name, pos)

    if len(args) == 1:
        (a0,) = args
        g0 = guards[0]

        def call1(v: View, b: Bindings) -> Any:
            x = a0(v, b)
            if x is None and g0:
                raise none_error(0)
            return impl(v, x)

        return call1
    if len(args) == 2:
        a0, a1 = args
        g0, g1 = guards

        def call2(v: View, b: Bindings) -> Any:
            x, y = a0(v, b), a1(v, b)
            if x is None and g0:
                raise none_error(0)
            if y is None and g1:
                raise none_error(1)
            return impl(v, x, y)

        return call2

    def calln(v: View, b: Bindings) -> Any:
        values = [a(v, b) for a in args]
        for i, x in enumerate(values):
            if x is None and guards[i]:
                raise none_error(i)
        return impl(v, *values)

    return calln


def _seat_checked(
    impl: Callable[..., Any], which: tuple[int, ...], name: str, pos: A.Pos
) -> Callable[..., Any]:
    """``impl`` refusing a player argument that is no seat of the table (``hand(7)`` at four players)."""

    def checked(v: View, *args: Any) -> Any:
        for i in which:
            seat = args[i]
            if type(seat) is int and (seat < 0 or seat >= len(v.seats())):
                raise _bad_seat(v, seat, name, pos)
        return impl(v, *args)

    return checked


def _bad_seat(v: View, seat: int, func: str, pos: A.Pos) -> DslRuntimeError:
    n = len(v.seats())
    return _err(f"`{func}`: there is no seat {seat} at this table (seats 0 to {n - 1})", pos)


def _field(node: A.Field, scope: frozenset[str]) -> Compiled:
    obj = _compile(node.obj, scope)
    name = node.name
    owners: list[tuple[str, Word]] = [(kind, table[name]) for kind, table in FIELDS.items() if name in table]
    pos = node.name_pos
    if not owners:
        raise DslNameError(
            f"no value has a field `{name}`", line=pos.line, column=pos.column, offset=pos.offset
        )
    if len(owners) == 1:
        impl = owners[0][1].impl

        def field1(v: View, b: Bindings) -> Any:
            o = obj(v, b)
            if o is None:
                return None
            return impl(o, v)

        return field1
    by_class: tuple[tuple[type, Callable[[Any, View], Any]], ...] = tuple(
        (FIELD_CLASSES[kind], w.impl) for kind, w in owners
    )

    def field_n(v: View, b: Bindings) -> Any:
        o = obj(v, b)
        if o is None:
            return None
        for cls, impl in by_class:
            if isinstance(o, cls):
                return impl(o, v)
        raise _err(f"{describe_value(o)} has no field `{name}`", pos)

    return field_n


def _quant(node: A.Quant, scope: frozenset[str]) -> Compiled:
    src = _compile(node.source, scope)
    body = _compile(node.body, scope | {node.var})
    var = node.var
    kind = node.kind
    pos = node.pos

    budget = limits.state
    over = limits.over

    def items(v: View, b: Bindings) -> Any:
        xs = src(v, b)
        if type(xs) is not tuple and type(xs) is not list:  # the usual case skips the slower ABC check
            if not isinstance(xs, Sequence) or isinstance(xs, str):
                raise _err(f"`{kind}` needs a list after `in`, found {describe_value(xs)}", node.source.pos)
        # every iteration is a step of this evaluation's budget (limits.charge, inline)
        budget.steps += len(xs)
        if budget.steps > budget.next_check:
            over(budget, pos)
        return xs

    if kind == "all":

        def all_(v: View, b: Bindings) -> bool:
            inner = dict(b)
            for x in items(v, b):
                inner[var] = x
                if not body(v, inner):
                    return False
            return True

        return all_
    if kind == "any":

        def any_(v: View, b: Bindings) -> bool:
            inner = dict(b)
            for x in items(v, b):
                inner[var] = x
                if body(v, inner):
                    return True
            return False

        return any_
    if kind == "count":

        def count_(v: View, b: Bindings) -> int:
            inner = dict(b)
            n = 0
            for x in items(v, b):
                inner[var] = x
                if body(v, inner):
                    n += 1
            return n

        return count_

    def values(v: View, b: Bindings) -> list[int]:
        inner = dict(b)
        out = []
        for x in items(v, b):
            inner[var] = x
            value = body(v, inner)
            if type(value) is not int:
                raise _err(f"`{kind}` needs numbers, found {describe_value(value)}", node.body.pos)
            out.append(value)
        return out

    if kind == "sum":
        return lambda v, b: sum(values(v, b))

    def extreme(v: View, b: Bindings) -> int:
        vs = values(v, b)
        if not vs:
            raise _err(f"`{kind}` over an empty list", pos)
        return max(vs) if kind == "max" else min(vs)

    return extreme
