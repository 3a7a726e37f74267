"""Random illegal actions: ``apply`` refuses each with :class:`IllegalAction` (a stable code and a sentence) and
leaves the game exactly as it was.

The actions are made two ways: a legal action of some seat with one field changed (the near misses a careless
client or a corrupted record sends) and an action of any registered type with every field random. Whatever
is not among the legal and optional actions of its seat must be refused.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.cards import Card
from crewkit.engine.actions import ACTION_TYPES, Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game

GAMES = [("crew", "planet-nine/01", 4), ("crew", "planet-nine/05", 3), ("crew", "planet-nine/11", 5),
         ("crew", "planet-nine/12", 4), ("crew", "planet-nine/20", 4), ("crew", "planet-nine/23", 3),
         ("crew", "planet-nine/24", 4), ("crew", "planet-nine/32", 5), ("crew", "planet-nine/40", 5),
         ("crew", "planet-nine/50", 4), ("crew-jarvis", "planet-nine/10", 2),
         ("crew-persian", "persian", 4), ("crew-3p-challenge", "planet-nine/13", 3), ("hammer", "hammer", 4)]
WORDS = ("left", "right", "top", "bottom", "middle", "only", "yes", "no", "good", "bad", "penalty", "challenge",
         "", "x", "1")
CODE = re.compile(r"^[a-z][a-z0-9-]*$")
# what the rule set is, not the state of the game: shared between a game and its clone
_FIXED = {"rules", "_comp", "hooks", "_handlers", "spec", "_cards", "_play_actions", "_strengths", "_free_mask",
          "_free_not_first", "_free_not_last", "_task_by_card"}


def fingerprint(game: Game) -> str:
    state: dict[str, Any] = {k: v for k, v in vars(game).items() if k not in _FIXED}
    state["_rng"] = game._rng.getstate()
    state["_draw_rng"] = game._draw_rng.getstate()
    return repr(state)


def allowed(game: Game) -> set[Action]:
    out: set[Action] = set()
    for seat in range(game.n):
        out.update(game.legal_actions(seat))
        out.update(game.optional_actions(seat))
    return out


def random_value(rng: random.Random, game: Game, current: Any) -> Any:
    """Another value of the same kind as ``current``: a seat (or a small number) for an int, a card of the deck
    for a card, another word for a string, the other truth value, a short tuple of cards."""
    if isinstance(current, bool):
        return not current
    if isinstance(current, int):
        return rng.randrange(-2, game.n + 2)
    if isinstance(current, Card):
        return rng.choice(game.rules.deck.cards)
    if isinstance(current, str):
        return rng.choice(WORDS)
    if isinstance(current, tuple):
        return tuple(rng.choice(game.rules.deck.cards) for _ in range(rng.randrange(0, 3)))
    return None


def mutate(rng: random.Random, game: Game, action: Action) -> Action | None:
    fields = [f for f in dataclasses.fields(action)]
    field = rng.choice(fields)
    value = random_value(rng, game, getattr(action, field.name))
    if value is None:
        return None
    return dataclasses.replace(action, **{field.name: value})


def invent(rng: random.Random, game: Game) -> Action | None:
    cls = ACTION_TYPES[rng.choice(sorted(ACTION_TYPES))]
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
        if "Card" in kind and "tuple" not in kind:
            values[field.name] = rng.choice(game.rules.deck.cards)
        elif "int" in kind:
            values[field.name] = rng.randrange(-2, game.n + 2)
        elif "str" in kind:
            values[field.name] = rng.choice(WORDS)
        elif "bool" in kind:
            values[field.name] = rng.random() < 0.5
        elif "tuple" in kind:
            values[field.name] = tuple(rng.choice(game.rules.deck.cards) for _ in range(rng.randrange(0, 3)))
        else:
            return None
    try:
        return cls(**values)
    except TypeError:
        return None


def assert_refused(game: Game, action: Action) -> None:
    before = fingerprint(game)
    try:
        game.apply(action)
    except IllegalAction as exc:
        assert CODE.match(exc.code), f"{action}: code {exc.code!r} is not a stable identifier"
        assert exc.message.strip(), f"{action}: refused without a sentence"
    else:
        raise AssertionError(f"{action} is not legal now (phase {game.phase}) but apply accepted it")
    assert fingerprint(game) == before, f"refusing {action} changed the game"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.sampled_from(GAMES), st.text(max_size=5), st.integers(0, 2**32))
def test_apply_refuses_random_illegal_actions_and_changes_nothing(
        game_spec: tuple[str, str, int], seed: str, rng_seed: int) -> None:
    ruleset, mission, players = game_spec
    game = new_game(ruleset, mission, players, seed=seed)
    rng = random.Random(rng_seed)
    refused = 0
    steps = 0
    while True:
        legal = allowed(game)
        for _ in range(4):
            if legal and rng.random() < 0.7:
                candidate = mutate(rng, game, rng.choice(sorted(legal, key=repr)))
            else:
                candidate = invent(rng, game)
            if candidate is not None and candidate not in legal:
                assert_refused(game, candidate)
                refused += 1
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        assert steps < 2000
    assert refused > 0
    # after the end every action is refused, legal before or not
    assert_refused(game, invent(rng, game) or game.actions[-1])
