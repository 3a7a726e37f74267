"""Mission conditions in the fast search (issue 16, item 2): the compiled paths against the slow Python path.

``solve(game)`` compiles what it can (cards won by one seat become search tasks; conditions that read only
trick winners become an automaton over trick winners that the C search follows); ``solve(game,
compile_conditions=False)`` evaluates every condition through the DSL at every trick (the slow path). Both
must give the same verdict on every deal, every winning line must replay through the engine, and the
output must say how each condition was checked, and why when it took a slower path.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from crewkit.cli import solve as commands
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game, new_game
from crewkit.families.trick_taking.solve import (
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    SolveResult,
    TrickSearch,
    native,
    replays_to_success,
    solve,
)
from crewkit.families.trick_taking.solve.reference import search_actions

ROCKETS = ("rocket 1", "rocket 2", "rocket 3")
PINKS = tuple(f"pink {r}" for r in range(1, 10))
NINES = ("blue 9", "green 9", "yellow 9", "pink 9")
C = native.load() is not None  # the C search is available (else the fast paths run in Python)


def small_deal(rules_mission: str | Path, seed: int, cards: int, need: tuple[str, ...] = (), players: int = 4,
               readings: dict[str, str] | None = None) -> Game:
    """A random explicit deal of ``cards`` cards per seat (rocket 4 and ``need`` always dealt), from setup."""
    rules = compile_game("crew", str(rules_mission), players, readings)
    rng = random.Random(f"paths:{Path(rules_mission).stem}:{seed}")
    deck = rules.deck
    must = [deck.card("rocket 4"), *(deck.card(n) for n in need)]
    rest = [c for c in deck.cards if c not in must]
    rng.shuffle(rest)
    chosen = must + rest[: players * cards - len(must)]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * cards:(i + 1) * cards]) for i in range(players))
    return Game.new(rules, seed=f"paths:{seed}", deal=Deal(hands, ()), partial=True)


def paths(result_conditions: list[dict[str, str]]) -> dict[str, str]:
    return {d["id"]: d["path"] for d in result_conditions}


def both_paths(game: Game, timeout: float = 60) -> str:
    """Solve ``game`` on the fast and the slow path: same decided verdict, winning lines replay. The verdict."""
    return fast_and_slow(game, timeout).status


def fast_and_slow(game: Game, timeout: float = 60) -> SolveResult:
    """:func:`both_paths`, returning the fast path's result (for the tests that look at it further)."""
    fast = solve(game, timeout=timeout)
    slow = solve(game, timeout=timeout, compile_conditions=False)
    assert fast.status != UNKNOWN and slow.status != UNKNOWN
    assert fast.status == slow.status, f"fast path {fast.status}, slow path {slow.status}"
    for r in (fast, slow):
        if r.status == WINNABLE:
            assert replays_to_success(game, r.line)
        else:
            assert r.line == []
    assert all(d["path"] == "dsl" and "switched off" in d["why"] for d in slow.conditions)
    return fast


# (mission, players, cards per seat, cards always dealt, seeds, how the fast path checks its conditions); the
# seeds include deals of both verdicts (most small deals of 29 and 50 are winnable)
CASES = [
    ("planet-nine/13", 4, 4, ROCKETS, range(6), "program"),  # after-play: a program in the C search
    ("planet-nine/29", 3, 6, (), (0, 1, 2, 3, 7, 17), "winners"),
    ("planet-nine/34", 4, 5, (), range(10), "winners"),
    ("planet-nine/44", 4, 4, ROCKETS, range(6), "program"),
    ("planet-nine/46", 4, 5, PINKS, range(10), "compiled"),  # every pink dealt: the collector's cards become tasks
    ("planet-nine/50", 4, 5, (), (0, 1, 3, 4, 28, 49), "winners"),
]


@pytest.mark.parametrize(("mission", "players", "cards", "need", "seeds", "path"), CASES,
                         ids=[c[0][-2:] for c in CASES])
def test_fast_path_agrees_with_slow_path(mission: str, players: int, cards: int, need: tuple[str, ...],
                                         seeds: Sequence[int], path: str) -> None:
    verdicts = set()
    for seed in seeds:
        game = small_deal(mission, seed, cards, need, players=players)
        fast = fast_and_slow(game)
        verdicts.add(fast.status)
        want = path if C or path != "program" else "dsl"  # without the C library, the program stays DSL
        assert set(paths(fast.conditions).values()) == {want}
        if path in ("winners", "compiled", "program") and C:
            assert fast.engine == "core-c"  # the winner automaton / the tasks / the program run in the C search
        if want == "dsl":
            assert all("C search is not available" in d["why"] for d in fast.conditions)
    # the sample holds both verdicts, so agreement is not agreement on trivial deals
    assert verdicts == {WINNABLE, UNWINNABLE}


def _positions_along_the_line(mission: str, seed: str, tricks: int) -> list[Game]:
    """Full 4-player deal: the position after ``tricks`` tricks of a winning line, and the positions after
    its leader leads another card instead (some of them lost)."""
    game = new_game("crew", mission, 4, seed=seed)
    result = solve(game, timeout=60)
    assert result.status == WINNABLE
    g = game.clone()
    for a in result.line:
        if len(g.tricks) == tricks and not g.plays:
            break
        g.apply(a)
    out = [g]
    for a in search_actions(g, gold_frame=False)[:4]:
        child = g.clone()
        child.apply(a)
        if not child.is_over():
            out.append(child)
    return out


@pytest.mark.parametrize("mission", ["planet-nine/34", "planet-nine/46", "planet-nine/50"])
def test_full_deals_agree_mid_game(mission: str) -> None:
    """Whole 4-player deals: from the middle of the game (five tricks left) the two paths agree."""
    verdicts = set()
    for seed in ("mid:1", "mid:2"):
        for g in _positions_along_the_line(mission, seed, 5):
            verdicts.add(both_paths(g))
    assert WINNABLE in verdicts


AUTHORED = """\
number: 101
title: Nines to the captain
description: The commander must win every 9 and may win at most four tricks.
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: every-nine
    fail_if: "any(c in cards_of_rank(9): won_by(c) != none and won_by(c) != commander)"
    done_if: "all(c in cards_of_rank(9): won_by(c) == commander)"
    reason: "a 9 went to seat {trick.winner}, not to the commander"
  - id: modest-commander
    fail_if: "tricks_won(commander) > 2"
    reason: "the commander won more than two tricks"
"""

AUTHORED_CARDS = """\
number: 102
title: No ones win
description: No trick may be won by a 1.
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: no-one-wins
    fail_if: "any(t in tricks: t.winning_card.rank == 1)"
    reason: "trick {trick.number} was won by a 1"
"""


@pytest.fixture
def authored(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "nines.yaml"
    a.write_text(AUTHORED, encoding="utf-8")
    b = tmp_path / "ones.yaml"
    b.write_text(AUTHORED_CARDS, encoding="utf-8")
    return a, b


def test_authored_mission_is_compiled_and_agrees(authored: tuple[Path, Path]) -> None:
    """An authored mission written like mission 46 and 29 (nothing named after a mission) takes the same
    fast paths: its every-9 condition becomes search tasks, its count condition the winner automaton."""
    nines, ones = authored
    verdicts = set()
    for seed in range(8):
        game = small_deal(nines, seed, 4, NINES)
        fast = fast_and_slow(game)
        verdicts.add(fast.status)
        assert paths(fast.conditions) == {"every-nine": "compiled", "modest-commander": "winners"}
    assert verdicts == {WINNABLE, UNWINNABLE}
    # a condition that reads the winning cards stays in the DSL, and the report says why
    verdicts = set()
    for seed in range(6):
        game = small_deal(ones, seed, 4)
        fast = fast_and_slow(game)
        verdicts.add(fast.status)
        (d,) = fast.conditions
        assert d["path"] == ("program" if C else "dsl") and "reads cards" in d["how"] + d["why"]
    assert WINNABLE in verdicts


def test_a_set_card_never_dealt_is_done_when_the_hands_run_out() -> None:
    """Mission 46 on small deals where some pink cards are not dealt. Reading ``not-needed`` (a pink card left
    unplayed is not needed): the dealt pinks become tasks and the mission cannot succeed before the hands run
    out (``left_unplayed`` holds only then); the report names the cards. Reading ``counts-as-missed``: an
    undealt pink can never be won, the condition stays in the DSL and says which card. Both paths agree."""
    verdicts = set()
    for seed in range(6):
        game = small_deal("planet-nine/46", seed, 4, ("pink 9", "pink 1"))
        fast = fast_and_slow(game)
        (d,) = fast.conditions
        assert d["path"] == "compiled" and "never played: done when the hands run out" in d["how"]
        verdicts.add(fast.status)
        if fast.status == WINNABLE:
            g = game.clone()
            for a in fast.line:
                g.apply(a)
            assert len(g.tricks) == g.total_tricks  # no success before the last trick
    assert verdicts == {WINNABLE, UNWINNABLE}
    for seed in range(2):
        game = small_deal("planet-nine/46", seed, 4, ("pink 9", "pink 1"),
                          readings={"unplayed-card": "counts-as-missed"})
        d = solve(game, timeout=60).conditions[0]  # every-pink (the reading adds no-pink-unplayed)
        said = d["how"] + d["why"]
        assert d["id"] == "every-pink" and d["path"] == ("program" if C else "dsl") and " is in no hand" in said
        name = said.split("not search tasks: ")[1].split(" is in no hand")[0]
        card = game.rules.deck.card(name)
        assert card.suit is not None and card.suit.name == "pink"
        assert not any(h & card.bit for h in game.hands)
        assert both_paths(game) == UNWINNABLE


def test_three_players_a_pink_may_stay_in_the_hand() -> None:
    """With 3 players one card is never played. Under ``not-needed`` that card may be a pink one, so the pinks
    are not compiled into tasks (which would have to be won): this position (after 8 tricks) is winnable
    only by keeping a pink card in hand, and the compiled search once called it unwinnable."""
    game = new_game("crew", "planet-nine/46", 3, seed="m46:12")
    rng = random.Random(12)
    while not (game.phase == "tricks" and not game.plays and len(game.tricks) >= 8):
        acts = search_actions(game, gold_frame=False)
        rng.shuffle(acts)
        for a in acts:
            child = game.clone()
            child.apply(a)
            if not child.is_over():
                break
        game = child
    fast = fast_and_slow(game)
    assert fast.status == WINNABLE
    (d,) = fast.conditions
    assert d["path"] == ("program" if C else "dsl") and "may be left unplayed" in d["how"] + d["why"]


def test_too_many_winner_sequences_stay_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above the automaton's cap the card-blind conditions are checked per winner sequence in Python, the
    report says so, and the verdict is the same."""
    game = small_deal("planet-nine/34", 2, 5)
    expected = solve(game, timeout=60).status
    monkeypatch.setattr(TrickSearch, "AUTOMATON_CAP", 3)
    from crewkit.families.trick_taking.solve import automaton

    monkeypatch.setattr(automaton, "_AUTOMATA", {})
    monkeypatch.setattr(automaton, "PAST_FACTOR", 1)  # 34 reads the first winner: merged pasts get no more
    result = solve(game, timeout=60)
    assert result.status == expected and result.engine == "core"
    reason = "more than 3 sequences" if C else "the C search is not available"
    assert all(d["path"] == "winners" and reason in d["why"] for d in result.conditions)


def test_winner_automaton_is_minimal_and_looks_ahead() -> None:
    """Mission 34 (balance, first and last trick to the commander): the automaton's root allows only the
    commander to win trick 1; merging keeps it to a few dozen states (one per reachable future); the
    commander may not win trick 9 (it must also win trick 10, two more than someone else)."""
    game = new_game("crew", "planet-nine/34", 4, seed="auto")
    while game.phase != "tricks":
        game.apply(search_actions(game, gold_frame=False)[0])
    a = TrickSearch(game, native=False).winner_automaton()  # what the C search reads (built here without it)
    assert a is not None and a.root >= 0
    cmd = game.commander
    assert a.allowed(a.root) == 1 << cmd
    assert len(a.complete) < 60
    # follow a balanced sequence: commander, then each other seat once, twice round, then trick 9
    others = [s for s in range(4) if s != cmd]
    seq = (cmd, *others, *others, cmd)
    state = a.walk(seq)
    assert state >= 0
    assert not (a.allowed(state) >> cmd) & 1
    last = a.walk((*seq, others[0]))
    assert a.allowed(last) == 1 << cmd
    assert a.complete[a.children[last][cmd]] == 1
    assert a.walk((cmd, cmd)) == -1  # balance broken


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crewkit")
    sub = parser.add_subparsers(dest="command")
    commands.add_solve_parser(sub)
    return parser.parse_args(argv)


def test_solve_output_names_each_conditions_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert commands.cmd_solve(_parse(["solve", "--mission", "planet-nine/34", "--players", "4", "--seed", "3"])) == 0
    out = capsys.readouterr().out
    for cid in ("balance", "commander-first", "commander-last"):
        assert f"  {cid}: " in out
    assert ("automaton over trick winners in the C search" if C else "checked once per winner sequence") in out
    assert commands.cmd_solve(_parse(["solve", "--mission", "planet-nine/46", "--players", "4", "--seed", "3",
                                      "--format", "json"])) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["id"], d["path"], d["why"]) for d in data["conditions"]] == [("every-pink", "compiled", "")]
    assert "cards won by one seat" in data["conditions"][0]["how"]
    # mission 13 checks after every play: a program in the C search (the slower path without it, and why)
    assert commands.cmd_solve(_parse(["solve", "--mission", "planet-nine/13", "--players", "4", "--seed", "3"])) == 0
    out = capsys.readouterr().out
    if C:
        assert "every-rocket-wins: fast path (translated into a program evaluated at every play in the C search" in out
    else:
        assert "every-rocket-wins: slower path" in out and "because the C search is not available" in out


def test_engine_fallback_says_why() -> None:
    """With JARVIS (2 players) the dummy seat is searched by the engine-driven search; each condition's report
    names that path and the reason."""
    game = new_game("crew-jarvis", "planet-nine/46", 2, seed="jarvis")
    while game.phase != "tricks":
        game.apply(search_actions(game, gold_frame=False)[0])
    result = solve(game, timeout=2)
    assert result.conditions
    for d in result.conditions:
        assert d["path"] == "engine"
        assert "dummy seat" in d["why"]


AUTHORED_PAST = """\
number: 103
title: Full circle
description: Whoever wins the first trick must win the last one and no other.
rulesets: [crew]
tasks: {count: 0, tokens: []}
conditions:
  - id: full-circle
    fail_if: "last_trick != none and last_trick.is_last and last_trick.winner != first_trick.winner"
    reason: "the last trick went to seat {last_trick.winner}, the first to seat {first_trick.winner}"
  - id: only-those
    fail_if: "any(t in tricks: t.number > 1 and not t.is_last and t.winner == first_trick.winner)"
    reason: "the first trick's winner also won trick {trick.number}"
"""


@pytest.mark.parametrize("cap", [None, 1])
def test_a_condition_reading_the_first_winner_keeps_it_in_the_key(tmp_path: Path, cap: int | None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A card-blind condition that reads an earlier trick's winner: positions with the same counts of tricks
    but another first winner are different positions (the automaton's states in C; the winner sequence in
    the Python search's key, ``cap=1``), and both agree with the slow path."""
    if cap is not None:
        from crewkit.families.trick_taking.solve import automaton

        monkeypatch.setattr(TrickSearch, "AUTOMATON_CAP", cap)
        monkeypatch.setattr(automaton, "_AUTOMATA", {})
    path = tmp_path / "circle.yaml"
    path.write_text(AUTHORED_PAST, encoding="utf-8")
    verdicts = set()
    for seed in (0, 1, 2, 6, 14):
        game = small_deal(path, seed, 5, players=3)
        fast = fast_and_slow(game)
        verdicts.add(fast.status)
        assert fast.engine == ("core-c" if C and cap is None else "core")
    assert verdicts == {WINNABLE, UNWINNABLE}


def test_python_key_holds_the_winner_sequence_when_a_condition_reads_tricks(tmp_path: Path) -> None:
    """The Python search's key: the winner sequence for conditions that read tricks (first_trick here), each
    seat's count of tricks for conditions that read only counts (mission 29's balance)."""
    path = tmp_path / "circle.yaml"
    path.write_text(AUTHORED_PAST, encoding="utf-8")
    for mission, differ in ((str(path), True), ("planet-nine/29", False)):
        game = small_deal(mission, 0, 5, players=3)
        while game.phase != "tricks":
            game.apply(search_actions(game, gold_frame=False)[0])
        search = TrickSearch(game, native=False)
        assert search.card_blind
        search._reset_position()
        search.tricks_won = [1, 1, 0]
        search._seq = (0, 1)
        first = search._key()
        search._seq = (1, 0)
        assert (search._key() != first) == differ
