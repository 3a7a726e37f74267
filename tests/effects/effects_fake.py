"""A tiny in-test game state implementing crewkit.effects.state.EffectState, and a scripted chooser."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from crewkit.effects.model import CREATURE, ActiveRule, Effect, RuleBook
from crewkit.effects.state import Context, Pile

T = TypeVar("T")
PLACE_IDS = {"lair": 1, "jungle": 2, "river": 3, "beach": 4, "rover": 5, "swamp": 6, "shelter": 7, "wreck": 8,
             "source": 9, "artefact": 10}


class FakeState:
    """Two rows of five places (1-5 above 6-10); each Hunted starts with places 1 to 5 and 3 will."""

    def __init__(self, hunted: int = 2) -> None:
        self._round = 1
        self.seats = list(range(hunted))
        self.piles: dict[int, dict[str, list[int]]] = {
            s: {"hand": [1, 2, 3, 4, 5], "discard": [], "played": []} for s in self.seats}
        self.reserve = [p for p in range(6, 11) for _ in range(2)]
        self.will_ = {s: 3 for s in self.seats}
        self.survival: dict[int, list[str]] = {s: [] for s in self.seats}
        self.survival_deck = [f"s{i}" for i in range(10)]
        self.survival_discard: list[str] = []
        self.hunt = ["h1", "h2", "h3"]
        self.hunt_disc: list[str] = []
        self.hunt_deck: list[str] = ["h4", "h5"]
        self.tracks = {"rescue": 0, "assimilation": 0}
        self.marker = False
        self.tokens: dict[str, list[int]] = {}
        self.positions: dict[int, int] = {}
        self.book = RuleBook()
        self.revealed: list[tuple[int, list[int], int]] = []
        self.powers_used: list[tuple[int, int]] = []
        self.played_cards: dict[str, list[str]] = {"hunt": [], "survival": []}
        self.logs: list[str] = []

    @property
    def round(self) -> int:
        return self._round

    def next_round(self) -> None:
        self.book.end_round(self._round)
        self._round += 1

    def other_seats(self) -> Sequence[int]:
        return list(self.seats)

    def places(self, seat: int, pile: Pile) -> Sequence[int]:
        return list(self.reserve) if pile == "reserve" else list(self.piles[seat][pile])

    def move_places(self, seat: int, cards: Sequence[int], src: Pile, dst: Pile) -> None:
        for card in cards:
            (self.reserve if src == "reserve" else self.piles[seat][src]).remove(card)
            (self.reserve if dst == "reserve" else self.piles[seat][dst]).append(card)

    def will(self, seat: int) -> int:
        return self.will_[seat]

    def change_will(self, seat: int, delta: int) -> None:
        self.will_[seat] = max(0, min(3, self.will_[seat] + delta))

    def _hand(self, seat: int, deck: str) -> list[str]:
        return self.hunt if deck == "hunt" and seat == CREATURE else self.survival[seat]

    def effect_hand(self, seat: int, deck: str) -> Sequence[str]:
        return list(self._hand(seat, deck))

    def draw_effect_cards(self, seat: int, deck: str, count: int) -> Sequence[str]:
        pile = self.survival_deck if deck == "survival" else self.hunt_deck
        drawn = pile[:count]
        del pile[:count]
        self._hand(seat, deck).extend(drawn)
        return drawn

    def discard_effect_cards(self, seat: int, deck: str, cards: Sequence[str]) -> None:
        for card in cards:
            self._hand(seat, deck).remove(card)
            (self.survival_discard if deck == "survival" else self.hunt_disc).append(card)

    def effect_cards_to_bottom(self, seat: int, deck: str, cards: Sequence[str]) -> None:
        for card in cards:
            self._hand(seat, deck).remove(card)
            (self.survival_deck if deck == "survival" else self.hunt_deck).append(card)

    def effect_discard(self, deck: str) -> Sequence[str]:
        return list(self.survival_discard if deck == "survival" else self.hunt_disc)

    def move_track(self, track: str, by: int) -> None:
        self.tracks[track] += by

    def marker_placed(self) -> bool:
        return self.marker

    def set_marker(self, on: bool) -> None:
        self.marker = on

    def token_places(self, token: str) -> Sequence[int]:
        return list(self.tokens.get(token, []))

    def set_token_places(self, token: str, places: Sequence[int]) -> None:
        self.tokens[token] = list(places)

    def position(self, seat: int) -> int | None:
        return self.positions.get(seat)

    def set_position(self, seat: int, place: int) -> None:
        self.positions[seat] = place

    def cards_played(self, kind: str) -> Sequence[str]:
        return list(self.played_cards[kind])

    def adjacent(self, place: int) -> Sequence[int]:
        out = []
        if place not in (1, 6):
            out.append(place - 1)
        if place not in (5, 10):
            out.append(place + 1)
        out.append(place + 5 if place <= 5 else place - 5)
        return sorted(out)

    def use_power(self, seat: int, place: int) -> None:
        self.powers_used.append((seat, place))

    def reveal_places(self, seat: int, cards: Sequence[int], to: int) -> None:
        self.revealed.append((seat, list(cards), to))

    def add_rule(self, effect: Effect, actor: int, card: str, context: Mapping[str, object]) -> ActiveRule:
        return self.book.add(effect, actor, self._round, card, context)

    def rules(self, word: str | None = None) -> Sequence[ActiveRule]:
        return self.book.in_force(self._round, word)

    def log(self, text: str) -> None:
        self.logs.append(text)

    # ---- for property tests
    def place_card_count(self) -> int:
        return len(self.reserve) + sum(len(p) for piles in self.piles.values() for p in piles.values())


class ScriptedChooser:
    """Answers from a queue of scripted picks (each must be valid), else the first options; records calls."""

    def __init__(self, *picks: Sequence[Any]) -> None:
        self.queue = [list(p) for p in picks]
        self.calls: list[tuple[int, list[Any], int, str]] = []

    def pick(self, who: int, options: Sequence[T], count: int, why: str, labels: Sequence[str] = ()) -> list[T]:
        # a question is kept as a player reads it: the words of options that are ids (a one-of option)
        self.calls.append((who, list(labels) or list(options), count, why))
        if self.queue:
            chosen = self.queue.pop(0)
            if labels:  # a scripted answer names an option by its words
                chosen = [options[list(labels).index(c)] if c in labels else c for c in chosen]
            assert len(chosen) == min(count, len(options)), (chosen, options, count, why)
            assert all(c in options for c in chosen), (chosen, options, why)
            return chosen
        return list(options)[:count]


def context(state: FakeState, chooser: ScriptedChooser | None = None, actor: int = 0, **kw: Any) -> Context:
    kw.setdefault("place_ids", PLACE_IDS)
    kw.setdefault("not_copyable", frozenset({10}))
    return Context(state=state, chooser=chooser or ScriptedChooser(), actor=actor, **kw)
