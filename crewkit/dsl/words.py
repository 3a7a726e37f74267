"""Conditions and score formulas in English: ``words(parse("tricks_won(sick) > 0"))``.

Every word reads through its ``phrase`` in :mod:`crewkit.dsl.vocabulary`; operators and quantifiers have
their phrases here. ``names`` replaces a bare name (a role, a bound variable, ``commander``) by the words
given, e.g. a player's name once the role is bound. Sub-expressions that bind looser than their place
needs are put in parentheses, as in the source text, so the sentence reads one way only.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import ast as A
from .parser import parse
from .text import CMP, NOT, OR, POSTFIX, PROD, SUM, TERNARY, UNARY, level
from .vocabulary import FIELDS, FUNCTIONS, NAMES

_COMPARE = {
    "==": "{0} is {1}",
    "!=": "{0} is not {1}",
    "<": "{0} is less than {1}",
    "<=": "{0} is at most {1}",
    ">": "{0} is more than {1}",
    ">=": "{0} is at least {1}",
    "in": "{0} is among {1}",
    "not in": "{0} is not among {1}",
}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)", "%": "modulo"}
_BINARY_LEVEL = {"or": OR, "and": 2, "+": SUM, "-": SUM, "*": PROD, "//": PROD, "%": PROD}
_QUANT = {
    "all": "for every {var} among {source}: {body}",
    "any": "for some {var} among {source}: {body}",
    "count": "the number of {var} among {source} for which {body}",
    "sum": "the total of {body} over every {var} among {source}",
    "max": "the largest value of {body} over every {var} among {source}",
    "min": "the smallest value of {body} over every {var} among {source}",
}
# A field name shared by several types (``name``, ``is_trump``, ``done``): the first owner's phrase is
# neutral enough for each ("the name of x", "x is a trump").
_FIELD_PHRASES: dict[str, str] = {}
for _owner in FIELDS.values():
    for _name, _word in _owner.items():
        _FIELD_PHRASES.setdefault(_name, _word.phrase)


def _is_not(node: A.Expr) -> bool:
    return isinstance(node, A.Unary) and node.op == "not"


def role_phrase(role: str) -> str:
    """A role chosen during setup, not yet bound to a player: ``the player chosen as sick``."""
    return f"the player chosen as {role.replace('_', ' ')}"


def words(expr: A.Expr | str, names: Mapping[str, str] | None = None) -> str:
    """``expr`` (a tree or its source text) as an English phrase."""
    if isinstance(expr, str):
        expr = parse(expr)
    return _Speaker(dict(names or {})).say(expr, TERNARY)


class _Speaker:
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.bound: list[str] = []

    def say(self, node: A.Expr, min_level: int) -> str:
        text = self.text(node)
        return f"({text})" if level(node) < min_level else text

    def text(self, node: A.Expr) -> str:
        if isinstance(node, A.Int):
            return str(node.value)
        if isinstance(node, A.Bool):
            return "true" if node.value else "false"
        if isinstance(node, A.NoneLit):
            return "nobody"
        if isinstance(node, A.Str):
            return f"\u201c{node.value}\u201d"
        if isinstance(node, A.CardLit):
            return f"{node.suit} {node.rank}"
        if isinstance(node, A.Name):
            return self.name(node.name)
        if isinstance(node, A.ListLit):
            items = [self.say(i, CMP) for i in node.items]
            if not items:
                return "no items"
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
        if isinstance(node, A.Call):
            word = FUNCTIONS.get(node.func)
            args = [self.say(a, SUM) for a in node.args]
            if word is None or not word.phrase:
                return f"{node.func}(" + ", ".join(args) + ")"
            return word.phrase.format(*args)
        if isinstance(node, A.Field):
            phrase = _FIELD_PHRASES.get(node.name)
            obj = self.say(node.obj, POSTFIX)
            return phrase.format(obj) if phrase else f"the {node.name.replace('_', ' ')} of {obj}"
        if isinstance(node, A.Quant):
            self.bound.append(node.var)
            try:
                body = self.say(node.body, TERNARY)
            finally:
                self.bound.pop()
            source = self.say(node.source, SUM)
            return _QUANT[node.kind].format(var=node.var, source=source, body=body)
        if isinstance(node, A.Unary):
            if node.op == "not":
                return "it is not true that " + self.say(node.operand, NOT)
            return "minus " + self.say(node.operand, UNARY)
        if isinstance(node, A.Binary):
            lv = _BINARY_LEVEL[node.op]
            left, right = self.say(node.left, lv), self.say(node.right, lv + 1)
            if node.op in ("and", "or"):  # "it is not true that a or b" would read two ways
                left = f"({left})" if _is_not(node.left) else left
                right = f"({right})" if _is_not(node.right) else right
            if node.op == "and":
                return f"{left} and {right}"
            if node.op == "or":
                return f"{left} or {right}"
            return f"{left} {_ARITH[node.op]} {right}"
        if isinstance(node, A.Compare):
            left = self.say(node.left, SUM)
            if isinstance(node.right, A.NoneLit) and node.op in ("==", "!="):
                return f"{left} is {'not yet known' if node.op == '==' else 'known'}"
            return _COMPARE[node.op].format(left, self.say(node.right, SUM))
        if isinstance(node, A.Conditional):
            then = self.say(node.then, OR)
            return f"{then} if {self.say(node.cond, OR)}, otherwise {self.say(node.other, TERNARY)}"
        return type(node).__name__  # pragma: no cover - every node kind is handled above

    def name(self, name: str) -> str:
        if name in self.bound:  # a quantifier's variable shadows every other name
            return name
        if name in self.names:
            return self.names[name]
        word = NAMES.get(name)
        if word is not None and word.phrase:
            return word.phrase
        return name  # a suit, a special card or a role left unbound: the caller names roles


def with_roles(roles: Mapping[str, str] | None = None, unbound: tuple[str, ...] = ()) -> dict[str, str]:
    """``names`` for :func:`words`: bound roles by the given words, unbound ones as "the player chosen as X"."""
    out = {r: role_phrase(r) for r in unbound}
    out.update(roles or {})
    return out
