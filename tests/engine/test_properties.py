"""Engine invariants over random seeds, player counts and missions, played with uniformly random actions."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.engine.game import Game
from crewkit.engine.record import game_to_record, replay_record
from crewkit.engine.setup import new_game

MISSIONS = ["planet-nine/01", "planet-nine/03", "planet-nine/06", "planet-nine/12", "planet-nine/13",
            "planet-nine/19", "planet-nine/23", "planet-nine/24", "planet-nine/29", "planet-nine/33",
            "planet-nine/37", "planet-nine/40", "planet-nine/46", "planet-nine/50"]

games = st.tuples(st.sampled_from(MISSIONS), st.sampled_from([3, 4, 5]), st.text(min_size=0, max_size=8),
                  st.integers(0, 2**32))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_random(game: Game, rng: random.Random, check: object = None) -> Game:
    steps = 0
    while not game.is_over():
        seat = game.to_act
        assert seat is not None
        actions = game.legal_actions()
        assert actions, f"no legal action for seat {seat} in phase {game.phase}"
        # sometimes let another seat communicate out of turn, as at a real table
        if game.in_communication_window() and rng.random() < 0.2:
            other = rng.randrange(game.n)
            optional = game.optional_actions(other)
            if optional:
                actions = optional
        game.apply(rng.choice(actions))
        if callable(check):
            check(game)
        steps += 1
        assert steps < 2000, "the game does not end"
    return game


@SETTINGS
@given(games)
def test_every_game_ends_and_conserves_cards(params: tuple[str, int, str, int]) -> None:
    mission, players, seed, rng_seed = params
    game = new_game("crew", mission, players, seed=seed)
    total = sum(h.bit_count() for h in game.hands)

    def conserved(g: Game) -> None:
        in_play = sum(1 for _ in g.plays)
        assert sum(h.bit_count() for h in g.hands) + sum(w.bit_count() for w in g.won) + in_play == total

    play_random(game, random.Random(rng_seed), conserved)
    outcome = game.outcome()
    assert outcome.result in ("success", "failure")
    assert outcome.reason


@SETTINGS
@given(games)
def test_each_trick_has_one_winner_who_leads_the_next(params: tuple[str, int, str, int]) -> None:
    mission, players, seed, rng_seed = params
    game = play_random(new_game("crew", mission, players, seed=seed), random.Random(rng_seed))
    for i, trick in enumerate(game.tricks):
        assert trick.winner in {s for s, _ in trick.plays}
        assert len(trick.plays) == players
        assert len({s for s, _ in trick.plays}) == players
        if i + 1 < len(game.tricks):
            assert game.tricks[i + 1].leader == trick.winner
        # the winning card is the highest rocket, else the highest card of the led suit
        rockets = [c for _, c in trick.plays if c.is_trump]
        if rockets:
            assert trick.winning_card == max(rockets, key=lambda c: c.rank)
        else:
            led = [c for _, c in trick.plays if c.suit == trick.led_suit]
            assert trick.winning_card == max(led, key=lambda c: c.rank)


@SETTINGS
@given(games)
def test_observations_hide_other_hands(params: tuple[str, int, str, int]) -> None:
    mission, players, seed, rng_seed = params
    game = new_game("crew", mission, players, seed=seed)

    def hidden(g: Game) -> None:
        for seat in range(g.n):
            obs = g.observation(seat)
            public = obs.public_cards()
            others = {c for s in range(g.n) if s != seat for c in g.rules.deck.from_mask(g.hands[s])}
            shown = set(obs.hand) | {c for a in obs.legal for c in _cards_of(a)} | public
            leaked = (shown & others) - public
            assert not leaked, f"seat {seat} sees {leaked}"
            assert set(obs.hand) == set(g.rules.deck.from_mask(g.hands[seat]))
            # tasks dealt face down stay hidden
            assert all(t.card in {x.card for x in g.tasks if x.revealed} for t in obs.tasks)

    play_random(game, random.Random(rng_seed), hidden)


def _cards_of(action: object) -> list[object]:
    out = []
    for name in ("card", "first", "second", "source", "target"):
        value = getattr(action, name, None)
        if value is not None:
            out.append(value)
    return out


@SETTINGS
@given(games)
def test_replaying_a_record_reproduces_the_game(params: tuple[str, int, str, int]) -> None:
    mission, players, seed, rng_seed = params
    game = play_random(new_game("crew", mission, players, seed=seed), random.Random(rng_seed))
    record = game_to_record(game)
    replay = replay_record(record)
    assert replay.error is None, str(replay.error)
    assert replay.game is not None
    assert replay.game.outcome() == game.outcome()
    assert [t.plays for t in replay.game.tricks] == [t.plays for t in game.tricks]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(MISSIONS), st.sampled_from([3, 4, 5]), st.text(max_size=6))
def test_same_seed_same_game(mission: str, players: int, seed: str) -> None:
    a = new_game("crew", mission, players, seed=seed)
    b = new_game("crew", mission, players, seed=seed)
    assert a.deal == b.deal
    play_random(a, random.Random(1))
    play_random(b, random.Random(1))
    assert a.outcome() == b.outcome()
    assert [e for e in a.events] == [e for e in b.events]


def test_clone_is_independent() -> None:
    game = new_game("crew", "planet-nine/10", 4, seed="clone")
    rng = random.Random(3)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    copy = game.clone()
    before = (list(game.hands), len(game.tricks), game.outcome())
    play_random(copy, random.Random(4))
    assert (list(game.hands), len(game.tricks), game.outcome()) == before
