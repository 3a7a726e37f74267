"""The goal's move order (issue 47, authored mission 12 "Low tide": three ordered tasks and three tricks won by a
low colour card). With a goal open, the search tries first a goal card led that every other hand can stay under
(and not last one a hand may have to overtake with a goal card of its own), and a play that hands the trick (and the
lead) to the owner of the next numbered task holding its card; it tries late a hand's last card above its own task
card that another hand holds. Order only: the verdicts stay, the Python and the C search visit the same nodes, and
the check's solver reaches won deals it left undecided."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.families.trick_taking.analysis.check import SOLVER_NATIVE_WEIGHT
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import native, solve
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from crewkit.games import family_for
from tests.solve.test_goal_task_tricks import mission, random_deal
from tests.solve.test_native_conditions import c_and_python

LOW_TIDE = Path(__file__).resolve().parents[2] / "benchmarks" / "authored" / "12-low-winners.yaml"


def drafted(path: Path, hands: list[list[str]], tasks: list[tuple[int, str]], plays: list[tuple[int, str]]) -> Game:
    """A deal of ``hands`` with ``tasks`` (seat, card; tokens 1, 2 in this order), one each for the seats that draft
    them (the commander, who holds rocket 4, then the next seat), then ``plays``."""
    rules = compile_game("crew", str(path), len(hands), None)
    deck = rules.deck
    cards = tuple(tuple(deck.card(c) for c in h) for h in hands)
    game = Game.new(rules, seed="goal-order", deal=Deal(cards, tuple(deck.card(c) for _, c in tasks)), partial=True)
    while game.phase == "draft":
        seat = game.draft_turn
        game.apply(TakeTask(seat, deck.card(next(c for s, c in tasks if s == seat))))
    assert game.phase == "tricks"
    for seat, card in plays:
        game.apply(Play(seat, deck.card(card)))
    return game


def order(game: Game, new: bool = True) -> list[str]:
    """The plays of the player to move, in the Python search's order (``new``: with the goal order's rules)."""
    search = TrickSearch(game, native=False)
    search.goal_move_order = new
    return [str(search.cards[cid]) for cid in search.ordered_plays()]


def test_a_hand_keeps_its_last_card_above_its_task(tmp_path: Path) -> None:
    # the second hand owns blue 3, which the third holds, and holds one blue above it, blue 6; void in yellow, it
    # discards: blue 6 goes last but for the goal card it would spend (pink 2)
    game = drafted(mission(tmp_path), [["rocket 4", "yellow 9", "yellow 2", "green 1"],
                                       ["blue 6", "green 7", "pink 8", "pink 2"],
                                       ["blue 3", "yellow 5", "green 9", "pink 1"]],
                   [(0, "green 1"), (1, "blue 3")], [(0, "yellow 9")])
    assert order(game) == ["green 7", "pink 8", "blue 6", "pink 2"]
    assert order(game, new=False)[0] == "blue 6"  # old: a discard in a goal card's suit, first


def test_a_goal_lead_every_hand_can_stay_under_comes_early(tmp_path: Path) -> None:
    # green 3 led: the second hand plays green 1 or green 2 under it, the third is void in green and discards
    game = drafted(mission(tmp_path), [["rocket 4", "green 3", "yellow 9", "pink 7"],
                                       ["green 1", "green 2", "green 9", "pink 9"],
                                       ["blue 8", "yellow 6", "pink 8", "blue 9"]],
                   [(0, "blue 8"), (1, "pink 9")], [])
    assert order(game)[0] == "green 3"
    assert order(game, new=False)[-1] == "green 3"  # old: a goal card that cannot win, tried last


def test_a_goal_lead_a_hand_can_only_overtake_with_a_goal_card_is_not_last(tmp_path: Path) -> None:
    # green 3 led: the second hand must follow with green 4 (a goal card too) or green 9; blue 2 led, the third hand
    # can only overtake it with blue 8 or blue 9
    game = drafted(mission(tmp_path), [["rocket 4", "green 3", "blue 2", "pink 7"],
                                       ["green 4", "green 9", "pink 9", "yellow 5"],
                                       ["blue 8", "yellow 6", "pink 8", "blue 9"]],
                   [(0, "blue 8"), (1, "pink 9")], [])
    assert order(game)[-2:] == ["green 3", "blue 2"]
    assert order(game, new=False)[-2:] == ["blue 2", "green 3"]  # old: both goal cards that cannot win, last


def test_the_next_tasks_owner_is_given_the_lead(tmp_path: Path) -> None:
    # the first task is the second hand's yellow 7, in its own hand, and it tops green: green 2 led hands it the
    # trick and the lead
    game = drafted(mission(tmp_path), [["rocket 4", "blue 9", "green 2", "pink 9"],
                                       ["yellow 7", "green 9", "pink 5", "blue 5"],
                                       ["yellow 8", "green 5", "pink 6", "blue 6"]],
                   [(1, "yellow 7"), (0, "yellow 8")], [])
    assert order(game)[0] == "green 2"
    assert order(game, new=False)[-1] == "green 2"  # old: a goal card that cannot win, tried last


@pytest.mark.parametrize("k", [1, 2])
def test_random_deals_keep_their_verdicts_with_and_without(tmp_path: Path, k: int) -> None:
    """Random deals of 3 players and 4 cards, 4 players and 3 cards (two ordered tasks, ``k`` low wins): the search
    with the goal order's rules and without them agree (on some, the brute force too); the rules change the plays
    searched on some deals."""
    path = mission(tmp_path, k)
    changed = 0
    verdicts = set()
    for seed in range(20):
        players, cards = (3, 4) if seed % 3 else (4, 3)
        game = random_deal(path, seed, players, cards)
        search = TrickSearch(game, native=False)
        won = search.run()
        old = TrickSearch(game, native=False)
        old.goal_move_order = False
        assert old.run() == won, seed
        if seed % 5 == 0:
            assert brute_force(game)[0] == won, seed
        changed += search.nodes != old.nodes
        verdicts.add(won)
    assert changed and verdicts == {True, False}


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_same_nodes_in_c_and_python(tmp_path: Path) -> None:
    """The C search orders the plays as the Python search does: the same nodes, verdicts and lines."""
    path = mission(tmp_path)
    for seed in range(12):
        players, cards = (3, 5) if seed % 2 else (4, 4)
        c_and_python(random_deal(path, seed, players, cards))


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
@pytest.mark.parametrize("seed", ["check:11", "check:34", "check:52"])
def test_won_deals_found_within_the_checks_budget(seed: str) -> None:
    # authored 12 at 5 players: searched alone, a start of each is won within 135,000, 68,000 and 65,000 C plays
    # (145,000, 721,000 and 993,000 before), so the check's budget reaches it (old: undecided)
    game = family_for("crew").open("crew", str(LOW_TIDE), 5, seed)
    result = solve(game.engine, max_nodes=20_000, native_weight=SOLVER_NATIVE_WEIGHT)
    assert result.status == "winnable"
    assert result.line  # replayed through the engine to the crew's success by solve
