"""The board family's secret place choice (with resist and give up), token placement and reveal (see
:mod:`crewkit.families.not_alone.blocks`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.machine import Answers, MachineBlock, register_machine_block
from crewkit.engine.phase import BlockState
from crewkit.families.not_alone.blocks.cards import (
    GiveUp,
    Pass,
    PlaceToken,
    PlayCard,
    PlayPlaces,
    Resist,
    card_actions,
    chosen,
    config,
    play_card,
    playable,
    section,
    token_choices,
)
from crewkit.families.not_alone.state import LONE, BoardState, PilesState, ResourceState, TracksState

if TYPE_CHECKING:
    from crewkit.families.not_alone.board import BoardGame

    G = BoardGame
else:
    G = Any


# ------------------------------------------------------------------------------------------------ secret-choice


@dataclass(slots=True)
class ChoiceState(BlockState):
    chosen: set[int] = field(default_factory=set)
    resisted: set[int] = field(default_factory=set)
    gave_up: set[int] = field(default_factory=set)
    lone_passed: bool = False  # rule lone_cards_while_choosing any_time: the lone seat plays no more cards

    def copy(self) -> ChoiceState:
        return ChoiceState(set(self.chosen), set(self.resisted), set(self.gave_up), self.lone_passed)


def forbidden(g: G) -> set[int]:
    out: set[int] = set()
    for rule in g.rules("forbid_places"):
        out |= set(rule.context.get("places", ()))
    return out


def cards_to_play(g: G, seat: int) -> tuple[int, str]:
    """How many place cards ``seat`` plays this round and how they resolve (``one`` or ``all``)."""
    rules = [r for r in g.rules("play_place_cards") if r.actor == seat]
    if not rules:
        block = next((b for b in g.flow if b.name == "secret-choice"), None)
        return (int(config(g, block).get("place_cards", 1)) if block else 1), "all"
    resolve = "all" if any(r.effect["resolve"] == "all" for r in rules) else "one"
    return max(int(r.effect["count"]) for r in rules), resolve


@register_machine_block
class SecretChoice(MachineBlock[Any]):
    """Every seat but the lone one chooses place cards face down at once; first each may resist (spend
    counters to take cards back), give up (start over) or play a card. Settings at ``config``: ``place_cards``,
    ``resist`` (levels ``{will, take_back}``), ``resist_may_not_cost_last``, ``give_up`` (``regain``,
    ``move_track``)."""

    name = "secret-choice"

    def actions(self) -> dict[type, Callable[[Any, Any], None]]:
        return {
            PlayPlaces: self._play,
            Resist: self._resist,
            GiveUp: self._give_up,
            PlayCard: play_card,
            Pass: self._pass,
        }

    def start(self, m: G) -> None:
        m.set_state(ChoiceState())

    def enter(self, m: G) -> bool:
        m.set_state(ChoiceState())
        return True

    def waiting(self, m: G) -> tuple[int, ...]:
        done = m.state(ChoiceState).chosen
        others = tuple(s for s in m.other_seats() if s not in done)
        return (LONE, *others) if others and self._lone_may_play(m) else others

    def _lone_may_play(self, m: G) -> bool:
        """Rule lone_cards_while_choosing any_time: the lone seat may play its cards of this phase until the
        others' cards are all down."""
        return (
            m.reading("lone_cards_while_choosing", "before") == "any_time"
            and not m.state(ChoiceState).lone_passed
            and bool(playable(m, LONE, int(self.params.get("card_phase", 1))))
        )

    def _pass(self, m: G, a: Pass) -> None:
        if a.seat != LONE:
            raise IllegalAction("cannot-pass", f"{m.seat_name(a.seat)} must play a place card")
        m.state(ChoiceState).lone_passed = True

    def proceed(self, m: G) -> None:
        if not any(s != LONE for s in self.waiting(m)):
            m.release()
            m.say("Everyone has played their place cards face down.")
            m.advance()

    def _rules(self, m: G) -> Any:
        return config(m, self)

    def resist_options(self, m: G, seat: int) -> list[int]:
        st = m.state(ChoiceState)
        once = m.reading("resist_limit", "once_per_round") == "once_per_round"
        if (once and seat in st.resisted) or seat in st.gave_up or not m.state(PilesState).discard[seat]:
            return []
        will = m.will(seat)
        keep_last = bool(self._rules(m).get("resist_may_not_cost_last", True))
        return [
            int(level["will"])
            for level in self._rules(m).get("resist", [])
            if will - int(level["will"]) >= (1 if keep_last else 0)
        ]

    def may_give_up(self, m: G, seat: int) -> bool:
        return self._why_no_give_up(m, seat) is None

    def _why_no_give_up(self, m: G, seat: int) -> str | None:
        """Why ``seat`` may not give up now (None: it may). With ``refused_with_nothing_back``, giving up is
        refused while it would bring back neither counters nor a discarded place card."""
        rule = self._rules(m).get("give_up")
        name = m.seat_name(seat)
        if rule is None:
            return f"{name} may not give up: the rule set has no give up"
        if seat in m.state(ChoiceState).gave_up:
            return f"{name} has already given up this round"
        if (
            rule.get("refused_with_nothing_back", False)
            and m.will(seat) >= self._give_up_regain(m, rule)
            and not m.state(PilesState).discard[seat]
        ):
            counter = m.title("counter")
            return (
                f"{name} cannot give up: they have all their {counter} and every place card in hand, "
                "so giving up would bring nothing back"
            )
        return None

    def _give_up_regain(self, m: G, rule: Any) -> int:
        res = m.state(ResourceState)
        return res.start if rule.get("regain", "all") == "all" else int(rule["regain"])

    def play_options(self, m: G, seat: int) -> list[tuple[int, ...]]:
        hand = sorted(set(m.state(PilesState).hand[seat]))
        allowed = [p for p in hand if p not in forbidden(m)]
        if not allowed and not self.resist_options(m, seat) and not self.may_give_up(m, seat):
            allowed = hand  # nothing else is possible: a forbidden card rather than no play at all
        count, _ = cards_to_play(m, seat)
        count = min(count, len(allowed))
        if count <= 0:
            return []
        return [tuple(c) for c in itertools.combinations(allowed, count)]

    def legal(self, m: G, seat: int) -> list[Action]:
        if seat == LONE:
            return (
                [*card_actions(m, seat, int(self.params.get("card_phase", 1))), Pass(seat)]
                if self._lone_may_play(m)
                else []
            )
        out: list[Action] = [PlayPlaces(seat, p) for p in self.play_options(m, seat)]
        out += [Resist(seat, w) for w in self.resist_options(m, seat)]
        if self.may_give_up(m, seat):
            out.append(GiveUp(seat))
        out += card_actions(m, seat, int(self.params.get("card_phase", 1)))
        return out

    def _play(self, m: G, a: PlayPlaces) -> None:
        options = self.play_options(m, a.seat)
        if tuple(sorted(a.places)) not in options:
            count, _ = cards_to_play(m, a.seat)
            bad = [p for p in a.places if p in forbidden(m)]
            missing = [p for p in a.places if p not in m.state(PilesState).hand[a.seat]]
            if missing:
                why = f"{m.seat_name(a.seat)} does not hold the {m._place_list(missing)}"
            elif bad:
                why = f"the {m._place_list(bad)} may not be played this round"
            else:
                why = f"{m.seat_name(a.seat)} must play {count} different place card(s) from their hand"
            raise IllegalAction("place-not-playable", why)
        m.hold()  # secret: into the record, in seat order, when every seat has chosen
        m.state(ChoiceState).chosen.add(a.seat)
        piles = m.state(PilesState)
        for p in a.places:
            piles.hand[a.seat].remove(p)
            piles.played[a.seat].append(p)

    def _resist(self, m: G, a: Resist) -> None:
        if a.will not in self.resist_options(m, a.seat):
            raise IllegalAction(
                "cannot-resist",
                f"{m.seat_name(a.seat)} may not resist spending {a.will} {m.title('counter')}: "
                f"resisting may not cost the last {m.title('counter')}, is done once a round "
                "and needs a card in the discard pile",
            )
        level = next(lv for lv in self._rules(m)["resist"] if int(lv["will"]) == a.will)
        m.state(ChoiceState).resisted.add(a.seat)
        m.say(f"{m.seat_name(a.seat)} resists, spending {a.will} {m.title('counter')}.")
        m.change_will(a.seat, -a.will)
        m.run(functools.partial(_take_back_job, a.seat, int(level["take_back"])))

    def _give_up(self, m: G, a: GiveUp) -> None:
        why = self._why_no_give_up(m, a.seat)
        if why is not None:
            raise IllegalAction("cannot-give-up", why)
        rule = self._rules(m)["give_up"]
        m.state(ChoiceState).gave_up.add(a.seat)
        m.say(f"{m.seat_name(a.seat)} gives up.")
        res = m.state(ResourceState)
        m.change_will(a.seat, max(0, self._give_up_regain(m, rule) - res.value[a.seat]))
        m.move_places(a.seat, list(m.state(PilesState).discard[a.seat]), "discard", "hand")
        m.move_tracks(rule.get("move_track", {}))

    def describe(self, m: G) -> str:
        waiting = self.waiting(m)
        others = [w for w in waiting if w != LONE]
        return f"{self.label}: {m._seat_list(others)} to play place cards face down" if others else self.label


def _take_back_job(seat: int, count: int, g: G, chooser: Answers) -> None:
    pile = list(g.state(PilesState).discard[seat])
    cards = chooser.pick(seat, pile, count, "public: place cards to take back")
    g.move_places(seat, cards, "discard", "hand")


# ------------------------------------------------------------------------------------------------ tokens


@dataclass(slots=True)
class TokenState(BlockState):
    passed: bool = False

    def copy(self) -> TokenState:
        return TokenState(self.passed)


def extra_token_available(g: G, block: MachineBlock[Any]) -> bool:
    """Whether the track the rule set names (rule ``extra_token_track``) stands on a space that brings the
    extra token: ``spaces_from`` names the one-off option whose chosen entry lists those spaces
    (``token_spaces``), counted as the spaces the track still has to go."""
    option = str(block.params.get("spaces_from", ""))
    if not option:
        return False
    choice = next((b for b in g.flow if b.name == "option-choice" and b.params.get("option") == option), None)
    table = section(g, str(choice.params.get("from", ""))) if choice else {}
    if not isinstance(table, dict) or not table:
        return False
    side = chosen(g, option) or sorted(table)[0]
    track = g.reading("extra_token_track", "")
    tr = g.state(TracksState)
    return track in tr.goal and (tr.goal[track] - tr.position[track]) in table[side]["token_spaces"]


@register_machine_block
class TokenPlacement(MachineBlock[Any]):
    """The lone seat plays cards of ``card_phase``, then places its main token (``token``), then the tokens
    cards made available for this phase (``token_placed: later``: they must be placed); the ``extra_token``
    may (or must: rule ``extra_token``) be placed while a track's space brings it (``spaces_from``)."""

    name = "token-placement"

    def actions(self) -> dict[type, Callable[[Any, Any], None]]:
        return {PlayCard: play_card, PlaceToken: self._place, Pass: self._pass}

    def start(self, m: G) -> None:
        m.set_state(TokenState())

    def enter(self, m: G) -> bool:
        m.set_state(TokenState())
        return True

    def _main(self) -> str:
        return str(self.params["token"])

    def _extra(self) -> str:
        return str(self.params.get("extra_token", ""))

    def _extra_open(self, m: G) -> bool:
        return (
            bool(self._extra())
            and not m.token_places(self._extra())
            and extra_token_available(m, self)
            and not m.state(TokenState).passed
        )

    def _from_cards(self, m: G) -> list[tuple[str, int]]:
        """The tokens cards made available this round and not yet placed: (token, places it covers)."""
        return [(t, n) for t, n in m.state(BoardState).to_place.items() if not m.token_places(t)]

    def proceed(self, m: G) -> None:
        if m.token_places(self._main()) and not self._from_cards(m) and not self._extra_open(m):
            m.advance()

    def waiting(self, m: G) -> tuple[int, ...]:
        return (LONE,)

    def legal(self, m: G, seat: int) -> list[Action]:
        if seat != LONE:
            return []
        every = sorted(m.place_by_number)
        if not m.token_places(self._main()):
            out: list[Action] = card_actions(m, seat, int(self.params.get("card_phase", 2)))
            out += [PlaceToken(seat, self._main(), (p,)) for p in every]
            return out
        pending = self._from_cards(m)
        if pending:  # a card's token is placed, not kept back
            return [PlaceToken(seat, t, where) for t, n in pending for where in token_choices(m, t, n)]
        out = [PlaceToken(seat, self._extra(), (p,)) for p in every]
        if m.reading("extra_token", "may") == "may":
            out.append(Pass(seat))
        return out

    def _place(self, m: G, a: PlaceToken) -> None:
        if a not in self.legal(m, a.seat):
            raise IllegalAction(
                "token-not-placeable",
                f"the {a.token} token cannot go on {list(a.places)} now: "
                f"the {self._main()} token goes first, on one place; then the tokens of the cards played, "
                f"on as many places as the card says; the {self._extra()} token only while the track allows it",
            )
        m.set_token_places(a.token, a.places)

    def _pass(self, m: G, a: Pass) -> None:
        if Pass(a.seat) not in self.legal(m, a.seat):
            pending = [t for t, _ in self._from_cards(m)] if m.token_places(self._main()) else [self._main()]
            what = " and ".join(f"the {t} token" for t in pending) or f"the {self._extra()} token"
            raise IllegalAction("cannot-pass", f"{what} must be placed first")
        m.state(TokenState).passed = True

    def describe(self, m: G) -> str:
        return f"{self.label}: {m.seat_name(LONE)} places tokens"


# ------------------------------------------------------------------------------------------------ reveal


@register_machine_block
class Reveal(MachineBlock[Any]):
    """Seats that played several cards to keep one choose it; then every played card is turned up."""

    name = "reveal"

    def proceed(self, m: G) -> None:
        piles = m.state(PilesState)
        for seat in m.other_seats():
            if len(piles.played[seat]) > 1 and cards_to_play(m, seat)[1] == "one":
                if not m.run(functools.partial(_keep_job, seat)):
                    return
        board = m.state(BoardState)
        for seat in m.other_seats():
            board.positions[seat] = list(piles.played[seat])
            m.say(f"{m.seat_name(seat)} reveals the {m._place_list(piles.played[seat])}.")
        m.advance()

    def describe(self, m: G) -> str:
        return f"{self.label}: the place cards are revealed"


def _keep_job(seat: int, g: G, chooser: Answers) -> None:
    played = list(g.state(PilesState).played[seat])
    keep = chooser.pick(seat, played, 1, "the place card to keep (the other goes back to your hand)")
    g.move_places(seat, [p for p in played if p not in keep], "played", "hand")
