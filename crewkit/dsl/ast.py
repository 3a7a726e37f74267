"""Syntax tree of the condition language: immutable nodes, each with its position in the source text.

Positions never take part in equality (``compare=False``), so two trees parsed from differently spaced
texts compare equal when they mean the same thing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Pos:
    """Where a node is in the expression text: 0-based offsets, 1-based line and column."""

    offset: int = 0
    line: int = 1
    column: int = 1
    end_offset: int = 0
    end_line: int = 1
    end_column: int = 1


NO_POS = Pos()


def _pos() -> Pos:
    return field(default=NO_POS, compare=False, repr=False, kw_only=True)


class Expr:
    """Base class of every node."""

    __slots__ = ()
    pos: Pos


@dataclass(frozen=True, slots=True)
class Int(Expr):
    value: int
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Bool(Expr):
    value: bool
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class NoneLit(Expr):
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Str(Expr):
    value: str
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class CardLit(Expr):
    """``pink 9``: a suit name followed by a rank; resolved against the deck when checked."""

    suit: str
    rank: int
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Name(Expr):
    """A bare name: built-in name, role, suit, special card or bound variable."""

    name: str
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    items: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    """``-x`` or ``not x``."""

    op: str
    operand: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    """Arithmetic ``+ - * // %`` and boolean ``and or``."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    """``== != < <= > >= in``, ``not in`` (comparisons do not chain)."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Field(Expr):
    """``obj.name``; ``name_pos`` is where the field name is written."""

    obj: Expr
    name: str
    pos: Pos = _pos()
    name_pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Quant(Expr):
    """``kind(var in source: body)`` with kind one of all, any, count, sum, max, min."""

    kind: str
    var: str
    source: Expr
    body: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Conditional(Expr):
    """``then if cond else other``."""

    then: Expr
    cond: Expr
    other: Expr
    pos: Pos = _pos()


QUANTIFIERS = ("all", "any", "count", "sum", "max", "min")
ARITH_OPS = ("+", "-", "*", "//", "%")
BOOL_OPS = ("and", "or")
COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


def children(node: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``node``, in source order."""
    if isinstance(node, Binary | Compare):
        return (node.left, node.right)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, Field):
        return (node.obj,)
    if isinstance(node, Quant):
        return (node.source, node.body)
    if isinstance(node, Conditional):
        return (node.then, node.cond, node.other)
    return ()


def walk(node: Expr) -> Iterator[Expr]:
    """Every node of the tree, parents before children (iterative: safe on any depth)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def depth(node: Expr) -> int:
    """The number of nodes on the longest path from ``node`` down to a leaf (iterative)."""
    best = 0
    stack: list[tuple[Expr, int]] = [(node, 1)]
    while stack:
        n, d = stack.pop()
        if d > best:
            best = d
        stack.extend((c, d + 1) for c in children(n))
    return best


def bind_names(node: Expr, values: Mapping[str, Expr]) -> Expr:
    """``node`` with every free occurrence of the names in ``values`` replaced by their node (a quantifier's
    own variable hides an outer name of the same spelling). The engine binds a task card's ``owner`` to the
    seat that took it this way, so the bound tree reads like any mission condition (the bots' C translation
    and the solver see a number, not a name they would have to be told about)."""
    if not values:
        return node
    if isinstance(node, Name):
        return values.get(node.name, node)
    if isinstance(node, Quant):
        inner = {k: v for k, v in values.items() if k != node.var}
        return replace(node, source=bind_names(node.source, values), body=bind_names(node.body, inner))
    if isinstance(node, Binary | Compare):
        return replace(node, left=bind_names(node.left, values), right=bind_names(node.right, values))
    if isinstance(node, Unary):
        return replace(node, operand=bind_names(node.operand, values))
    if isinstance(node, Call):
        return replace(node, args=tuple(bind_names(a, values) for a in node.args))
    if isinstance(node, ListLit):
        return replace(node, items=tuple(bind_names(i, values) for i in node.items))
    if isinstance(node, Field):
        return replace(node, obj=bind_names(node.obj, values))
    if isinstance(node, Conditional):
        return replace(node, then=bind_names(node.then, values), cond=bind_names(node.cond, values),
                       other=bind_names(node.other, values))
    return node  # literals


def free_names(node: Expr) -> set[str]:
    """The names ``node`` reads that no quantifier of its own binds."""
    out: set[str] = set()
    stack: list[tuple[Expr, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        if isinstance(n, Name):
            if n.name not in bound:
                out.add(n.name)
        elif isinstance(n, Quant):
            stack.append((n.source, bound))
            stack.append((n.body, bound | {n.var}))
        else:
            stack.extend((c, bound) for c in children(n))
    return out
