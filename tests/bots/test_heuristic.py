"""The heuristic bot's pieces: sampled worlds respect what is known; the fast simulator agrees with the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.bots.heuristic import Knowledge, world_from
from crewkit.families.trick_taking.bots.sim import rollout
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.family import play_game


def _to_tricks(game: Game, seed: str) -> None:
    bots = [make_bot("random", s, seed) for s in range(game.n)]
    while game.phase != "tricks" and not game.is_over():
        seat = game.to_act
        game.apply(bots[seat].act(game.observation(seat)))


@settings(max_examples=25, deadline=None)
@given(seed=st.text(max_size=6), players=st.integers(3, 5), plays=st.integers(0, 25))
def test_sampled_worlds_respect_knowledge(seed: str, players: int, plays: int) -> None:
    rules = load_rules("crew", "planet-nine/04", players)
    game = Game.new(rules, seed=seed)
    _to_tricks(game, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        if game.is_over():
            return
        legal = [a for a in game.legal_actions() if isinstance(a, Play)]
        game.apply(rng.choice(legal))
    if game.is_over():
        return
    seat = game.to_act
    obs = game.observation(seat)
    know = Knowledge(obs)
    for _ in range(5):
        hands = know.sample(rng)
        assert hands[seat] == game.hands[seat]
        for s in range(players):
            assert hands[s].bit_count() == game.hands[s].bit_count()
            assert not hands[s] & know.played
            assert not hands[s] & know.void[s] or s == seat
            assert hands[s] & know.known[s] == know.known[s]
        for s in range(players):
            for t in range(s + 1, players):
                assert not hands[s] & hands[t]
        # the truth is always consistent with what the seat knows
        for s in range(players):
            if s != seat:
                assert not game.hands[s] & know.void[s]
                assert game.hands[s] & know.known[s] == know.known[s]


@pytest.mark.parametrize("mission", ["planet-nine/04", "planet-nine/08", "planet-nine/07", "planet-nine/22"])
def test_simulator_agrees_with_the_engine(mission: str) -> None:
    rules = load_rules("crew", mission, 4)
    for i in range(30):
        seed = f"agree:{i}"
        game = Game.new(rules, seed=seed)
        _to_tricks(game, seed)
        world = world_from(game.observation(0), list(game.hands))
        rng = random.Random(seed)
        while not game.is_over():
            card = rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]).card
            assert world.legal(world.turn) == game.legal_play_mask(game.turn)
            game.apply(Play(game.turn, card))
            world.play(card.id)
            if not game.is_over():
                assert world.status == 0
                assert world.turn == game.turn
        assert world.status == (1 if game.outcome().result == "success" else -1)


def test_rollout_ends() -> None:
    rules = load_rules("crew", "planet-nine/10", 4)
    game = Game.new(rules, seed="r")
    _to_tricks(game, "r")
    world = world_from(game.observation(0), list(game.hands))
    assert rollout(world) in (0, 1)
    assert world.status != 0


def test_heuristic_wins_an_easy_mission_mostly() -> None:
    rules = load_rules("crew", "planet-nine/01", 4)
    wins = 0
    for i in range(8):
        game = Game.new(rules, seed=f"easy:{i}")
        play_game(game, [make_bot("heuristic", s, f"easy:{i}") for s in range(4)])
        wins += game.outcome().result == "success"
    assert wins >= 5
