"""Checking: types of valid expressions, and positioned messages for unknown words and type mistakes."""

from __future__ import annotations

import pytest
from dsl_fixtures import CREW, HAMMER, crew_env

from crewkit.dsl import (
    ANY,
    BOOL,
    CARD,
    INT,
    LIST,
    PLAYER,
    STR,
    SUIT,
    TRICK,
    CheckEnv,
    DslError,
    DslNameError,
    DslTypeError,
    Type,
    check,
    check_all,
    maybe,
    parse,
)

TYPES = [
    ("tricks_won(sick) > 0", BOOL),
    ("tricks_won(p)", INT),
    ("cards_won(p)", LIST(CARD)),
    ("pink 9", CARD),
    ("pink", SUIT),
    ("pink 9.suit", maybe(SUIT)),
    ("won_by(pink 9)", maybe(PLAYER)),
    ("trick", maybe(TRICK)),
    ("trick.winner", maybe(PLAYER)),
    ("tricks", LIST(TRICK)),
    ("[pink 1, rocket 2]", LIST(CARD)),
    ("[]", Type("list", ANY)),
    ("[1, none]", LIST(maybe(INT))),
    ("mode", maybe(STR)),
    ("90 - 40 * tricks_won(p)", INT),
    ("count(c in cards_won(p): c.suit == pink)", INT),
    ("max(p in players: tricks_won(p))", INT),
    ("all(t in tricks: t.winner != sick)", BOOL),
    ("180 if won_by(pink 7) == p else 0", INT),
    ("none if true else commander", maybe(PLAYER)),
    ("cards_of(pink) + [rocket 1]", LIST(CARD)),
    ("commander == 0", BOOL),
    ("hand(1)", LIST(CARD)),
]


@pytest.mark.parametrize(("text", "expected"), TYPES, ids=[t for t, _ in TYPES])
def test_types(text: str, expected: object) -> None:
    env = crew_env(roles=["sick"], expect=None, p=PLAYER)
    assert check(parse(text), env) == expected


ERRORS = [
    # text, error class, column, message fragment
    ("trick_won(p) > 0", DslNameError, 1, "unknown function `trick_won`; did you mean `tricks_won`?"),
    ("tricks_won(p, p) > 0", DslTypeError, 1, "`tricks_won` takes 1 argument (a player), found 2"),
    ("max(players) > 0", DslTypeError, 1, "`max` takes 2 arguments (a number, a number), found 1"),
    ("tricks_won(p) and true", DslTypeError, 1, "`and` needs booleans, found a number"),
    ("true or 3", DslTypeError, 9, "`or` needs booleans, found a number"),
    ("not 3", DslTypeError, 5, "`not` needs a boolean, found a number"),
    ("-true == 1", DslTypeError, 2, "`-` needs a number, found a boolean"),
    ("1 + true == 2", DslTypeError, 5, "`+` needs numbers, found a boolean"),
    ("pink 9 < 3", DslTypeError, 1, "`<` needs numbers, found a card"),
    ("trick.winer == p", DslNameError, 7, "a trick has no field `winer`; did you mean `winner`?"),
    ("pink 9.colour == pink", DslNameError, 8, "a card has no field `colour`"),
    ("tricks_won(p).x == 1", DslTypeError, 15, "a number has no fields"),
    ("won_by(pink 10) == p", DslNameError, 8, "pink 10 is not in this deck"),
    ("won_by(pinc 1) == p", DslNameError, 8, "unknown suit `pinc`; did you mean `pink`?"),
    ("won_by(red 1) == p", DslNameError, 8, "unknown suit `red`; this deck's suits are blue, green"),
    ("tricks_won(comander) > 0", DslNameError, 12, "unknown name `comander`; did you mean `commander`?"),
    ("tricks_won(sik) > 0", DslNameError, 12, "did you mean `sick`?"),
    ("tricks_won > 0", DslNameError, 1, "`tricks_won` is a function; call it, e.g. `tricks_won(p)`"),
    ("commander(1)", DslTypeError, 1, "`commander` is not a function"),
    ("all(players)", DslTypeError, 1, "`all` needs a variable"),
    ("tricks_won(pink 1) > 0", DslTypeError, 12, "`tricks_won` needs a player as its argument, found a card"),
    ("max(1, true) > 0", DslTypeError, 8, "`max` needs a number as argument 2, found a boolean"),
    ("pink 1 == 3", DslTypeError, 1, "`==` cannot compare a card with a number"),
    ("pink 1 in players", DslTypeError, 1, "a card is never in a list of players"),
    ("1 in 2", DslTypeError, 6, "`in` needs a list on the right, found a number"),
    ("all(x in 3: true)", DslTypeError, 10, "`all` needs a list after `in`, found a number"),
    ("all(x in players: 1)", DslTypeError, 19, "`all` needs a condition after ':', found a number"),
    ("sum(x in players: x == 1) > 0", DslTypeError, 19, "`sum` needs a number after ':', found a boolean"),
    ("all(trick in tricks: true)", DslNameError, 1, "`trick` is a built-in name"),
    ("(1 if true else pink 1) == 1", DslTypeError, 2, "both sides of `if ... else` must have one type"),
    ("1 if 2 else 3", DslTypeError, 6, "the condition after `if` must be a boolean"),
    ("[1, pink 1] == []", DslTypeError, 5, "a list holds values of one type"),
    ("tricks_won(p)", DslTypeError, 1, "expected a boolean, found a number"),
    ("none.x", DslTypeError, 6, "none has no field `x`"),
]


@pytest.mark.parametrize(("text", "cls", "column", "fragment"), ERRORS, ids=[t for t, *_ in ERRORS])
def test_errors(text: str, cls: type[DslError], column: int, fragment: str) -> None:
    env = crew_env(roles=["sick"], p=PLAYER)
    with pytest.raises(cls) as info:
        check(parse(text), env)
    err = info.value
    assert fragment in err.message
    assert (err.line, err.column) == (1, column)
    assert str(err).startswith(f"1:{column}: ")


def test_all_errors_are_collected() -> None:
    env = crew_env(p=PLAYER)
    _t, errors = check_all(parse("trick_won(p) > 0 and trick.winer == p or pink 10 == none"), env)
    assert [type(e) for e in errors] == [DslNameError, DslNameError, DslNameError]
    assert [e.column for e in errors] == [1, 28, 42]
    with pytest.raises(DslError) as info:
        check(parse("trick_won(p) > 0 and trick.winer == p"), env)
    assert len(info.value.all_errors) == 2


def test_one_mistake_does_not_cascade() -> None:
    _t, errors = check_all(parse("tricks_wn(p) + 1 > 2 and true"), crew_env(p=PLAYER))
    assert len(errors) == 1


def test_multiline_positions() -> None:
    with pytest.raises(DslError) as info:
        check(parse("tricks_won(p) > 0 and\n   trick.winer == p"), crew_env(p=PLAYER))
    assert (info.value.line, info.value.column) == (2, 10)


def test_special_cards_and_hammer_suits() -> None:
    env = CheckEnv(HAMMER, frozenset(), {"p": PLAYER}, INT)
    assert check(parse("90 - 40 * count(c in cards_won(p): c.suit == red)"), env) == INT
    assert check(parse("ten"), CheckEnv(HAMMER)) == CARD
    assert check(parse("ten.is_special"), CheckEnv(HAMMER)) == BOOL
    with pytest.raises(DslNameError, match="unknown name `ten`"):
        check(parse("ten"), CheckEnv(CREW))
    with pytest.raises(DslNameError, match="unknown name `x`"):  # a one-letter special code is not a name
        check(parse("x"), CheckEnv(HAMMER))


def test_caller_bindings_may_not_shadow_builtins() -> None:
    with pytest.raises(DslNameError, match="`trick` is a built-in name"):
        check(parse("trick == 1"), CheckEnv(CREW, bound={"trick": INT}))


def test_expect_any_type() -> None:
    assert check(parse("pink"), CheckEnv(CREW)) == SUIT
