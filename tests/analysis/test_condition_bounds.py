"""The bounds of a condition's values (crewkit.families.trick_taking.analysis.condition_bounds) hold in every position games reach.

Soundness is what matters: "never true" must never be said of something a game can make true. Every
documented example of the condition language and every bundled mission's conditions are evaluated for real
after every trick and every card of random games at 3, 4 and 5 players; the value must be among the truth
values the bounds allow (any position), and at the condition's first check among those of the first check.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from crewkit.analysis.check import check_mission
from crewkit.dsl import DslError, compile_expr, parse
from crewkit.dsl.vocabulary import all_examples
from crewkit.families.trick_taking.analysis.check import static_impossible
from crewkit.families.trick_taking.analysis.condition_bounds import Bounds, Table, impossible_conditions
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.spec.campaigns import load_campaign

AUTHORED = Path(__file__).parent / "authored"
MISSIONS = list(load_campaign("planet-nine").missions)


def _positions(mission: str, players: int, seed: str) -> Iterator[tuple[object, int, int]]:
    """(view, tricks played, cards on the table) after every card of a random game, one at a time (a view
    reads the live game: use it before asking for the next)."""
    played = play_game(new_game("crew", mission, players, seed=seed),
                       [make_bot("random", s, seed) for s in range(players)])
    game = Game.new(played.rules, seed=played.seed, deal=played.deal)
    for action in played.actions:
        game.apply(action)
        if isinstance(action, Play):
            yield game.view(), len(game.tricks), len(game.plays)


def _check(rules: object, exprs: list[tuple[str, object]], positions: Iterator[tuple[object, int, int]]) -> int:
    table = Table.of(rules)
    anywhere = Bounds(table)
    first = {"after-trick": Bounds(replace(table, first="after-trick")),
             "after-play": Bounds(replace(table, first="after-play"))}
    compiled = [(text, tree, compile_expr(tree), anywhere.truth(tree), first["after-trick"].truth(tree),
                 first["after-play"].truth(tree)) for text, tree in exprs]
    checked = 0
    for view, played, on_table in positions:
        for text, _tree, run, allowed, after_trick, after_play in compiled:
            try:
                value = bool(run(view, {}))
            except DslError:
                continue  # a run-time error (none where a number is needed) is no value
            assert value in allowed, (text, value, allowed)
            checked += 1
            if (played, on_table) == (1, 0):
                assert value in after_trick, (text, "first trick")
            if (played, on_table) == (0, 1):
                assert value in after_play, (text, "first card")
    return checked


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_documented_example_stays_within_its_bounds(players: int) -> None:
    exprs = []
    for _word, example in all_examples():
        try:
            exprs.append((example, parse(example)))
        except DslError:
            continue
    checked = 0
    for mission in ("planet-nine/05", "planet-nine/10", "planet-nine/36"):
        for i in range(3):
            game = new_game("crew", mission, players, seed=f"bounds:{i}")
            checked += _check(game.rules, exprs, _positions(mission, players, f"bounds:{i}"))
    assert checked > 5000


@pytest.mark.parametrize("mission", [m for m in MISSIONS if m.endswith(("05", "09", "13", "16", "17", "26", "29",
                                                                        "33", "34", "41", "44", "46", "48", "50"))])
def test_every_bundled_condition_stays_within_its_bounds(mission: str) -> None:
    for players in (3, 4, 5):
        for i in range(4):
            game = new_game("crew", mission, players, seed=f"bounds:{i}")
            exprs = [(f"{c.id}.{k}", e) for c in game.rules.conditions
                     for k, e in (("fail_if", c.fail_expr), ("done_if", c.done_expr)) if e is not None]
            _check(game.rules, exprs, _positions(mission, players, f"bounds:{i}"))
        assert static_impossible(game.rules) == "" and impossible_conditions(game.rules) == []


@pytest.mark.parametrize(("text", "truth"), [
    ("any(t in tricks: t.winning_card.rank == 10)", {False}),  # no card has rank 10
    ("count(c in cards_won(commander): is_trump(c)) >= 5", {False}),  # four trumps in the deck
    ("count(c in cards_won(commander): is_trump(c)) >= 4", {False, True}),
    ("tricks_won(commander) > 10", {False}),  # 10 tricks at 4 players
    ("any(c in hand(commander): c.rank > 9)", {False}),
    ("count(c in cards_of_rank(1): is_colour(c)) == 4", {True}),
    ("tricks_left < 20", {True}),
    ("won_by(pink 9) == commander", {False, True}),
    ("all(c in cards_of(rocket): trick_of(c) != none)", {False, True}),
])
def test_bounds_at_four_players(text: str, truth: set[bool]) -> None:
    rules = new_game("crew", "planet-nine/01", 4, seed="b").rules
    assert set(Bounds(Table.of(rules)).truth(parse(text))) == truth


def test_the_first_check() -> None:
    rules = new_game("crew", "planet-nine/01", 4, seed="b").rules
    after_trick = Bounds(replace(Table.of(rules), first="after-trick"))
    assert after_trick.truth(parse("tricks_played < total_tricks")) == {True}  # meant "at the end"
    assert after_trick.truth(parse("first_trick == none")) == {False}
    assert after_trick.truth(parse("tricks_won(commander) > 0")) == {False, True}


@pytest.mark.parametrize(("name", "said"), [
    ("ten-wins.yaml", "(a-ten-wins) can never come true, so the hands run out before it is fulfilled"),
    ("too-soon.yaml", "(captain-last), which is true whatever happens: the mission fails after the first trick"),
])
def test_authored_missions_impossible_from_their_conditions(name: str, said: str) -> None:
    lines: list[str] = []
    report = check_mission(AUTHORED / name, games=50, players=[4], bot="fast", precision=0.1, solver_games=2,
                           on_line=lines.append)
    (pc,) = report.counts
    assert said in pc.impossible()
    assert lines[0].startswith("0.0 s: 4 players: impossible: ")  # before any deal is played
