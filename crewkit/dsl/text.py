"""Canonical printing: ``to_text(expr)`` with as few parentheses as the grammar needs.

``parse(to_text(e)) == e`` for every tree the parser can produce (positions are not compared).
"""

from __future__ import annotations

from . import ast as A
from .errors import DslError
from .parser import MAX_DEPTH

# Precedence levels, loosest first (they mirror condition.lark).
TERNARY, OR, AND, NOT, CMP, SUM, PROD, UNARY, POSTFIX = range(9)
_BINARY_LEVEL = {"or": OR, "and": AND, "+": SUM, "-": SUM, "*": PROD, "//": PROD, "%": PROD}


def level(node: A.Expr) -> int:
    if isinstance(node, A.Conditional):
        return TERNARY
    if isinstance(node, A.Binary):
        return _BINARY_LEVEL[node.op]
    if isinstance(node, A.Unary):
        return NOT if node.op == "not" else UNARY
    if isinstance(node, A.Compare):
        return CMP
    return POSTFIX


def quote(s: str) -> str:
    """A string literal for ``s``."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def to_text(expr: A.Expr) -> str:
    """The canonical text of ``expr``."""
    if A.depth(expr) > MAX_DEPTH + 1:
        raise DslError(f"expression nested too deeply (more than {MAX_DEPTH} levels)")
    return _emit(expr, TERNARY)


def _emit(node: A.Expr, min_level: int) -> str:
    text = _text(node)
    return f"({text})" if level(node) < min_level else text


def _text(node: A.Expr) -> str:
    if isinstance(node, A.Int):
        return str(node.value)
    if isinstance(node, A.Bool):
        return "true" if node.value else "false"
    if isinstance(node, A.NoneLit):
        return "none"
    if isinstance(node, A.Str):
        return quote(node.value)
    if isinstance(node, A.CardLit):
        return f"{node.suit} {node.rank}"
    if isinstance(node, A.Name):
        return node.name
    if isinstance(node, A.ListLit):
        return "[" + ", ".join(_emit(i, TERNARY) for i in node.items) + "]"
    if isinstance(node, A.Call):
        return f"{node.func}(" + ", ".join(_emit(a, TERNARY) for a in node.args) + ")"
    if isinstance(node, A.Quant):
        return f"{node.kind}({node.var} in {_emit(node.source, SUM)}: {_emit(node.body, TERNARY)})"
    if isinstance(node, A.Field):
        return f"{_emit(node.obj, POSTFIX)}.{node.name}"
    if isinstance(node, A.Unary):
        if node.op == "not":
            return "not " + _emit(node.operand, NOT)
        inner = _emit(node.operand, UNARY)
        return "-" + inner
    if isinstance(node, A.Binary):
        lv = _BINARY_LEVEL[node.op]
        return f"{_emit(node.left, lv)} {node.op} {_emit(node.right, lv + 1)}"
    if isinstance(node, A.Compare):
        return f"{_emit(node.left, SUM)} {node.op} {_emit(node.right, SUM)}"
    if isinstance(node, A.Conditional):
        return f"{_emit(node.then, OR)} if {_emit(node.cond, OR)} else {_emit(node.other, TERNARY)}"
    raise DslError(f"cannot print {type(node).__name__}")  # pragma: no cover
