"""Mission conditions in the C search (issue 47): the conditions the fast bot's evaluator reads
(``bots/condeval.h``, the program of ``bots/condcode.py``) run in the solver's C search too.

On small deals of the shapes that stayed in the Python search before (the winning card of a trick: 9, 16, 26;
conditions judged after every play: 13, 44; a chosen player: 41) the C search and the Python search visit the
same nodes, return the same verdict and line, the line replays to success through the engine, and the brute
force agrees. An authored mission of the same words (nothing named after a bundled mission) takes the same
path. The solve report names the C path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.dsl.errors import ConditionError
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve import WINNABLE, native, replays_to_success, solve
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.native import condition_program, history_digest, merge_classes
from crewkit.families.trick_taking.solve.reference import brute_force, search_actions
from tests.solve.test_condition_paths import NINES, ROCKETS, small_deal

pytestmark = pytest.mark.skipif(native.load() is None, reason="the C search is not available here")

ONES = ("blue 1", "green 1", "pink 1")

# (mission, players, cards per seat, cards always dealt, seeds, the seeds also brute-forced): each sample holds
# deals of both verdicts; the brute force only where it is quick
CASES = [
    ("planet-nine/26", 3, 4, ONES, (4, 5, 6), (6,)),
    ("planet-nine/09", 4, 3, ONES, (2, 3, 5, 8), (2, 5, 8)),
    ("planet-nine/16", 4, 3, NINES, (0, 4, 5), (0, 4, 5)),
    ("planet-nine/13", 3, 4, ROCKETS, (0, 2, 9), (0, 9)),
    ("planet-nine/44", 3, 4, ROCKETS, (4, 5, 9), (4, 5, 9)),
    ("planet-nine/41", 3, 4, (), (8, 1, 2), (8, 1, 2)),
]

ERRING = """\
number: 92
title: Late blue
description: The blue 1 must fall after the third trick.
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: late-blue
    fail_if: "tricks_played >= 1 and trick_of(blue 1).number <= 3"
    done_if: "trick_of(blue 1) != none"
"""

AUTHORED = """\
number: 91
title: Low finish
description: A 2 must win a trick before any 9 wins one, and a rocket may never win a trick led in green.
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: two-before-nine
    fail_if: >-
      any(t in tricks: t.winning_card.rank == 9
          and not any(u in tricks: u.number < t.number and u.winning_card.rank == 2))
    done_if: "any(t in tricks: t.winning_card.rank == 2)"
  - id: green-stays-green
    check: after-play
    fail_if: "any(c in current_cards: is_trump(c)) and any(c in current_cards: c.suit == green)"
"""


def in_tricks(game: Game) -> Game:
    """``game`` past its setup (the solver's first answer to every question), at its first trick."""
    while game.phase != "tricks":
        game.apply(search_actions(game)[0])
    return game


def c_and_python(game: Game) -> bool:
    """The C and the Python search on ``game``: keyed by the history summary, the same verdict, nodes and line;
    keyed by the history digest (where the conditions allow it) and merging the cards they cannot tell apart, the
    same verdict; every line replays to success. The verdict."""
    summary = TrickSearch(game, digest=False)
    assert summary.native  # old: conditions that read cards or are judged after every play stayed in Python
    slow = TrickSearch(game, native=False)
    assert not slow.native
    won = summary.run()
    assert slow.run() == won
    assert (summary.nodes, summary.line) == (slow.nodes, slow.line)
    digest = TrickSearch(game)
    assert digest.run() == won
    if won:
        cards = game.rules.deck.cards
        for line in (summary.line, digest.line):
            assert replays_to_success(game, [Play(seat, cards[cid]) for seat, cid in line])
    return won


@pytest.mark.parametrize(("mission", "players", "cards", "need", "seeds", "brute"), CASES,
                         ids=[c[0][-2:] for c in CASES])
def test_c_search_reads_the_conditions_as_python_does(mission: str, players: int, cards: int,
                                                      need: tuple[str, ...], seeds: tuple[int, ...],
                                                      brute: tuple[int, ...]) -> None:
    verdicts = set()
    for seed in seeds:
        game = in_tricks(small_deal(mission, seed, cards, need, players=players))
        won = c_and_python(game)
        verdicts.add(won)
        if seed in brute:
            assert brute_force(game)[0] == won
    assert verdicts == {True, False}


def test_mid_trick_positions_agree() -> None:
    """From inside a trick (after-play conditions see the cards on the table) both searches agree."""
    verdicts = set()
    for seed in range(4):
        game = in_tricks(small_deal("planet-nine/44", seed, 4, ROCKETS))
        for first in search_actions(game):
            child = game.clone()
            child.apply(first)
            if not child.is_over():
                verdicts.add(c_and_python(child))
    assert verdicts == {True, False}


def test_authored_mission_runs_in_c(tmp_path: Path) -> None:
    """Held-out words ("before", a trick's led suit, after every play) take the C path and agree."""
    path = tmp_path / "low-finish.yaml"
    path.write_text(AUTHORED, encoding="utf-8")
    verdicts = set()
    for seed in range(8):
        game = in_tricks(small_deal(path, seed, 3, ("blue 2", "blue 9", "green 9")))
        verdicts.add(c_and_python(game))
    assert verdicts == {True, False}


def test_an_error_in_a_condition_is_the_engines(tmp_path: Path) -> None:
    """A condition that compares none (the blue 1 not played yet) raises an error: the C search hands the
    position back to the Python search, which raises it as the engine would."""
    path = tmp_path / "late-blue.yaml"
    path.write_text(ERRING, encoding="utf-8")
    game = in_tricks(small_deal(path, 0, 4, ("blue 1",)))
    fast, slow = TrickSearch(game), TrickSearch(game, native=False)
    assert fast.native
    with pytest.raises(ConditionError) as c_error:
        fast.run()
    assert fast.native_error and not fast.native
    with pytest.raises(ConditionError) as python_error:
        slow.run()
    assert str(c_error.value) == str(python_error.value)


def test_solve_report_names_the_c_path() -> None:
    for mission, check in (("planet-nine/26", "trick"), ("planet-nine/44", "play")):
        game = small_deal(mission, 1, 3, ONES + ROCKETS)
        result = solve(game)
        assert result.engine == "core-c"  # old: "core", the Python search
        (d,) = result.conditions
        assert d["path"] == "program" and not d["why"]  # old: "dsl", with why it stayed in Python
        assert f"a program evaluated at every {check} in the C search" in d["how"]
        if result.status == WINNABLE:
            assert replays_to_success(game, result.line)


def test_digest_and_merge_classes_read_the_syntax_tree() -> None:
    """Mission 26 reads the past only through its count of tricks won by a colour 1 (the digest), and tells cards
    apart only by being a 1 (or a number its program holds): the 2-9 of a suit merge. Mission 44 compares ranks
    with ranks: no merging. Mission 41 reads the first trick's winner: the summary key. Mission 46 at 3 players
    reads who won each pink."""
    def search(mission: str) -> TrickSearch:
        return TrickSearch(in_tricks(small_deal(mission, 0, 3, ONES + ROCKETS)))

    s26 = search("planet-nine/26")
    program = condition_program(s26)
    assert program is not None
    digest = history_digest(program)
    assert digest is not None and len(digest[0]) == 1 and not digest[1] and not digest[2]
    classes = merge_classes(program, s26.card_rank)
    assert classes is not None
    deck = s26.deck
    ones = {classes[deck.card(f"{suit} 1").id] for suit in ("pink", "blue", "green", "yellow")}
    # (blue 2 and blue 3 stand apart: their ids are numbers the program holds)
    middles = {classes[deck.card(f"{suit} {r}").id] for suit in ("green", "yellow", "pink") for r in range(2, 10)}
    assert len(ones) == 1 and len(middles) == 1 and ones != middles
    p44 = condition_program(search("planet-nine/44"))
    assert p44 is not None and merge_classes(p44, s26.card_rank) is None
    p41 = condition_program(search("planet-nine/41"))
    assert p41 is not None and history_digest(p41) is None
    # 46 at 3 players (a pink may stay unplayed: not search tasks) reads who won each pink: the key holds the
    # winner of every card played
    game = new_game("crew", "planet-nine/46", 3, seed="check:1")
    s46 = TrickSearch(game)
    p46 = condition_program(s46)
    assert p46 is not None and history_digest(p46) == ([], False, True)
