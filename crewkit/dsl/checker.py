"""Static checking: names, functions, fields, cards and types, with positioned, friendly messages."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from crewkit.cards import Card, CardError, Deck

from . import ast as A
from .cost import cost_errors
from .errors import DslError, DslNameError, DslRuntimeError, DslTypeError
from .parser import MAX_DEPTH
from .types import ANY, BOOL, CARD, INT, NONE, PLAYER, STR, SUIT, Type, assignable, comparable, unify
from .vocabulary import FIELDS, FUNCTIONS, NAMES

_EMPTY: Mapping[str, Type] = MappingProxyType({})


@dataclass(frozen=True)
class CheckEnv:
    """What an expression may refer to.

    ``roles`` are the mission's role names (players chosen during setup); ``bound`` are variables the
    caller binds when evaluating (``p`` in a per-player score formula); ``expect`` is the type the whole
    expression must have (``BOOL`` for conditions, ``INT`` for scores), or None for any. ``seats`` is the
    most players the expression can be evaluated with (when known, a seat number past it is refused and
    the cost estimate uses it).
    """

    deck: Deck
    roles: frozenset[str] = frozenset()
    bound: Mapping[str, Type] = field(default_factory=lambda: _EMPTY)
    expect: Type | None = None
    seats: int | None = None


def check(expr: A.Expr, env: CheckEnv) -> Type:
    """The type of ``expr``; raise the first :class:`DslError` found (all of them in ``err.all_errors``)."""
    t, errors = check_all(expr, env)
    if errors:
        first = errors[0]
        first.others = tuple(errors[1:])
        raise first
    return t


def check_all(expr: A.Expr, env: CheckEnv) -> tuple[Type, list[DslError]]:
    """The type of ``expr`` and every error found (empty when it is fine); never raises for bad input."""
    if A.depth(expr) > MAX_DEPTH + 1:
        return ANY, [
            DslError(f"expression nested too deeply (more than {MAX_DEPTH} levels)", line=1, column=1)
        ]
    c = _Checker(env)
    for name in env.bound:
        if name in NAMES:
            c.error(DslNameError, f"`{name}` is a built-in name and cannot be bound by the caller", expr.pos)
    t = c.visit(expr, {})
    if env.expect is not None and not c.errors and not assignable(t, env.expect):
        c.error(DslTypeError, f"expected {env.expect.describe()}, found {t.describe()}", expr.pos)
    if not c.errors:  # a well-typed expression: can it be evaluated in reasonable time and memory?
        c.errors.extend(cost_errors(expr, env.deck, env.seats))
    return t, c.errors


def suggest(word: str, candidates: Iterable[str]) -> str:
    """``; did you mean `x`?`` or an empty string."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


def special_card(deck: Deck, name: str) -> Card | None:
    """The lone special card called ``name`` (Hammer's ``ten``), if any.

    One-letter names are never card names here (they are the cards' codes, and usually variables).
    """
    if len(name) < 2:
        return None
    try:
        card = deck.card(name)
    except CardError:
        return None
    return card if card.suit is None else None


class _Checker:
    def __init__(self, env: CheckEnv) -> None:
        self.env = env
        self.deck = env.deck
        self.errors: list[DslError] = []

    def error(self, cls: type[DslError], message: str, pos: A.Pos) -> None:
        end = pos.end_column if pos.end_line == pos.line and pos.end_column > pos.column else None
        self.errors.append(cls(message, line=pos.line, column=pos.column, offset=pos.offset, end_column=end))

    # ------------------------------------------------------------------------------------------ nodes

    def visit(self, node: A.Expr, scope: dict[str, Type]) -> Type:
        if isinstance(node, A.Int):
            return INT
        if isinstance(node, A.Bool):
            return BOOL
        if isinstance(node, A.Str):
            return STR
        if isinstance(node, A.NoneLit):
            return NONE
        if isinstance(node, A.Name):
            return self.name(node, scope)
        if isinstance(node, A.CardLit):
            return self.card(node)
        if isinstance(node, A.ListLit):
            return self.list_(node, scope)
        if isinstance(node, A.Unary):
            return self.unary(node, scope)
        if isinstance(node, A.Binary):
            return self.binary(node, scope)
        if isinstance(node, A.Compare):
            return self.compare(node, scope)
        if isinstance(node, A.Call):
            return self.call(node, scope)
        if isinstance(node, A.Field):
            return self.field(node, scope)
        if isinstance(node, A.Quant):
            return self.quant(node, scope)
        if isinstance(node, A.Conditional):
            return self.conditional(node, scope)
        self.error(DslTypeError, f"unknown syntax {type(node).__name__}", node.pos)  # pragma: no cover
        return ANY  # pragma: no cover

    def known_names(self, scope: Mapping[str, Type]) -> list[str]:
        return [*scope, *NAMES, *self.env.bound, *self.env.roles, *(s.name for s in self.deck.suits)]

    def name(self, node: A.Name, scope: dict[str, Type]) -> Type:
        n = node.name
        if n in scope:
            return scope[n]
        if n in NAMES:
            return NAMES[n].returns
        if n in self.env.bound:
            return self.env.bound[n]
        if n in self.env.roles:
            return PLAYER
        if self.deck.has_suit(n):
            return SUIT
        if special_card(self.deck, n) is not None:
            return CARD
        if n in FUNCTIONS:
            w = FUNCTIONS[n]
            example = f"{n}({', '.join(p.name for p in w.params)})"
            self.error(DslNameError, f"`{n}` is a function; call it, e.g. `{example}`", node.pos)
            return ANY
        self.error(DslNameError, f"unknown name `{n}`{suggest(n, self.known_names(scope))}", node.pos)
        return ANY

    def card(self, node: A.CardLit) -> Type:
        if not self.deck.has_suit(node.suit):
            suits = [s.name for s in self.deck.suits]
            hint = suggest(node.suit, suits) or f"; this deck's suits are {', '.join(suits)}"
            self.error(DslNameError, f"unknown suit `{node.suit}`{hint}", node.pos)
            return CARD
        try:
            self.deck.card(f"{node.suit} {node.rank}")
        except CardError:
            self.error(DslNameError, f"{node.suit} {node.rank} is not in this deck", node.pos)
        return CARD

    def list_(self, node: A.ListLit, scope: dict[str, Type]) -> Type:
        elem: Type = ANY
        for item in node.items:
            t = self.visit(item, scope)
            u = unify(elem, t)
            if u is None:
                self.error(
                    DslTypeError,
                    f"a list holds values of one type: found {elem.describe()} and {t.describe()}",
                    item.pos,
                )
                return Type("list", ANY)
            elem = u
        return Type("list", elem)

    def expect(self, node: A.Expr, t: Type, want: Type, what: str) -> None:
        if not assignable(t, want):
            self.error(DslTypeError, f"{what} needs {want.plural()}, found {t.describe()}", node.pos)

    def unary(self, node: A.Unary, scope: dict[str, Type]) -> Type:
        t = self.visit(node.operand, scope)
        if node.op == "not":
            if not assignable(t, BOOL):
                self.error(DslTypeError, f"`not` needs a boolean, found {t.describe()}", node.operand.pos)
            return BOOL
        if not assignable(t, INT):
            self.error(DslTypeError, f"`-` needs a number, found {t.describe()}", node.operand.pos)
        return INT

    def binary(self, node: A.Binary, scope: dict[str, Type]) -> Type:
        lt = self.visit(node.left, scope)
        rt = self.visit(node.right, scope)
        op = node.op
        if op in ("and", "or"):
            self.expect(node.left, lt, BOOL, f"`{op}`")
            self.expect(node.right, rt, BOOL, f"`{op}`")
            return BOOL
        if op == "+" and lt.is_list and rt.is_list:
            u = unify(lt.strict(), rt.strict())
            if u is None:
                self.error(DslTypeError, f"`+` cannot join {lt.describe()} and {rt.describe()}", node.pos)
                return ANY
            return u
        self.expect(node.left, lt, INT, f"`{op}`")
        self.expect(node.right, rt, INT, f"`{op}`")
        return INT

    def compare(self, node: A.Compare, scope: dict[str, Type]) -> Type:
        lt = self.visit(node.left, scope)
        rt = self.visit(node.right, scope)
        op = node.op
        if op in ("==", "!="):
            if not comparable(lt, rt):
                self.error(
                    DslTypeError, f"`{op}` cannot compare {lt.describe()} with {rt.describe()}", node.pos
                )
        elif op in ("in", "not in"):
            if rt.kind == "any":
                return BOOL
            if not rt.is_list:
                self.error(
                    DslTypeError, f"`{op}` needs a list on the right, found {rt.describe()}", node.right.pos
                )
            elif rt.elem is not None and not comparable(lt, rt.elem):
                self.error(DslTypeError, f"`{op}`: {lt.describe()} is never in {rt.describe()}", node.pos)
        else:
            self.expect(node.left, lt, INT, f"`{op}`")
            self.expect(node.right, rt, INT, f"`{op}`")
        return BOOL

    def call(self, node: A.Call, scope: dict[str, Type]) -> Type:
        name = node.func
        word = FUNCTIONS.get(name)
        arg_types = [self.visit(a, scope) for a in node.args]
        if word is None:
            if name in A.QUANTIFIERS:
                self.error(DslTypeError, f"`{name}` needs a variable: `{name}(x in LIST: ...)`", node.pos)
            elif name in NAMES or name in scope or name in self.env.roles or name in self.env.bound:
                self.error(DslTypeError, f"`{name}` is not a function", node.pos)
            else:
                hint = suggest(name, [*FUNCTIONS, *A.QUANTIFIERS])
                self.error(DslNameError, f"unknown function `{name}`{hint}", node.pos)
            return ANY
        if len(node.args) != len(word.params):
            hint = ""
            if name in ("max", "min", "count"):
                hint = f"; over a list write `{name}(x in LIST: ...)`" if name != "count" else ""
            self.error(
                DslTypeError, f"`{name}` takes {word.arity_text()}, found {len(node.args)}{hint}", node.pos
            )
            return word.returns
        for i, (arg, t, param) in enumerate(zip(node.args, arg_types, word.params, strict=True), start=1):
            if not assignable(t, param.type):
                which = "its argument" if len(word.params) == 1 else f"argument {i}"
                self.error(
                    DslTypeError,
                    f"`{name}` needs {param.describe()} as {which}, found {t.describe()}",
                    arg.pos,
                )
            elif param.type.kind == "player":
                self.seat_literal(name, arg)
        return word.returns

    def seat_literal(self, func: str, arg: A.Expr) -> None:
        """Refuse a seat number written out that no table has (``hand(7)``, ``cards_won(-1)``)."""
        value: int | None = None
        if isinstance(arg, A.Int):
            value = arg.value
        elif isinstance(arg, A.Unary) and arg.op == "-" and isinstance(arg.operand, A.Int):
            value = -arg.operand.value
        if value is None:
            return
        if value < 0:
            self.error(DslRuntimeError, f"`{func}`: seats are numbered from 0, found {value}", arg.pos)
        elif self.env.seats is not None and value >= self.env.seats:
            self.error(
                DslRuntimeError,
                f"`{func}`: there is no seat {value}; at most {self.env.seats} players sit at this table "
                f"(seats 0 to {self.env.seats - 1})",
                arg.pos,
            )

    def field(self, node: A.Field, scope: dict[str, Type]) -> Type:
        t = self.visit(node.obj, scope)
        if t.kind == "any":
            return ANY
        if t.kind == "none":
            self.error(DslTypeError, f"none has no field `{node.name}`", node.name_pos)
            return ANY
        table = FIELDS.get(t.kind)
        if table is None:
            self.error(
                DslTypeError, f"{t.strict().describe()} has no fields (no field `{node.name}`)", node.name_pos
            )
            return ANY
        word = table.get(node.name)
        if word is None:
            self.error(
                DslNameError,
                f"{t.strict().describe()} has no field `{node.name}`{suggest(node.name, table)}",
                node.name_pos,
            )
            return ANY
        return word.returns.or_none() if t.maybe else word.returns

    def quant(self, node: A.Quant, scope: dict[str, Type]) -> Type:
        st = self.visit(node.source, scope)
        elem: Type = ANY
        if st.kind != "any":
            if not st.is_list:
                self.error(
                    DslTypeError,
                    f"`{node.kind}` needs a list after `in`, found {st.describe()}",
                    node.source.pos,
                )
            else:
                elem = st.elem or ANY
        if node.var in NAMES:
            self.error(
                DslNameError, f"`{node.var}` is a built-in name; choose another variable name", node.pos
            )
        if node.kind in ("max", "min") and isinstance(node.source, A.ListLit) and not node.source.items:
            self.error(DslRuntimeError, f"`{node.kind}` over an empty list has no value", node.source.pos)
        inner = dict(scope)
        inner[node.var] = elem
        bt = self.visit(node.body, inner)
        if node.kind in ("all", "any", "count"):
            if not assignable(bt, BOOL):
                self.error(
                    DslTypeError,
                    f"`{node.kind}` needs a condition after ':', found {bt.describe()}",
                    node.body.pos,
                )
            return BOOL if node.kind != "count" else INT
        if not assignable(bt, INT):
            self.error(
                DslTypeError, f"`{node.kind}` needs a number after ':', found {bt.describe()}", node.body.pos
            )
        return INT

    def conditional(self, node: A.Conditional, scope: dict[str, Type]) -> Type:
        tt = self.visit(node.then, scope)
        ct = self.visit(node.cond, scope)
        ot = self.visit(node.other, scope)
        if not assignable(ct, BOOL):
            self.error(
                DslTypeError,
                f"the condition after `if` must be a boolean, found {ct.describe()}",
                node.cond.pos,
            )
        u = unify(tt, ot)
        if u is None:
            self.error(
                DslTypeError,
                f"both sides of `if ... else` must have one type, found {tt.describe()} and {ot.describe()}",
                node.pos,
            )
            return ANY
        return u


__all__ = ["CheckEnv", "check", "check_all", "special_card", "suggest"]
