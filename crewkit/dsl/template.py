"""Reason strings with embedded expressions: ``"seat {sick} won trick {trick.number}"``.

``{{`` and ``}}`` stand for literal braces. Errors are positioned within the template text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from crewkit.cards import Card, Suit

from . import ast as A
from .checker import CheckEnv, check_all
from .errors import DslError, DslSyntaxError
from .evaluator import compile_expr
from .parser import MAX_LENGTH, line_col, parse
from .view import TaskView, TrickView, View

Template = tuple["str | A.Expr", ...]


def _error(
    cls: type[DslError], message: str, text: str, offset: int, others: tuple[DslError, ...] = ()
) -> DslError:
    line, col = line_col(text, offset)
    return cls(message, line=line, column=col, offset=offset, others=others)


def _relocate(err: DslError, text: str, base: int) -> DslError:
    """The same error, positioned in the template (the expression starts at offset ``base``)."""
    offset = base + (err.offset or 0)
    line, col = line_col(text, offset)
    end = None
    if err.end_column is not None and err.column is not None:
        end = col + (err.end_column - err.column)
    return type(err)(
        err.message,
        line=line,
        column=col,
        offset=offset,
        end_column=end,
        others=tuple(_relocate(o, text, base) for o in err.others),
    )


def parse_template(text: str) -> tuple[str | A.Expr, ...]:
    """Split a reason template into literal strings and parsed expressions."""
    if len(text) > MAX_LENGTH:
        raise DslSyntaxError(
            f"template too long ({len(text)} characters; at most {MAX_LENGTH})", line=1, column=1, offset=0
        )
    parts: list[str | A.Expr] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "{" and text.startswith("{{", i):
            buf.append("{")
            i += 2
        elif ch == "}" and text.startswith("}}", i):
            buf.append("}")
            i += 2
        elif ch == "}":
            raise _error(DslSyntaxError, "single '}' in a template; write '}}' for a brace", text, i)
        elif ch == "{":
            start = i + 1
            j = start
            quote = ""
            while j < n:
                c = text[j]
                if quote:
                    if c == "\\":
                        j += 1
                    elif c == quote:
                        quote = ""
                elif c in "\"'":
                    quote = c
                elif c == "}":
                    break
                elif c == "{":
                    raise _error(DslSyntaxError, "'{' inside an embedded expression", text, j)
                j += 1
            if j >= n:
                raise _error(DslSyntaxError, "unclosed '{' in a template; write '{{' for a brace", text, i)
            source = text[start:j]
            if not source.strip():
                raise _error(DslSyntaxError, "empty expression in '{}'", text, i)
            try:
                expr = parse(source)
            except DslError as e:
                raise _relocate(e, text, start) from None
            if buf:
                parts.append("".join(buf))
                buf = []
            parts.append(_shift(expr, text, start))
            i = j + 1
        else:
            buf.append(ch)
            i += 1
    if buf:
        parts.append("".join(buf))
    return tuple(parts)


def _shift(expr: A.Expr, text: str, base: int) -> A.Expr:
    """The same tree with positions moved into the template (expression text starts at ``base``)."""

    def pos(p: A.Pos) -> A.Pos:
        line, col = line_col(text, base + p.offset)
        end_line, end_col = line_col(text, base + p.end_offset)
        return A.Pos(base + p.offset, line, col, base + p.end_offset, end_line, end_col)

    def rebuild(node: A.Expr) -> A.Expr:
        changes: dict[str, Any] = {}
        for f in dataclasses.fields(node):  # type: ignore[arg-type]
            value = getattr(node, f.name)
            if isinstance(value, A.Pos):
                changes[f.name] = pos(value)
            elif isinstance(value, A.Expr):
                changes[f.name] = rebuild(value)
            elif isinstance(value, tuple):
                changes[f.name] = tuple(rebuild(v) if isinstance(v, A.Expr) else v for v in value)
        return dataclasses.replace(node, **changes)  # type: ignore[type-var]

    return rebuild(expr)


def check_template(parts: Sequence[str | A.Expr], env: CheckEnv) -> list[DslError]:
    """Check every embedded expression (any type is fine); errors are positioned within the template."""
    errors: list[DslError] = []
    plain = CheckEnv(env.deck, env.roles, env.bound, None, env.seats)
    for part in parts:
        if isinstance(part, A.Expr):
            errors.extend(check_all(part, plain)[1])
    return errors


def format_value(x: Any) -> str:
    """How a value reads in a reason: cards and suits by name, players as plain numbers, none as none."""
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int | str):
        return str(x)
    if isinstance(x, Card | Suit):
        return x.name
    if isinstance(x, list | tuple):
        return ", ".join(format_value(i) for i in x)
    if isinstance(x, TrickView):
        return f"trick {x.number}"
    if isinstance(x, TaskView):
        return f"task {x.card.name}"
    return str(x)


def compile_template(parts: Sequence[str | A.Expr]) -> Callable[..., str]:
    """Compile once: ``f(view, bindings={}) -> str``."""
    pieces: list[str | Callable[..., Any]] = [p if isinstance(p, str) else compile_expr(p) for p in parts]

    def render(view: View, bindings: Mapping[str, Any] | None = None) -> str:
        b = bindings or {}
        return "".join(p if isinstance(p, str) else format_value(p(view, b)) for p in pieces)

    return render


def render_template(
    parts: Sequence[str | A.Expr], view: View, bindings: Mapping[str, Any] | None = None
) -> str:
    """Evaluate the embedded expressions and join the pieces."""
    return compile_template(parts)(view, bindings)


def words_template(expr: A.Expr, roles: Sequence[str]) -> str:
    """A reason template that says ``expr`` in words (:func:`crewkit.dsl.words.words`), each role by its
    seat once bound (``seat {sick}``): the reason of a condition whose file states none."""
    from .words import words

    # \x01, not \x00: words() itself brackets quantifier variables in \x00 (and says them as "it")
    marks = {role: f"\x01{i}\x01" for i, role in enumerate(roles)}
    text = words(expr, marks).replace("{", "{{").replace("}", "}}")
    for i, role in enumerate(roles):
        text = text.replace(f"\x01{i}\x01", f"seat {{{role}}}")
    return text

