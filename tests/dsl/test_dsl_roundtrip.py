"""Printing: AST -> text -> AST round trips, on a table and on expressions generated from the grammar."""

from __future__ import annotations

import pytest
from dsl_fixtures import CREW, sample_view
from dsl_generation import generation_parser, stratified_grammar
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from crewkit.dsl import CheckEnv, DslError, check_all, compile_expr, parse, to_text
from crewkit.dsl.ast import Binary, Compare, Conditional, Field, Int, Name, Str, Unary
from crewkit.dsl.text import quote
from crewkit.dsl.types import PLAYER

CANONICAL = [
    "tricks_won(sick) > 0",
    "1 + 2 * 3",
    "(1 + 2) * 3",
    "1 - (2 - 3)",
    "1 - 2 - 3",
    "-(1 + 2)",
    "--1",
    "-x.rank",
    "(-x).rank",
    "not a and b",
    "not (a and b)",
    "a or b and c",
    "(a or b) and c",
    "(a == b) == c",
    "(a < b) != (c < d)",
    "not a == b",
    "x not in [1, 2]",
    "x in xs + ys",
    "a if b else c if d else e",
    "(a if b else c) if d else e",
    "a if (b if c else d) else e",
    "(a if b else c) + 1",
    "count(c in cards_won(p): c.suit == pink)",
    "max(p in players: tricks_won(p)) - min(p in players: tricks_won(p)) >= 2",
    "sum(x in (a if b else c): x)",
    "all(x in (a == b): x)",
    "pink 9.rank",
    "(1 + 2).x",
    "f(a, b if c else d, [])",
    '"a \\"quoted\\" \\\\ word"',
    "90 - 40 * count(c in cards_won(p): c.suit == red)",
    "none == won_by(ten)",
    "true and not false",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_is_stable(text: str) -> None:
    e = parse(text)
    assert to_text(e) == text
    assert parse(to_text(e)) == e


@pytest.mark.parametrize(
    ("messy", "canonical"),
    [
        ("tricks_won( sick )>0", "tricks_won(sick) > 0"),
        ("((1))", "1"),
        ("(a and b) and c", "a and b and c"),
        ("a and (b and c)", "a and (b and c)"),
        ("'single'", '"single"'),
        ("x  not\n in  [ 1 ,2 ]", "x not in [1, 2]"),
        ("pink   9 . rank", "pink 9.rank"),
        ("-(-(1))", "--1"),
    ],
)
def test_printing_normalises(messy: str, canonical: str) -> None:
    assert to_text(parse(messy)) == canonical


def test_hand_built_trees_print_with_needed_parens() -> None:
    tree = Binary("*", Binary("+", Int(1), Int(2)), Unary("-", Field(Name("x"), "rank")))
    assert to_text(tree) == "(1 + 2) * -x.rank"
    tree2 = Compare("==", Conditional(Int(1), Name("a"), Int(2)), Str('q"'))
    assert to_text(tree2) == '(1 if a else 2) == "q\\""'
    assert parse(to_text(tree2)) == tree2


def test_quote_round_trip() -> None:
    for s in ["", "plain", 'q"uote', "back\\slash", "tab\tnew\nline"]:
        assert parse(quote(s)) == Str(s)


# ---------------------------------------------------------------------------------- generated input

NAMES = [
    "x",
    "p",
    "c",
    "t",
    "sick",
    "commander",
    "players",
    "tricks",
    "trick",
    "tasks",
    "deck",
    "mode",
    "pink",
    "rocket",
    "blue",
    "tricks_won",
    "cards_won",
    "won_by",
    "count",
    "max",
    "min",
    "all",
    "any",
    "sum",
    "rank",
    "suit",
    "winner",
    "number",
    "android",
    "notable",
    "iffy",
    "ten",
    "zz_9",
]
KEYWORDS = {
    k: st.sampled_from([f" {k.lower()} ", f"\n{k.lower()}\t"])
    for k in ["IF", "ELSE", "OR", "AND", "NOT", "IN", "TRUE", "FALSE", "NONE"]
}
EXPLICIT = {
    **KEYWORDS,
    "NAME": st.sampled_from(NAMES).map(lambda s: f" {s}"),
    "INT": st.integers(min_value=0, max_value=12).map(lambda i: f" {i}"),
    "STRING": st.text(alphabet='ab "\\', max_size=4).map(quote),
    "QUANT": st.sampled_from(["all", "any", "count", "sum", "max", "min"]).map(lambda s: f" {s}"),
    "WS": st.sampled_from([" ", "\n "]),
}
# The real grammar, copied per nesting level so that random expansion terminates (see dsl_generation).
generated = from_lark(generation_parser(levels=1), explicit=EXPLICIT)
VIEW = sample_view()
ENV = CheckEnv(CREW, frozenset({"sick"}), {"p": PLAYER})


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated)
def test_generated_expressions_round_trip_and_raise_only_dsl_errors(text: str) -> None:
    e = parse(text)  # every generated text is in the language
    printed = to_text(e)
    again = parse(printed)
    assert again == e
    assert to_text(again) == printed
    _t, errors = check_all(e, ENV)
    if not errors:
        try:
            compile_expr(e)(VIEW, {"p": 1})
        except DslError:
            pass


def test_generation_grammar_is_a_copy_of_the_real_one() -> None:
    text = stratified_grammar(1)
    assert "ternary_1" in text and "atom_0" in text
    for terminal in ["NAME", "INT", "STRING", "AND", "LPAR"]:
        assert f"\n{terminal}:" in "\n" + text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 ()[].,:+-*/%<=>!\"'\\nt_")) | st.characters(), max_size=60))
def test_arbitrary_text_only_raises_dsl_errors(text: str) -> None:
    try:
        e = parse(text)
    except DslError:
        return
    assert parse(to_text(e)) == e
