"""Evaluation on a SimpleView, run-time errors, templates, and the vocabulary's examples."""

from __future__ import annotations

import pytest
from dsl_fixtures import CREW, HAMMER, crew_view, run, sample_view

from crewkit.dsl import (
    INT,
    PLAYER,
    CheckEnv,
    DslNameError,
    DslRuntimeError,
    DslSyntaxError,
    SimpleView,
    check,
    check_template,
    compile_expr,
    evaluate,
    parse,
    parse_template,
    render_template,
)
from crewkit.dsl.ast import Call, Name
from crewkit.dsl.vocabulary import FIELD_CLASSES, FIELDS, all_examples

VIEW = sample_view()

CASES = [
    ("1 + 2 * 3", 7),
    ("-7 // 2", -4),
    ("-7 % 3", 2),
    ("tricks_played", 2),
    ("tricks_left", 8),
    ("tricks_won(2)", 1),
    ("tricks_won(sick)", 1),
    ("trick.number", 2),
    ("trick.winner", 0),
    ("trick.winning_card", CREW.card("rocket 1")),
    ("first_trick.winning_card.rank", 9),
    ("first_trick.led_suit", CREW.suit("pink")),
    ("won_by(pink 1)", 2),
    ("won_by(green 5)", None),
    ("played(yellow 4)", True),
    ("played(green 5)", False),
    ("trick_of(green 5)", None),
    ("trick_of(green 5).number", None),
    ("trick_at(3)", None),
    ("trick_at(2).leader", 2),
    ("left_of(3)", 0),
    ("right_of(0)", 3),
    ("count(cards_of(pink))", 9),
    ("cards_of_rank(1)", tuple(CREW.card(f"{c} 1") for c in ["blue", "green", "yellow", "pink", "rocket"])),
    ("count(cards_won(2))", 4),
    ("count(c in cards_won(0): is_trump(c))", 1),
    ("hand(1)", [CREW.card("pink 8"), CREW.card("green 5")]),
    ("current_cards", [CREW.card("yellow 4")]),
    ("count(t in tasks: t.done)", 1),
    ("task_of(pink 1).trick", 1),
    ("task_of(blue 2).done", False),
    ("task_of(rocket 1)", None),
    ("count(tasks_of(0))", 1),
    ("sum(p in players: tricks_won(p))", 2),
    ("max(p in players: tricks_won(p)) - min(p in players: tricks_won(p))", 1),
    ("all(x in []: false)", True),
    ("any(x in []: true)", False),
    ("all(p in players: any(q in players: q == left_of(p)))", True),
    ("count(p in players: count(q in players: q != p) == 3)", 4),
    ("pink 9 in cards_won(2) and rocket 4 not in cards_won(2)", True),
    ("[1, 2] + [3]", [1, 2, 3]),
    ("5 if false else 6", 6),
    ("mode == none", True),
    ("abs(2 - 5) + max(1, 4) + min(1, 4)", 8),
    ("pink.name", "pink"),
    ("rocket 1.suit.is_trump", True),
    ("sick == 2 and commander == 0", True),
    ("none == none", True),
    ("false or true and not false", True),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[t for t, _ in CASES])
def test_evaluate(text: str, expected: object) -> None:
    assert run(text, VIEW, expect=None) == expected


def test_compile_once_evaluate_many() -> None:
    f = compile_expr(parse("tricks_won(p) * 10 + count(c in cards_won(p): c.suit == pink)"))
    assert [f(VIEW, {"p": p}) for p in range(4)] == [10, 0, 14, 0]
    other = crew_view([["blue 9", "blue 1", "blue 2", "blue 3"]])
    assert f(other, {"p": 0}) == 10


def test_bindings_roles_and_deck_names_resolve_at_run_time() -> None:
    f = compile_expr(parse("x == sick"))
    assert f(VIEW, {"x": 2}) is True
    view2 = SimpleView.from_plays(CREW, [], role_seats={"sick": 3})
    assert f(view2, {"x": 2}) is False
    g = compile_expr(parse("ten.is_special"))
    hammer_view = SimpleView.from_plays(HAMMER, [], total=9)
    assert g(hammer_view) is True
    with pytest.raises(DslRuntimeError, match="unknown name `ten`"):
        g(VIEW)


RUNTIME_ERRORS = [
    ("1 // (tricks_played - 2)", "division by zero", 1),
    ("1 % 0", "division by zero", 1),
    ("trick_at(5).number + 1", "`+` needs numbers, found none", 1),
    ("trick_at(5).number < 1", "`<` compares numbers, found none", 1),
    ("tricks_won(won_by(green 5))", "`tricks_won` needs a player, found none", 1),
    ("max(p in []: 1)", "`max` over an empty list", 1),
    ("-trick_at(9).number", "`-` needs a number, found none", 1),
]


@pytest.mark.parametrize(("text", "fragment", "column"), RUNTIME_ERRORS, ids=[t for t, *_ in RUNTIME_ERRORS])
def test_runtime_errors(text: str, fragment: str, column: int) -> None:
    with pytest.raises(DslRuntimeError) as info:
        evaluate(parse(text), VIEW)
    assert fragment in info.value.message
    assert info.value.column == column


def test_unchecked_hand_built_tree_fails_cleanly() -> None:
    with pytest.raises(DslRuntimeError, match="evaluation failed|needs"):
        compile_expr(parse("1.winner"))(VIEW)
    with pytest.raises(DslNameError, match="unknown function"):
        compile_expr(Call("nope", (Name("deck"),)))


def test_fields_come_from_a_fixed_table() -> None:
    shared = {
        name
        for kind, table in FIELDS.items()
        for name in table
        if sum(name in t for t in FIELDS.values()) > 1
    }
    owners = {kind for kind, table in FIELDS.items() if shared & set(table)}
    assert owners <= set(FIELD_CLASSES)  # shared field names only on classes we can dispatch on


@pytest.mark.parametrize(("word", "example"), all_examples(), ids=[f"{w}:{e}" for w, e in all_examples()])
def test_vocabulary_examples_are_real(word: str, example: str) -> None:
    """Every documented example parses, checks as a boolean and evaluates on a sample game."""
    result = run(example, VIEW)
    assert isinstance(result, bool)


# ------------------------------------------------------------------------------------------ templates


def test_template_render() -> None:
    parts = parse_template("the sick player, seat {sick}, won trick {trick.number} with {trick.winning_card}")
    assert parts[0] == "the sick player, seat "
    assert render_template(parts, VIEW) == "the sick player, seat 2, won trick 2 with rocket 1"


def test_template_escapes_and_values() -> None:
    parts = parse_template('{{literal}} {won_by(green 5)} {[pink 1, pink 2]} {mode == "}"} {first_trick}')
    assert render_template(parts, VIEW) == "{literal} none pink 1, pink 2 false trick 1"
    assert parse_template("no braces") == ("no braces",)
    assert render_template(parse_template("{p}"), VIEW, {"p": 3}) == "3"


@pytest.mark.parametrize(
    ("template", "column", "fragment"),
    [
        ("won {trick.number", 5, "unclosed '{'"),
        ("won } trick", 5, "single '}'"),
        ("seat {}", 6, "empty expression"),
        ("seat {sick and}", 15, "expected an expression after 'and'"),
        ("a {1 +\n}", 7, "expected an expression"),
    ],
)
def test_template_errors(template: str, column: int, fragment: str) -> None:
    with pytest.raises(DslSyntaxError) as info:
        parse_template(template)
    assert fragment in info.value.message
    assert info.value.column == column


def test_template_check_errors_are_positioned_in_the_template() -> None:
    parts = parse_template("seat {sick} won trick {trick.numbr}")
    errors = check_template(parts, CheckEnv(CREW, frozenset({"sick"})))
    assert len(errors) == 1
    assert (errors[0].line, errors[0].column) == (1, 30)
    assert "did you mean `number`?" in errors[0].message


def test_score_formula_type() -> None:
    env = CheckEnv(HAMMER, frozenset(), {"p": PLAYER}, INT)
    assert check(parse("90 - 40 * tricks_won(p)"), env) == INT
