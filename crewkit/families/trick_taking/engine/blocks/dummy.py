"""Block ``dummy-seat`` (cross-cutting): JARVIS, a seat of card columns played by the commander.

At the deal its cards lie in columns (face down under face up); its hand is the face-up cards. A card played
(or passed, or drawn) from a column uncovers the one below it: after the trick, or at once, as the rule set
says. The players may seat it anywhere (:func:`move_dummy`, from the ``dummy-seat`` setup step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Card, Deck
from crewkit.engine.actions import Action, ActionFormatError, register_action
from crewkit.engine.phase import Block, CardHook, PlayHook, register
from crewkit.families.trick_taking.engine.state import Deal, Event
from crewkit.games.protocol import dummy_moved  # the one renumbering rule, shared with the hosted table

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@dataclass(frozen=True, slots=True)
class ChooseDummySeat(Action):
    """Where the dummy (JARVIS) sits; decided by the players, recorded as the commander's action."""

    dummy_seat: int
    type = "choose-dummy-seat"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "dummy_seat": self.dummy_seat}


def _read_choose_dummy_seat(obj: dict[str, Any], seat: int, deck: Deck) -> ChooseDummySeat:
    where = obj.get("dummy_seat")
    if not isinstance(where, int) or isinstance(where, bool):
        raise ActionFormatError(f"a choose-dummy-seat action needs 'dummy_seat' (a seat number), found {where!r}")
    return ChooseDummySeat(seat, where)


register_action(ChooseDummySeat, _read_choose_dummy_seat)


@register
class DummySeat(Block):
    name = "dummy-seat"

    def prepare(self, g: Game, deal: Deal) -> None:
        """The dummy's columns from the deal; its hand holds only their face-up cards. Its seat is the last."""
        g.dummy_seat = g.n - 1
        g.dummy_columns = [list(col) for col in deal.dummy_columns]
        g.hands[g.dummy_seat] = g.rules.deck.mask(col[-1] for col in g.dummy_columns if col)

    def card_played(self) -> CardHook | None:
        return _played

    def trick_collected(self) -> PlayHook | None:
        return reveal_dummy_cards


def _played(g: Game, seat: int, card: Card) -> None:
    if seat == g.dummy_seat:
        dummy_played(g, card)


def dummy_played(g: Game, card: Card, reveal_now: bool = False) -> None:
    for i, col in enumerate(g.dummy_columns):
        if col and col[-1] is card:
            col.pop()
            if col:
                if reveal_now or (g.rules.dummy is not None and g.rules.dummy.reveal == "immediately"):
                    g.hands[g.dummy_seat] |= col[-1].bit  # type: ignore[index]
                    g.events.append(Event("dummy-reveal", g.dummy_seat, col[-1]))
                else:
                    g._dummy_reveal.append(i)
            return


def reveal_dummy_cards(g: Game) -> None:
    """Face-down dummy cards turn up only once the trick in which the card above them was played is over."""
    if not g._dummy_reveal:
        return
    for i in g._dummy_reveal:
        col = g.dummy_columns[i]
        if col:
            g.hands[g.dummy_seat] |= col[-1].bit  # type: ignore[index]
            g.events.append(Event("dummy-reveal", g.dummy_seat, col[-1]))
    g._dummy_reveal = []


def dummy_lost(g: Game, card: Card) -> None:
    """A card leaves the dummy's columns other than by being played; the card under it turns up at once."""
    for col in g.dummy_columns:
        if card in col:
            on_top = col[-1] is card
            col.remove(card)
            if on_top and col:
                g.hands[g.dummy_seat] |= col[-1].bit  # type: ignore[index]
                g.events.append(Event("dummy-reveal", g.dummy_seat, col[-1]))
            return


def move_dummy(g: Game, where: int) -> None:
    """Seat the dummy at ``where``; the real players keep their clockwise order (setup only)."""
    old = g.dummy_seat
    if old is None or where == old:
        return
    order = dummy_moved(g.n, old, where)
    new_of = {o: i for i, o in enumerate(order)}
    g.hands = [g.hands[o] for o in order]
    g.dummy_seat = where
    if g.commander is not None:
        g.commander = new_of[g.commander]
    g.leader = new_of[g.leader]
    g.turn = new_of[g.turn]
    g.roles = {r: new_of[s] for r, s in g.roles.items()}
    # what was logged so far names the old seats: renumber it
    g.events = [Event(e.kind, new_of[e.seat] if e.seat is not None else None, e.card, e.detail)
                for e in g.events]
    for t in g.tasks:
        if t.owner is not None:
            t.owner = new_of[t.owner]
    g.events.append(Event("dummy-seat", where, None, f"the dummy sits in seat {where}"))


def public_columns(game: Game) -> tuple[tuple[Card | None, int], ...]:
    """Per JARVIS column its face-up card, if any, and how many lie face down (not which): what every seat
    sees (the observation's ``dummy_columns``)."""
    d = game.dummy_seat
    if d is None:
        return ()
    up = game.hands[d]
    return tuple((col[-1] if col and up >> col[-1].id & 1 else None,
                  len(col) - (1 if col and up >> col[-1].id & 1 else 0)) for col in game.dummy_columns)
