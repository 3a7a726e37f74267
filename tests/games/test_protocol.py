"""Every bundled family plays through the one game interface (crewkit.games): random legal games to their end
(hypothesis chooses the seeds), each applied action legal, illegal actions refused with IllegalAction and the
game unchanged, clones independent, observations that hide other seats' hidden cards, and records that replay
to the same game."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.machine import Pick
from crewkit.families.not_alone.state import CardsState
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.games import BUNDLED, family_for, family_named, open_game, replay
from crewkit.games.protocol import GameInPlay

# (rule set, mission, players): every bundled family, several of its kinds of game
GAMES = [
    ("crew", "planet-nine/10", 4),
    ("crew-jarvis", "planet-nine/04", 2),
    ("hammer", "hammer", 4),
    ("not-alone", None, 3),
    ("not-alone-advanced", None, 2),
]


def test_the_games_cover_every_bundled_family() -> None:
    assert {family_for(r).name for r, _, _ in GAMES} == set(BUNDLED)
    for name in BUNDLED:
        assert family_named(name).name == name


def state_of(game: GameInPlay) -> str:
    """Everything a consumer can read of a game, as text (equal: the same game)."""
    return json.dumps([game.record(), game.waiting(), game.public_log(),
                       [game.observation(s) for s in range(game.seats)],
                       [sorted(map(repr, game.legal_actions(s))) for s in range(game.seats)]], default=str)


def refused(game: GameInPlay, action: Any) -> None:
    before = state_of(game)
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert state_of(game) == before, f"{action!r} was refused but changed the game"


def illegal_actions(game: GameInPlay, seat: int, legal: list[Action], seen: list[Action]) -> list[Action]:
    """Actions the game must refuse now: one of ``seat``'s moved to another seat, one applied earlier (of
    another phase or round), one of another family, one of a seat that does not exist."""
    out: list[Action] = []
    others = [s for s in range(game.seats) if s != seat]
    for action in legal[:3]:
        for other in others:
            moved = dataclasses.replace(action, seat=other)  # type: ignore[type-var]
            if moved not in game.legal_actions(other):
                out.append(moved)
                break
    out += [a for a in seen[-6:] if a not in game.legal_actions(a.seat)][:2]
    # a question's answer that is no option (the board family), a card play (no such action there)
    out += [a for a in (Pick(seat, "nothing-such"), Play(seat, _any_card(game))) if a not in legal]
    if legal:
        out.append(dataclasses.replace(legal[0], seat=game.seats + 2))  # type: ignore[type-var]
    return out


def _any_card(game: GameInPlay) -> Any:
    """A card of the game's own deck (a card is its deck's), or of The Crew's for a game without cards."""
    from crewkit.families.trick_taking.engine.setup import compile_game

    deck = getattr(getattr(game.engine, "rules", None), "deck", None)
    return (deck or compile_game("crew", "planet-nine/01", 4).deck).cards[0]


def hidden_of(game: GameInPlay, seat: int) -> set[str]:
    """Names of the cards in ``seat``'s hand that no other seat may see."""
    engine = game.engine
    if hasattr(engine, "hand"):  # trick-taking: the hand, less communicated cards and a dummy's face-up ones
        shown = {c.card.name for c in engine.communications} | {c.name for c in engine.observation(0).dummy_up}
        tasks = {t.card.name for t in engine.tasks}  # a task card's name is printed on the table anyway
        return {c.name for c in engine.hand(seat)} - shown - tasks
    cards = engine.state(CardsState)  # Not Alone: the effect cards in hand
    public = {c for pile in cards.discard.values() for c in pile} | {c for _, c, _ in cards.played}
    return {c for deck in cards.hands for c in cards.hands[deck][seat]} - public


def check_observations(game: GameInPlay) -> None:
    for viewer in range(game.seats):
        observation = game.observation(viewer)
        if observation.get("match"):  # Hammer's settled rounds: their tricks were played face up, and the next
            observation["match"]["round_tricks"] = []  # deal may put those cards in another hand again
        text = json.dumps(observation)
        for other in range(game.seats):
            if other == viewer:
                continue
            for name in hidden_of(game, other) - hidden_of(game, viewer):
                assert f'"{name}"' not in text, f"seat {viewer} sees {name} of seat {other}"


def play_random(game: GameInPlay, rng: random.Random, check_every: int = 7) -> GameInPlay:
    seen: list[Action] = []
    clone_at = rng.randrange(1, 30)
    for step in range(5000):
        if game.is_over():
            break
        seat = game.to_act
        assert seat is not None and seat in game.waiting()
        legal = game.legal_actions(seat)
        assert legal, f"the game waits for seat {seat} but it has no legal action"
        if step % check_every == 0:
            for bad in illegal_actions(game, seat, legal, seen):
                refused(game, bad)
            check_observations(game)
        action = rng.choice(legal)
        if step == clone_at:  # a clone goes its own way; the game is not touched by it, nor it by the game
            copy = game.clone()
            before = state_of(game)
            copy.apply(action)
            assert state_of(game) == before
            after = state_of(copy)
            game.apply(action)
            assert state_of(game) == after  # the same action: the same game
            seen.append(action)
            if game.to_act is not None:  # the game goes on alone: its clone stays where it was
                game.apply(rng.choice(game.legal_actions(game.to_act)))
                assert state_of(copy) == after
            continue
        game.apply(action)
        seen.append(action)
    assert game.is_over(), "the random game did not end"
    outcome = game.outcome()
    assert outcome.over and outcome.reason and outcome.words()
    return game


@pytest.mark.parametrize(("ruleset", "mission", "players"), GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=4, deadline=None)
@given(seed=st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=8))
def test_random_games_through_the_protocol(ruleset: str, mission: str | None, players: int, seed: str) -> None:
    game = open_game(ruleset, mission, players, seed)
    assert game.family is family_for(ruleset) and game.seats >= players and game.seed == seed
    play_random(game, random.Random(seed))
    record = game.record()
    replayed = replay(json.loads(json.dumps(record)))
    assert replayed.error is None and replayed.game is not None
    assert replayed.game.record() == record
    assert replayed.game.outcome() == game.outcome() and replayed.game.public_log() == game.public_log()
    summary = game.family.summary(game)
    assert summary.reason == game.outcome().reason and summary.length >= 1


def test_a_record_with_an_illegal_action_stops_its_replay_there() -> None:
    for ruleset, mission, players in GAMES:
        game = open_game(ruleset, mission, players, "stop")
        play_random(game, random.Random(1))
        record = game.record()
        actions = list(record["actions"])
        bad = dict(actions[3], seat=players + 5)  # a seat the game does not have
        replayed = replay({**record, "actions": [*actions[:3], bad, *actions[4:]]})
        assert replayed.error is not None and replayed.error.index == 3, ruleset
        assert replayed.game is not None and len(replayed.game.actions) <= 3
