"""The board family's resolution of places (by seat, or by token) and its end-of-round upkeep (see
:mod:`crewkit.families.not_alone.blocks`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.effects.words import apply_all
from crewkit.engine.machine import Answers, MachineBlock, register_machine_block
from crewkit.engine.phase import BlockState
from crewkit.families.not_alone.blocks.cards import config
from crewkit.families.not_alone.state import BoardState, CardsState, PilesState

if TYPE_CHECKING:
    from crewkit.families.not_alone.board import BoardGame

    G = BoardGame
else:
    G = Any


# ------------------------------------------------------------------------------------------------ resolution

NO_TOKEN = ""  # the round of resolution of the places without a token (order by_token)


@dataclass(slots=True)
class ResolutionState(BlockState):
    done: list[tuple[str | None, int]] = field(default_factory=list)  # (round of resolution, seat) resolved

    def copy(self) -> ResolutionState:
        return ResolutionState(list(self.done))


@register_machine_block
class PlaceResolution(MachineBlock[Any]):
    """Each other seat's revealed place(s) resolved: the tokens there (``tokens:``; in the order of
    ``token_order`` at ``config``), then the place's power or one card taken back unless a token blocks it;
    then the rule for seats that lost their last counter. ``order`` at ``config``: ``by_seat`` (the default),
    one seat at a time in seat order; ``by_token``, every seat's places without a token first, then those of
    each token in ``token_order``, each time in seat order."""

    name = "place-resolution"

    def start(self, m: G) -> None:
        m.set_state(ResolutionState())

    def enter(self, m: G) -> bool:
        m.set_state(ResolutionState())
        m.state(BoardState).in_resolution = True
        return True

    def rounds(self, m: G) -> list[str | None]:
        """The rounds of resolution: None (everything of a seat at once), or no token and then each token."""
        if config(m, self).get("order", "by_seat") != "by_token":
            return [None]
        return [NO_TOKEN, *token_order(m, self)]

    def proceed(self, m: G) -> None:
        done = m.state(ResolutionState).done
        kinds = token_order(m, self)
        for stage in self.rounds(m):
            for seat in m.other_seats():
                if (stage, seat) in done:
                    continue
                if stage is not None and not _stages_of(m, seat, kinds) & {stage}:
                    done.append((stage, seat))  # nothing of this seat's is resolved in this round
                    continue
                if not m.run(functools.partial(_resolve_job, stage, kinds, seat)) or m.is_over():
                    return
        m.state(BoardState).in_resolution = False
        m.counter_out_rule()
        if not m.is_over():
            m.advance()

    def describe(self, m: G) -> str:
        return f"{self.label}: the places are resolved"


def token_order(g: G, block: MachineBlock[Any]) -> list[str]:
    """The tokens in the order their effects are resolved: ``token_order`` at the block's ``config``, then the
    other tokens of ``tokens:`` in their order."""
    named = [str(t) for t in config(g, block).get("token_order", [])]
    return named + [t for t in g.data.get("tokens", {}) if t not in named]


def _resolve_job(stage: str | None, kinds: list[str], seat: int, g: G, chooser: Answers) -> None:
    """One seat's places, only what belongs to ``stage`` (None: everything, one place after the other)."""
    for place, tokens in _visits(g, seat):
        _visit(g, seat, place, tokens, kinds, stage, chooser)
        if g.is_over():
            break
    g.state(ResolutionState).done.append((stage, seat))


def _visits(g: G, seat: int) -> list[tuple[int, list[str]]]:
    """The seat's places this round, each with the tokens that act on the seat there: those it does not
    ignore (``ignore_token``) and, under rule several_places_tokens once, only on the first place they reach
    it. Worked out afresh from the board (no token moves during the resolution), so every round of resolution
    sees the same."""
    board = g.state(BoardState)
    once = g.reading("several_places_tokens", "each_card") == "once"
    ignored = {r.effect["token"] for r in g.rules("ignore_token") if r.actor == seat}
    reached: set[str] = set()
    out = []
    for place in board.positions.get(seat, []):
        tokens = [t for t, where in board.tokens.items() if place in where and t not in ignored and t not in reached]
        if once:
            reached.update(tokens)
        out.append((place, tokens))
    return out


def _stages_of(g: G, seat: int, kinds: list[str]) -> set[str]:
    """The rounds of resolution (order by_token) in which something of the seat's is resolved."""
    out: set[str] = set()
    for _place, tokens in _visits(g, seat):
        present, blocked = _plan(g, seat, tokens, kinds)
        out.update(present)
        if not blocked:
            out.add(present[-1] if present else NO_TOKEN)
    return out


def _plan(g: G, seat: int, tokens: list[str], kinds: list[str]) -> tuple[list[str], bool]:
    """For the tokens acting on a seat on a place: the kinds of token present, in ``kinds`` order (a token
    counts as itself and as any token a ``token_acts_as`` rule names), and whether one of them blocks the
    place's power (``blocks_power``, or a catch)."""
    spec = g.data.get("tokens", {})
    ignored = {r.effect["token"] for r in g.rules("ignore_token") if r.actor == seat}
    roles = [r for t in tokens for r in _roles(g, t, ignored)]
    present = [k for k in kinds if k in roles]
    blocked = any(spec.get(r, {}).get("blocks_power") or "catch" in spec.get(r, {}) for r in roles)
    return present, blocked


def _roles(g: G, token: str, ignored: set[str]) -> list[str]:
    """What a token on a place counts as: itself, and any token a ``token_acts_as`` rule names."""
    roles = [token, *(r.effect["as"] for r in g.rules("token_acts_as") if r.effect["token"] == token)]
    return [r for r in dict.fromkeys(roles) if r not in ignored]


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


def _visit(
    g: G, seat: int, place: int, tokens: list[str], kinds: list[str], stage: str | None, chooser: Answers
) -> None:
    """A seat on a place, or the part of it that belongs to ``stage``: for each kind of token present (in
    ``kinds`` order) its step - the cards played on that token's place, its catch (with every token counting
    as it), its discard - then the place's power (or a card taken back) in the round of the last kind present,
    when no token there blocks it."""
    ignored = {r.effect["token"] for r in g.rules("ignore_token") if r.actor == seat}
    roles = {t: _roles(g, t, ignored) for t in tokens}
    present, blocked = _plan(g, seat, tokens, kinds)
    for kind in present:
        if stage in (None, kind):
            _token_step(g, seat, place, kind, [t for t in tokens if kind in roles[t]], chooser)
            if g.is_over():
                return
    if stage in (None, present[-1] if present else NO_TOKEN) and not blocked:
        _power_or_take_back(g, seat, place, chooser)


def _token_step(g: G, seat: int, place: int, kind: str, acting: list[str], chooser: Answers) -> None:
    """What the tokens counting as ``kind`` do to ``seat`` on ``place``: the cards played with that token
    (``resolve: on_token_place``), the catch (``tokens.<kind>.catch``: counters lost, tracks moved once a
    round; several tokens counting as it stack unless rule catch_stacking is once), the discard."""
    board = g.state(BoardState)
    spec = g.data.get("tokens", {})
    name, where = g.seat_name(seat), g.place_name(place)
    if kind in acting:  # the token itself is here: the cards played with it
        for _deck, card_id, by in list(g.state(CardsState).played):
            card = g.card_as_played(card_id)
            if card is not None and card.token == kind and card.resolve == "on_token_place":
                g.say(f"{name} suffers {card.name} on the {where}.")
                apply_all(g.context(by, place, card_id, chooser, affected=seat), card.effects)
                if g.is_over():
                    return
    kind_spec = spec.get(kind, {})
    if "catch" in kind_spec:
        catchers = sorted(acting, key=lambda t: t != kind)  # the token's own catch before one it counts as
        if g.reading("catch_stacking", "stacks") == "once":
            catchers = catchers[:1]
        catch = kind_spec["catch"]
        g.say(f"{name} is caught by the {kind.capitalize()} token on the {where}.")
        g.change_will(seat, -(int(catch.get("lose", 1)) * len(catchers) + extra_loss(g, kind, place)))
        per_token = g.reading("catch_track_moves", "once_per_round") == "once_per_token"
        for token in catchers if per_token else catchers[:1]:
            key = token if per_token else kind
            if key not in board.caught:
                board.caught.add(key)
                g.move_tracks(catch.get("move_track", {}))
        for rule in g.rules("catch_moves_more"):
            if rule.effect["token"] == kind and g.rule_applies(rule, seat=seat):
                for track in catch.get("move_track", {}):
                    g.move_track(track, int(rule.effect["by"]))
    discard = int(kind_spec.get("discard_places", 0)) * len(acting)
    if discard and not g.is_over():
        g.say(f"{name} is caught by the {kind.capitalize()} token on the {where}.")
        hand = list(g.state(PilesState).hand[seat])
        g.move_places(seat, chooser.pick(seat, hand, discard, "place card to discard"), "hand", "discard")
        loss = extra_loss(g, kind, place)
        if loss:
            g.change_will(seat, -loss)


def _power_or_take_back(g: G, seat: int, place: int, chooser: Answers) -> None:
    card = g.place_by_number[place]
    if any(g.rule_applies(r, place=place) for r in g.rules("cancel_power")):
        g.say(f"The power of the {card.name} has no effect this round.")
        return
    as_played = [g.card_as_played(c) for _, c, s in g.state(CardsState).played if s == seat]
    instead = [c for c in as_played if c is not None and c.replaces_power]
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
    # recorded by id (power, take-back), read by its words
    choices = ([("power", power)] if power_ok else []) + ([("take-back", "take back a place card")] if take_ok else [])
    if not choices:
        return
    ids, labels = [i for i, _ in choices], [w for _, w in choices]
    choice = chooser.pick(seat, ids, 1, "public: use the power or take back a place card", labels)[0]
    if choice != "power":
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
        board.to_place = {}
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
        cards.played, cards.copies = [], {}
        m.next_round()
        m.say(f"Round {m.round} begins.")

    def describe(self, m: G) -> str:
        return f"{self.label}: end of the round"
