"""A game on a board of places, one seat against the others, driven by effect cards: the state of the
family and the :class:`~crewkit.effects.state.EffectState` the effect vocabulary acts on.

:class:`BoardGame` is a :class:`~crewkit.engine.machine.Machine` whose flow comes from the rule set's
``flow:`` (the blocks of :mod:`crewkit.engine.blocks.board`). Its state is kept in typed block states
(:mod:`crewkit.engine.boardstate`):

* :class:`PilesState`: each seat's place cards (hand, discard, played face down) and the shared reserve;
* :class:`ResourceState`: a counter per seat (will), its start and cap;
* :class:`TracksState`: race tracks (a counter per track and its goal); the game ends when one reaches it;
* :class:`BoardState`: the places' grid, the tokens on it, the marker, where each seat stands this round;
* :class:`CardsState`: the decks, hands and discards of effect cards, the cards played this round, and the
  rule book of rules in force (:class:`~crewkit.effects.model.RuleBook`).

Seats: seat 0 is the lone seat (the rule set's first role, ``creature``), seats 1 to n-1 the others, in the
order they are resolved (from the lone seat's left, clockwise). The effect vocabulary names the lone seat
:data:`~crewkit.effects.model.CREATURE` (-1); :meth:`BoardGame.seat_of` maps it to seat 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from crewkit.effects.cardsets import Card, CardSet
from crewkit.effects.model import CHANCE, CREATURE, ActiveRule, Effect
from crewkit.effects.ruleset import EffectRuleSet
from crewkit.effects.state import Chooser, Context, EffectState, Pile, Track
from crewkit.effects.words import apply_all, possible
from crewkit.engine.blocks.board import chosen
from crewkit.engine.board_observation import BoardObservation, observe_board
from crewkit.engine.board_setup import board_ruleset_path, flow_of, load_board_ruleset, with_readings
from crewkit.engine.boardstate import (
    LONE,
    BoardState,
    CardsState,
    PilesState,
    ResourceState,
    TracksState,
    adjacency,
)
from crewkit.engine.errors import SetupError
from crewkit.engine.machine import Machine

# ------------------------------------------------------------------------------------------------ the game


class BoardGame(Machine):
    """One game of a board-of-places family rule set. Create with :meth:`new`; drive with :meth:`apply`."""

    chance_code = CHANCE

    def __init__(
        self, ruleset: EffectRuleSet, players: int, seed: str = "", names: Sequence[str] | None = None
    ) -> None:
        data = ruleset.data
        if players not in data["players"]:
            raise SetupError(
                f"rule set {ruleset.name} is for {', '.join(map(str, data['players']))} players, "
                f"not {players}"
            )
        super().__init__(flow_of(data), players, seed)
        self.ruleset = ruleset
        self.data = data
        self.names = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(players))
        self.places_set: CardSet = ruleset.cards["places"]
        self.hunt_set: CardSet = ruleset.cards["hunt"]
        self.survival_set: CardSet = ruleset.cards["survival"]
        self.place_ids = self.places_set.place_ids()
        self.place_by_number: dict[int, Card] = {c.number: c for c in self.places_set.cards if c.number}
        self.rows: tuple[tuple[int, ...], ...] = tuple(tuple(r) for r in data["planet"]["rows"])
        self._adjacent = adjacency(self.rows)
        self.rules_chosen: Mapping[str, str] = data.get("rules", {})
        self._setup()
        self.begin()

    @classmethod
    def new(
        cls, ruleset: EffectRuleSet, players: int, seed: str = "", names: Sequence[str] | None = None
    ) -> BoardGame:
        return cls(ruleset, players, seed, names)

    def _setup(self) -> None:
        d = self.data
        n, hunted = self.n, self.n - 1
        setup = d["setup"]
        key = str(hunted)
        start_places = list(setup["hunted_places"])
        reserve = [
            p
            for p in sorted(self.place_by_number)
            if p not in start_places
            for _ in range(int(setup["reserve"][key]))
        ]
        self.set_state(
            PilesState(
                [[] if s == LONE else list(start_places) for s in range(n)],
                [[] for _ in range(n)],
                [[] for _ in range(n)],
                reserve,
            )
        )
        will = int(setup["will"])
        self.set_state(ResourceState([0 if s == LONE else will for s in range(n)], will, will))
        tracks = d["tracks"]
        self.set_state(
            TracksState(
                {"rescue": 0, "assimilation": 0},
                {"rescue": int(tracks["rescue"][key]), "assimilation": int(tracks["assimilation"][key])},
                {"rescue": tuple(self.hunted()), "assimilation": (LONE,)},
            )
        )
        self.set_state(BoardState(marker=bool(d["planet"]["marker"].get("starts_on_place", False))))
        hunt = [c.id for c in self.hunt_set.cards]
        survival = [c.id for c in self.survival_set.cards]
        self.rng.shuffle(hunt)
        self.rng.shuffle(survival)
        draw = int(setup["creature_hunt_cards"])
        hands: list[list[str]] = [[] for _ in range(n)]
        for s in self.hunted():
            for _ in range(int(setup["hunted_survival_cards"])):
                hands[s].append(survival.pop(0))
        self.set_state(CardsState(hunt[:draw], hunt[draw:], [], hands, survival, []))
        self.say(
            f"{self.names[LONE]} is the Creature; {', '.join(self.names[s] for s in self.hunted())} "
            f"{'is' if hunted == 1 else 'are'} Hunted."
        )

    # ------------------------------------------------------------------ names and seats
    def seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def seat_of(self, who: int) -> int:
        return LONE if who == CREATURE else who

    def is_private(self, why: str) -> bool:
        """Questions about public things (a discard pile, an option, a place) say so with ``public:``."""
        return not why.startswith("public:")

    def actor_code(self, seat: int) -> int:
        """The effect vocabulary's ``actor`` for ``seat``."""
        return CREATURE if seat == LONE else seat

    def place_name(self, number: int) -> str:
        card = self.place_by_number.get(number)
        return card.name if card else f"place {number}"

    def card(self, card_id: str) -> Card:
        for s in (self.hunt_set, self.survival_set):
            try:
                return s.by_id(card_id)
            except KeyError:
                continue
        raise KeyError(card_id)

    def choice(self, option: str) -> str:
        """The value an ``option-choice`` phase chose (empty before)."""
        return chosen(self, option)

    def observation(self, seat: int) -> BoardObservation:
        """What ``seat`` may know now (:mod:`crewkit.engine.board_observation`)."""
        return observe_board(self, seat)

    def reading(self, key: str, default: str) -> str:
        return str(self.rules_chosen.get(key, default))

    # ------------------------------------------------------------------ EffectState
    def hunted(self) -> Sequence[int]:
        return list(range(1, self.n))

    def places(self, seat: int, pile: Pile) -> Sequence[int]:
        return list(self.state(PilesState).pile(self.seat_of(seat), pile))

    def move_places(self, seat: int, cards: Sequence[int], src: Pile, dst: Pile) -> None:
        piles = self.state(PilesState)
        seat = self.seat_of(seat)
        a, b = piles.pile(seat, src), piles.pile(seat, dst)
        for c in cards:
            a.remove(c)
            b.append(c)
        # while a rule hides the discard piles from the lone seat, lines naming their cards are for the others
        hidden = list(self.hunted()) if self.rules("hide_discards") else None
        if cards and src == "reserve":
            self.say(f"{self.seat_name(seat)} takes the {self._place_list(cards)} from the reserve.")
        elif cards and (src, dst) == ("discard", "hand"):
            self.say(f"{self.seat_name(seat)} takes back the {self._place_list(cards)}.", hidden)
            if hidden:
                self.say(f"{self.seat_name(seat)} takes back {len(cards)} place card(s).", [LONE])
        elif cards and dst == "discard" and src == "hand":
            self.say(f"{self.seat_name(seat)} discards the {self._place_list(cards)}.", hidden)
            if hidden:
                self.say(f"{self.seat_name(seat)} discards {len(cards)} place card(s).", [LONE])

    def _place_list(self, cards: Sequence[int]) -> str:
        names = [self.place_name(c) for c in sorted(cards)]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def will(self, seat: int) -> int:
        return self.state(ResourceState).value[self.seat_of(seat)]

    def change_will(self, seat: int, delta: int) -> None:
        res = self.state(ResourceState)
        seat = self.seat_of(seat)
        if seat == LONE:
            return
        before = res.value[seat]
        after = max(0, min(res.cap, before + delta))
        res.value[seat] = after
        if after != before:
            verb = "loses" if after < before else "regains"
            self.say(f"{self.seat_name(seat)} {verb} {abs(after - before)} will ({after} left).")
        if before > 0 and after == 0 and seat not in res.lost_last:
            res.lost_last.append(seat)
            if (
                not self.state(BoardState).in_resolution
                and self.reading("last_will_outside_reckoning", "same_as_reckoning") == "same_as_reckoning"
            ):
                self.last_will_rule()

    def last_will_rule(self) -> None:
        """The third-will rule: the counter moves once, then each Hunted at 0 takes back every card and will."""
        res = self.state(ResourceState)
        if not res.lost_last:
            return
        lost, res.lost_last = list(res.lost_last), []
        rule = self.data["round"]["reckoning"]["last_will_lost"]
        self.say(f"{self._seat_list(lost)} lost their last will.")
        self.move_track("assimilation", int(rule.get("assimilation", 1)))
        for seat in lost:
            piles = self.state(PilesState)
            self.move_places(seat, list(piles.discard[seat]), "discard", "hand")
            res.value[seat] = min(res.cap, int(rule.get("regain_will", res.start)))
            self.say(f"{self.seat_name(seat)} comes back with {res.value[seat]} will.")

    def _seat_list(self, seats: Sequence[int]) -> str:
        names = [self.seat_name(s) for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def survival_cards(self, seat: int) -> Sequence[str]:
        return list(self.state(CardsState).survival[self.seat_of(seat)])

    def draw_survival(self, seat: int, count: int) -> Sequence[str]:
        cards = self.state(CardsState)
        seat = self.seat_of(seat)
        drawn: list[str] = []
        for _ in range(count):
            if not cards.survival_deck and cards.survival_discard and self._reshuffle():
                cards.survival_deck = list(cards.survival_discard)
                cards.survival_discard = []
                self.rng.shuffle(cards.survival_deck)
            if not cards.survival_deck:
                break
            drawn.append(cards.survival_deck.pop(0))
        cards.survival[seat].extend(drawn)
        if drawn:
            self.say(
                f"{self.seat_name(seat)} draws {len(drawn)} survival card{'s' if len(drawn) > 1 else ''}."
            )
            self.say(f"You draw {self._card_list(drawn)}.", [seat])
        return drawn

    def _card_list(self, ids: Sequence[str]) -> str:
        return ", ".join(self.card(c).name for c in ids)

    def discard_survival(self, seat: int, cards: Sequence[str]) -> None:
        st = self.state(CardsState)
        seat = self.seat_of(seat)
        for c in cards:
            st.survival[seat].remove(c)
            st.survival_discard.append(c)
        if cards:
            self.say(f"{self.seat_name(seat)} discards {self._card_list(cards)}.")

    def hunt_cards(self) -> Sequence[str]:
        return list(self.state(CardsState).hunt_hand)

    def discard_hunt(self, cards: Sequence[str]) -> None:
        st = self.state(CardsState)
        for c in cards:
            st.hunt_hand.remove(c)
            st.hunt_discard.append(c)
        if cards:
            self.say(f"The Creature discards {len(cards)} hunt card{'s' if len(cards) > 1 else ''}.")

    def hunt_to_deck_bottom(self, cards: Sequence[str]) -> None:
        st = self.state(CardsState)
        for c in cards:
            st.hunt_hand.remove(c)
            st.hunt_deck.append(c)
        if cards:
            self.say(f"{len(cards)} of the Creature's hunt cards go under the hunt deck.")

    def hunt_discard(self) -> Sequence[str]:
        return list(self.state(CardsState).hunt_discard)

    def draw_hunt(self, up_to: int) -> None:
        st = self.state(CardsState)
        while len(st.hunt_hand) < up_to:
            if not st.hunt_deck and st.hunt_discard and self._reshuffle():
                st.hunt_deck = list(st.hunt_discard)
                st.hunt_discard = []
                self.rng.shuffle(st.hunt_deck)
            if not st.hunt_deck:
                break
            st.hunt_hand.append(st.hunt_deck.pop(0))

    def _reshuffle(self) -> bool:
        """Reading empty-decks: an empty deck is remade from its discards (else nothing more is drawn)."""
        return self.reading("empty_deck", "reshuffle") == "reshuffle"

    def move_track(self, track: Track, by: int) -> None:
        tr = self.state(TracksState)
        if self.is_over() or by <= 0:
            return
        tr.position[track] = min(tr.goal[track], tr.position[track] + by)
        self.say(
            f"The {track.capitalize()} counter moves forward {by} ({tr.position[track]} of {tr.goal[track]})."
        )
        if tr.position[track] >= tr.goal[track]:
            side = "the Hunted" if track == "rescue" else "the Creature"
            self.finish(
                tr.winners[track],
                f"the {track.capitalize()} counter reached its goal: {side} win"
                + ("s" if track != "rescue" else ""),
            )

    def marker_on_beach(self) -> bool:
        return self.state(BoardState).marker

    def set_marker_on_beach(self, on: bool) -> None:
        self.state(BoardState).marker = on
        self.say("The marker counter is put on the Beach." if on else "The marker counter leaves the Beach.")

    def token_places(self, token: str) -> Sequence[int]:
        return list(self.state(BoardState).tokens.get(token, []))

    def set_token_places(self, token: str, places: Sequence[int]) -> None:
        self.state(BoardState).tokens[token] = list(places)
        self.say(f"The {token.capitalize()} token goes on the {self._place_list(places)}.")

    def position(self, seat: int) -> int | None:
        where = self.state(BoardState).positions.get(self.seat_of(seat))
        return where[0] if where else None

    def set_position(self, seat: int, place: int) -> None:
        seat = self.seat_of(seat)
        self.state(BoardState).positions[seat] = [place]
        self.say(f"{self.seat_name(seat)} is moved to the {self.place_name(place)}.")

    def cards_played(self, kind: Literal["hunt", "survival"]) -> Sequence[str]:
        return [c for k, c, _ in self.state(CardsState).played if k == kind]

    def adjacent(self, place: int) -> Sequence[int]:
        return list(self._adjacent.get(place, ()))

    def use_power(self, seat: int, place: int) -> None:
        card = self.place_by_number[place]
        board = self.state(BoardState)
        if card.once_per_round and self.reading("once_per_round", "per_place") != "per_hunted":
            if place in board.used_once:
                self.say(f"The power of the {card.name} was already used this round.")
                return
            board.used_once.add(place)
        self.say(f"{self.seat_name(self.seat_of(seat))} uses the power of the {card.name}.")
        apply_all(self.context(seat, place, card.name, self.chooser), card.effects)

    def play_card_effects(self, card: str, actor: int) -> None:
        c = self.card(card)
        self.say(f"The effect of {c.name} applies again.")
        apply_all(self.context(actor, None, card, self.chooser), c.effects)

    def reveal_places(self, seat: int, cards: Sequence[int], to: int) -> None:
        owner, viewer = self.seat_of(seat), self.seat_of(to)
        self.state(CardsState).shown.append((owner, viewer, tuple(sorted(cards))))
        self.say(f"{self.seat_name(owner)} shows {self.seat_name(viewer)} {len(cards)} place card(s).")
        self.say(
            f"{self.seat_name(owner)} shows you: {self._place_list(cards) if cards else 'nothing'}.", [viewer]
        )

    def add_rule(self, effect: Effect, actor: int, card: str, context: Mapping[str, object]) -> ActiveRule:
        return self.state(CardsState).book.add(effect, actor, self.round, card, context)

    def rules(self, word: str | None = None) -> Sequence[ActiveRule]:
        return self.state(CardsState).book.in_force(self.round, word)

    def log(self, text: str) -> None:
        """A line from an effect word; a card named by its id (``stasis: ...``) is named by its name."""
        head, sep, rest = text.partition(": ")
        if sep:
            try:
                text = f"{self.card(head).name}: {rest}"
            except KeyError:
                pass
        self.say(text)

    # ------------------------------------------------------------------ effects

    def context(
        self, actor: int, place: int | None, card: str, chooser: Chooser, affected: int | None = None
    ) -> Context:
        """A context for applying effects: ``actor`` is a seat or the vocabulary's code for the lone seat."""
        return Context(
            self,
            chooser,
            self.actor_code(self.seat_of(actor)),
            card,
            place,
            affected,
            self.place_ids,
            self.places_set.not_copyable(),
        )

    def effects_possible(self, seat: int, effects: Sequence[Effect], place: int | None = None) -> bool:
        """Whether every effect with a condition of its own could happen now (a card worth playing)."""
        ctx = self.context(seat, place, "", _NoChooser())
        return all(possible(ctx, e) for e in effects)

    def rule_applies(self, rule: ActiveRule, place: int | None = None, seat: int | None = None) -> bool:
        where = rule.context.get("places")
        if place is not None and where is not None and place not in where:
            return False
        seats = rule.context.get("seats")
        return not (seat is not None and seats is not None and seat not in seats)


class _NoChooser:
    def pick(self, who: int, options: Sequence[Any], count: int, why: str) -> list[Any]:
        return list(options)[:count]


def new_board_game(
    ref: str | Path | EffectRuleSet, players: int, seed: str = "", names: Sequence[str] | None = None
) -> BoardGame:
    """A new game of a board-family rule set (a bundled name, a path or a loaded rule set)."""
    ruleset = ref if isinstance(ref, EffectRuleSet) else load_board_ruleset(ref)
    return BoardGame(ruleset, players, seed, names)


def as_effect_state(game: BoardGame) -> EffectState:
    """A board game is the :class:`~crewkit.effects.state.EffectState` the effect words act on (mypy checks)."""
    return game


__all__ = [
    "BoardGame",
    "as_effect_state",
    "board_ruleset_path",
    "flow_of",
    "load_board_ruleset",
    "new_board_game",
    "with_readings",
]
