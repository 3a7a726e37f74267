"""Block ``communication`` (cross-cutting): a seat shows one card and says how it sits in its hand.

Between tricks (``communication.window``), a card with a true statement (top, bottom, only; or hidden in the
dead zone); or, with the ``after-first-card`` window (the Persian reading's in-trick signal), a card shown
during a trick, which may have to be won in that very trick (checked at the trick's end). Limits: per player,
per trick, barred roles, the dummy seat, disruption.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Card, Deck, mask_ids
from crewkit.engine.actions import (
    Action,
    ActionFormatError,
    CardAction,
    card_field,
    register_action,
    register_card_action,
)
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import TRICKS, Block, Handler, TrickHook, register
from crewkit.families.trick_taking.engine.blocks.distress import distress_allowed
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Communication, Event, Trick, statement_text
from crewkit.families.trick_taking.engine.view import EngineView

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.rules import Rules

AFTER_FIRST_CARD = "after-first-card"


@dataclass(frozen=True, slots=True)
class Communicate(Action):
    card: Card
    position: str | None  # top | bottom | only; None under a dead zone
    type = "communicate"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type, "card": self.card.name}
        if self.position is not None:
            out["position"] = self.position
        return out


@dataclass(frozen=True, slots=True)
class Signal(CardAction):
    """In-trick signal (Persian reading): show a card of your hand with a token on it; it stays in hand."""

    type = "signal"


def _read_communicate(obj: dict[str, Any], seat: int, deck: Deck) -> Communicate:
    card = card_field(obj, Communicate.type, deck)
    pos = obj.get("position")
    if pos not in (None, "top", "bottom", "only"):
        raise ActionFormatError(f"'position' must be top, bottom or only, found {pos!r}")
    return Communicate(seat, card, pos)


register_action(Communicate, _read_communicate)


register_card_action(Signal)


@register
class CommunicationBlock(Block):
    name = "communication"
    order = 30  # offered after the distress signal and the gold frame

    def actions(self) -> dict[type, Handler]:
        return {Communicate: communicate, Signal: signal}  # type: ignore[dict-item]

    def optional(self, g: Game, seat: int) -> Iterable[Action]:
        r = g.rules
        if r.comm_window == AFTER_FIRST_CARD:
            if signal_open(g, seat):
                return [Signal(seat, c) for c in r.deck.from_mask(g.hands[seat])]
            return ()
        if g.plays or g.phase != TRICKS or g._outcome is not None or not communication_open(g, seat):
            return ()
        return _communications(g, seat)  # lazy: asking whether there is one stops at the first

    def trick_end(self) -> TrickHook | None:
        return signal_kept

    def needs(self, hook: str, rules: Rules) -> bool:
        if hook == "optional":  # both kinds of offer need communication at all
            return rules.comm_enabled
        if hook == "optional_in_trick":  # the in-trick signal; a communication waits for the trick's end
            return rules.comm_window == AFTER_FIRST_CARD
        if hook == "trick_end":  # a signal that must be won in its trick (only then is one pending)
            return rules.comm_must_win_same_trick
        return True


def _communications(g: Game, seat: int) -> Iterator[Action]:
    r = g.rules
    cards = g._cards
    for i in mask_ids(g.hands[seat] & ~r.comm_excluded_mask):
        statements = true_statements(g, seat, cards[i])
        if not statements:
            continue
        if r.dead_zone:
            yield Communicate(seat, cards[i], None)
        else:
            yield from (Communicate(seat, cards[i], st) for st in statements)


def in_window(g: Game) -> bool:
    """Between tricks (or, for the in-trick signal, during one): when a seat may speak out of turn."""
    if g.phase != TRICKS or g._outcome is not None:
        return False
    if g.rules.comm_window == AFTER_FIRST_CARD:  # signals in a trick; a distress signal before trick 1
        return 0 < len(g.plays) < g.n or distress_allowed(g)
    return not g.plays


def signal_open(g: Game, seat: int) -> bool:
    r = g.rules
    return (
        r.comm_enabled
        and g.phase == TRICKS
        and g._outcome is None
        and 0 < len(g.plays) < g.n
        and (r.comm_who == "all" or seat == g.commander)
        and g.comm_used[seat] < r.comm_per_player
        and (r.comm_per_trick is None or g.signal_trick != len(g.tricks) + 1)
    )


def signal(g: Game, a: Signal) -> None:
    r = g.rules
    if r.comm_window != AFTER_FIRST_CARD or not r.comm_enabled:
        raise IllegalAction("no-signal", "this rule set has no in-trick signal")
    if r.comm_who == "commander" and a.seat != g.commander:
        raise IllegalAction("not-commander", f"only the commander (seat {g.commander}) may signal")
    if g.phase != TRICKS or not g.plays:
        raise IllegalAction("signal-closed", "a signal is only possible after the first card of a trick")
    if g.comm_used[a.seat] >= r.comm_per_player:
        raise IllegalAction("already-signalled", f"seat {a.seat} has already signalled this game")
    if r.comm_per_trick is not None and g.signal_trick == g.trick_number:
        raise IllegalAction("signal-this-trick", f"there was already a signal in trick {g.trick_number}")
    if not g.hands[a.seat] & a.card.bit:
        raise IllegalAction("card-not-in-hand", f"seat {a.seat} does not hold {a.card}")
    g.comm_used[a.seat] += 1
    g.signal_trick = g.trick_number
    g.communications.append(Communication(a.seat, a.card, "signal", False, g.trick_number))
    if r.comm_must_win_same_trick:
        g._pending_signal = (a.seat, a.card, g.trick_number)
    g.events.append(Event("signal", a.seat, a.card, f"trick {g.trick_number}"))


def signal_kept(g: Game, trick: Trick, mask: int) -> bool:
    """A signalled card that must be won in its trick by the seat that signalled it (a reading)."""
    if g._pending_signal is None:
        return False
    seat, card, _number = g._pending_signal
    g._pending_signal = None
    if not mask & card.bit or trick.winner != seat:
        g.fail(f"failed in trick {trick.number}: the signalled {card} was not won by seat {seat} in that trick",
               trick.number)
        return True
    return False


def tokens_left(g: Game, seat: int) -> bool:
    """Whether ``seat`` still has a token: its own (``per_player``), or one of the crew's shared pool."""
    r = g.rules
    if r.comm_pool is not None:
        return sum(g.comm_used) < r.comm_pool
    return g.comm_used[seat] < r.comm_per_player


def closed_by_mission(g: Game) -> bool:
    """The mission's ``communication.closed_if`` holds now."""
    closed = g.rules.comm_closed_if
    # (an EngineView, not g.view(): the lazy communication offers read a frozen copy of the game's state)
    return closed is not None and bool(closed(EngineView(g), {}))


def communication_open(g: Game, seat: int) -> bool:
    r = g.rules
    if not r.comm_enabled or not tokens_left(g, seat):
        return False
    if r.comm_barred_roles and any(g.roles.get(role) == seat for role in r.comm_barred_roles):
        return False
    if seat == g.dummy_seat and r.dummy is not None and not r.dummy.communicates:
        return False
    if r.disruption is not None and len(g.tricks) + 1 < r.disruption:
        return False
    return not closed_by_mission(g)


def true_statements(g: Game, seat: int, card: Card) -> tuple[str, ...]:
    return hand_statements(g.rules, g.hands[seat], card)


def hand_statements(rules: Rules, hand: int, card: Card) -> tuple[str, ...]:
    """The statements (top, bottom, only) the rules allow and that are true of ``card`` in ``hand`` (a mask)."""
    assert card.suit is not None
    same = hand & rules.suit_masks[card.suit.index]
    allowed = rules.comm_statements
    if same == card.bit:
        if rules.comm_singleton_only:
            return ("only",) if "only" in allowed else ()
        return tuple(s for s in ("top", "bottom", "only") if s in allowed)
    out = []
    if same >> (card.id + 1) == 0 and "top" in allowed:
        out.append("top")
    if same & (card.bit - 1) == 0 and "bottom" in allowed:
        out.append("bottom")
    return tuple(out)


def communicate(g: Game, a: Communicate) -> None:
    r = g.rules
    if g.phase != TRICKS:
        raise IllegalAction(
            "communication-closed", "communication is only possible after the tasks are distributed"
        )
    if not r.comm_enabled:
        raise IllegalAction("no-communication", "this rule set has no communication")
    if g.plays:
        raise IllegalAction(
            "communication-closed",
            f"seat {a.seat} cannot communicate during trick {g.trick_number}: only between tricks",
        )
    if not tokens_left(g, a.seat):
        if r.comm_pool is not None:
            raise IllegalAction("no-tokens-left", f"the crew's {r.comm_pool} shared token(s) are all used")
        raise IllegalAction("already-communicated", f"seat {a.seat} has already communicated this attempt")
    if closed_by_mission(g):
        raise IllegalAction("communication-closed", "this mission allows no communication now")
    barred = [role for role in r.comm_barred_roles if g.roles.get(role) == a.seat]
    if barred:
        raise IllegalAction("barred-from-communicating",
                            f"seat {a.seat} is the {barred[0]} and may not communicate in this mission")
    if a.seat == g.dummy_seat and r.dummy is not None and not r.dummy.communicates:
        raise IllegalAction("dummy-cannot-communicate", f"the dummy (seat {a.seat}) does not communicate")
    if r.disruption is not None and g.trick_number < r.disruption:
        raise IllegalAction(
            "disruption",
            f"disruption: nobody may communicate before trick {r.disruption} (now before trick {g.trick_number})",
        )
    if not g.hands[a.seat] & a.card.bit:
        raise IllegalAction("card-not-in-hand", f"seat {a.seat} does not hold {a.card}")
    if a.card.bit & r.comm_excluded_mask:
        raise IllegalAction("cannot-communicate-card", f"{a.card} cannot be communicated (only colour cards)")
    statements = true_statements(g, a.seat, a.card)
    if r.dead_zone:
        if a.position is not None:
            raise IllegalAction(
                "dead-zone", "dead zone: the statement stays hidden; communicate the card without a position"
            )
        if not statements:
            raise IllegalAction(
                "false-statement",
                f"{a.card} is neither the highest, the lowest nor the only {a.card.suit} card of seat {a.seat}",
            )
        statement = statements[0]
    else:
        if a.position is None:
            raise IllegalAction("missing-position", "say top, bottom or only when communicating")
        if a.position not in statements:
            raise IllegalAction(
                "false-statement",
                f"seat {a.seat} cannot say {a.position} for {a.card}: {statement_text(a.position, a.card)} is false"
                + (f" (true: {', '.join(statements)})" if statements else ""),
            )
        statement = a.position
    g.comm_used[a.seat] += 1
    g.communications.append(Communication(a.seat, a.card, statement, r.dead_zone, g.trick_number))
    g.events.append(Event("communicate", a.seat, a.card, "hidden" if r.dead_zone else statement))
