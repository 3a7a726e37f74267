"""Free drafts searched, not enumerated: the core decides who takes each task as the tricks are won."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import small_game

from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import (
    UNWINNABLE,
    WINNABLE,
    TrickSearch,
    brute_force,
    replays_to_success,
    solve,
)
from crewkit.families.trick_taking.solve.core import draft_quotas

ROCKETS = ["rocket 1", "rocket 2", "rocket 3", "rocket 4"]


def draft_game(hands: list[list[str]], tasks: list[str], tokens: tuple[str, ...] = ()) -> Game:
    """A hand-made deal under planet-nine/01's rules, in its draft phase with ``tasks`` to divide."""
    base = compile_game("crew", "planet-nine/01", len(hands))
    rules = dataclasses.replace(base, task_count=len(tasks), tokens=tokens, mission_id="free-draft-test")
    deck = rules.deck
    deal = Deal(tuple(tuple(deck.card(c) for c in hand) for hand in hands), tuple(deck.card(c) for c in tasks))
    game = Game.new(rules, seed="free-draft", deal=deal, partial=True)
    assert game.phase == "draft"
    return game


def owners_in(game: Game, line: list) -> dict[str, int]:
    return {str(a.card): a.seat for a in line if isinstance(a, TakeTask)}


def with_owners(game: Game, owners: dict[str, int]) -> Game:
    """``game`` after a draft that gives each task to ``owners[card]`` (seats take in draft order)."""
    g = game.clone()
    while g.phase == "draft":
        seat = g.draft_turn
        card = next(t.card for t in g.tasks if t.owner is None and owners[str(t.card)] == seat)
        g.apply(TakeTask(seat, card))
    return g


def assignments(game: Game) -> list[dict[str, int]]:
    """Every way the draft of ``game`` can end (each seat keeping its number of tasks)."""
    names = [str(t.card) for t in game.tasks if t.owner is None]
    seats = [(game.draft_turn + j) % game.n for j in range(len(names))]
    return [dict(zip(names, perm, strict=True)) for perm in sorted(set(itertools.permutations(seats)))]


def test_free_draft_is_one_search() -> None:
    game = small_game("planet-nine/04", 1, cards=3, players=3)
    assert game.phase == "draft"
    search = TrickSearch(game, native=False)
    assert search.draft and search.undrafted
    assert search.quota_left == [1, 1, 1]
    result = solve(game)
    assert result.starts == 1 and result.engine in ("core", "core-c")


def test_table_keys_hold_the_seats_room() -> None:
    """Two positions with the same cards but different numbers of tasks left to take are different positions
    (a memoised key once dropped the quotas, so a lost position could stand for a winnable one)."""
    game = small_game("planet-nine/04", 2, cards=3, players=3)
    search = TrickSearch(game, native=False)
    search._reset_position()
    first = search._key()
    search.quota_left = [0, 2, 1]
    assert search._key() != first  # the relative key is memoised by cards: the quotas must still count
    search.quota_left = [1, 1, 1]
    assert search._key() == first


def test_commander_with_every_rocket_and_top_card_cannot_share_the_tasks() -> None:
    """The commander leads every trick with a card nobody can beat, so it wins them all: nobody else can take
    a task, whatever the draft. The sweep bound proves it before a single card is tried."""
    commander = [*ROCKETS, "blue 9", "green 9", "yellow 9", "pink 9", "blue 8", "pink 8"]
    others = [c for c in (f"{s} {r}" for s in ("blue", "green", "yellow", "pink") for r in range(1, 10))
              if c not in commander]
    hands = [commander, others[0:10], others[10:20], others[20:30]]
    tasks = [others[i] for i in (0, 3, 7, 10, 14, 19, 20, 22, 25, 29, 1, 12)]
    game = draft_game(hands, tasks)
    result = solve(game, timeout=20)
    assert result.status == UNWINNABLE
    assert result.nodes == 0
    # the same deal with 4 tasks: the enumeration of all 24 assignments agrees
    small = draft_game(hands, tasks[:4])
    assert solve(small, timeout=20).status == UNWINNABLE
    assert solve(small, timeout=60, free_draft=False).status == UNWINNABLE


def test_a_deal_only_a_reassignment_can_win() -> None:
    """Of the six ways to divide the three tasks, the draft-order one (each seat takes the first task left)
    loses; the free draft finds a winning division and its line replays through the engine."""
    hands = [["blue 2", "blue 6", "rocket 4"], ["green 1", "green 9", "rocket 2"], ["blue 3", "green 3", "pink 9"]]
    game = draft_game(hands, ["green 1", "blue 3", "blue 6"])
    naive = {"green 1": 0, "blue 3": 1, "blue 6": 2}
    assert solve(with_owners(game, naive)).status == UNWINNABLE
    winners = [a for a in assignments(game) if solve(with_owners(game, a)).status == WINNABLE]
    assert winners and naive not in winners
    result = solve(game)
    assert result.status == WINNABLE
    assert owners_in(game, result.line) in winners
    assert replays_to_success(game, result.line)
    assert isinstance(result.line[3], Play)  # the three take-task actions, then the tricks


def test_sweep_bound_is_silent_when_another_seat_can_win_a_trick() -> None:
    hands = [["rocket 4", "blue 9"], ["blue 1", "pink 2"], ["blue 3", "pink 3"]]
    game = draft_game(hands, ["blue 3", "pink 2", "blue 1"])
    search = TrickSearch(game)
    search._reset_position()
    search.remaining = sum(search.hands)
    assert search._sweeps()  # rocket 4 and blue 9: seat 0 wins both tricks
    hands = [["rocket 4", "blue 8"], ["blue 9", "pink 2"], ["blue 3", "pink 3"]]
    search = TrickSearch(draft_game(hands, ["blue 3", "pink 2", "blue 9"]))
    search._reset_position()
    search.remaining = sum(search.hands)
    assert not search._sweeps()  # blue 9 beats blue 8
    game = draft_game(hands, ["blue 3", "pink 2", "blue 9"])
    assert (solve(game).status == WINNABLE) == brute_force(game)[0]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    mission=st.sampled_from(["planet-nine/04", "planet-nine/10", "planet-nine/03", "planet-nine/07",
                             "planet-nine/06"]),
    seed=st.integers(0, 10**6),
    cards=st.integers(3, 5),
    players=st.sampled_from([3, 4]),
)
def test_free_draft_agrees_with_the_enumeration(mission: str, seed: int, cards: int, players: int) -> None:
    """Property: on small drafted deals (tokens included) the free-draft search and the enumeration of every
    assignment give the same verdict, and a winning line drafts and replays through the engine."""
    try:
        game = small_game(mission, seed, cards=cards, players=players)
    except ValueError:
        return  # more task cards than the small deal holds
    if game.phase != "draft":
        return
    free = solve(game, timeout=60)
    enumerated = solve(game, timeout=60, free_draft=False)
    assert free.status in (WINNABLE, UNWINNABLE)
    assert free.status == enumerated.status
    assert free.starts == 1
    if free.status == WINNABLE:
        assert replays_to_success(game, free.line)
        assert sum(isinstance(a, TakeTask) for a in free.line) == sum(t.owner is None for t in game.tasks)
    else:
        assert free.line == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6), cards=st.integers(3, 5), players=st.sampled_from([3, 4]))
def test_free_draft_with_conditions_on_trick_winners(seed: int, cards: int, players: int) -> None:
    """Conditions that read only trick winners (an authored mission: the commander wins at most two tricks)
    never read a task: the draft is searched free beside their winner automaton, with the enumeration's
    verdict."""
    mission = str(Path(__file__).resolve().parents[1] / "analysis" / "authored" / "quiet-captain.yaml")
    try:
        game = small_game(mission, seed, cards=cards, players=players)
    except ValueError:
        return
    assert game.phase == "draft"
    free = solve(game, timeout=60)
    assert free.status in (WINNABLE, UNWINNABLE) and free.starts == 1
    assert free.status == solve(game, timeout=60, free_draft=False).status
    if free.status == WINNABLE:
        assert replays_to_success(game, free.line)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_free_draft_agrees_with_brute_force(seed: int) -> None:
    """The engine-driven brute force (which drafts through take-task actions itself) is the reference."""
    game = small_game("planet-nine/03", seed, cards=3, players=3)
    assert game.phase == "draft"
    expected, _ = brute_force(game)
    assert (solve(game).status == WINNABLE) == expected


def gold_frame_game(seed: int) -> Game:
    """A small 5-player deal of a gold-frame mission (planet-nine/38's rules, 2 to 4 plain tasks), drafting."""
    rng = random.Random(seed)
    tasks = rng.choice([2, 3, 4])
    rules = dataclasses.replace(compile_game("crew", "planet-nine/38", 5), task_count=tasks, tokens=(),
                                mission_id=f"gold-{tasks}")
    assert rules.gold_frame
    deck = rules.deck
    rest = [c for c in deck.cards if c != deck.card("rocket 4")]
    rng.shuffle(rest)
    chosen = [deck.card("rocket 4"), *rest[:14]]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * 3:(i + 1) * 3]) for i in range(5))
    colour = [c for c in chosen if c in set(rules.task_pool)]
    game = Game.new(rules, seed=f"gold:{seed}", deal=Deal(hands, tuple(rng.sample(colour, tasks))), partial=True)
    assert game.phase == "draft"
    return game


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_gold_frame_hand_over_in_a_free_draft(seed: int) -> None:
    """5 players, gold frame: each hand-over is a free-draft start with moved quotas; the verdict is the
    enumeration's (every assignment with every hand-over), and a line with a hand-over replays."""
    game = gold_frame_game(seed)
    free = solve(game, timeout=60)
    assert free.status == solve(game, timeout=120, free_draft=False).status
    n_tasks = len(game.tasks)
    assert free.starts == 1 + sum(1 for q in draft_quotas(game) if q) * 4
    if free.status == WINNABLE:
        assert replays_to_success(game, free.line)
        assert sum(isinstance(a, TakeTask) for a in free.line) == n_tasks


def test_only_a_hand_over_wins() -> None:
    """Seed 20 of the deals above: 4 tasks, 4 seats drafting one each, 3 tricks: lost without a hand-over
    (4 owners need 4 tricks), won when one seat hands its task to another (o drafts p's task, then hands it)."""
    game = gold_frame_game(20)
    assert len(game.tasks) == 4 and len(game.deal.hands[0]) == 3
    assert solve(game, timeout=60, gold_frame=False).status == UNWINNABLE
    result = solve(game, timeout=60)
    assert result.status == WINNABLE and replays_to_success(game, result.line)
    handed = [a for a in result.line if isinstance(a, HandTask)]
    assert len(handed) == 1


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6), taken=st.integers(1, 2))
def test_a_draft_under_way_keeps_the_tasks_already_taken(seed: int, taken: int) -> None:
    """Mid-draft: the tasks already taken keep their owners, the rest go round from the seat to choose."""
    try:
        game = small_game("planet-nine/10", seed, cards=4, players=3)
    except ValueError:
        return
    for _ in range(taken):
        if game.phase == "draft":
            game.apply(game.legal_actions()[seed % len(game.legal_actions())])
    if game.phase != "draft":
        return
    free = solve(game, timeout=60)
    assert free.status == solve(game, timeout=60, free_draft=False).status
    if free.status == WINNABLE:
        assert replays_to_success(game, free.line)


def distribution_game(mission: str, seed: int, players: int, tasks: int, cards: int) -> Game:
    """A small deal of a commander's-distribution mission with ``tasks`` tasks, at the distribution's start."""
    from crewkit.families.trick_taking.engine.steps import DistributionStep

    rng = random.Random(f"distribution:{seed}")
    rules = dataclasses.replace(compile_game("crew", mission, players), task_count=tasks, tokens=(),
                                mission_id=f"distribution-{tasks}")
    deck = rules.deck
    rest = [c for c in deck.cards if c != deck.card("rocket 4")]
    rng.shuffle(rest)
    chosen = [deck.card("rocket 4"), *rest[:players * cards - 1]]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * cards:(i + 1) * cards]) for i in range(players))
    colour = [c for c in chosen if c in set(rules.task_pool)]
    game = Game.new(rules, seed=f"distribution:{seed}", deal=Deal(hands, tuple(rng.sample(colour, tasks))),
                    partial=True)
    assert isinstance(game.current_step, DistributionStep)
    return game


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6), tasks=st.integers(2, 5))
def test_commander_distribution_agrees_with_the_enumeration(seed: int, tasks: int) -> None:
    """Commander's distribution (planet-nine/24's rules, 4 players): one free-draft start per way the balance
    rule counts the tasks out, against every gift of every task enumerated through the engine."""
    from math import comb

    from crewkit.families.trick_taking.engine.step_actions import GiveTask

    game = distribution_game("planet-nine/24", seed, 4, tasks, 4)
    free = solve(game, timeout=60)
    assert free.status == solve(game, timeout=120, free_draft=False).status
    assert free.starts == comb(4, tasks % 4)
    if free.status == WINNABLE:
        assert replays_to_success(game, free.line)
        assert sum(isinstance(a, GiveTask) for a in free.line) == tasks


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6), tasks=st.integers(2, 4))
def test_commander_distribution_with_the_gold_frame(seed: int, tasks: int) -> None:
    """5 players, planet-nine/32's rules (distribution and gold frame): the hand-overs reach other counts."""
    game = distribution_game("planet-nine/32", seed, 5, tasks, 3)
    free = solve(game, timeout=60)
    assert free.status == solve(game, timeout=120, free_draft=False).status
    if free.status == WINNABLE:
        assert replays_to_success(game, free.line)
