"""A game on a board of places, one seat against the others, driven by effect cards: the state of the
family and the :class:`~crewkit.effects.state.EffectState` the effect vocabulary acts on.

:class:`BoardGame` is a :class:`~crewkit.engine.machine.Machine` whose flow comes from the rule set's
``flow:`` (the blocks of :mod:`crewkit.families.not_alone.blocks`). Its state is kept in typed block states
(:mod:`crewkit.families.not_alone.state`):

* :class:`PilesState`: each seat's place cards (hand, discard, played face down) and the shared reserve;
* :class:`ResourceState`: a counter per seat (the rule set's ``counter:``), its start and cap;
* :class:`TracksState`: race tracks (a counter per track and its goal); the game ends when one reaches it;
* :class:`BoardState`: the places' grid, the tokens on it, the marker, where each seat stands this round;
* :class:`CardsState`: the decks, hands and discards of effect cards, the cards played this round, and the
  rule book of rules in force (:class:`~crewkit.effects.model.RuleBook`).

Seats: seat 0 is the lone seat (the rule set's first role), seats 1 to n-1 the others, in the order they are
resolved (from the lone seat's left, clockwise). The effect vocabulary names the lone seat
:data:`~crewkit.effects.model.LONE_SEAT` (-1); :meth:`BoardGame.seat_of` maps it to seat 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from crewkit.effects.cardsets import Card, CardSet
from crewkit.effects.model import CHANCE, LONE_SEAT, ActiveRule, Effect
from crewkit.effects.ruleset import EffectRuleSet
from crewkit.effects.state import Chooser, Context, EffectState, Pile
from crewkit.effects.words import apply_all, possible
from crewkit.engine.errors import SetupError
from crewkit.engine.machine import Machine
from crewkit.families.not_alone.blocks import chosen
from crewkit.families.not_alone.observation import BoardObservation, observe_board
from crewkit.families.not_alone.setup import board_ruleset_path, flow_of, load_board_ruleset, with_readings
from crewkit.families.not_alone.state import (
    LONE,
    BoardState,
    CardsState,
    PilesState,
    ResourceState,
    TracksState,
    adjacency,
)

# ------------------------------------------------------------------------------------------------ the game


class BoardGame(Machine):
    """One game of a board-of-places family rule set. Create with :meth:`new`; drive with :meth:`apply`.

    Everything the game names comes from its rule set: the roles (``roles:``, the lone role first) and how
    the text names them (``titles:``), the effect card decks and who holds them (``decks:``), the counter
    (``counter:``), the race tracks and who wins on each (``tracks:``), the tokens and what they do to a seat on
    their place (``tokens:``). Blocks read their settings at the section their flow entry names (``config:``).
    """

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
        self.roles: tuple[str, ...] = tuple(data["roles"])[:2]
        self.titles: Mapping[str, str] = data.get("titles", {})
        self.decks: Mapping[str, Mapping[str, Any]] = data.get("decks", {})
        self.card_sets: dict[str, CardSet] = {deck: ruleset.cards[deck] for deck in self.decks}
        self.places_set: CardSet = ruleset.cards["places"]
        self.place_ids = self.places_set.place_ids()
        self.place_by_number: dict[int, Card] = {c.number: c for c in self.places_set.cards if c.number}
        self.rows: tuple[tuple[int, ...], ...] = tuple(tuple(r) for r in data["planet"]["rows"])
        self._adjacent = adjacency(self.rows)
        self.rules_chosen: Mapping[str, str] = data.get("rules", {})
        self.counter: Mapping[str, Any] = data["counter"]
        self._setup()
        self.begin()

    @classmethod
    def new(
        cls, ruleset: EffectRuleSet, players: int, seed: str = "", names: Sequence[str] | None = None
    ) -> BoardGame:
        return cls(ruleset, players, seed, names)

    def _setup(self) -> None:
        d = self.data
        n, others = self.n, self.n - 1
        setup = d["setup"]
        key = str(others)
        start_places = list(setup["places_in_hand"])
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
        start = int(self.counter["start"])
        self.set_state(ResourceState([0 if s == LONE else start for s in range(n)], start, start))
        tracks = d["tracks"]
        self.set_state(
            TracksState(
                {t: 0 for t in tracks},
                {t: int(spec["goal"][key]) for t, spec in tracks.items()},
                {t: tuple(self.role_seats(spec["wins"])) for t, spec in tracks.items()},
            )
        )
        self.set_state(BoardState(marker=bool(d["planet"]["marker"].get("starts_on_place", False))))
        draw = {deck: [c.id for c in cards.cards] for deck, cards in self.card_sets.items()}
        for pile in draw.values():
            self.rng.shuffle(pile)
        hands: dict[str, list[list[str]]] = {deck: [[] for _ in range(n)] for deck in draw}
        for deck, spec in self.decks.items():
            for s in self.role_seats(spec["role"]):
                for _ in range(int(spec.get("deal", 0))):
                    if draw[deck]:
                        hands[deck][s].append(draw[deck].pop(0))
        self.set_state(CardsState(hands, draw, {deck: [] for deck in draw}))
        self.say(
            f"{self.names[LONE]} is {self.title(self.roles[0])}; "
            f"{self._seat_list(self.other_seats())} {'is' if others == 1 else 'are'} {self.title(self.roles[1])}."
        )

    def title(self, name: str) -> str:
        """How the game's text names a role, a track or the counter (``titles:``; else the name itself)."""
        return str(self.titles.get(name, name.replace("_", " ")))

    def role_of(self, seat: int) -> str:
        return self.roles[0] if self.seat_of(seat) == LONE else self.roles[1]

    def role_seats(self, role: str) -> list[int]:
        """The seats of a role: the lone role's one seat, else every other seat in resolution order."""
        return [LONE] if role == self.roles[0] else list(self.other_seats())

    def decks_of(self, seat: int) -> list[str]:
        """The effect card decks the seat's role holds."""
        role = self.role_of(seat)
        return [deck for deck, spec in self.decks.items() if spec["role"] == role]

    # ------------------------------------------------------------------ names and seats
    def seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def seat_of(self, who: int) -> int:
        return LONE if who == LONE_SEAT else who

    def is_private(self, why: str) -> bool:
        """Questions about public things (a discard pile, an option, a place) say so with ``public:``."""
        return not why.startswith("public:")

    def actor_code(self, seat: int) -> int:
        """The effect vocabulary's ``actor`` for ``seat``."""
        return LONE_SEAT if seat == LONE else seat

    def place_name(self, number: int) -> str:
        card = self.place_by_number.get(number)
        return card.name if card else f"place {number}"

    def card(self, card_id: str) -> Card:
        for cards in self.card_sets.values():
            try:
                return cards.by_id(card_id)
            except KeyError:
                continue
        raise KeyError(card_id)

    def card_as_played(self, card_id: str) -> Card | None:
        """The card ``card_id`` is played as: itself, or for a card that copies (``copies:``) the card it copies
        (the one it copied when played this round; before that, the one it would copy now; None: nothing to
        copy). Its phase, token, places, resolve and effects are the played card's."""
        copied = self.state(CardsState).copies.get(card_id)
        if copied is not None:
            return self.card(copied)
        card = self.card(card_id)
        if not card.copies:
            return card
        deck = self.deck_of(card_id)
        return self.card_sets[deck].copied(card, self.state(CardsState).discard[deck])

    def deck_of(self, card_id: str) -> str:
        for deck, cards in self.card_sets.items():
            if any(c.id == card_id for c in cards.cards):
                return deck
        raise KeyError(card_id)

    def choice(self, option: str) -> str:
        """The value an ``option-choice`` phase chose (empty before)."""
        return chosen(self, option)

    def observation(self, seat: int) -> BoardObservation:
        """What ``seat`` may know now (:mod:`crewkit.families.not_alone.observation`)."""
        return observe_board(self, seat)

    def reading(self, key: str, default: str) -> str:
        return str(self.rules_chosen.get(key, default))

    # ------------------------------------------------------------------ EffectState
    def other_seats(self) -> Sequence[int]:
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
        hidden = list(self.other_seats()) if self.rules("hide_discards") else None
        if cards and src == "reserve":
            self.say(f"{self.seat_name(seat)} takes the {self._place_list(cards)} from the reserve.")
        elif cards and (src, dst) == ("discard", "hand"):
            self.say(f"{self.seat_name(seat)} takes back the {self._place_list(cards)}.", hidden)
            if hidden:
                self.say(f"{self.seat_name(seat)} takes back {len(cards)} place card(s).", [LONE])
        elif cards and (src, dst) == ("played", "hand"):
            # face down (the River's second card), which card it is stays the seat's own
            revealed = bool(self.state(BoardState).positions.get(seat))
            self.say(f"{self.seat_name(seat)} takes back the {self._place_list(cards)} they played.",
                     None if revealed else [seat])
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
            self.say(f"{self.seat_name(seat)} {verb} {abs(after - before)} {self.title('counter')} ({after} left).")
        if before > 0 and after == 0 and seat not in res.lost_last:
            res.lost_last.append(seat)
            if (
                not self.state(BoardState).in_resolution
                and self.reading("counter_out_outside_resolution", "at_once") == "at_once"
            ):
                self.counter_out_rule()

    def counter_out_rule(self) -> None:
        """The rule for seats that lost their last counter (``counter.at_zero``): the tracks it names move
        once for all of them, then each takes back every discarded place card (``take_back: all_and_played``:
        and the place cards it played this round, once revealed) and regains counters."""
        res = self.state(ResourceState)
        if not res.lost_last:
            return
        lost, res.lost_last = list(res.lost_last), []
        rule = self.counter.get("at_zero", {})
        self.say(f"{self._seat_list(lost)} lost their last {self.title('counter')}.")
        self.move_tracks(rule.get("move_track", {}))
        for seat in lost:
            piles = self.state(PilesState)
            self.move_places(seat, list(piles.discard[seat]), "discard", "hand")
            if rule.get("take_back", "all") == "all_and_played" and self.state(BoardState).positions.get(seat):
                self.move_places(seat, list(piles.played[seat]), "played", "hand")
            res.value[seat] = min(res.cap, int(rule.get("regain", res.start)))
            self.say(f"{self.seat_name(seat)} comes back with {res.value[seat]} {self.title('counter')}.")

    def _seat_list(self, seats: Sequence[int]) -> str:
        names = [self.seat_name(s) for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def effect_hand(self, seat: int, deck: str) -> Sequence[str]:
        return list(self.state(CardsState).hands[deck][self.seat_of(seat)])

    def _draw_one(self, deck: str) -> str | None:
        cards = self.state(CardsState)
        if not cards.draw[deck] and cards.discard[deck] and self._reshuffle():
            cards.draw[deck] = list(cards.discard[deck])
            cards.discard[deck] = []
            self.rng.shuffle(cards.draw[deck])
        return cards.draw[deck].pop(0) if cards.draw[deck] else None

    def draw_effect_cards(self, seat: int, deck: str, count: int) -> Sequence[str]:
        seat = self.seat_of(seat)
        drawn = [c for c in (self._draw_one(deck) for _ in range(count)) if c is not None]
        self.state(CardsState).hands[deck][seat].extend(drawn)
        if drawn:
            self.say(f"{self.seat_name(seat)} draws {len(drawn)} {self.title(deck)} card(s).")
            self.say(f"You draw {self._card_list(drawn)}.", [seat])
        return drawn

    def draw_up_to(self, seat: int, deck: str, size: int) -> None:
        """Fill the seat's hand of ``deck`` up to ``size`` cards, in silence (the end of a round)."""
        hand = self.state(CardsState).hands[deck][self.seat_of(seat)]
        while len(hand) < size and (card := self._draw_one(deck)) is not None:
            hand.append(card)

    def _card_list(self, ids: Sequence[str]) -> str:
        return ", ".join(self.card(c).name for c in ids)

    def discard_effect_cards(self, seat: int, deck: str, cards: Sequence[str]) -> None:
        st = self.state(CardsState)
        seat = self.seat_of(seat)
        for c in cards:
            st.hands[deck][seat].remove(c)
            st.discard[deck].append(c)
        if cards:
            self.say(f"{self.seat_name(seat)} discards {self._card_list(cards)}.")

    def effect_cards_to_bottom(self, seat: int, deck: str, cards: Sequence[str]) -> None:
        st = self.state(CardsState)
        seat = self.seat_of(seat)
        for c in cards:
            st.hands[deck][seat].remove(c)
            st.draw[deck].append(c)
        if cards:
            self.say(f"{len(cards)} of {self.seat_name(seat)}'s {self.title(deck)} cards go under the deck.")

    def effect_discard(self, deck: str) -> Sequence[str]:
        return list(self.state(CardsState).discard[deck])

    def _reshuffle(self) -> bool:
        """Reading empty-decks: an empty deck is remade from its discards (else nothing more is drawn)."""
        return self.reading("empty_deck", "reshuffle") == "reshuffle"

    def move_track(self, track: str, by: int) -> None:
        tr = self.state(TracksState)
        if self.is_over() or by <= 0:
            return
        tr.position[track] = min(tr.goal[track], tr.position[track] + by)
        title = self.title(track)
        self.say(f"The {title} counter moves forward {by} ({tr.position[track]} of {tr.goal[track]}).")
        if tr.position[track] >= tr.goal[track]:
            role = self.data["tracks"][track]["wins"]
            verb = "wins" if role == self.roles[0] else "win"
            self.finish(tr.winners[track], f"the {title} counter reached its goal: {self.title(role)} {verb}")

    def move_tracks(self, moves: Mapping[str, int]) -> None:
        """Move each named track forward (``{track: spaces}``), in the order written."""
        for track, by in moves.items():
            self.move_track(track, int(by))

    def marker_placed(self) -> bool:
        return self.state(BoardState).marker

    def set_marker(self, on: bool) -> None:
        self.state(BoardState).marker = on
        place = self.places_set.by_id(str(self.data["planet"]["marker"]["place"])).name
        self.say(f"The marker counter is put on the {place}." if on else f"The marker counter leaves the {place}.")

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

    def cards_played(self, deck: str) -> Sequence[str]:
        return [c for k, c, _ in self.state(CardsState).played if k == deck]

    def adjacent(self, place: int) -> Sequence[int]:
        return list(self._adjacent.get(place, ()))

    def use_power(self, seat: int, place: int) -> None:
        card = self.place_by_number[place]
        board = self.state(BoardState)
        if card.once_per_round and self.reading("once_per_round", "per_place") != "per_seat":
            if place in board.used_once:
                self.say(f"The power of the {card.name} was already used this round.")
                return
            board.used_once.add(place)
        self.say(f"{self.seat_name(self.seat_of(seat))} uses the power of the {card.name}.")
        apply_all(self.context(seat, place, card.name, self.chooser), card.effects)

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
    def pick(self, who: int, options: Sequence[Any], count: int, why: str, labels: Sequence[str] = ()) -> list[Any]:
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
