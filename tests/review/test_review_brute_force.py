"""``review`` against brute force on small deals: every position's winnability by exhaustive engine search."""

from __future__ import annotations

import random

import pytest

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.review import LOST, NEVER, UNDECIDED, WON, positions_of, review
from crewkit.families.trick_taking.solve import brute_force
from crewkit.families.trick_taking.solve.reference import search_actions


def small_game(mission: str, seed: int, cards: int = 3, players: int = 3) -> Game:
    """A random explicit deal of ``cards`` per seat (rocket 4 always dealt), tasks among the dealt cards."""
    rules = compile_game("crew", mission, players)
    rng = random.Random(seed)
    deck = rules.deck
    must = [deck.card("rocket 4")]
    rest = [c for c in deck.cards if c not in must]
    rng.shuffle(rest)
    chosen = must + rest[: players * cards - 1]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * cards:(i + 1) * cards]) for i in range(players))
    pool = set(rules.task_pool)
    colour = [c for c in chosen if c in pool]
    tasks = tuple(rng.sample(colour, rules.task_count)) if rules.task_count else ()
    return Game.new(rules, seed=f"review:{seed}", deal=Deal(hands, tasks), partial=True)


def random_attempt(game: Game, seed: int) -> list[Action]:
    """A random sequence of the solver's actions (setup, draft, plays) from ``game`` to its end."""
    rng = random.Random(seed)
    g = game.clone()
    out: list[Action] = []
    while not g.is_over():
        a = rng.choice(search_actions(g, gold_frame=False))
        g.apply(a)
        out.append(a)
    return out


def brute_positions(game: Game, actions: list[Action]) -> list[bool]:
    return [brute_force(g)[0] for g in positions_of(game, actions)]


CASES = [(m, s) for m in ("planet-nine/02", "planet-nine/03", "planet-nine/06") for s in range(12)]


@pytest.mark.parametrize(("mission", "seed"), CASES)
def test_every_position_agrees_with_brute_force(mission: str, seed: int) -> None:
    """The review's status, turning point and every position it decided are brute force's."""
    game = small_game(mission, seed)
    actions = random_attempt(game, seed)
    truth = brute_positions(game, actions)
    # winnability only goes from can-win to cannot along a game: what the bisection relies on
    assert all(a or not b for a, b in zip(truth, truth[1:], strict=False))
    rv = review(game, actions, blame=False, timeout=None)
    for p in rv.positions:
        assert p["winnable"] == truth[p["action_index"]], p
    end = positions_of(game, actions)[-1]
    if end.outcome().result == "success":
        assert rv.status == WON and rv.turning_point is None
    elif not truth[0]:
        assert rv.status == NEVER and rv.turning_point is None and rv.reason
    else:
        assert rv.status == LOST
        tp = rv.turning_point
        assert tp is not None
        i = tp["action_index"]
        assert truth[i] and not truth[i + 1]
        assert tp["action"] == actions[i].to_json() and tp["seat"] == actions[i].seat
        assert tp["trick"] == len(positions_of(game, actions)[i].tricks) + 1
        # the line from the position before it wins, and "instead" is its first action
        before = positions_of(game, actions)[i]
        assert rv.line_actions and tp["line"] == [a.to_json() for a in rv.line_actions]
        g = before.clone()
        for a in rv.line_actions:
            g.apply(a)
        assert g.is_over() and g.outcome().result == "success"
        if tp["instead"] is not None:
            assert tp["instead"] == tp["line"][0]
            assert "for example if" in tp["words"]


def test_the_cases_cover_every_outcome() -> None:
    """The brute-force cases above hold lost, won and never-winnable attempts (so each branch is checked)."""
    seen = set()
    for mission, seed in CASES:
        game = small_game(mission, seed)
        seen.add(review(game, random_attempt(game, seed), blame=False, timeout=None).status)
    assert {LOST, WON, NEVER} <= seen


def test_won_game_closest_call_is_the_last_forced_play() -> None:
    """A won attempt (brute force's winning line): the closest call is a play every alternative of which loses
    (brute force), and no later play was forced."""
    found = 0
    for seed in range(30):
        game = small_game("planet-nine/03", seed, cards=4)
        ok, line = brute_force(game)
        if not ok:
            continue
        rv = review(game, line, blame=False, timeout=None)
        assert rv.status == WON
        games = positions_of(game, line)

        def forced(i: int, games: list[Game] = games, line: list[Action] = line) -> bool:
            g = games[i]
            a = line[i]
            others = [b for b in g.legal_actions(a.seat) if isinstance(b, Play) and b != a]
            if not isinstance(a, Play) or not others:
                return False
            for b in others:
                child = g.clone()
                child.apply(b)
                if brute_force(child)[0]:
                    return False
            return True

        cc = rv.closest_call
        later = range(len(line)) if cc is None else range(cc["action_index"] + 1, len(line))
        assert not any(forced(i) for i in later)
        if cc is not None:
            assert forced(cc["action_index"]) and "the only play" in cc["words"]
            found += 1
    assert found  # at least one won game had a closest call


def test_tiny_budget_leaves_positions_undecided_never_guessed() -> None:
    """With a budget of one searched play, positions the solver cannot decide are null, never a guess; a
    review whose turning point cannot be pinned down says unknown and lists them."""
    statuses = set()
    for seed in range(6):
        game = small_game("planet-nine/06", seed, cards=5)
        actions = random_attempt(game, seed)
        rv = review(game, actions, blame=False, timeout=None, max_nodes=1)
        statuses.add(rv.status)
        # brute force only where the review gave a verdict: a null needs no truth (the early positions, whose
        # exhaustive search is the slow part, are the ones a budget of one play leaves undecided)
        games = positions_of(game, actions)
        for p in rv.positions:
            if p["winnable"] is not None:
                assert p["winnable"] == brute_force(games[p["action_index"]])[0]
        if rv.status == UNDECIDED:
            assert rv.undecided and all(p["winnable"] is None for p in rv.positions
                                        if p["action_index"] in rv.undecided)
            assert rv.turning_point is None
    assert UNDECIDED in statuses
