"""After the distress signal a seat knows where the card it passed went and which card it received: the
observation shows it those two passes (and no other), the bots' knowledge places the passed card in its
receiver's hand, and the answers to the setup's questions are read against the hands the seats held when they
answered, not the hands after the passes (issue 43)."""

from __future__ import annotations

from crewkit.families.trick_taking.bots.knowledge import Knowledge
from crewkit.families.trick_taking.bots.mended_worlds import since_answers
from crewkit.families.trick_taking.engine.blocks.distress import Distress, PassCard
from crewkit.families.trick_taking.engine.game import Game
from tests.fast_setup import at_tricks, fast_game_until


def _after_passes(direction: str) -> tuple[Game, list[int], dict[int, tuple[int, int]]]:
    """planet-nine/36 at 4 players (commander's hand-out with questions) played by fast bots to the first trick,
    then the distress signal called and every seat passing its lowest passable card. Returns the game, the
    hands each seat held when it answered and, per giver, (receiver, card id)."""
    g = fast_game_until("planet-nine/36", "passes", at_tricks)
    assert g.questions, "the hand-out asked who wants each task"
    answered = list(g.hands)
    g.apply(Distress(g.leader, direction))
    passes: dict[int, tuple[int, int]] = {}
    while g.phase != "tricks":
        s = g.to_act
        assert s is not None
        card = min((a for a in g.legal_actions(s) if isinstance(a, PassCard)), key=lambda a: a.card.id).card
        g.apply(PassCard(s, card))
        step = 1 if direction == "left" else -1
        passes[s] = ((s + step) % g.n, card.id)
    return g, answered, passes


def test_each_seat_sees_only_its_own_two_passes() -> None:
    g, _, passes = _after_passes("left")
    for seat in range(g.n):
        seen = g.observation(seat).passes_seen
        assert {(giver, to, c.id) for giver, to, c in seen} == {
            (giver, to, c) for giver, (to, c) in passes.items() if seat in (giver, to)}
        assert len(seen) == 2


def test_the_passed_card_is_known_in_its_receivers_hand() -> None:
    g, _, passes = _after_passes("right")
    for seat in range(g.n):
        to, card = passes[seat]
        know = Knowledge(g.observation(seat))
        assert know.known[to] >> card & 1
        assert g.hands[to] >> card & 1  # true, as the engine dealt it


def test_answers_are_read_against_the_hands_that_gave_them() -> None:
    g, answered, passes = _after_passes("left")
    for seat in range(g.n):
        obs = g.observation(seat)
        gone, came = since_answers(obs)
        giver = next(s for s, (to, _) in passes.items() if to == seat)
        to, mine = passes[seat]
        # the receiver's hand then: its hand now less the card this seat gave it, plus the one it passed on
        # (which this seat cannot know)
        then = (g.hands[to] | gone[to]) & ~came[to]
        assert then | 1 << passes[to][1] == answered[to]
        # the giver's hand then: its hand now plus the card it gave this seat, less the one it received
        then = (g.hands[giver] | gone[giver]) & ~came[giver]
        assert then & ~(1 << passes[(giver - 1) % g.n][1]) == answered[giver] & ~(1 << passes[(giver - 1) % g.n][1])
        assert then >> passes[giver][1] & 1 and not came[giver]
