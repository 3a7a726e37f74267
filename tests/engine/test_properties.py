"""Engine invariants over random seeds, player counts and missions, played with uniformly random actions."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.cards import Card, CardError, Deck
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record, replay_record
from crewkit.families.trick_taking.engine.setup import new_game
from tests.referee import assert_engine_agrees

MISSIONS = ["planet-nine/01", "planet-nine/03", "planet-nine/06", "planet-nine/12", "planet-nine/13",
            "planet-nine/19", "planet-nine/23", "planet-nine/24", "planet-nine/29", "planet-nine/33",
            "planet-nine/37", "planet-nine/40", "planet-nine/46", "planet-nine/50"]

games = st.tuples(st.sampled_from(MISSIONS), st.sampled_from([3, 4, 5]), st.text(min_size=0, max_size=8),
                  st.integers(0, 2**32))
# the variants: (rule set, mission or mission set, players)
VARIANTS = [("crew-jarvis", "planet-nine/04", 2), ("crew-jarvis", "planet-nine/24", 2),
            ("crew-persian", "persian", 3), ("crew-persian", "persian/level-2", 4), ("crew-persian", "persian", 5),
            ("crew-3p-challenge", "planet-nine/44", 3), ("hammer", "hammer", 4)]
variant_games = st.tuples(st.sampled_from(VARIANTS), st.text(max_size=6), st.integers(0, 2**32))
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
    dealt = 0
    for hand in game.hands:
        assert not dealt & hand, "a card is dealt twice"
        dealt |= hand

    def conserved(g: Game) -> None:
        # each card of the deal is in exactly one place: a hand, the trick on the table or a won pile
        places: list[int] = [*g.hands, *g.won, sum(c.bit for _, c in g.plays)]
        for card in g.rules.deck.cards:
            holders = sum(1 for mask in places if mask & card.bit)
            assert holders == (1 if dealt & card.bit else 0), f"{card} is in {holders} places"

    play_random(game, random.Random(rng_seed), conserved)
    assert game.outcome().reason
    assert_engine_agrees(game)  # the result and its trick are the ones the rules give (tests/referee.py)


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
            assert_hides_other_hands(g, seat)
            obs = g.observation(seat)
            assert set(obs.hand) == set(g.rules.deck.from_mask(g.hands[seat]))
            # tasks dealt face down stay hidden; a secret task is shown to its owner only
            visible = {x.card for x in g.tasks if x.revealed or x.owner == seat}
            assert all(t.card in visible for t in obs.tasks)

    play_random(game, random.Random(rng_seed), hidden)


def known_to(g: Game, seat: int) -> set[Card]:
    """The cards ``seat`` may know of, worked out from the game's state (not from the observation under test):
    its own hand, every card played, communicated cards, the tasks it may see, JARVIS's face-up cards."""
    deck = g.rules.deck
    out = set(deck.from_mask(g.hands[seat]))
    out |= {c for t in g.tricks for _, c in t.plays} | {c for _, c in g.plays}
    out |= {x.card for x in g.communications}
    out |= {t.card for t in g.tasks if t.revealed or t.owner == seat}
    if g.dummy_seat is not None:
        out |= set(deck.from_mask(g.hands[g.dummy_seat]))  # the dummy's hand is its face-up cards
    return out


def cards_named(obj: Any, deck: Deck) -> set[Card]:
    """Every card named anywhere in a JSON value (an observation's whole JSON form, legal actions included)."""
    if isinstance(obj, str):
        try:
            return {deck.card(obj)}
        except CardError:
            return set()
    if isinstance(obj, dict):
        return set().union(*(cards_named(v, deck) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_named(v, deck) for v in obj)) if obj else set()
    return set()


def assert_hides_other_hands(g: Game, seat: int) -> None:
    """No card of another seat's hand (or a face-down dummy card) appears anywhere in ``seat``'s observation,
    its legal actions included, unless the state says ``seat`` may know it; a dead-zone statement of another
    seat stays hidden."""
    obs = g.observation(seat)
    deck = g.rules.deck
    hidden = {c for s in range(g.n) if s != seat for c in deck.from_mask(g.hands[s])}
    hidden |= {col[i] for col in g.dummy_columns for i in range(len(col) - 1)}
    leaked = (cards_named(obs.to_json(), deck) & hidden) - known_to(g, seat)
    assert not leaked, f"seat {seat} sees {sorted(c.name for c in leaked)}"
    for shown, true in zip(obs.communications, g.communications, strict=True):
        if true.hidden and true.seat != seat:
            assert shown.statement is None, f"seat {seat} learns a dead-zone statement of seat {true.seat}"


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


@SETTINGS
@given(variant_games)
def test_variant_games_end_hide_and_replay(params: tuple[tuple[str, str, int], str, int]) -> None:
    (ruleset, mission, players), seed, rng_seed = params
    game = new_game(ruleset, mission, players, seed=seed)

    def hidden(g: Game) -> None:
        for seat in range(g.n):
            assert_hides_other_hands(g, seat)
            obs = g.observation(seat)
            public = obs.public_cards()
            secret_of_others = {t.card for t in g.tasks if not t.revealed and t.owner != seat}
            assert not secret_of_others & {t.card for t in obs.tasks}, "another seat's secret task is visible"
            if g.dummy_seat is not None:
                assert set(obs.dummy_up) == set(g.rules.deck.from_mask(g.hands[g.dummy_seat]))
                face_down = {col[i] for col in g.dummy_columns for i in range(len(col) - 1)}
                face_down -= {t.card for t in g.tasks}  # a task card is public as a task, wherever it lies
                assert not face_down & (set(obs.hand) | public), "a face-down dummy card is visible"

    play_random(game, random.Random(rng_seed), hidden)
    if mission.startswith("planet-nine/"):
        assert_engine_agrees(game)
    else:  # Hammer's match ends "finished" after its rounds; a Persian game is won or lost
        assert game.outcome().result == "finished" if ruleset == "hammer" else game.outcome().result in (
            "success", "failure")
    replay = replay_record(game_to_record(game))
    assert replay.error is None, str(replay.error)
    assert replay.game is not None and replay.game.outcome() == game.outcome()


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=6), st.integers(0, 2**32))
def test_hammer_chips_conserved_between_players(seed: str, rng_seed: int) -> None:
    # with the zero-sum reading every payment goes from one player to another: the total never changes
    game = new_game("hammer", "hammer", 4, seed=seed, readings={"automatic-90": "other-players"})
    play_random(game, random.Random(rng_seed))
    assert len(game.state(MatchState).round_results) == 8
    for result in game.state(MatchState).round_results:
        assert sum(result.deltas) == 0
    assert sum(game.state(MatchState).chips) == 4 * 500


def test_dummy_face_down_card_turns_up_only_after_its_trick() -> None:
    game = new_game("crew-jarvis", "planet-nine/01", 2, seed="jarvis", readings={"jarvis-seat": "fixed"})
    rng = random.Random(0)
    # play on until the dummy must play a card that is not the trick's last one
    while game.to_act != game.dummy_seat or game.phase != "tricks" or len(game.plays) >= game.n - 1:
        game.apply(rng.choice([a for a in game.legal_actions() if a.type not in ("communicate", "distress")]))
        assert not game.is_over()
    dummy = game.dummy_seat
    before = game.hands[dummy]
    action = next(a for a in game.legal_actions(dummy)
                  if a.type == "play" and len(next(c for c in game.dummy_columns if c and c[-1] is a.card)) > 1)
    column = next(col for col in game.dummy_columns if col and col[-1] is action.card)
    under = column[-2]
    game.apply(action)
    assert not game.hands[dummy] & under.bit, "the card under it is not playable in the same trick"
    while game.plays and not game.is_over():
        game.apply(game.legal_actions()[0])
    if not game.is_over():
        assert game.hands[dummy] & under.bit, "after the trick the face-down card is turned up"
    assert before & action.card.bit


def test_events_for_hide_other_seats_passes() -> None:
    game = new_game("crew", "planet-nine/01", 4, seed="ev")
    game.apply(game.legal_actions()[0])  # the draft
    seat = game.to_act
    game.apply(next(a for a in game.optional_actions(seat) if a.type == "distress"))
    while game.phase == "distress-pass":
        game.apply(game.legal_actions()[0])
    passes = [e for e in game.events if e.kind == "pass"]
    assert len(passes) == 4 and all(e.card is not None for e in passes)
    seen = [e for e in game.events_for(0) if e.kind == "pass"]
    visible = [e for e in seen if e.card is not None]
    # seat 0 knows what it passed and what it received, nothing else
    assert {e.seat for e in visible} == {0, (0 - 1) % 4} or {e.seat for e in visible} == {0, 1}
    assert len(visible) == 2
