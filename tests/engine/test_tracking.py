"""The card tracker (crewkit.families.trick_taking.engine.tracking): from the seat's own observation only,
never a hidden card; the voids it shows are true; the hint's reason is words about that position."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.engine.tracking import card_tracker

GAMES = [("crew", "planet-nine/04", 4), ("crew", "planet-nine/10", 3), ("crew-jarvis", "planet-nine/03", 2),
         ("crew-persian", "persian", 4)]


def played_game(index: int, seed: int, steps: int):  # type: ignore[no-untyped-def]
    ruleset, mission, players = GAMES[index]
    game = new_game(ruleset, mission, players, seed=f"track-{seed}")
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        seat = game.to_act
        required = [a for a in game.legal_actions(seat) if not isinstance(a, Communicate | Distress)]
        game.apply(rng.choice(required))
    return game


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 10_000), st.integers(0, 60))
def test_tracker_names_only_cards_the_seat_has_seen_and_true_voids(index: int, seed: int, steps: int) -> None:
    game = played_game(index, seed, steps)
    for seat in range(game.n):
        obs = game.observation(seat)
        tracker = card_tracker(obs)
        seen = {c.id for t in game.tricks for _, c in t.plays} | {c.id for _, c in game.observation(seat).current_trick}
        own = {c.id for c in game.hand(seat)}
        for track in tracker.suits:
            assert {c.id for c in track.played} <= seen  # played cards: public
            assert {c.id for c in track.in_hand} == {c.id for c in game.hand(seat) if c.suit == track.suit}
            in_suit = [c for c in game.rules.deck.cards if c.suit == track.suit]
            assert track.unseen == sum(1 for c in in_suit if c.id not in seen and c.id not in own)
        for other, suits in tracker.voids.items():
            assert other != game.dummy_seat
            for suit in suits:  # a void shown is true: the seat holds no card of that suit now
                assert not [c for c in game.hand(other) if c.suit == suit]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 10_000), st.integers(0, 60))
def test_tracker_is_the_same_whatever_the_hidden_hands(index: int, seed: int, steps: int) -> None:
    """Two seats' views: the tracker of seat 0 does not change when another seat's hand is swapped with the
    cards seat 0 cannot see (its text depends on the observation only)."""
    game = played_game(index, seed, steps)
    obs = game.observation(0)
    before = card_tracker(obs)
    if game.n < 3:
        return
    a, b = 1, 2
    if game.dummy_seat in (a, b):
        return
    swapped = game.clone()
    swapped.hands[a], swapped.hands[b] = swapped.hands[b], swapped.hands[a]
    after = card_tracker(swapped.observation(0))
    assert (before.suits, before.voids) == (after.suits, after.voids)


def test_hint_is_a_legal_move_with_a_reason_in_crew_jarvis_and_persian_games() -> None:
    from crewkit.families.trick_taking.bots.explain import hint_for

    for index in range(len(GAMES)):
        game = next(g for steps in (12, 8, 4, 0) if (g := played_game(index, 7, steps)).to_act is not None)
        seat = game.to_act
        hint = hint_for(game.observation(seat), game.seed)
        assert hint.action in game.legal_actions(seat)
        assert hint.reason and "{" not in hint.reason and "\n" not in hint.reason
        card = getattr(hint.action, "card", None)
        if card is not None:
            assert str(card) in hint.reason
