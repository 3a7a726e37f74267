"""Block ``draws`` (cross-cutting): after a given trick every seat draws a random card from a neighbour.

Mission 12's ``draw_from_neighbour``. The draws use their own random generator, seeded from the game's seed,
so a deal and the actions still reproduce a game. A dummy seat (JARVIS) takes part as ``dummy.draws`` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewkit.cards import Card
from crewkit.engine.phase import Block, TrickHook, register
from crewkit.families.trick_taking.engine.blocks.dummy import dummy_lost
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Event, Trick

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@register
class Draws(Block):
    name = "draws"
    order = 40

    def trick_end(self) -> TrickHook | None:
        return after_trick

    def needs(self, hook: str, rules: Rules) -> bool:
        return bool(rules.draws)


def after_trick(g: Game, trick: Trick, mask: int) -> bool:
    if g.rules.draws:
        for after, source in g.rules.draws:
            if after == trick.number:
                draw_from_neighbours(g, source)
    return False


def draw_from_neighbours(g: Game, source: str) -> None:
    """Every seat at once draws one random card from the hand of its right (or left) neighbour.

    A dummy seat (JARVIS) takes part as ``dummy.draws`` says: a card drawn from it is one of its face-up cards
    (``face-up``) or any of its cards (``any-card``), and a card it draws is laid face up in a column of its
    own; with ``skipped`` it neither draws nor is drawn from (the real players draw from each other)."""
    step = -1 if source == "right" else 1
    dummy = g.rules.dummy
    skip = g.dummy_seat if dummy is not None and dummy.draws == "skipped" else None
    seats = [s for s in range(g.n) if s != skip]
    drawn: list[tuple[int, int, Card]] = []
    for i, seat in enumerate(seats):
        giver = seats[(i + step) % len(seats)]
        mask = g.hands[giver]
        if giver == g.dummy_seat and dummy is not None and dummy.draws == "any-card":
            mask |= g.rules.deck.mask(c for col in g.dummy_columns for c in col)
        cards = g.rules.deck.from_mask(mask)
        if cards:
            drawn.append((seat, giver, g._draw_rng.choice(cards)))
    for _seat, giver, card in drawn:
        g.hands[giver] &= ~card.bit
        if giver == g.dummy_seat:
            dummy_lost(g, card)
    for seat, giver, card in drawn:
        g.hands[seat] |= card.bit
        if seat == g.dummy_seat:
            g.dummy_columns.append([card])
        g.events.append(Event("draw", seat, card, f"from seat {giver}"))
