"""Bots: legal actions only, observations only, determinism, the driver's communication windows."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import BotError, UnknownBot, bot_names, make_bot
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES, Bot
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, observe
from crewkit.families.trick_taking.family import play_game
from tests.referee import assert_engine_agrees


class Checked:
    """Wraps a bot and checks every call: an Observation (never the game) in, a legal action out."""

    def __init__(self, inner: Bot, game: Game) -> None:
        self.inner = inner
        self.seat = inner.seat
        self.game = game
        self.acts = 0
        self.optional_calls: list[int] = []  # number of actions applied when offered

    def _check_obs(self, obs: Any) -> None:
        assert type(obs) is Observation
        assert obs.seat == self.seat
        for name in Observation.__slots__:
            value = getattr(obs, name, None)
            assert value is not self.game
            assert not isinstance(value, Game)

    def act(self, obs: Observation) -> Action:
        self._check_obs(obs)
        assert obs.to_act == self.seat
        action = self.inner.act(obs)
        assert action in obs.legal
        if any(not isinstance(a, OPTIONAL_TYPES) for a in obs.legal):
            assert not isinstance(action, OPTIONAL_TYPES)
        self.acts += 1
        return action

    def optional(self, obs: Observation) -> Action | None:
        self._check_obs(obs)
        self.optional_calls.append(len(self.game.actions))
        action = self.inner.optional(obs)
        if action is not None:
            assert action in obs.legal
            assert isinstance(action, OPTIONAL_TYPES)
        return action


def _play_checked(bot: str, mission: str, players: int, seed: str) -> Game:
    rules = load_rules("crew", mission, players)
    game = Game.new(rules, seed=seed)
    bots = [Checked(make_bot(bot, s, seed), game) for s in range(players)]
    play_game(game, bots)
    assert_engine_agrees(game, mission)
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(max_size=8), players=st.integers(3, 5), mission=st.sampled_from(
    ["planet-nine/01", "planet-nine/08", "planet-nine/10", "planet-nine/14", "planet-nine/22"]))
def test_random_bot_plays_legal_games(seed: str, players: int, mission: str) -> None:
    _play_checked("random", mission, players, seed)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(max_size=6), players=st.integers(3, 5),
       mission=st.sampled_from(["planet-nine/01", "planet-nine/07", "planet-nine/14"]))
def test_heuristic_bot_plays_legal_games(seed: str, players: int, mission: str) -> None:
    _play_checked("heuristic", mission, players, seed)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(max_size=6), players=st.integers(3, 5),
       mission=st.sampled_from(["planet-nine/04", "planet-nine/08", "planet-nine/22", "planet-nine/25"]))
def test_rules_bot_plays_legal_games(seed: str, players: int, mission: str) -> None:
    _play_checked("rules", mission, players, seed)


@pytest.mark.parametrize(("bot", "mission"), [("random", "planet-nine/04"), ("heuristic", "planet-nine/02")])
def test_bots_are_deterministic(bot: str, mission: str) -> None:
    a = _play_checked(bot, mission, 4, "same")
    b = _play_checked(bot, mission, 4, "same")
    assert a.actions == b.actions


def test_bots_use_their_own_rng() -> None:
    import random

    random.seed(1)
    a = _play_checked("random", "planet-nine/04", 4, "x")
    random.seed(2)
    b = _play_checked("random", "planet-nine/04", 4, "x")
    assert a.actions == b.actions


def test_make_bot_lists_names() -> None:
    assert {"random", "heuristic"} <= set(bot_names())
    with pytest.raises(UnknownBot) as err:
        make_bot("nope", 0, "s")
    assert "random" in str(err.value) and "heuristic" in str(err.value)


def test_optional_offered_once_per_window_from_the_leader() -> None:
    rules = load_rules("crew", "planet-nine/04", 4)
    game = Game.new(rules, seed="windows")
    order: list[tuple[int, int]] = []  # (actions applied, seat)

    class Recorder:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.inner = make_bot("random", seat, "w")

        def act(self, obs: Observation) -> Action:
            return self.inner.act(obs)

        def optional(self, obs: Observation) -> Action | None:
            order.append((len(game.actions), self.seat))
            return None

    play_game(game, [Recorder(s) for s in range(4)])
    windows: dict[int, list[int]] = {}
    for applied, seat in order:
        windows.setdefault(applied, []).append(seat)
    assert windows
    for seats in windows.values():
        assert len(seats) == len(set(seats))  # one offer per seat per window
        assert seats[0] != seats[-1] or len(seats) == 1
    first = min(windows)
    assert windows[first][0] == game.commander  # the commander leads the first trick


def test_communication_reaches_the_game() -> None:
    rules = load_rules("crew", "planet-nine/04", 4)
    game = Game.new(rules, seed="talk")

    class Talker:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.inner = make_bot("random", seat, "t")

        def act(self, obs: Observation) -> Action:
            return self.inner.act(obs)

        def optional(self, obs: Observation) -> Action | None:
            comms = [a for a in obs.legal if isinstance(a, Communicate)]
            return comms[0] if comms else None

    play_game(game, [Talker(s) for s in range(4)])
    assert game.communications


def test_illegal_bot_action_is_reported() -> None:
    rules = load_rules("crew", "planet-nine/01", 4)
    game = Game.new(rules, seed="bad")

    class Cheater:
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def act(self, obs: Observation) -> Action:
            if obs.phase == "tricks":
                other = next(c for c in obs.rules.deck.cards if c not in obs.hand)
                return Play(self.seat, other)
            return obs.legal[0]

        def optional(self, obs: Observation) -> Action | None:
            return None

    with pytest.raises(BotError):
        play_game(game, [Cheater(s) for s in range(4)])


def test_lazy_observation_is_a_snapshot() -> None:
    rules = load_rules("crew", "planet-nine/10", 4)
    game = Game.new(rules, seed="snap")
    while game.phase != "tricks":
        game.apply(game.legal_actions()[0])
    other = (game.to_act + 1) % 4
    expected = tuple(game.legal_actions(other))
    lazy = observe(game, other, lazy_optional=True)
    expected_leader = tuple(game.legal_actions(game.to_act))
    lazy_leader = observe(game, game.to_act, lazy_optional=True)
    comm = next(a for a in expected if isinstance(a, Communicate))
    game.apply(comm)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Play)))
    assert lazy.legal == expected
    assert lazy_leader.legal == expected_leader
    assert lazy.hand == tuple(game.rules.deck.from_mask(lazy.hand_mask))
    assert lazy.communications == ()
    assert observe(game, other).legal == tuple(game.legal_actions(other))


def test_observation_fields_and_json() -> None:
    rules = load_rules("crew", "planet-nine/04", 4)
    game = Game.new(rules, seed="json")
    play_game(game, [make_bot("random", s, "j") for s in range(4)])
    obs = game.observation(0)
    data = obs.to_json()
    assert data["outcome"] == game.outcome().result
    assert data["reason"] == game.outcome().reason
    assert len(data["hand"]) == len(game.hand(0))
    assert [c.name for c in obs.hand] == [c.name for c in game.hand(0)]
    assert obs.hand_sizes == tuple(len(game.hand(s)) for s in range(4))
