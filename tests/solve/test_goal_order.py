"""The search tries first the plays toward a condition's goal (issue 47): "at least K tricks won by a card of a
set" (condshapes.match_tricks_won_by_cards). A goal card that cannot win its trick is tried last, a play that
keeps a goal card on top first. Order only: the C and the Python search still visit the same nodes and agree
with the brute force (test_native_conditions.py's helper), on a bundled mission and on authored words."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from crewkit.spec.bundled import mission_path
from tests.solve.test_condition_paths import small_deal
from tests.solve.test_native_conditions import c_and_python, in_tricks

NINE_WINS = """\
number: 93
title: Nines on top
description: Two 9s must each win a trick.
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: nine-wins
    done_if: "count(t in tricks: t.winning_card.rank == 9 and not is_trump(t.winning_card)) >= 2"
"""


def deal(hands: list[list[str]], mission: str | Path = "") -> Game:
    rules = compile_game("crew", str(mission or mission_path("planet-nine/26")), len(hands), None)
    cards = tuple(tuple(rules.deck.card(c) for c in h) for h in hands)
    return in_tricks(Game.new(rules, seed="goal-order", deal=Deal(cards, ()), partial=True))


def names(game: Game, order: list[int]) -> list[str]:
    return [str(game.rules.deck.cards[cid]) for cid in order]


def test_a_goal_card_others_beat_is_led_last() -> None:
    game = deal([["rocket 4", "blue 1", "green 5"], ["blue 6", "green 1", "yellow 2"],
                 ["blue 3", "pink 1", "yellow 8"]])
    search = TrickSearch(game, native=False)
    assert search.goal_mask  # old: no goal, the lowest card first (blue 1, beaten by blue 6)
    order = names(game, search.ordered_plays())
    assert order[-1] == "blue 1"


def test_a_goal_card_nobody_can_follow_is_led_first(tmp_path: Path) -> None:
    path = tmp_path / "nines.yaml"
    path.write_text(NINE_WINS, encoding="utf-8")
    game = deal([["rocket 4", "blue 9", "green 5"], ["green 7", "green 1", "yellow 2"],
                 ["pink 3", "pink 1", "yellow 8"]], path)
    order = names(game, TrickSearch(game, native=False).ordered_plays())
    assert order[0] == "blue 9"  # old: the lowest card first


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_authored_goal_same_nodes_in_c_and_python(tmp_path: Path) -> None:
    path = tmp_path / "nine-wins.yaml"
    path.write_text(NINE_WINS, encoding="utf-8")
    verdicts = set()
    for seed in range(6):
        game = in_tricks(small_deal(path, seed, 3, ("blue 9", "green 9"), players=3))
        assert TrickSearch(game).goal_mask
        won = c_and_python(game)
        verdicts.add(won)
        assert brute_force(game)[0] == won
    assert verdicts == {True, False}
