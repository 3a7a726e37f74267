"""The board family's actions, effect cards played in card windows, and the one-off option choice (see
:mod:`crewkit.families.not_alone.blocks`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.cards import Deck
from crewkit.effects.cardsets import Card
from crewkit.effects.words import apply_all
from crewkit.engine.actions import Action, ActionFormatError, register_action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.machine import Answers, MachineBlock, register_machine_block
from crewkit.engine.phase import BlockState
from crewkit.families.not_alone.state import BoardState, CardsState, PilesState

if TYPE_CHECKING:
    from crewkit.families.not_alone.board import BoardGame

    G = BoardGame
else:
    G = Any


# ------------------------------------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class PlayPlaces(Action):
    """Secret: the place card(s) a seat plays face down this round."""

    places: tuple[int, ...]
    type = "play-places"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "places": list(self.places)}


@dataclass(frozen=True, slots=True)
class Resist(Action):
    """Spend ``will`` (the rule set's counter) to take back place cards from the discard pile (then picked)."""

    will: int
    type = "resist"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "will": self.will}


@dataclass(frozen=True, slots=True)
class GiveUp(Action):
    """Start over: regain the counter and every discarded place card; the tracks the rule set names move."""

    type = "give-up"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """An effect card played; ``places`` are where its token goes (empty: no token, or the token stays)."""

    card: str
    places: tuple[int, ...] = ()
    type = "play-card"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type, "card": self.card}
        if self.places:
            out["places"] = list(self.places)
        return out


@dataclass(frozen=True, slots=True)
class PlaceToken(Action):
    """The lone seat puts one of its tokens (a token of the rule set's ``tokens:``) on ``places``."""

    token: str
    places: tuple[int, ...]
    type = "place-token"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "board_token": self.token, "places": list(self.places)}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Play no (more) card in this window, or leave an optional token off the board."""

    type = "pass"


def _places(obj: dict[str, Any], kind: str, required: bool = True) -> tuple[int, ...]:
    value = obj.get("places", [] if not required else None)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ActionFormatError(f"a {kind} action needs 'places', a list of place numbers, found {value!r}")
    return tuple(value)


def _read_play_places(obj: dict[str, Any], seat: int, deck: Deck | None) -> PlayPlaces:
    return PlayPlaces(seat, _places(obj, "play-places"))


def _read_resist(obj: dict[str, Any], seat: int, deck: Deck | None) -> Resist:
    will = obj.get("will")
    if not isinstance(will, int) or isinstance(will, bool):
        raise ActionFormatError(f"a resist action needs 'will' (the will spent), found {will!r}")
    return Resist(seat, will)


def _read_play_card(obj: dict[str, Any], seat: int, deck: Deck | None) -> PlayCard:
    card = obj.get("card")
    if not isinstance(card, str):
        raise ActionFormatError(f"a play-card action needs 'card' (a card id), found {card!r}")
    return PlayCard(seat, card, _places(obj, "play-card", required=False))


def _read_place_token(obj: dict[str, Any], seat: int, deck: Deck | None) -> PlaceToken:
    token = obj.get("board_token")
    if not isinstance(token, str):
        raise ActionFormatError(f"a place-token action needs 'board_token', found {token!r}")
    return PlaceToken(seat, token, _places(obj, "place-token"))


register_action(PlayPlaces, _read_play_places)
register_action(Resist, _read_resist)
register_action(GiveUp, lambda obj, seat, deck: GiveUp(seat))
register_action(PlayCard, _read_play_card)
register_action(PlaceToken, _read_place_token)
register_action(Pass, lambda obj, seat, deck: Pass(seat))


# ------------------------------------------------------------------------------------------------ helpers


def section(g: G, path: str) -> Any:
    """The rule set's section at a dotted path (``round.exploration``; empty when absent)."""
    table: Any = g.data
    for key in path.split(".") if path else ():
        table = table.get(key, {})
    return table


def config(g: G, block: MachineBlock[Any]) -> Any:
    """The block's settings: the rule set section its flow entry names (``config: round.exploration``)."""
    return section(g, str(block.params.get("config", "")))


def role_seats(g: G, roles: Sequence[str]) -> list[int]:
    out: list[int] = []
    for role in roles:
        out += g.role_seats(role)
    return out


def play_limit(g: G, deck: str) -> int:
    """How many cards of ``deck`` a seat may play this round (``per_round``, raised by the deck's rule)."""
    spec = g.decks[deck]
    limit = int(spec.get("per_round", 1))
    raised_by = spec.get("limit_raised_by")
    for rule in g.rules(raised_by) if raised_by else ():
        limit = max(limit, int(rule.effect["count"]))
    return limit


def banned(g: G, deck: str) -> bool:
    """Whether a rule in force bans playing cards of ``deck`` (the deck's ``banned_by`` word)."""
    word = g.decks[deck].get("banned_by")
    return bool(word and g.rules(word))


def played_by(g: G, seat: int, deck: str) -> int:
    return sum(1 for d, _, s in g.state(CardsState).played if s == seat and d == deck)


def card_where(g: G, seat: int) -> int | None:
    """The place a seat's card effects refer to: where it stands, else the card it played."""
    here = g.position(seat)
    if here is not None:
        return int(here)
    played = g.state(PilesState).played[seat]
    return played[0] if played else None


def playable(g: G, seat: int, phase: int) -> list[str]:
    """The effect cards ``seat`` may play now in ``phase`` (the per-round limits and bans applied; a card that
    copies is played as the card it copies, in that card's phase)."""
    st = g.state(CardsState)
    out = []
    for deck in g.decks_of(seat):
        if banned(g, deck) or played_by(g, seat, deck) >= play_limit(g, deck):
            continue
        for card_id in st.hands[deck][seat]:
            card = g.card_as_played(card_id)
            if card is None or card.phase != phase or card_id in out:
                continue
            if (
                card.resolve == "when_played"
                and not card.replaces_power
                and not g.effects_possible(seat, card.effects, card_where(g, seat))
            ):
                continue
            out.append(card_id)
    return out


def token_choices(g: G, token: str, count: int) -> list[tuple[int, ...]]:
    """Where a token may go: one place, or ``count`` adjacent places (two: pairs sharing a side)."""
    every = sorted(g.place_by_number)
    if count <= 1:
        return [(p,) for p in every]
    return sorted({tuple(sorted((p, q))) for p in every for q in g.adjacent(p)})


def token_placement_phase(g: G) -> MachineBlock[Any] | None:
    """The token-placement phase still to come this round (the current one included), if any."""
    return next((b for b in g.flow[g.flow.index(g.current):] if b.name == "token-placement"), None)


def token_later(g: G, card: Card) -> bool:
    """Whether the card's token is made available now and placed later (``token_placed: later``), with the
    lone seat's tokens in the token-placement phase; once that phase is past, it goes down with the card."""
    return card.token_placed == "later" and token_placement_phase(g) is not None


def card_actions(g: G, seat: int, phase: int) -> list[Action]:
    out: list[Action] = []
    for card_id in playable(g, seat, phase):
        card = g.card_as_played(card_id)
        assert card is not None  # playable
        if card.token and not token_later(g, card) and not g.token_places(card.token):
            out += [PlayCard(seat, card_id, where) for where in token_choices(g, card.token, card.places)]
        else:
            out.append(PlayCard(seat, card_id))
    return out


def play_card(g: G, a: PlayCard) -> None:
    """Play an effect card: checked against the phase's legal plays, discarded, its token placed, its
    effects applied now (or, for a card resolved on its token's place or instead of a power, later)."""
    phase = int(g.current.params.get("phase", g.current.params.get("card_phase", 0)))
    if a not in card_actions(g, a.seat, phase):
        raise IllegalAction("card-not-playable", _why_not(g, a, phase))
    st = g.state(CardsState)
    own, card = g.card(a.card), g.card_as_played(a.card)
    assert card is not None  # a legal play
    deck = g.deck_of(a.card)
    st.hands[deck][a.seat].remove(a.card)
    st.discard[deck].append(a.card)
    st.played.append((deck, a.card, a.seat))
    copying = ""
    if own.copies:
        st.copies[a.card] = card.id
        copying = f", copying {card.name}"
    g.say(f"{g.seat_name(a.seat)} plays {own.name}{copying}: {card.text}")
    board = g.state(BoardState)
    if card.token and a.places:
        g.set_token_places(card.token, a.places)
    elif card.token and token_later(g, card) and not g.token_places(card.token) and card.token not in board.to_place:
        board.to_place[card.token] = card.places
        later = token_placement_phase(g)
        g.say(f"The {card.token.capitalize()} token will be placed in the {later.label if later else 'next'} phase.")
    if card.resolve == "when_played" and not card.replaces_power:
        g.run(functools.partial(_card_job, a.card, a.seat))


def _card_job(card_id: str, seat: int, g: G, chooser: Answers) -> None:
    card = g.card_as_played(card_id)
    assert card is not None
    apply_all(g.context(seat, card_where(g, seat), card_id, chooser), card.effects)


def _why_not(g: G, a: PlayCard, phase: int) -> str:
    who = g.seat_name(a.seat)
    try:
        own = g.card(a.card)
    except KeyError:
        return f"there is no card {a.card!r}"
    deck = g.deck_of(a.card)
    if deck not in g.decks_of(a.seat) or a.card not in g.state(CardsState).hands[deck][a.seat]:
        return f"{who} does not hold {own.name}"
    card = g.card_as_played(a.card)
    if card is None:
        return f"{own.name} copies the last {g.title(deck)} card discarded: there is no {g.title(deck)} card to copy yet"
    if card.phase != phase:
        copy = f"{own.name} copies {card.name}, which " if own.copies else f"{card.name} "
        return f"{copy}is played in phase {card.phase}, not in phase {phase}"
    if banned(g, deck):
        return f"no {g.title(deck)} card may be played this round"
    if a.card not in playable(g, a.seat, phase):
        return f"{who} may play no more cards this round, or {own.name} would have no effect now"
    if card.token and token_later(g, card):
        where = token_placement_phase(g)
        return (f"the {card.token.capitalize()} token of {own.name} is placed later, in the "
                f"{where.label if where else 'next'} phase: play the card without places")
    if card.token and g.token_places(card.token):
        return f"the {card.token.capitalize()} token is already placed: play {own.name} without places"
    return f"{own.name} needs its token placed on {card.places} place(s) (adjacent when two)"


# ------------------------------------------------------------------------------------------------ option-choice


@dataclass(slots=True)
class ChoicesState(BlockState):
    values: dict[str, str] = field(default_factory=dict)

    def copy(self) -> ChoicesState:
        return ChoicesState(dict(self.values))


@register_machine_block
class OptionChoice(MachineBlock[Any]):
    """One seat (``role``) picks a key of the rule set's table at ``from`` (dotted) once: ``option``."""

    name = "option-choice"

    def start(self, m: G) -> None:
        if m.state_or_none(ChoicesState) is None:
            m.set_state(ChoicesState())

    def enter(self, m: G) -> bool:
        return str(self.params["option"]) not in m.state(ChoicesState).values

    def proceed(self, m: G) -> None:
        if str(self.params["option"]) in m.state(ChoicesState).values:
            m.advance()
            return
        m.run(self._choose)

    def _choose(self, m: G, chooser: Answers) -> None:
        table = section(m, str(self.params["from"]))
        option = str(self.params["option"])
        seat = role_seats(m, [self.params.get("role", m.roles[0])])[0]
        value = chooser.pick(seat, sorted(table), 1, f"public: the {option.replace('_', ' ')}")[0]
        m.state(ChoicesState).values[option] = value
        m.say(f"{m.seat_name(seat)} chooses the {option.replace('_', ' ')}: {value}.")

    def describe(self, m: G) -> str:
        return f"the choice of the {str(self.params['option']).replace('_', ' ')}"


def chosen_options(m: G) -> dict[str, str]:
    st = m.state_or_none(ChoicesState)
    return dict(st.values) if st else {}


def chosen(m: G, option: str, default: str = "") -> str:
    st = m.state_or_none(ChoicesState)
    return st.values.get(option, default) if st else default


# ------------------------------------------------------------------------------------------------ card-window


@dataclass(slots=True)
class WindowState(BlockState):
    queue: list[int] = field(default_factory=list)

    def copy(self) -> WindowState:
        return WindowState(list(self.queue))


@register_machine_block
class CardWindow(MachineBlock[Any]):
    """Seats (``seats``: roles in order) may each play effect cards of ``phase``, or pass."""

    name = "card-window"

    def actions(self) -> dict[type, Callable[[Any, Any], None]]:
        return {PlayCard: play_card, Pass: self._pass}

    def start(self, m: G) -> None:
        m.set_state(WindowState())

    def enter(self, m: G) -> bool:
        roles = list(self.params.get("seats", m.roles))
        if m.reading("effect_order", "lone_first") == "others_first":
            roles.reverse()  # the other seats play first, the lone seat last
        m.state(WindowState).queue = role_seats(m, roles)
        return True

    def proceed(self, m: G) -> None:
        queue = m.state(WindowState).queue
        phase = int(self.params["phase"])
        while queue and not playable(m, queue[0], phase):
            queue.pop(0)
        if not queue:
            m.advance()

    def waiting(self, m: G) -> tuple[int, ...]:
        queue = m.state(WindowState).queue
        return (queue[0],) if queue else ()

    def legal(self, m: G, seat: int) -> list[Action]:
        return [*card_actions(m, seat, int(self.params["phase"])), Pass(seat)]

    def _pass(self, m: G, a: Pass) -> None:
        m.state(WindowState).queue.pop(0)

    def describe(self, m: G) -> str:
        queue = m.state(WindowState).queue
        who = f", {m.seat_name(queue[0])} may play a card" if queue else ""
        return f"{self.label}: cards of phase {self.params['phase']}{who}"
