"""Parsing: valid inputs to trees, invalid inputs to positioned friendly errors, size limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.dsl import DslError, DslSyntaxError, parse
from crewkit.dsl.ast import (
    Binary,
    Bool,
    Call,
    CardLit,
    Compare,
    Conditional,
    Field,
    Int,
    ListLit,
    Name,
    NoneLit,
    Quant,
    Str,
    Unary,
)
from crewkit.dsl.parser import MAX_DEPTH, MAX_LENGTH, get_parser, grammar_text

n = Name

VALID = [
    ("42", Int(42)),
    ("true", Bool(True)),
    ("false", Bool(False)),
    ("none", NoneLit()),
    ('"challenge"', Str("challenge")),
    ("'penalty'", Str("penalty")),
    (r'"say \"hi\""', Str('say "hi"')),
    ("pink 9", CardLit("pink", 9)),
    ("rocket   4", CardLit("rocket", 4)),
    ("ten", n("ten")),
    ("commander", n("commander")),
    ("1 + 2 * 3", Binary("+", Int(1), Binary("*", Int(2), Int(3)))),
    ("(1 + 2) * 3", Binary("*", Binary("+", Int(1), Int(2)), Int(3))),
    ("10 - 3 - 2", Binary("-", Binary("-", Int(10), Int(3)), Int(2))),
    ("7 // 2 % 3", Binary("%", Binary("//", Int(7), Int(2)), Int(3))),
    ("-x * 2", Binary("*", Unary("-", n("x")), Int(2))),
    ("- -1", Unary("-", Unary("-", Int(1)))),
    ("a and b or c", Binary("or", Binary("and", n("a"), n("b")), n("c"))),
    ("a or b and c", Binary("or", n("a"), Binary("and", n("b"), n("c")))),
    ("not a and b", Binary("and", Unary("not", n("a")), n("b"))),
    ("not a == b", Unary("not", Compare("==", n("a"), n("b")))),
    ("a != b", Compare("!=", n("a"), n("b"))),
    ("a <= b + 1", Compare("<=", n("a"), Binary("+", n("b"), Int(1)))),
    ("x in [1, 2]", Compare("in", n("x"), ListLit((Int(1), Int(2))))),
    ("x not  in []", Compare("not in", n("x"), ListLit(()))),
    ("tricks_won(sick) > 0", Compare(">", Call("tricks_won", (n("sick"),)), Int(0))),
    ("f()", Call("f", ())),
    ("max(1, 2)", Call("max", (Int(1), Int(2)))),
    ("trick.winner", Field(n("trick"), "winner")),
    (
        "trick_of(pink 1).winning_card.rank",
        Field(Field(Call("trick_of", (CardLit("pink", 1),)), "winning_card"), "rank"),
    ),
    ("pink 9.suit", Field(CardLit("pink", 9), "suit")),
    (
        "all(p in players: tricks_won(p) < 2)",
        Quant("all", "p", n("players"), Compare("<", Call("tricks_won", (n("p"),)), Int(2))),
    ),
    (
        "count(c in cards_won(p): c.suit == red)",
        Quant("count", "c", Call("cards_won", (n("p"),)), Compare("==", Field(n("c"), "suit"), n("red"))),
    ),
    ("count(tricks)", Call("count", (n("tricks"),))),
    ("sum(x in xs + ys: x)", Quant("sum", "x", Binary("+", n("xs"), n("ys")), n("x"))),
    ("90 if a else 0", Conditional(Int(90), n("a"), Int(0))),
    ("1 if a else 2 if b else 3", Conditional(Int(1), n("a"), Conditional(Int(2), n("b"), Int(3)))),
    ("(1 if a else 2) + 3", Binary("+", Conditional(Int(1), n("a"), Int(2)), Int(3))),
    ("x  \n and\ty", Binary("and", n("x"), n("y"))),
    ("notable or android", Binary("or", n("notable"), n("android"))),
]


@pytest.mark.parametrize(("text", "tree"), VALID, ids=[t for t, _ in VALID])
def test_valid(text: str, tree: object) -> None:
    assert parse(text) == tree


INVALID = [
    # text, line, column, fragment of the message
    ("a and", 1, 6, "expected an expression after 'and', found end of input"),
    ("tricks_won(p) >", 1, 16, "expected an expression after '>', found end of input"),
    ("(1 + 2))", 1, 8, "unexpected ')'"),
    ("f(1, 2", 1, 7, "expected ')' or ','"),
    ("[1, 2", 1, 6, "expected ',' or ']'"),
    ("(a", 1, 3, "expected ')'"),
    ("a < b < c", 1, 7, "comparisons do not chain"),
    ("a = b", 1, 3, "use == to compare"),
    ("x / 2", 1, 3, "use // for"),
    ("a && b", 1, 3, "use `and`"),
    ("!done", 1, 1, "use `not`"),
    ('mode == "challenge', 1, 9, "unterminated string"),
    ("a b", 1, 3, "is an operator missing?"),
    ("1 +\n  * 2", 2, 3, "unexpected '*' after '+'; expected an expression"),
    (")", 1, 1, "unexpected ')' at the start"),
    ("", 1, 1, "expected an expression, found nothing"),
    ("   ", 1, 1, "found nothing"),
    ("foo(x in y: 1)", 1, 1, "is not a quantifier"),
    ("cont(x in y: 1)", 1, 1, "did you mean `count`?"),
    ("count(x: 1)", 1, 7, "expected `NAME in LIST` before ':'"),
    ("count(1 in y: 1)", 1, 7, "expected `NAME in LIST`"),
    ("x.", 1, 3, "expected a name after '.'"),
    ("x.1", 1, 3, "unexpected number 1 after '.'; expected a name"),
    ("a if b", 1, 7, "'else'"),
    ("and", 1, 1, "unexpected 'and' at the start"),
    ("[1,]", 1, 4, "unexpected ']' after ','"),
    ("{sick}", 1, 1, "braces belong to reason templates"),
]


@pytest.mark.parametrize(("text", "line", "column", "fragment"), INVALID, ids=[t for t, *_ in INVALID])
def test_invalid(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    err = info.value
    assert fragment in err.message
    assert (err.line, err.column) == (line, column)
    assert str(err).startswith(f"{line}:{column}: ")
    assert err.offset is not None


def test_positions() -> None:
    e = parse("tricks_won(sick) > 0 and\n  trick.winner == commander")
    assert isinstance(e, Binary)
    assert (e.pos.line, e.pos.column, e.pos.offset) == (1, 1, 0)
    right = e.right
    assert isinstance(right, Compare)
    assert (right.pos.line, right.pos.column) == (2, 3)
    assert isinstance(right.left, Field)
    assert (right.left.name_pos.line, right.left.name_pos.column) == (2, 9)
    assert (right.pos.end_line, right.pos.end_column) == (2, 28)
    call = parse("  f(x)")
    assert (call.pos.column, call.pos.end_column) == (3, 7)


def test_positions_do_not_affect_equality() -> None:
    assert parse("1+2") == parse("  1 +\n 2 ")
    assert hash(parse("a.b")) == hash(parse(" a . b"))


def test_error_caret_and_shift() -> None:
    text = "tricks_won(p) >"
    with pytest.raises(DslError) as info:
        parse(text)
    assert info.value.caret(text).endswith("\n" + " " * 15 + "^")
    moved = info.value.shifted(10, 5)
    assert (moved.line, moved.column) == (10, 20)


def test_length_limit() -> None:
    with pytest.raises(DslError, match="too long"):
        parse("1" + " " * MAX_LENGTH)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "1" + ")" * 10_000,
        "[" * 10_000 + "]" * 10_000,
        "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1),
        "not " * 2_400 + "x",
        "1+" * 4_999 + "1",
        "- " * 4_999 + "1",
        "a." + ".".join(["b"] * 4_000),
        "f(" * 3_000 + ")" * 3_000,
        "1 if a else " * 800 + "2",
    ],
    ids=["parens", "brackets", "parens-65", "not", "plus", "minus", "fields", "calls", "ifelse"],
)
def test_deep_nesting_is_a_dsl_error(text: str) -> None:
    with pytest.raises(DslError) as info:
        parse(text[:MAX_LENGTH])
    assert "nested too deeply" in info.value.message or "too long" in info.value.message


def test_nesting_at_the_limit_is_fine() -> None:
    depth = MAX_DEPTH - 1
    assert parse("(" * depth + "1" + ")" * depth) == Int(1)
    assert parse("not " * (MAX_DEPTH - 2) + "x") is not None


@settings(max_examples=30, deadline=None)
@given(
    opener=st.sampled_from(["(", "[", "not ", "- ", "f(", "all(x in y: "]),
    depth=st.integers(min_value=MAX_DEPTH + 1, max_value=10_000),
)
def test_deep_nesting_never_recursion_error(opener: str, depth: int) -> None:
    closer = {"(": ")", "[": "]", "f(": ")", "all(x in y: ": ")"}.get(opener, "")
    text = opener * depth + "1" + closer * depth
    with pytest.raises(DslError):
        parse(text)


def test_grammar_is_strict_lalr() -> None:
    """No terminal collisions and no LALR conflicts (strict mode needs interegular)."""
    from lark import Lark

    Lark(grammar_text(), parser="lalr", lexer="basic", strict=True, keep_all_tokens=True)


def test_parser_is_cached() -> None:
    assert get_parser() is get_parser()


def test_non_string_input() -> None:
    with pytest.raises(DslSyntaxError):
        parse(42)  # type: ignore[arg-type]
