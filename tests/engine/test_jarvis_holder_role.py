"""Mission 46 with JARVIS: the pink 9 may lie face down under one of JARVIS's face-up cards. JARVIS holds it
then (every other card is in a player's hand or face up, so both players can tell), and the collector is the
seat on JARVIS's left; before, the role stayed unbound and every game stopped on "unknown name collector"."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import compile_game

SEAT_CHOICES = ("players-decide", "commander-decides", "fixed")


def _at_first_play(rules: object, seed: str, pick: int) -> Game:
    """The game at its first play, JARVIS seated by choice ``pick`` (every seat over the deals)."""
    g = Game.new(rules, seed=seed)  # type: ignore[arg-type]
    while not g.is_over():
        legal = g.legal_actions()
        if any(isinstance(a, Play) for a in legal):
            return g
        g.apply(legal[pick % len(legal)])
    raise AssertionError("the game ended before its first play")


@pytest.mark.parametrize("seat_choice", SEAT_CHOICES)
def test_the_collector_sits_left_of_whoever_holds_the_pink_9(seat_choice: str) -> None:
    readings = {"jarvis-seat": seat_choice}
    rules = compile_game("crew-jarvis", "planet-nine/46", 2, readings)
    pink9 = rules.deck.card("pink 9")
    hidden = held = 0
    seats = set()
    for k in range(40):
        g = _at_first_play(rules, f"holder:{k}", k)
        assert g.dummy_seat is not None
        under = any(pink9 in col[:-1] for col in g.dummy_columns)
        holder = g.dummy_seat if under else next(s for s in range(g.n) if g.hands[s] & pink9.bit)
        assert g.roles["collector"] == (holder + 1) % g.n, (k, under, holder, g.roles)
        hidden += under
        seats.add(g.dummy_seat)
        held += not under
    assert hidden and held  # both cases met
    assert seats == ({2} if seat_choice == "fixed" else {0, 1, 2})  # JARVIS in every seat it may take
