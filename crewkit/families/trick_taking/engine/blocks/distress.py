"""Block ``distress`` (cross-cutting, with its own ``distress-pass`` phase): the distress signal.

Before the first trick and before any communication, any seat may call it (once); then every seat passes one
card (not a rocket) to its neighbour in the chosen direction, all at once, and the tricks go on. A dummy seat
passes or is skipped as its rule set says.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Card, Deck, mask_ids
from crewkit.engine.actions import (
    Action,
    ActionFormatError,
    CardAction,
    register_action,
    register_card_action,
)
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import DISTRESS_PASS, TRICKS, Block, Handler, Phase, register
from crewkit.families.trick_taking.engine.blocks.dummy import dummy_played
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Event

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@dataclass(frozen=True, slots=True)
class Distress(Action):
    direction: str  # left | right
    type = "distress"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "direction": self.direction}


@dataclass(frozen=True, slots=True)
class PassCard(CardAction):
    type = "pass-card"


def _read_distress(obj: dict[str, Any], seat: int, deck: Deck) -> Distress:
    direction = obj.get("direction")
    if direction not in ("left", "right"):
        raise ActionFormatError(f"'direction' must be left or right, found {direction!r}")
    return Distress(seat, direction)


register_action(Distress, _read_distress)


register_card_action(PassCard)


@register
class DistressSignal(Block):
    name = "distress"
    order = 10

    def actions(self) -> dict[type, Handler]:
        return {Distress: distress, PassCard: pass_card}  # type: ignore[dict-item]

    def optional(self, g: Game, seat: int) -> Iterable[Action]:
        if g.plays or g.phase != TRICKS or g._outcome is not None or not distress_allowed(g):
            return ()
        return [Distress(seat, d) for d in g.rules.distress_directions]

    def needs(self, hook: str, rules: Rules) -> bool:
        # offered only before the first card (distress_allowed), never mid-trick
        return hook == "optional" and rules.distress_enabled


class DistressPass(Block):
    """The phase in which every seat chooses its card to pass (entered from the tricks, then back to them)."""

    name = "distress-pass"
    phase = Phase.DISTRESS_PASS

    def to_act(self, g: Game) -> int | None:
        for i in range(g.n):
            seat = (g.leader + i) % g.n
            if seat not in g.passes:
                return seat
        return g.turn

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat in g.passes:
            return []
        cards = g._cards
        m = g.hands[seat] & ~g.rules.distress_excluded_mask
        return [PassCard(seat, cards[i]) for i in mask_ids(m)]

    def describe(self, g: Game) -> str:
        return "distress signal: cards being passed"

    def not_playing(self, g: Game) -> str:
        return "cards are played only after every seat has passed its card"


PASS_PHASE = DistressPass()


def distress_allowed(g: Game) -> bool:
    r = g.rules
    return (
        r.distress_enabled
        and g.distress_direction is None
        and not g.tricks
        and not g.plays
        and not g.communications
    )


def distress(g: Game, a: Distress) -> None:
    r = g.rules
    if not r.distress_enabled:
        raise IllegalAction("no-distress", "this rule set has no distress signal")
    if g.distress_direction is not None:
        raise IllegalAction("distress-used", "the distress signal was already used")
    if g.phase != TRICKS or g.tricks or g.plays or g.communications:
        raise IllegalAction(
            "distress-too-late",
            "the distress signal is only possible after the task draft and before any communication and any trick",
        )
    if a.direction not in r.distress_directions:
        raise IllegalAction("bad-direction", f"cards can be passed {' or '.join(r.distress_directions)}")
    g.distress_direction = a.direction
    g.interrupt(PASS_PHASE)
    g.passes = {}
    g.events.append(Event("distress", a.seat, None, a.direction))
    for seat in range(g.n):  # a seat with nothing passable passes nothing
        if not g.hands[seat] & ~r.distress_excluded_mask:
            g.passes[seat] = None  # type: ignore[assignment]
    if g.dummy_seat is not None and r.dummy is not None and not r.dummy.passes_in_distress:
        g.passes[g.dummy_seat] = None  # type: ignore[assignment]


def receiver(g: Any, seat: int, direction: str) -> int:
    """The seat that receives ``seat``'s card when cards go to the ``direction`` (the next seat that way; a dummy
    that does not take part is skipped). ``g``: the game, or anything with its ``n``, ``dummy_seat`` and
    ``rules`` (a hosted table's client)."""
    step = 1 if direction == "left" else -1
    target = (seat + step) % g.n
    dummy = g.rules.dummy
    if target == g.dummy_seat and not (dummy and dummy.passes_in_distress):
        target = (target + step) % g.n  # the dummy is skipped: the next real player
    return int(target)


def passes_made(g: Game) -> tuple[tuple[int, int, Card], ...]:
    """The distress signal's passes, (giver, receiver, card), once every seat has passed (before that the cards
    are still in their hands)."""
    direction = g.distress_direction
    if direction is None or g.phase == DISTRESS_PASS or not g.passes:
        return ()
    return tuple((seat, receiver(g, seat, direction), card)
                 for seat, card in sorted(g.passes.items()) if card is not None)


def pass_card(g: Game, a: PassCard) -> None:
    r = g.rules
    if g.phase != DISTRESS_PASS:
        raise IllegalAction("not-passing", "cards are passed only right after the distress signal")
    if a.seat in g.passes:
        raise IllegalAction("already-passed", f"seat {a.seat} has already chosen a card to pass")
    if not g.hands[a.seat] & a.card.bit:
        raise IllegalAction("card-not-in-hand", f"seat {a.seat} does not hold {a.card}")
    if a.card.bit & r.distress_excluded_mask:
        raise IllegalAction("cannot-pass-card", f"{a.card} cannot be passed: only colour cards, never a rocket")
    g.passes[a.seat] = a.card
    if len(g.passes) == g.n:
        for seat, card in g.passes.items():  # all at once
            if card is not None:
                g.hands[seat] &= ~card.bit
                if seat == g.dummy_seat:  # a face-up dummy card leaves its column: the one below turns up
                    dummy_played(g, card, reveal_now=True)
        for seat, card in g.passes.items():
            if card is not None:
                target = receiver(g, seat, str(g.distress_direction))
                g.hands[target] |= card.bit
                g.events.append(Event("pass", seat, card, f"to seat {target}"))
        g.resume()
