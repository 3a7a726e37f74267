"""Parsing condition text into the syntax tree (:mod:`crewkit.dsl.ast`).

The Lark LALR parser is built once, on first use, and kept in a module global. Lark builds its tree
without recursion; the conversion to our nodes below is iterative too, and refuses trees deeper than
``MAX_DEPTH``, so nothing downstream (checker, printer, compiler) can hit Python's recursion limit.
"""

from __future__ import annotations

import difflib
import re
import threading
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import ast as A
from .errors import DslError, DslSyntaxError

if TYPE_CHECKING:  # lark is imported lazily: importing crewkit.dsl stays cheap
    from lark import Lark, Token, Tree

MAX_LENGTH = 10_000
MAX_DEPTH = 64
#: the most digits of a number written in an expression (see crewkit.dsl.limits)
MAX_INT_DIGITS = 1_000

_lock = threading.Lock()
_parser: Lark | None = None


def grammar_text() -> str:
    """The grammar (``condition.lark``) shipped inside the package."""
    return resources.files(__package__).joinpath("condition.lark").read_text(encoding="utf-8")


_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "basic",  # keywords are keywords everywhere (the contextual lexer would
    "keep_all_tokens": True,  # read a misplaced `and` as a name)
    "propagate_positions": True,
    "maybe_placeholders": False,
}


def _cache_path(grammar: str) -> Path | None:
    """The grammar analysis cache file in the user's own cache folder, or None (build without a cache).

    Lark's own ``cache=True`` unpickles a predictable file in the shared temp folder, which anyone on the
    machine can plant; this file lives in a 0700 folder of the user's and is named by everything that
    shapes its content, so a stale or foreign file is never picked up under this name.
    """
    import hashlib
    import sys

    import lark

    from crewkit.usercache import private_cache_dir

    folder = private_cache_dir()
    if folder is None:
        return None
    key = f"{grammar}{sorted(_OPTIONS.items())}{lark.__version__}{sys.version_info[:2]}"
    return folder / f"condition-grammar-{hashlib.sha256(key.encode()).hexdigest()[:24]}.lark-cache"


def _build_parser(grammar: str) -> Lark:
    """Build the parser, loading the grammar analysis from the user's cache when it is safely there."""
    import os

    from lark import Lark

    from crewkit.usercache import discard, safe_cached_file

    path = _cache_path(grammar)
    if path is None:
        return Lark(grammar, **_OPTIONS)
    if safe_cached_file(path):
        return Lark(grammar, cache=str(path), **_OPTIONS)
    if path.is_symlink() or path.exists():
        discard(path)  # not ours or not private: never loaded, replaced below
    # Written under a private temporary name, then renamed: a reader never sees half a file.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    discard(tmp)
    try:
        parser = Lark(grammar, cache=str(tmp), **_OPTIONS)
        if safe_cached_file(tmp):
            os.replace(tmp, path)
    except OSError:
        parser = Lark(grammar, **_OPTIONS)  # a cache that cannot be written: parse tables built each run
    finally:
        discard(tmp)  # also when interrupted: no half-written file stays in the cache folder
    return parser


def get_parser() -> Lark:
    """The shared LALR parser (built on first call; ~1 ms from the user's cache instead of ~0.2 s)."""
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                _parser = _build_parser(grammar_text())
    return _parser


# Terminal names as people write them.
SYMBOLS: dict[str, str] = {
    "IF": "if",
    "ELSE": "else",
    "OR": "or",
    "AND": "and",
    "NOT": "not",
    "IN": "in",
    "TRUE": "true",
    "FALSE": "false",
    "NONE": "none",
    "EQ": "==",
    "NE": "!=",
    "LE": "<=",
    "GE": ">=",
    "LT": "<",
    "GT": ">",
    "PLUS": "+",
    "MINUS": "-",
    "STAR": "*",
    "FLOORDIV": "//",
    "PERCENT": "%",
    "DOT": ".",
    "COMMA": ",",
    "COLON": ":",
    "LPAR": "(",
    "RPAR": ")",
    "LSQB": "[",
    "RSQB": "]",
}
_EXPR_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "NOT", "TRUE", "FALSE", "NONE"}
_OPERATORS = {
    "PLUS",
    "MINUS",
    "STAR",
    "FLOORDIV",
    "PERCENT",
    "EQ",
    "NE",
    "LT",
    "LE",
    "GT",
    "GE",
    "IN",
    "NOT",
    "AND",
    "OR",
    "IF",
    "DOT",
}
_COMPARE_TOKENS = {"EQ", "NE", "LT", "LE", "GT", "GE", "IN"}
_LAST_TOKEN = re.compile(
    r"""\s*("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|[A-Za-z_]\w*|\d+|//|==|!=|<=|>=|[-+*%<>()\[\],.:=!/])"""
)
_CHAR_HINTS = {
    "=": "use == to compare",
    "/": "use // for whole-number division",
    "&": "use `and`",
    "|": "use `or`",
    "!": "use `not` or !=",
    "{": "braces belong to reason templates, not to expressions",
    "}": "braces belong to reason templates, not to expressions",
}


def parse(text: str) -> A.Expr:
    """Parse one expression; raise :class:`DslSyntaxError` (a :class:`DslError`) when it is malformed."""
    if not isinstance(text, str):
        raise DslSyntaxError(f"expected an expression as text, found {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise DslSyntaxError(
            f"expression too long ({len(text)} characters; at most {MAX_LENGTH})", line=1, column=1, offset=0
        )
    if not text.strip():
        raise DslSyntaxError("expected an expression, found nothing", line=1, column=1, offset=0)
    _check_bracket_depth(text)
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = get_parser().parse(text)
    except UnexpectedToken as e:
        raise _token_error(text, e) from None
    except UnexpectedCharacters as e:
        raise _char_error(text, e) from None
    except UnexpectedEOF as e:  # pragma: no cover - LALR reports $END as UnexpectedToken
        raise _error("unexpected end of input", text, len(text)) from e
    except UnexpectedInput as e:  # pragma: no cover
        raise _error(str(e).splitlines()[0], text, getattr(e, "pos_in_stream", 0) or 0) from None
    return _convert(tree, text)


# --------------------------------------------------------------------------------------------- errors


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a 0-based offset."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _error(message: str, text: str, offset: int, end: int | None = None) -> DslSyntaxError:
    line, col = line_col(text, offset)
    end_col = None
    if end is not None and "\n" not in text[offset:end]:
        end_col = col + (end - offset)
    return DslSyntaxError(message, line=line, column=col, offset=offset, end_column=end_col)


def _check_bracket_depth(text: str) -> None:
    depth = 0
    quote = ""
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
            if depth > MAX_DEPTH:
                raise _error(
                    f"expression nested too deeply (more than {MAX_DEPTH} levels of brackets)", text, i, i + 1
                )
        elif ch in ")]":
            depth -= 1
        i += 1


def _previous_token(text: str, offset: int) -> str | None:
    last = None
    for m in _LAST_TOKEN.finditer(text, 0, offset):
        last = m.group(1)
    return last


def _innermost_open(text: str, offset: int) -> str:
    """The innermost bracket still open before ``offset`` ('' if none)."""
    stack: list[str] = []
    quote = ""
    i = 0
    while i < offset:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            stack.append(ch)
        elif ch in ")]" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else ""


def _describe_expected(expected: set[str], text: str, offset: int) -> str:
    names = set(expected)
    if "NAME" in names and "LSQB" in names:
        return "an expression"
    opened = _innermost_open(text, offset)
    if opened != "(":
        names.discard("RPAR")
    if opened != "[":
        names.discard("RSQB")
    if not opened:
        names.discard("COMMA")
    if opened != "(":
        names.discard("COLON")
    if not re.search(r"\bif\b", text[:offset]):
        names.discard("ELSE")
    shown: list[str] = []
    if names & (_OPERATORS - {"DOT", "NOT", "IN"}):
        shown.append("an operator")
        names -= _OPERATORS
    shown += sorted(f"'{SYMBOLS[n]}'" if n in SYMBOLS else _describe_terminal(n) for n in names - {"$END"})
    if "$END" in names:
        shown.append("the end of the expression")
    if not shown:
        return "nothing more"
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def _describe_terminal(name: str) -> str:
    return {"NAME": "a name", "INT": "a number", "STRING": "a string"}.get(name, name.lower())


def _found(tok: Token) -> str:
    if tok.type == "$END":
        return "end of input"
    if tok.type in SYMBOLS:
        return f"'{tok.value}'"
    if tok.type == "NAME":
        return f"name `{tok.value}`"
    if tok.type == "INT":
        return f"number {tok.value}"
    if tok.type == "STRING":
        return f"string {tok.value}"
    return repr(str(tok.value))


def _token_error(text: str, e: Any) -> DslSyntaxError:
    tok = e.token
    expected = set(e.expected or ())
    if tok.type == "$END":
        offset = len(text.rstrip())
        prev = _previous_token(text, offset)
        exp = _describe_expected(expected, text, offset)
        where = f" after '{prev}'" if prev else ""
        msg = f"expected {exp}{where}, found end of input"
        if prev and prev[0] in "\"'" and (len(prev) == 1 or prev[-1] != prev[0]):
            msg = "unterminated string"
        return _error(msg, text, offset)
    offset = tok.start_pos if tok.start_pos is not None else 0
    prev = _previous_token(text, offset)
    exp = _describe_expected(expected, text, offset)
    found = _found(tok)
    hint = ""
    if tok.type in _COMPARE_TOKENS and not expected & _COMPARE_TOKENS and "PLUS" in expected:
        hint = "; comparisons do not chain: write `a < b and b < c`"
    elif tok.type in _EXPR_START and "NAME" not in expected and prev is not None and _is_value(prev):
        hint = "; is an operator missing?"
    where = f" after '{prev}'" if prev else " at the start"
    msg = f"unexpected {found}{where}; expected {exp}{hint}"
    return _error(msg, text, offset, tok.end_pos)


def _is_value(tok: str) -> bool:
    return tok[0].isalnum() or tok[0] in "_)]\"'"


def _char_error(text: str, e: Any) -> DslSyntaxError:
    offset = e.pos_in_stream
    ch = text[offset] if 0 <= offset < len(text) else ""
    if ch in "\"'":
        return _error("unterminated string", text, offset, offset + 1)
    hint = _CHAR_HINTS.get(ch)
    if ch == "=" and text[offset + 1 : offset + 2] == "=":  # pragma: no cover - lexed as EQ
        hint = None
    if ch == "!" and text[offset + 1 : offset + 2] != "=":
        hint = "use `not`"
    msg = f"unexpected character {ch!r}" + (f"; {hint}" if hint else "")
    return _error(msg, text, offset, offset + 1)


# ---------------------------------------------------------------------------------------- conversion


def _pos_of(item: Any) -> A.Pos:
    from lark import Token

    if isinstance(item, Token):
        return A.Pos(
            offset=item.start_pos or 0,
            line=item.line or 1,
            column=item.column or 1,
            end_offset=item.end_pos or 0,
            end_line=item.end_line or 1,
            end_column=item.end_column or 1,
        )
    m = item.meta
    return A.Pos(m.start_pos, m.line, m.column, m.end_pos, m.end_line, m.end_column)


def _leaf(tok: Token, text: str) -> A.Expr:
    pos = _pos_of(tok)
    t = tok.type
    if t == "INT":
        digits = len(tok.value)
        if digits > MAX_INT_DIGITS:  # int() itself refuses past 4300 digits, with a ValueError
            raise _error(f"number too long ({digits:,} digits; at most {MAX_INT_DIGITS:,})", text,
                         pos.offset, pos.end_offset)
        return A.Int(int(tok.value), pos=pos)
    if t == "STRING":
        return A.Str(_unquote(tok.value), pos=pos)
    if t == "TRUE":
        return A.Bool(True, pos=pos)
    if t == "FALSE":
        return A.Bool(False, pos=pos)
    if t == "NONE":
        return A.NoneLit(pos=pos)
    raise _error(f"unexpected {_found(tok)}", text, pos.offset)  # pragma: no cover


def _unquote(raw: str) -> str:
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _convert(root: Tree | Token, text: str) -> A.Expr:
    from lark import Token, Tree

    if isinstance(root, Token):
        return _leaf(root, text)
    done: dict[int, tuple[Any, int]] = {}
    stack: list[tuple[Tree, bool]] = [(root, False)]
    while stack:
        tree, expanded = stack.pop()
        if not expanded:
            stack.append((tree, True))
            stack.extend((c, False) for c in tree.children if isinstance(c, Tree))
            continue
        kids: list[Any] = []
        depth = 0
        for c in tree.children:
            if isinstance(c, Tree):
                node, d = done.pop(id(c))
                kids.append(node)
                depth = max(depth, d)
            elif c.type in ("INT", "STRING", "TRUE", "FALSE", "NONE") and tree.data != "card":
                kids.append(_leaf(c, text))
                depth = max(depth, 1)
            else:
                kids.append(c)
        node = _build(tree, kids, text)
        if tree.data not in ("args", "paren"):
            depth += 1
        if depth > MAX_DEPTH:
            pos = _pos_of(tree)
            raise _error(
                f"expression nested too deeply (more than {MAX_DEPTH} levels of operators)",
                text,
                pos.offset,
            )
        done[id(tree)] = (node, depth)
    return done[id(root)][0]


def _build(tree: Tree, kids: list[Any], text: str) -> Any:
    data = tree.data
    pos = _pos_of(tree)
    if data == "binop":
        left, op, right = kids
        return A.Binary(str(op.value), left, right, pos=pos)
    if data == "compare":
        left, *ops, right = kids
        return A.Compare(" ".join(str(o.value) for o in ops), left, right, pos=pos)
    if data == "unary":
        op, operand = kids
        return A.Unary(str(op.value), operand, pos=pos)
    if data == "conditional":
        then, _if, cond, _else, other = kids
        return A.Conditional(then, cond, other, pos=pos)
    if data == "field":
        obj, _dot, name = kids
        return A.Field(obj, str(name.value), pos=pos, name_pos=_pos_of(name))
    if data == "name":
        return A.Name(str(kids[0].value), pos=pos)
    if data == "card":
        suit, rank = kids
        return A.CardLit(str(suit.value), int(rank.value), pos=pos)
    if data == "call":
        name = kids[0]
        args = kids[2] if len(kids) == 4 else []
        return A.Call(str(name.value), tuple(args), pos=pos)
    if data == "quantifier":
        name, _lpar, head, _colon, body, _rpar = kids
        kind = str(name.value)
        if kind not in A.QUANTIFIERS:
            close = difflib.get_close_matches(kind, A.QUANTIFIERS, n=1)
            hint = f"did you mean `{close[0]}`?" if close else "quantifiers are " + ", ".join(A.QUANTIFIERS)
            npos = _pos_of(name)
            raise _error(
                f"`{kind}(x in LIST: ...)` is not a quantifier; {hint}", text, npos.offset, npos.end_offset
            )
        if not (isinstance(head, A.Compare) and head.op == "in" and isinstance(head.left, A.Name)):
            hp = head.pos
            raise _error(
                f"expected `NAME in LIST` before ':' in `{kind}(...)`, e.g. `{kind}(p in players: ...)`",
                text,
                hp.offset,
                hp.end_offset,
            )
        return A.Quant(kind, head.left.name, head.right, body, pos=pos)
    if data == "list":
        items = kids[1] if len(kids) == 3 else []
        return A.ListLit(tuple(items), pos=pos)
    if data == "args":
        return [k for k in kids if isinstance(k, A.Expr)]
    if data == "paren":
        return kids[1]
    raise DslError(f"internal error: unknown syntax {data!r}")  # pragma: no cover
