"""One derivation of what a seat knows and one sampler of the unseen hands, for every bot and the review.

:class:`Knowledge` derives the facts (its voids by :func:`shown_voids`, which the card tracker reads too); the fast
bot's ``Position`` is built from a Knowledge; :meth:`Knowledge.sample` is a deal of the fast bot's
:class:`Sampler` (the Python reference of ``_fastsim.c``'s sampler)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.families.trick_taking.bots.fastcore import position
from crewkit.families.trick_taking.bots.knowledge import Facts, Knowledge, Sampler, SplitMix
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.engine.tracking import card_tracker, shown_voids

GAMES = [("crew", "planet-nine/10", 4), ("crew", "planet-nine/10", 3), ("crew", "planet-nine/17", 5),
         ("hammer", "hammer", 4), ("crew-jarvis", "planet-nine/03", 2)]


def played(index: int, seed: int, steps: int) -> Game:
    """A game after ``steps`` random actions (communications now and then: their facts too)."""
    ruleset, mission, players = GAMES[index]
    game = new_game(ruleset, mission, players, seed=f"know-{seed}")
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        legal = game.legal_actions(game.to_act)
        comm = [a for a in legal if isinstance(a, Communicate)]
        required = [a for a in legal if not isinstance(a, Communicate | Distress)]
        game.apply(rng.choice(comm) if comm and rng.random() < 0.3 else rng.choice(required))
    return game


class Seeded(random.Random):
    """A random.Random whose 64-bit draw is ``seed``: the seed Knowledge.sample hands to its SplitMix."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.fixed = seed

    def getrandbits(self, k: int) -> int:
        return self.fixed if k == 64 else super().getrandbits(k)


def facts(x: Facts) -> tuple[object, ...]:
    return (x.unknown, x.spare, tuple(x.known), tuple(x.void), tuple(x.need))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 10_000), st.integers(0, 70))
def test_the_fast_bots_position_and_knowledge_are_one_set_of_facts_and_one_sampler(
        index: int, seed: int, steps: int) -> None:
    game = played(index, seed, steps)
    obs = game.observation(game.to_act if game.to_act is not None else 0)
    know = Knowledge(obs)
    pos = position(obs, know, 4, True, 0)
    assert facts(pos) == facts(know)
    # the voids are the tracker's, as suit masks
    t = know.t
    shown = [0] * obs.players
    for s, suits in card_tracker(obs).voids.items():
        for suit in suits:
            shown[s] |= t.suit_masks[suit.index]
    talked = {c.seat for c in obs.communications if not c.played}
    for s in range(obs.players):  # a communication's top/bottom/only adds voids of its own
        assert know.void[s] == shown[s] if s not in talked else not shown[s] & ~know.void[s]
    # and the same deal from the same seed, whoever samples: the bots' Knowledge or the fast bot's position
    for k in range(3):
        assert know.sample(Seeded(seed + k)) == Sampler(pos).sample(SplitMix(seed + k))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 10_000), st.integers(0, 80), st.integers(0, 2**64 - 1))
def test_sampled_hands_keep_what_is_known(index: int, seed: int, steps: int, draw: int) -> None:
    game = played(index, seed, steps)
    for seat in range(game.n):
        obs = game.observation(seat)
        know = Knowledge(obs)
        truth = list(game.hands)
        for s in range(game.n):  # the true deal is one of those the knowledge allows
            assert truth[s] & know.known[s] == know.known[s]
            assert not truth[s] & ~know.known[s] & know.void[s]
        hands = know.sample(Seeded(draw))
        dealt = 0
        for s in range(game.n):
            assert hands[s] & know.known[s] == know.known[s]  # known cards where they are
            assert not hands[s] & ~know.known[s] & know.void[s]  # no card a seat showed it lacks
            assert hands[s].bit_count() == know.known[s].bit_count() + know.need[s]  # sizes
            assert not dealt & hands[s]  # each card once
            assert not hands[s] & know.played  # and never a card played
            dealt |= hands[s]
        assert hands[seat] == obs.hand_mask or seat == obs.dummy_seat


def _hammer_ten_led() -> Observation:
    """Hammer: seat 3 leads the 10 (free), seat 0 follows yellow (the trick's colour), seat 1 plays green."""
    game = new_game("hammer", "hammer", 4, seed="h54")
    rng = random.Random(54)
    for _ in range(101):
        required = [a for a in game.legal_actions(game.to_act) if not isinstance(a, Communicate | Distress)]
        game.apply(rng.choice(required))
    obs = game.observation(2)
    cur = obs.current_trick
    assert [(s, c.name) for s, c in cur] == [(3, "10"), (0, "yellow 2"), (1, "green 3")], cur
    assert obs.led_suit is not None and obs.led_suit.name == "yellow"
    return obs


def test_a_trick_led_by_hammers_ten_shows_voids_in_its_own_colour() -> None:
    obs = _hammer_ten_led()
    yellow = obs.led_suit
    assert yellow is not None
    assert yellow in shown_voids(obs)[1]
    assert yellow in card_tracker(obs).voids[1]  # the tracker (it read the 10's colour, none, and saw no void)
    know = Knowledge(obs)
    assert know.void[1] & know.t.suit_masks[yellow.index] == know.t.suit_masks[yellow.index]


def test_hammers_ten_is_the_dealers_in_a_challenge_and_out_of_play_else() -> None:
    """The 10 is added to the dealer's hand in everyone's sight in a challenge round, and never dealt in a penalty
    round: every seat's knowledge says so, and every sampled world keeps it."""
    for mode in ("challenge", "penalty"):
        game = new_game("hammer", "hammer", 4, seed=f"ten-{mode}")
        dealer = game.dealer
        assert dealer is not None
        game.apply(ChooseMission(dealer, "hammer/04", mode))
        ten = game.rules.undealt_mask
        assert ten and bool(game.hands[dealer] & ten) == (mode == "challenge")
        for seat in range(4):
            know = Knowledge(game.observation(seat))
            assert bool(know.known[dealer] & ten) == (mode == "challenge")
            assert not know.unknown & ten
            for k in range(5):
                hands = know.sample(Seeded(k))
                assert [bool(h & ten) for h in hands] == [mode == "challenge" and s == dealer for s in range(4)]
                assert [h.bit_count() for h in hands] == [h.bit_count() for h in game.hands]
