"""Hidden information: what a seat observes does not change when what it may not see changes.

Over random games (hypothesis), at a random point: another Hunted's hand and face-down cards, another seat's
survival cards and the Creature's hunt cards are swapped for other cards (sizes kept); every observation of a
seat that may not see them stays the same. And the record of a secret choice does not depend on the order in
which the seats made it.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.engine.machine import Pick
from crewkit.families.not_alone.blocks import PlayPlaces
from crewkit.families.not_alone.board import BoardGame, new_board_game
from crewkit.families.not_alone.state import LONE, CardsState, PilesState

from .scenario import random_play


def play_until(players: int, seed: int, steps: int) -> BoardGame:
    return random_play(new_board_game("not-alone", players, seed=f"h{seed}"), seed, steps)


def _hide_differently(g: BoardGame, owner: int, rng: random.Random) -> BoardGame:
    """A copy of ``g`` in which ``owner``'s hidden cards are other cards (the public state is the same)."""
    other = g.clone()
    cards = other.state(CardsState)
    if owner == LONE:
        pool = cards.hands["hunt"][0] + cards.draw["hunt"]
        rng.shuffle(pool)
        cards.hands["hunt"][0], cards.draw["hunt"] = pool[: len(cards.hands["hunt"][0])], pool[len(cards.hands["hunt"][0]) :]
        return other
    pool = cards.hands["survival"][owner] + cards.draw["survival"]
    rng.shuffle(pool)
    n = len(cards.hands["survival"][owner])
    cards.hands["survival"][owner], cards.draw["survival"] = pool[:n], pool[n:]
    piles = other.state(PilesState)
    if other.observation(owner).seats[owner].revealed:  # once revealed, the played cards are public
        return other
    hidden = piles.hand[owner] + piles.played[owner]
    rng.shuffle(hidden)
    # any numbers of the same count: hand and face-down cards are the owner's secret
    k = len(piles.played[owner])
    piles.played[owner], piles.hand[owner] = hidden[:k], hidden[k:]
    return other


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_no_seat_observes_what_it_may_not_see(players: int, seed: int, steps: int) -> None:
    g = play_until(players, seed, steps)
    rng = random.Random(seed)
    for owner in range(players):
        twin = _hide_differently(g, owner, rng)
        for viewer in range(players):
            if viewer != owner:
                assert g.observation(viewer) == twin.observation(viewer), (owner, viewer)


@settings(max_examples=6, deadline=None)
@given(players=st.integers(3, 7), seed=st.integers(0, 10_000))
def test_the_record_of_a_secret_choice_does_not_show_its_order(players: int, seed: int) -> None:
    g = new_board_game("not-alone", players, seed=f"o{seed}")
    g.apply(Pick(LONE, "a"))
    while g.waiting() == (LONE,):  # the Creature's phase-1 cards: pass or play
        g.apply(g.legal_actions(LONE)[-1])
    assert set(g.waiting()) == set(range(1, players))
    choices = {s: PlayPlaces(s, (1 + s % 5,)) for s in g.waiting()}
    forward, backward = g.clone(), g.clone()
    for s in sorted(choices):
        forward.apply(choices[s])
        left = tuple(x for x in sorted(choices) if x > s)
        assert forward.observation(LONE).waiting == (left or (LONE,))  # then the Creature places its tokens
    for s in sorted(choices, reverse=True):
        backward.apply(choices[s])
    assert forward.actions == backward.actions
    assert [a.seat for a in forward.actions[-len(choices) :]] == sorted(choices)
    assert forward.observation(LONE) == backward.observation(LONE)
    assert [ln.text for ln in forward.lines] == [ln.text for ln in backward.lines]
