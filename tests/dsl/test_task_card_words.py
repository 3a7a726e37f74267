"""The words Mission Deep Sea's task cards added to the condition language: ``lost_for``, ``longest_run`` and
``others`` and the trick field ``last_card``, their meaning, their English, and how the solver classifies conditions that use them."""

from __future__ import annotations

import pytest
import yaml

from crewkit.dsl import DslError, evaluate, parse
from crewkit.dsl.view import SimpleView
from crewkit.dsl.words import words
from crewkit.families.trick_taking.solve.compiled import card_blind, counts_only
from crewkit.spec.deck import build_deck
from crewkit.spec.resources import data_path

DECK = build_deck(yaml.safe_load((data_path("rulesets") / "crew.yaml").read_text())["deck"])

# seat 0 leads; trick 1 is won by seat 3 (pink 4), trick 2 by seat 1 (blue 9, led by seat 3), trick 3 by
# seat 1 again (blue 8 led by seat 1), trick 4 by seat 3 (rocket 1 trumps, led by seat 1)
TRICKS = [
    ["pink 1", "pink 2", "pink 3", "pink 4"],
    ["blue 1", "blue 2", "blue 9", "blue 4"],
    ["blue 8", "blue 5", "blue 6", "blue 7"],
    ["green 1", "green 2", "rocket 1", "green 3"],
]


def view(tricks: list[list[str]] = TRICKS, total: int = 10) -> SimpleView:
    return SimpleView.from_plays(DECK, tricks, total=total)


def value(text: str, v: SimpleView | None = None) -> object:
    return evaluate(parse(text), v or view())


def test_the_trick_winners_of_the_fixture() -> None:
    assert [t.winner for t in view().completed] == [3, 1, 1, 3]


@pytest.mark.parametrize(("text", "expected"), [
    ("longest_run(1)", 2),  # tricks 2 and 3
    ("longest_run(3)", 1),  # tricks 1 and 4: two wins, not in a row
    ("tricks_won(3)", 2),
    ("longest_run(0)", 0),
    ("longest_run(2)", 0),
    ("others(1)", [0, 2, 3]),
    ("others(0)", [1, 2, 3]),
    ("count(others(3))", 3),
    ("lost_for(pink 4, 3)", False),  # seat 3 won it
    ("lost_for(pink 4, 2)", True),  # someone else won it
    ("lost_for(pink 9, 2)", False),  # still in a hand
    ("lost_for(rocket 1, 3)", False),
    ("lost_for(rocket 1, 0)", True),
    ("first_trick.last_card == pink 4", True),  # seat 3 played last in the trick seat 0 led
    ("trick_at(3).last_card == blue 7", True),  # seat 1 led, seat 0 played last
    ("last_trick.last_card == rocket 1", False),
])
def test_meaning(text: str, expected: object) -> None:
    assert value(text) == expected


def test_lost_for_a_card_left_unplayed_once_the_hands_ran_out() -> None:
    # four tricks of a four-trick round: whatever was not played stays unplayed, out of everyone's reach
    done = view(total=4)
    assert value("lost_for(pink 9, 2)", done) is True
    assert value("lost_for(pink 4, 3)", done) is False
    running = view(total=5)
    assert value("lost_for(pink 9, 2)", running) is False


def test_lost_for_a_card_on_the_table_is_not_lost_yet() -> None:
    v = SimpleView.from_plays(DECK, TRICKS[:1], total=10, current=["yellow 9"])
    assert value("played(yellow 9) and not lost_for(yellow 9, 1)", v) is True


@pytest.mark.parametrize("text", ["longest_run(4)", "others(7)", "lost_for(pink 1, 5)", "longest_run(-1)",
                                  "longest_run(trick_at(9).winner)"])
def test_a_seat_that_is_not_at_the_table_is_an_error(text: str) -> None:
    with pytest.raises(DslError):
        value(text)


def test_english() -> None:
    assert words("last_trick.last_card == yellow 5") == "the card played last in the last trick is yellow 5"
    assert words("lost_for(pink 3, owner)", {"owner": "Alice"}) == "pink 3 can no longer be won by Alice"
    assert words("longest_run(owner) >= 3", {"owner": "Bob"}) == (
        "the most tricks in a row won by Bob is at least 3")
    assert words("all(p in others(owner): tricks_won(p) < tricks_won(owner))", {"owner": "Cleo"}) == (
        "for every player among the players other than Cleo, the number of tricks won by that player is less "
        "than the number of tricks won by Cleo")


def test_the_solver_reads_others_and_longest_run_as_card_blind_but_only_others_as_counts() -> None:
    streak = parse("longest_run(owner) >= 2")
    more = parse("all(p in others(owner): tricks_won(p) < tricks_won(owner))")
    lost = parse("lost_for(pink 3, owner)")
    assert card_blind(streak, ["owner"]) and card_blind(more, ["owner"])
    assert not card_blind(lost, ["owner"])

    class C:
        def __init__(self, expr: object) -> None:
            self.fail_expr, self.done_expr = expr, None

    # a run of wins depends on the order of the winners: two positions with the same counts may differ
    assert not counts_only([C(streak)], ["owner"])  # type: ignore[list-item]
    assert counts_only([C(more)], ["owner"])  # type: ignore[list-item]


def test_bind_names_replaces_free_names_only() -> None:
    from crewkit.dsl import ast as A
    from crewkit.dsl import to_text

    e = parse("all(owner in players: tricks_won(owner) >= 0) and tricks_won(owner) == chosen")
    bound = A.bind_names(e, {"owner": A.Int(2), "chosen": A.Int(3)})
    assert to_text(bound) == "all(owner in players: tricks_won(owner) >= 0) and tricks_won(2) == 3"
    assert A.free_names(e) == {"players", "owner", "chosen"}
    assert A.free_names(bound) == {"players"}
    assert evaluate(bound, view()) is False  # seat 2 won no trick
