"""The logbook's special conditions and Hammer's score formulas, written in the DSL and run on real plays.

Each condition is parsed, checked against the deck and the mission's roles (as a boolean, or as a number
for scores), then evaluated on hand-built games where we know the answer. Seats: 0 is the commander and
leads the first trick; every later trick is led by the previous winner.
"""

from __future__ import annotations

import pytest
from dsl_fixtures import CREW, HAMMER

from crewkit.dsl import BOOL, INT, PLAYER, CheckEnv, SimpleView, check, compile_expr, parse

# Tricks where rocket N wins trick N (seats 1, 2, 3, 0 win).
ROCKETS_IN_ORDER = [
    ["pink 1", "rocket 1", "pink 2", "pink 3"],
    ["blue 1", "rocket 2", "blue 2", "blue 3"],
    ["green 1", "rocket 3", "green 2", "green 3"],
    ["yellow 1", "rocket 4", "yellow 2", "yellow 3"],
]


def crew(tricks: list[list[str]], *, total: int = 10, **roles: int) -> SimpleView:
    return SimpleView.from_plays(CREW, tricks, total=total, role_seats=dict(roles))


def holds(text: str, view: SimpleView, *roles: str) -> bool:
    expr = parse(text)
    assert check(expr, CheckEnv(view.deck, frozenset(roles), {}, BOOL)) == BOOL
    result = compile_expr(expr)(view)
    assert isinstance(result, bool)
    return result


def score(text: str, view: SimpleView, seat: int) -> int:
    expr = parse(text)
    assert check(expr, CheckEnv(view.deck, frozenset(), {"p": PLAYER}, INT)) == INT
    return compile_expr(expr)(view, {"p": seat})


def test_mission_5_sick_player_wins_no_trick() -> None:
    fail_if = "tricks_won(sick) > 0"
    assert not holds(fail_if, crew([["pink 9", "pink 1", "pink 2", "pink 3"]], sick=1), "sick")
    assert holds(fail_if, crew([["pink 1", "pink 9", "pink 2", "pink 3"]], sick=1), "sick")


M9_DONE = "any(t in tricks: is_colour(t.winning_card) and t.winning_card.rank == 1)"
M9_FAIL = f"all(c in cards_of_rank(1): not is_colour(c) or played(c)) and not {M9_DONE}"


def test_mission_9_a_colour_one_wins_a_trick() -> None:
    won = crew([["blue 1", "green 1", "yellow 1", "pink 1"]])
    assert holds(M9_DONE, won) and not holds(M9_FAIL, won)
    lost = crew([["blue 2", "blue 1", "green 1", "yellow 1"], ["pink 2", "pink 1", "blue 3", "blue 4"]])
    assert not holds(M9_DONE, lost) and holds(M9_FAIL, lost)
    open_ = crew([["blue 2", "blue 1", "green 1", "yellow 1"]])  # pink 1 still to come
    assert not holds(M9_DONE, open_) and not holds(M9_FAIL, open_)
    rocket_one = crew([["rocket 1", "pink 4", "pink 5", "pink 6"]])  # a rocket 1 is not a colour 1
    assert not holds(M9_DONE, rocket_one)


M13_FAIL = "any(c in cards_of(rocket): won_by(c) != none and trick_of(c).winning_card != c)"
M13_DONE = "all(c in cards_of(rocket): won_by(c) != none and trick_of(c).winning_card == c)"


def test_mission_13_each_rocket_wins_a_trick() -> None:
    good = crew(ROCKETS_IN_ORDER)
    assert holds(M13_DONE, good) and not holds(M13_FAIL, good)
    two_rockets = crew([["pink 1", "rocket 1", "rocket 2", "pink 2"]])
    assert holds(M13_FAIL, two_rockets)
    assert not holds(M13_DONE, crew(ROCKETS_IN_ORDER[:2]))


def test_missions_16_17_no_trick_won_by_a_nine() -> None:
    fail_if = "any(t in tricks: t.winning_card.rank == 9)"
    assert holds(fail_if, crew([["pink 1", "pink 9", "pink 2", "pink 3"]]))
    assert not holds(fail_if, crew([["pink 1", "pink 8", "blue 9", "pink 3"]]))
    assert not holds(fail_if, crew([["rocket 4", "pink 9", "pink 2", "pink 3"]]))  # the 9 did not win


BALANCE = "max(p in players: tricks_won(p)) - min(p in players: tricks_won(p)) >= 2"


def test_mission_29_balance() -> None:
    one = crew([["pink 9", "pink 1", "pink 2", "pink 3"]])
    two = crew([["pink 9", "pink 1", "pink 2", "pink 3"], ["blue 9", "blue 1", "blue 2", "blue 3"]])
    assert not holds(BALANCE, one)
    assert holds(BALANCE, two)


M33_FAIL = (
    "tricks_won(volunteer) > 1"
    " or any(t in tricks: t.winner == volunteer and t.winning_card.is_trump)"
    " or tricks_left == 0 and tricks_won(volunteer) != 1"
)


def test_mission_33_volunteer_wins_exactly_one_trick_not_with_a_rocket() -> None:
    assert holds(M33_FAIL, crew([["rocket 1", "pink 1", "pink 2", "pink 3"]], volunteer=0), "volunteer")
    assert not holds(M33_FAIL, crew([["pink 9", "pink 1", "pink 2", "pink 3"]], volunteer=0), "volunteer")
    ended = crew([["pink 9", "pink 1", "pink 2", "pink 3"]], total=1, volunteer=1)
    assert holds(M33_FAIL, ended, "volunteer")


def test_mission_34_balance_and_commander_takes_first_and_last() -> None:
    fail_if = f"{BALANCE} or any(t in tricks: (t.is_first or t.is_last) and t.winner != commander)"
    assert holds(fail_if, crew([["pink 1", "pink 9", "pink 2", "pink 3"]]))
    assert not holds(fail_if, crew([["pink 9", "pink 1", "pink 2", "pink 3"]]))
    last_lost = crew(
        [["pink 9", "pink 1", "pink 2", "pink 3"], ["blue 1", "blue 9", "blue 2", "blue 3"]], total=2
    )
    assert holds(fail_if, last_lost)


M41_FAIL = (
    "any(t in tricks: (t.winner == ready) != (t.is_first or t.is_last)"
    " or t.winner == ready and t.winning_card.is_trump)"
)


def test_mission_41_ready_player_wins_first_and_last_only_without_rockets() -> None:
    first = [["pink 9", "pink 1", "pink 2", "pink 3"]]
    assert not holds(M41_FAIL, crew(first, ready=0), "ready")
    assert holds(M41_FAIL, crew(first, ready=1), "ready")
    again = [*first, ["blue 9", "blue 1", "blue 2", "blue 3"]]
    assert holds(M41_FAIL, crew(again, ready=0), "ready")
    assert holds(M41_FAIL, crew([["rocket 1", "pink 1", "pink 2", "pink 3"]], ready=0), "ready")
    middle_by_other = [*first, ["blue 1", "blue 9", "blue 2", "blue 3"]]
    assert not holds(M41_FAIL, crew(middle_by_other, total=3, ready=0), "ready")
    assert holds(M41_FAIL, crew(middle_by_other, total=2, ready=0), "ready")


M44_FAIL = (
    "any(c in cards_of(rocket): won_by(c) != none and (trick_of(c).winning_card != c"
    " or any(d in cards_of(rocket): d.rank < c.rank"
    " and (won_by(d) == none or trick_of(d).number > trick_of(c).number))))"
)


def test_mission_44_rockets_win_in_order() -> None:
    assert not holds(M44_FAIL, crew(ROCKETS_IN_ORDER))
    assert not holds(M44_FAIL, crew(ROCKETS_IN_ORDER[:2]))
    reversed_ = [["pink 1", "rocket 2", "pink 2", "pink 3"], ["blue 1", "rocket 1", "blue 2", "blue 3"]]
    assert holds(M44_FAIL, crew(reversed_[:1]))  # rocket 2 won while rocket 1 is still out
    assert holds(M44_FAIL, crew(reversed_))
    assert holds(M44_FAIL, crew([["pink 1", "rocket 1", "rocket 2", "pink 2"]]))


def test_mission_44_three_player_challenge_deck_without_rocket_1() -> None:
    suits = [(n, n[0].upper(), range(1, 10), False) for n in ["blue", "yellow", "pink"]]
    deck = type(CREW).build([*suits, ("rocket", "R", range(1, 5), True)], remove=["rocket 1"])
    view = SimpleView.from_plays(deck, [["pink 1", "rocket 2", "pink 2"]], n_players=3, total=10)
    assert not holds(M44_FAIL, view)
    view2 = SimpleView.from_plays(deck, [["pink 1", "rocket 3", "pink 2"]], n_players=3, total=10)
    assert holds(M44_FAIL, view2)


def test_mission_46_left_neighbour_of_pink_9_holder_wins_every_pink() -> None:
    fail_if = "any(c in cards_of(pink): won_by(c) != none and won_by(c) != pinkwinner)"
    view = crew([["pink 1", "pink 9", "pink 2", "pink 3"]], pinkwinner=1)
    assert not holds(fail_if, view, "pinkwinner")
    assert holds(fail_if, crew([["pink 1", "pink 9", "pink 2", "pink 3"]], pinkwinner=2), "pinkwinner")
    # setup's role_from_holder can be stated in the DSL too: the seat left of whoever held pink 9
    assert holds("left_of(0) == 1 and pink 9 in cards_won(1)", view, "pinkwinner")


def test_mission_48_omega_task_in_the_last_trick() -> None:
    fail_if = 'any(t in tasks: t.token == "omega" and t.done and t.trick != total_tricks)'
    tricks = [["pink 1", "pink 9", "pink 2", "pink 3"], ["blue 1", "blue 9", "blue 2", "blue 3"]]
    early = SimpleView.from_plays(CREW, tricks, total=2, tasks=[("pink 9", 1, "omega")])
    assert holds(fail_if, early)
    last = SimpleView.from_plays(CREW, tricks, total=2, tasks=[("blue 9", 1, "omega"), ("pink 9", 1, None)])
    assert not holds(fail_if, last)


M50_FAIL = (
    "any(t in tricks: (t.number <= 4) != (t.winner == first4) or t.is_last != (t.winner == last))"
    " or tricks_left == 0 and any(p in players: p != first4 and p != last and tricks_won(p) == 0)"
)


def test_mission_50_first_four_last_and_the_rest() -> None:
    roles = ("first4", "last")
    win0 = ["pink 9", "pink 1", "pink 2", "pink 3"]
    assert not holds(M50_FAIL, crew([win0], first4=0, last=3), *roles)
    assert holds(M50_FAIL, crew([["pink 1", "pink 9", "pink 2", "pink 3"]], first4=0, last=3), *roles)
    four = [
        win0,
        ["blue 9", "blue 1", "blue 2", "blue 3"],
        ["green 9", "green 1", "green 2", "green 3"],
        ["yellow 9", "yellow 1", "yellow 2", "yellow 3"],
    ]
    fifth_by_1 = [*four, ["pink 4", "pink 8", "pink 5", "pink 6"]]
    assert not holds(M50_FAIL, crew(fifth_by_1, first4=0, last=3), *roles)
    fifth_by_0 = [*four, ["pink 8", "pink 4", "pink 5", "pink 6"]]
    assert holds(M50_FAIL, crew(fifth_by_0, first4=0, last=3), *roles)


# ------------------------------------------------------------------------------------------ Hammer


def hammer(tricks: list[list[str]], *, total: int = 9, mode: str = "penalty") -> SimpleView:
    return SimpleView.from_plays(
        HAMMER, tricks, total=total, game_mode=mode, dealer_seat=0, commander_seat=None
    )


RED_TRICK = ["red 9", "red 1", "red 2", "red 3"]  # seat 0 wins four reds
FIVES = ["blue 5", "blue 9", "green 5", "yellow 5"]  # led by 0, seat 1 wins three 5s


@pytest.mark.parametrize(
    ("formula", "tricks", "total", "expected"),
    [
        ("90 - 40 * tricks_won(p)", [RED_TRICK], 9, [50, 90, 90, 90]),
        ("90 - 40 * count(c in cards_won(p): c.suit == red)", [RED_TRICK], 9, [-70, 90, 90, 90]),
        (
            "40 * tricks_won(p) - 90 * count(c in cards_won(p): c.rank == 5)",
            [RED_TRICK, FIVES],
            9,
            [40, -230, 0, 0],
        ),
        (
            "40 * tricks_won(p) - 180 * count(t in tricks: t.winner == p and (t.is_first or t.is_last))",
            [RED_TRICK, FIVES],
            2,
            [-140, -140, 0, 0],
        ),
        (
            "40 * tricks_won(p) - 180 * count(t in tricks: t.winner == p and (t.is_first or t.is_last))",
            [RED_TRICK, FIVES],
            9,
            [-140, 40, 0, 0],
        ),
        (
            "20 * tricks_won(p) - (180 if won_by(blue 7) == p else 0)",
            [RED_TRICK, ["blue 7", "blue 8", "blue 1", "blue 2"]],
            9,
            [20, -160, 0, 0],
        ),
    ],
)
def test_hammer_penalty_scores(
    formula: str, tricks: list[list[str]], total: int, expected: list[int]
) -> None:
    view = hammer(tricks, total=total)
    assert [score(formula, view, p) for p in range(4)] == expected


def test_hammer_challenge_with_the_ten() -> None:
    view = hammer([["red 2", "ten", "red 9", "red 3"]], mode="challenge")
    assert holds('mode == "challenge" and won_by(ten) == 1 and ten.is_special', view)
    assert holds('ten.suit == none and ten.name == "10"', view)
    # challenge 1 (dealer takes every trick) fails as soon as another player takes one
    assert holds("tricks_won(dealer) != tricks_played", view)
    # challenge 2: dealer takes every red card; fails when a red is won by someone else
    assert holds("any(c in cards_of(red): won_by(c) != none and won_by(c) != dealer)", view)
    # challenge 4: the 10 may not win the first or the last trick
    assert holds("first_trick.winning_card == ten", view)
    # a success payment: +150 from each other player
    assert score("150 * (count(players) - 1) if p == dealer else -150", view, 0) == 450
