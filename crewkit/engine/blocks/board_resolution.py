"""The board family's resolution of places in seat order and its end-of-round upkeep (see
:mod:`crewkit.engine.blocks.board`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.effects.words import apply_all
from crewkit.engine.blocks.board_cards import config
from crewkit.engine.boardstate import BoardState, CardsState, PilesState
from crewkit.engine.machine import Answers, MachineBlock, register_machine_block
from crewkit.engine.phase import BlockState

if TYPE_CHECKING:
    from crewkit.engine.board import BoardGame

    G = BoardGame
else:
    G = Any


# ------------------------------------------------------------------------------------------------ resolution


@dataclass(slots=True)
class ResolutionState(BlockState):
    done: list[int] = field(default_factory=list)

    def copy(self) -> ResolutionState:
        return ResolutionState(list(self.done))


@register_machine_block
class PlaceResolution(MachineBlock[Any]):
    """Each seat's revealed place(s) resolved in seat order: tokens first, else the place's power or one
    card taken back; then the rule for seats that lost their last counter."""

    name = "place-resolution"

    def start(self, m: G) -> None:
        m.set_state(ResolutionState())

    def enter(self, m: G) -> bool:
        m.set_state(ResolutionState())
        m.state(BoardState).in_resolution = True
        return True

    def proceed(self, m: G) -> None:
        done = m.state(ResolutionState).done
        for seat in m.other_seats():
            if seat in done:
                continue
            if not m.run(functools.partial(_resolve_job, seat)) or m.is_over():
                return
        m.state(BoardState).in_resolution = False
        m.counter_out_rule()
        if not m.is_over():
            m.advance()

    def describe(self, m: G) -> str:
        return f"{self.label}: the places are resolved"


def _resolve_job(seat: int, g: G, chooser: Answers) -> None:
    places = list(g.state(BoardState).positions.get(seat, []))
    once = g.reading("several_places_tokens", "each_card") == "once"
    reached: set[str] = set()
    for place in places:
        _visit(g, seat, place, chooser, reached if once else set())
        if g.is_over():
            break
    g.state(ResolutionState).done.append(seat)


def extra_loss(g: G, token: str, place: int) -> int:
    extra = sum(
        int(r.effect["amount"])
        for r in g.rules("extra_will_loss")
        if r.effect["token"] == token and g.rule_applies(r, place=place)
    )
    card = g.place_by_number[place]
    extra += sum(
        int(e["amount"]) for e in card.passive if e.word == "extra_will_loss" and e["token"] == token
    )
    return extra


def _visit(g: G, seat: int, place: int, chooser: Answers, reached: set[str]) -> None:
    """A seat on a place: the cards played on its tokens' places first, then each catching token (the
    rule set's ``tokens:``, with ``catch``), then tokens that make it discard; the place's power (or a card
    taken back) only when no token there blocks it."""
    board = g.state(BoardState)
    spec = g.data.get("tokens", {})
    ignored = {r.effect["token"] for r in g.rules("ignore_token") if r.actor == seat}
    tokens = [
        t for t, where in board.tokens.items() if place in where and t not in ignored and t not in reached
    ]
    reached.update(tokens)
    # (token on the place, the token whose catch it has): itself, and any a token_acts_as rule names
    catchers = [
        (t, a)
        for t in tokens
        for a in (t, *(r.effect["as"] for r in g.rules("token_acts_as") if r.effect["token"] == t))
        if "catch" in spec.get(a, {}) and a not in ignored
    ]
    catchers.sort(key=lambda c: c[0] != c[1])  # a token's own catch before one it only counts as
    if g.reading("catch_stacking", "stacks") == "once":
        catchers = catchers[:1]
    name, where = g.seat_name(seat), g.place_name(place)
    for token in tokens:
        for _deck, card_id, by in list(g.state(CardsState).played):
            card = g.card(card_id)
            if card.token == token and card.resolve == "on_token_place":
                g.say(f"{name} suffers {card.name} on the {where}.")
                apply_all(g.context(by, place, card.id, chooser, affected=seat), card.effects)
    if catchers:
        own = catchers[0][1]
        catch = spec[own]["catch"]
        g.say(f"{name} is caught by the {own.capitalize()} token on the {where}.")
        g.change_will(seat, -(sum(int(spec[a]["catch"].get("lose", 1)) for _, a in catchers)
                              + extra_loss(g, own, place)))
        per_token = g.reading("catch_track_moves", "once_per_round") == "once_per_token"
        for token, acts in catchers if per_token else catchers[:1]:
            key = token if per_token else acts
            if key not in board.caught:
                board.caught.add(key)
                g.move_tracks(catch.get("move_track", {}))
        for rule in g.rules("catch_moves_more"):
            if rule.effect["token"] == own and g.rule_applies(rule, seat=seat):
                for track in catch.get("move_track", {}):
                    g.move_track(track, int(rule.effect["by"]))
    for token in tokens:
        discard = int(spec.get(token, {}).get("discard_places", 0))
        if not discard:
            continue
        g.say(f"{name} is caught by the {token.capitalize()} token on the {where}.")
        hand = list(g.state(PilesState).hand[seat])
        g.move_places(seat, chooser.pick(seat, hand, discard, "place card to discard"), "hand", "discard")
        loss = extra_loss(g, token, place)
        if loss:
            g.change_will(seat, -loss)
    blocked = catchers or any(spec.get(t, {}).get("blocks_power") for t in tokens)
    if not blocked and not g.is_over():
        _power_or_take_back(g, seat, place, chooser)


def _power_or_take_back(g: G, seat: int, place: int, chooser: Answers) -> None:
    card = g.place_by_number[place]
    if any(g.rule_applies(r, place=place) for r in g.rules("cancel_power")):
        g.say(f"The power of the {card.name} has no effect this round.")
        return
    instead = [
        g.card(c)
        for k, c, s in g.state(CardsState).played
        if s == seat and g.card(c).replaces_power
    ]
    once_used = (
        card.once_per_round
        and place in g.state(BoardState).used_once
        and g.reading("once_per_round", "per_place") != "per_seat"
    )
    power = f"use {instead[-1].name}" if instead else f"use the power of the {card.name}"
    if instead:
        power_ok = g.effects_possible(seat, instead[-1].effects, place)
    else:
        power_ok = not once_used and g.effects_possible(seat, card.effects, place)
    take_ok = bool(g.state(PilesState).discard[seat]) and not (
        once_used and g.reading("once_per_round", "per_place") == "per_place"
    )
    options = ([power] if power_ok else []) + (["take back a place card"] if take_ok else [])
    if not options:
        return
    choice = chooser.pick(seat, options, 1, "public: use the power or take back a place card")[0]
    if choice != power:
        pile = list(g.state(PilesState).discard[seat])
        g.move_places(
            seat, chooser.pick(seat, pile, 1, "public: the place card to take back"), "discard", "hand"
        )
    elif instead:
        apply_all(g.context(seat, place, instead[-1].id, chooser), instead[-1].effects)
    else:
        g.use_power(seat, place)


# ------------------------------------------------------------------------------------------------ upkeep


@register_machine_block
class RoundUpkeep(MachineBlock[Any]):
    """End of round: played place cards face up on the discard piles, tokens back, effect card hands drawn
    back up (each deck's ``draw_up_to``), the tracks at ``config``'s ``move_track`` moved; the next round."""

    name = "round-upkeep"

    def proceed(self, m: G) -> None:
        piles = m.state(PilesState)
        for seat in m.other_seats():
            piles.discard[seat].extend(piles.played[seat])
            piles.played[seat] = []
        board = m.state(BoardState)
        board.tokens, board.positions, board.used_once, board.caught = {}, {}, set(), set()
        for deck, spec in m.decks.items():
            if "draw_up_to" in spec:
                for seat in m.role_seats(spec["role"]):
                    m.draw_up_to(seat, deck, int(spec["draw_up_to"]))
        for track, by in config(m, self).get("move_track", {}).items():
            if any(r.effect["track"] == track for r in m.rules("stop_track")):
                m.say(f"The {m.title(track)} counter does not move this round.")
            else:
                m.move_track(track, int(by))
        if m.is_over():
            return
        cards = m.state(CardsState)
        cards.book.end_round(m.round)
        cards.played = []
        m.next_round()
        m.say(f"Round {m.round} begins.")

    def describe(self, m: G) -> str:
        return f"{self.label}: end of the round"
