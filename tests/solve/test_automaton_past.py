"""The winner automaton builds a state once per past that the conditions can tell apart (issue 47).

Card-blind conditions that read the past only through a few values (``automaton.past_reads``: counts, the
first trick's winner, runs, quantifiers over ``tricks`` whose body reads its own trick, ``last_trick``) are
built without walking every sequence of winners: an author's "the player left of the commander wins the last
trick" at 5 players (5^8 sequences) now gets an automaton, and the C search takes it. Checked against the
automaton built sequence by sequence (every sequence of winners, same verdicts) and against the slow path.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve import TrickSearch, native
from crewkit.families.trick_taking.solve import automaton as auto
from crewkit.families.trick_taking.solve.automaton import WinnerAutomaton
from crewkit.families.trick_taking.solve.reference import search_actions
from tests.solve.test_condition_paths import C, fast_and_slow, small_deal

AUTHORED = Path(__file__).resolve().parents[2] / "benchmarks" / "authored"

# past reads of every kind past_reads accepts, and one it refuses (a tricks quantifier reading a count)
MISSIONS = {
    "aggregates": """\
number: 201
title: Leaders keep
description: No trick may be won by its leader after trick 1, except by the first trick's winner; the commander wins at most two.
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: leaders
    fail_if: "any(t in tricks: t.number > 1 and t.leader == t.winner and t.winner != first_trick.winner)"
  - id: commander-two
    fail_if: "count(t in tricks: t.winner == commander) > 2"
    done_if: "last_trick != none and last_trick.winner != left_of(commander)"
""",
    "runs": """\
number: 202
title: Take turns
description: No player wins two tricks in a row; the commander wins at least one.
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: no-run
    fail_if: "any(p in players: longest_run(p) >= 2)"
  - id: commander-one
    fail_if: "tricks_left == 0 and tricks_won(commander) == 0"
""",
    "refused": """\
number: 203
title: Growing
description: Reads a count inside a quantifier over the tricks.
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: grow
    fail_if: "any(t in tricks: t.winner == commander and tricks_won(t.winner) > t.number)"
""",
}


def _search(path: str | Path, players: int, cards: int, seed: int = 0) -> TrickSearch:
    game = small_deal(path, seed, cards, players=players)
    while game.phase != "tricks":
        game.apply(search_actions(game, gold_frame=False)[0])
    return TrickSearch(game, native=False)


def _verdicts(a: WinnerAutomaton | None, n: int, total: int) -> list[tuple[int, int]]:
    """Per sequence of winners (every one, in order): (state's allowed mask or -1, complete)."""
    assert a is not None
    out = []
    for length in range(total + 1):
        for seq in itertools.product(range(n), repeat=length):
            st = a.walk((*a.base, *seq))
            out.append((-1, 0) if st < 0 else (a.allowed(st), a.complete[st]))
    return out


@pytest.mark.parametrize("name,players,cards", [
    ("aggregates", 4, 4), ("runs", 5, 3), ("refused", 3, 4), ("07-left-closes", 5, 3), ("08-no-runs", 4, 4),
    ("planet-nine/34", 4, 4), ("planet-nine/50", 3, 5),
])
def test_merged_pasts_give_the_same_automaton_as_every_sequence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, players: int, cards: int) -> None:
    if name in MISSIONS:
        path: str | Path = tmp_path / f"{name}.yaml"
        Path(path).write_text(MISSIONS[name], encoding="utf-8")
    elif name.startswith("planet-nine/"):
        path = name
    else:
        path = AUTHORED / f"{name}.yaml"
    s = _search(path, players, cards)
    assert s.card_blind
    monkeypatch.setattr(auto, "_AUTOMATA", {})
    merged = s.winner_automaton(cap=100_000)
    reads = auto.past_reads(s.conditions, list(s.game.rules.roles) + list(s.roles))
    assert (reads is None) == (name == "refused")
    monkeypatch.setattr(auto, "_AUTOMATA", {})
    monkeypatch.setattr(auto, "past_reads", lambda *_: None)
    every = s.winner_automaton(cap=100_000)
    assert _verdicts(merged, s.n, s.total) == _verdicts(every, s.n, s.total)


def test_the_last_tricks_winner_at_five_players_gets_an_automaton(monkeypatch: pytest.MonkeyPatch) -> None:
    """The author's mission 07 at 5 players (8 tricks): within the cap now (before, more than 2,000 sequences
    of winners left it to the Python search)."""
    monkeypatch.setattr(auto, "_AUTOMATA", {})
    game = new_game("crew", str(AUTHORED / "07-left-closes.yaml"), 5, seed="check:11")
    while game.phase != "tricks":
        game.apply(search_actions(game, gold_frame=False)[0])
    a = TrickSearch(game, native=False).winner_automaton()
    assert a is not None and a.root >= 0
    assert len(a.complete) < 100


def test_runs_at_five_players_get_an_automaton(monkeypatch: pytest.MonkeyPatch) -> None:
    """The author's mission 08 ("no player wins three tricks in a row") at 5 players: each seat's longest run
    and the last winner's run make more pasts than the plain cap; merged pasts get a few times as many, and
    the automaton (a few dozen states) is built."""
    monkeypatch.setattr(auto, "_AUTOMATA", {})
    game = new_game("crew", str(AUTHORED / "08-no-runs.yaml"), 5, seed="check:34")
    while game.phase != "tricks":
        game.apply(search_actions(game, gold_frame=False)[0])
    a = TrickSearch(game, native=False).winner_automaton()
    assert a is not None and a.root >= 0
    assert len(a.complete) < 200


@pytest.mark.skipif(not C, reason=f"the C search is not available ({native.status()})")
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_c_search_agrees_with_the_slow_path(seed: int) -> None:
    game = small_deal(AUTHORED / "07-left-closes.yaml", seed, 4, players=5)
    fast = fast_and_slow(game)
    assert fast.engine == "core-c"
