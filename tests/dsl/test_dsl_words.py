"""Conditions and score formulas in English: every word has a phrase, every text reads without the language.

The leftovers a player must never see: the quantifiers' variable names, operators (``==``, ``//``),
brackets and braces, identifiers with underscores, Python's ``True``/``None``, and the renderer's own marks.
"""

from __future__ import annotations

import re

import pytest
import yaml
from dsl_fixtures import CREW
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from crewkit.dsl import CheckEnv, DslError, check_all, parse, to_text
from crewkit.dsl.vocabulary import FIELDS, FUNCTIONS, NAMES, all_examples
from crewkit.dsl.words import article, negate_predicate, plural_noun, plural_predicate, with_roles, words
from crewkit.spec.bundled import bundled_missions, bundled_rulesets
from crewkit.spec.dslsites import mission_roles, sites_in

# What the condition language (or Python) looks like; none of it may be left in the English.
CODE = re.compile(r"==|!=|<=|>=|//|\b[a-z]+_[a-z_]+\b|\w\(|\.\w|\[|\]|\{|\}|\*|\bTrue\b|\bFalse\b|\bNone\b|\x00|\x01|\x02")


def leftovers(text: str, variables: set[str]) -> list[str]:
    """What in ``text`` is not English: code, or a quantifier's variable name standing as a word."""
    found = [m.group(0) for m in CODE.finditer(text)]
    found += [v for v in variables if re.search(rf"(?<![\w']){re.escape(v)}(?![\w'])", text)]
    return found


def bound_names(text: str) -> set[str]:
    from crewkit.dsl.ast import Quant, walk

    return {n.var for n in walk(parse(text)) if isinstance(n, Quant)}


def test_every_word_has_a_phrase() -> None:
    words_ = list(NAMES.values()) + list(FUNCTIONS.values()) + [w for f in FIELDS.values() for w in f.values()]
    missing = [w.name for w in words_ if not w.phrase]
    assert not missing
    for w in words_:
        n = len(w.params) if w.kind == "function" else 1 if w.kind == "field" else 0
        assert all(f"{{{i}}}" in w.phrase for i in range(n)), w.name


@pytest.mark.parametrize(("word", "example"), all_examples())
def test_vocabulary_examples_read_as_english(word: str, example: str) -> None:
    text = words(example, with_roles(unbound=("sick",)))
    assert not leftovers(text, bound_names(example)), (word, text)


def _bundled_texts() -> list[tuple[str, str, list[str]]]:
    """Every DSL text of every bundled file, the reading options' replacements included."""
    out = []

    def walk(name: str, data: object, roles: list[str]) -> None:
        out.extend((name, text, roles) for s, _, text in sites_in(data, "mission") if not s.template)

    for path in bundled_missions():
        data = yaml.safe_load(path.read_text())
        if not isinstance(data, dict):
            continue
        roles = mission_roles(data)
        walk(path.name, data, roles)
        for reading in data.get("readings") or []:
            for option in (reading.get("options") or {}).values():
                if isinstance(option.get("overrides"), dict):
                    walk(f"{path.name} ({reading['id']})", option["overrides"], roles)
    for path in bundled_rulesets():
        data = yaml.safe_load(path.read_text())
        out += [(path.name, text, []) for s, _, text in sites_in(data, "ruleset") if not s.template]
    return out


def test_every_bundled_condition_and_score_reads_as_english() -> None:
    """The general wording of every bundled expression, even where a mission gives its own ``text:``."""
    texts = _bundled_texts()
    assert len(texts) > 40
    for name, text, roles in texts:
        english = words(text, with_roles({"p": "them"}, tuple(roles)))
        assert not leftovers(english, bound_names(text)), (name, text, english)
        for role in roles:
            if re.search(rf"\b{role}\b", text):
                assert f"the player chosen as {role}" in english


SENTENCES = [
    # counts compared with numbers read as quantities
    ("tricks_won(sick) > 0", "the player chosen as sick has won a trick"),
    ("tricks_won(sick) == 0", "the player chosen as sick has won no trick"),
    ("not (tricks_won(sick) > 0)", "the player chosen as sick has won no trick"),
    ("tricks_won(sick) > 1", "the player chosen as sick has won more than one trick"),
    ("tricks_won(sick) >= 3", "the player chosen as sick has won at least three tricks"),
    ("tricks_won(sick) >= 0", "the player chosen as sick has won any number of tricks"),
    ("3 <= tricks_won(sick)", "the player chosen as sick has won at least three tricks"),
    ("tricks_won(commander) == total_tricks", "the commander has won every trick"),
    ("tricks_left == 0", "the hands have run out"),
    ("count(c in current_cards: is_trump(c)) >= 2", "the trick in progress holds at least two trump cards"),
    ("any(t in tricks: count(c in t.cards: is_trump(c)) >= 2)", "a trick holds at least two trump cards"),
    ("count(t in tricks: t.winner == commander) >= 2", "at least two tricks are won by the commander"),
    ("count(c in hand(sick): c.suit == pink) == 3", "the player chosen as sick holds exactly three pink cards in hand"),
    ("count(players) >= 3", "there are at least three players"),
    # quantifiers become noun phrases; what the body says of the item folds into the noun
    ("any(t in tricks: t.winning_card.rank == 9)", "a trick is won by a 9"),
    ("not any(t in tricks: is_colour(t.winning_card) and t.winning_card.rank == 1)",
     "no trick is won by a colour 1"),
    ("all(c in cards_of_rank(1): not is_colour(c) or played(c))", "every colour 1 has been played"),
    ("all(c in cards_of(red): won_by(c) == dealer)", "every red card is won by the dealer"),
    ("not all(t in tricks: t.winner == commander)", "not every trick is won by the commander"),
    ("all(c in hand(sick): not is_trump(c))", "the player chosen as sick holds no trump card in hand"),
    ('any(t in tasks: t.token == "omega" and t.done)', "a task with the Ω token is done"),
    ("any(p in players: p != commander and tricks_won(p) == 0)",
     "a player other than the commander has won no trick"),
    ("any(t in tricks: t.winner == sick and is_trump(t.winning_card))",
     "a trick is won by the player chosen as sick with a trump card"),
    ("any(t in tricks: t.winner == sick and t.number != 1 and not t.is_last)",
     "a trick is won by the player chosen as sick, is not trick 1 and is not the last trick"),
    ("any(t in tricks: t.number <= 4 and t.winner != sick)",
     "a trick is one of the first four tricks and is not won by the player chosen as sick"),
    ("any(t in tricks: (t.is_first or t.is_last) and t.winner != dealer)",
     "a trick either is the first trick or is the last trick, and is not won by the dealer"),
    ("any(p in players: all(c in hand(p): is_trump(c)))",
     "for some player, every card in the hand of that player is a trump card"),
    # "x != none" guards say what they guard
    ("last_trick != none and last_trick.winner != commander",
     "the last trick is won by someone other than the commander"),
    ("any(c in cards_of(pink): won_by(c) != none and won_by(c) != sick)",
     "a pink card is won by someone other than the player chosen as sick"),
    ("first_trick.winner == dealer and last_trick.is_last and last_trick.winner == dealer",
     "the first trick and the last trick are won by the dealer"),
    ("last_trick != none", "the last trick has been played"),
    ("won_by(pink 1) == none", "pink 1 has not been won yet"),
    ("mode == none", "the round has no mode"),
    # negations move inside
    ("not is_trump(rocket 1)", "rocket 1 is not a trump card"),
    ("not left_unplayed(rocket 4)", "rocket 4 did not stay unplayed when the hands ran out"),
    ("not (first_trick.winner == commander and last_trick.winner == commander)",
     "the first trick is not won by the commander or the last trick is not won by the commander"),
    # numbers
    ("20 * tricks_won(p) - (180 if won_by(blue 7) == p else 0)",
     "20 per trick won by them, minus 180 if they win blue 7"),
    ("90 - 40 * count(c in cards_won(p): c.suit == red)", "90 minus 40 per red card won by them"),
    ("max(p in players: tricks_won(p)) - min(p in players: tricks_won(p))",
     "the largest number of tricks won by a player minus the smallest number of tricks won by a player"),
    ("(1 + 2) * 3", "(1 plus 2) times 3"),
    ("commander in [0, 1]", "the commander is seat 0 or seat 1"),
]


@pytest.mark.parametrize(("text", "english"), SENTENCES)
def test_sentences(text: str, english: str) -> None:
    assert words(text, with_roles({"p": "them"}, ("sick",))) == english


def test_names_given_for_players() -> None:
    assert words("tricks_won(sick) > 0", {"sick": "Bot 2"}) == "Bot 2 has won a trick"
    assert words("tricks_won(sick) > 0", {"sick": "You"}) == "You have won a trick"  # the verb agrees
    # a quantifier's variable is never replaced by a name given for a free variable
    assert words("any(p in players: tricks_won(p) > 0)", {"p": "you"}) == "a player has won a trick"


def test_grammar_helpers() -> None:
    assert [article(w) for w in ("8", "11", "9", "one", "omega", "trump")] == ["an", "an", "a", "a", "an", "a"]
    assert [plural_noun(w) for w in ("card", "colour 1", "card of rank 9", "trick")] == [
        "cards", "colour 1s", "cards of rank 9", "tricks"]
    assert plural_predicate("is a trump card") == "are trump cards"
    assert plural_predicate("holds two cards") == "hold two cards"
    assert plural_predicate("has been won", nouns=False) == "have been won"
    assert negate_predicate("stayed unplayed") == "did not stay unplayed"
    assert negate_predicate("holds a card") == "does not hold a card"
    assert negate_predicate("is won by the commander") == "is not won by the commander"


# ------------------------------------------------------------------------- generated, well-typed expressions

VARS = ["t", "c", "p", "q", "x", "zz_9", "card2"]


def _player(depth: int) -> st.SearchStrategy[str]:
    base = st.sampled_from(["commander", "sick", "dealer", "1", "{v}"])
    if depth <= 0:
        return base
    return st.one_of(base, _player(depth - 1).map(lambda p: f"left_of({p})"),
                     _trick(depth - 1).map(lambda t: f"{t}.winner"), _card(depth - 1).map(lambda c: f"won_by({c})"))


def _card(depth: int) -> st.SearchStrategy[str]:
    base = st.sampled_from(["pink 9", "rocket 4", "blue 1"])
    if depth <= 0:
        return base
    return st.one_of(base, _trick(depth - 1).map(lambda t: f"{t}.winning_card"))


def _trick(depth: int) -> st.SearchStrategy[str]:
    base = st.sampled_from(["first_trick", "last_trick", "trick", "trick_at(3)"])
    if depth <= 0:
        return base
    return st.one_of(base, _card(depth - 1).map(lambda c: f"trick_of({c})"))


def _int(depth: int) -> st.SearchStrategy[str]:
    base = st.sampled_from(["0", "1", "2", "9", "total_tricks", "tricks_left", "tricks_played"])
    if depth <= 0:
        return base
    d = depth - 1
    return st.one_of(
        base,
        _player(d).map(lambda p: f"tricks_won({p})"),
        _card(d).map(lambda c: f"{c}.rank"),
        _trick(d).map(lambda t: f"{t}.number"),
        st.tuples(_int(d), st.sampled_from(["+", "-", "*"]), _int(d)).map(lambda x: f"({x[0]} {x[1]} {x[2]})"),
        st.tuples(st.sampled_from(["count", "sum", "max", "min"]), _list(d), _bool(d), _int(d)).map(
            lambda x: f"{x[0]}({{v}} in {x[1][0]}: {x[2] if x[0] == 'count' else x[3]})"),
        st.tuples(_int(d), _bool(d), _int(d)).map(lambda x: f"({x[0]} if {x[1]} else {x[2]})"),
    )


def _list(depth: int) -> st.SearchStrategy[tuple[str, str]]:
    """A list and the kind of its items."""
    return st.sampled_from([
        ("tricks", "trick"), ("players", "player"), ("tasks", "task"), ("current_cards", "card"),
        ("cards_of(pink)", "card"), ("cards_of_rank(1)", "card"), ("cards_won(commander)", "card"),
        ("hand(sick)", "card"), ("first_trick.cards", "card"), ("deck", "card"),
    ])


def _bool(depth: int) -> st.SearchStrategy[str]:
    base = st.sampled_from(["tricks_left == 0", "played(pink 9)", "is_trump(rocket 4)", "last_trick != none"])
    if depth <= 0:
        return base
    d = depth - 1
    ops = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
    return st.one_of(
        base,
        st.tuples(_int(d), ops, _int(d)).map(lambda x: f"{x[0]} {x[1]} {x[2]}"),
        st.tuples(_player(d), st.sampled_from(["==", "!="]), _player(d)).map(lambda x: f"{x[0]} {x[1]} {x[2]}"),
        st.tuples(_trick(d), st.sampled_from(["==", "!="])).map(lambda x: f"{x[0]} {x[1]} none"),
        st.tuples(_card(d), st.sampled_from(["is_trump", "is_colour", "played", "left_unplayed"])).map(
            lambda x: f"{x[1]}({x[0]})"),
        st.tuples(_card(d), st.sampled_from(["in", "not in"]), _list(d)).map(lambda x: f"{x[0]} {x[1]} {x[2][0]}"),
        _bool(d).map(lambda b: f"not ({b})"),
        st.tuples(_bool(d), st.sampled_from(["and", "or"]), _bool(d)).map(lambda x: f"({x[0]}) {x[1]} ({x[2]})"),
        st.tuples(st.sampled_from(["all", "any"]), _list(d), _item_condition(d)).map(
            lambda x: f"{x[0]}({{v}} in {x[1][0]}: {x[2][x[1][1]]})"),
    )


def _item_condition(depth: int) -> st.SearchStrategy[dict[str, str]]:
    """A condition on the quantifier's item ``{v}``, per kind of item."""
    return st.fixed_dictionaries({
        "trick": st.sampled_from(["{v}.winner == commander", "{v}.number <= 4 and {v}.winner != sick",
                                  "is_trump({v}.winning_card)", "not {v}.is_last",
                                  "count(d in {v}.cards: is_trump(d)) >= 2"]),
        "player": st.sampled_from(["tricks_won({v}) == 0", "{v} != commander and tricks_won({v}) > 1",
                                   "any(d in hand({v}): d.rank == 9)"]),
        "task": st.sampled_from(["{v}.done", '{v}.token == "omega" and {v}.trick != total_tricks',
                                 "{v}.owner == sick"]),
        "card": st.sampled_from(["won_by({v}) == sick", "is_colour({v}) and {v}.rank == 1",
                                 "not is_trump({v}) or played({v})", "trick_of({v}) != none or left_unplayed({v})",
                                 "{v}.suit == pink"]),
    })


def _name_variables(text: str, draw: st.DrawFn) -> str:
    """Each ``{v}`` becomes a variable name: nested quantifiers get their own, an item refers to its own."""
    out = []
    stack: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("{v}", i):
            if text[i + 3:i + 7] == " in ":
                stack.append(draw(st.sampled_from([v for v in VARS if v not in stack] or VARS)))
            out.append(stack[-1] if stack else "commander")
            i += 3
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@st.composite
def typed_conditions(draw: st.DrawFn) -> str:
    return _name_variables(draw(_bool(3)), draw)


ENV = CheckEnv(CREW, frozenset({"sick"}), {}, None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(typed_conditions())
def test_generated_conditions_read_without_code(text: str) -> None:
    """Well-typed conditions built from the vocabulary read without code. (``assume`` discards the ill-typed
    ones; hypothesis fails the test with a health check if it has to discard most of them.)"""
    try:
        tree = parse(text)
    except DslError:
        assume(False)  # a variable the generator's simple naming left outside its quantifier
        raise
    assume(not check_all(tree, ENV)[1])
    english = words(tree, with_roles(unbound=("sick",)))
    assert not leftovers(english, bound_names(to_text(tree))), (text, english)
    assert english.strip() and "  " not in english
