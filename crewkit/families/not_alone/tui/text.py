"""Not Alone at the terminal: the words the screens show, built from one seat's observation and the rule
set's public card lists (no Textual here, no rules logic: what may be done is always the engine's answer).

Everything a screen says about the state comes from :class:`~crewkit.families.not_alone.observation.BoardObservation`
of the seat at the keyboard; the :class:`Catalog` holds only what is printed on the cards and the board (the
names and powers of the places, the names and texts of hunt and survival cards), never who holds what.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewkit.effects.cardsets import Card, CardSet
from crewkit.engine.actions import Action
from crewkit.engine.machine import Pick
from crewkit.families.not_alone.blocks import GiveUp, Pass, PlaceToken, PlayCard, PlayPlaces, Resist
from crewkit.families.not_alone.observation import BoardObservation, QuestionView

if TYPE_CHECKING:
    from crewkit.effects.ruleset import EffectRuleSet
    from crewkit.families.not_alone.board import BoardGame

TOKEN_SIGNS = {"creature": "C", "target": "T", "artemia": "A"}
TOKEN_STYLES = {
    "creature": "bold white on red",
    "target": "bold black on yellow",
    "artemia": "bold white on magenta",
}


@dataclass(frozen=True)
class Catalog:
    """What is printed on the cards and the board: public in every game, whoever holds the cards."""

    places: Mapping[int, Card]  # place number -> its card (name, power in words)
    cards: Mapping[str, Card]  # hunt and survival card id -> card
    hunt_ids: frozenset[str]
    rows: tuple[tuple[int, ...], ...]  # the planet's grid of place numbers
    marker_place: int | None  # the place the marker counter goes on (the Beach)
    resist: Mapping[int, int]  # will spent -> place cards taken back (for the labels of Resist)
    board_sides: Mapping[str, tuple[int, ...]]  # side -> the Rescue track's Artemia spaces
    will: int  # the will each Hunted starts with (the dots drawn for it)
    decks: Mapping[str, CardSet]  # deck -> its card set (a card that copies reads its deck's discard pile)

    @classmethod
    def of(cls, game: BoardGame) -> Catalog:
        return cls.of_ruleset(game.ruleset)

    @classmethod
    def of_ruleset(cls, ruleset: EffectRuleSet) -> Catalog:
        """What the rule set prints (a seat at a hosted table has its rule set, never the host's game)."""
        data = ruleset.data
        card_sets = {deck: ruleset.cards[deck] for deck in data.get("decks", {})}
        cards = {c.id: c for deck in card_sets.values() for c in deck.cards}
        marker = str(data["planet"].get("marker", {}).get("place", ""))
        explore = data["round"]["exploration"]
        sides = data.get("board_sides", {})
        places = ruleset.cards["places"]
        return cls(
            places={c.number: c for c in places.cards if c.number},
            cards=cards,
            hunt_ids=frozenset(c.id for c in card_sets["hunt"].cards),
            rows=tuple(tuple(r) for r in data["planet"]["rows"]),
            marker_place=places.place_ids().get(marker),
            resist={int(lv["will"]): int(lv["take_back"]) for lv in explore.get("resist", [])},
            board_sides={k: tuple(v.get("token_spaces", ())) for k, v in sides.items()},
            will=int(data["counter"]["start"]),
            decks=card_sets,
        )

    def place_name(self, number: int) -> str:
        card = self.places.get(number)
        return card.name if card else f"place {number}"

    def place_tag(self, number: int) -> str:
        """``3 River``: the number players use on the keyboard, and the name."""
        return f"{number} {self.place_name(number)}"

    def card_name(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card.name if card else card_id.replace("_", " ")

    def card_kind(self, card_id: str) -> str:
        return "hunt" if card_id in self.hunt_ids else "survival"

    def as_played(self, card_id: str, obs: BoardObservation) -> Card | None:
        """The card ``card_id`` is (or would now be) played as: itself, or for a card that copies the card it
        copied this round or would copy now (None: nothing to copy yet), from the public discard piles."""
        if card_id in obs.copies:
            return self.cards.get(obs.copies[card_id])
        card = self.cards.get(card_id)
        for deck, cards in self.decks.items():
            if card is not None and card.copies and card in cards.cards:
                return cards.copied(card, obs.discards.get(deck, ()))
        return card

    def effect_card_words(self, card_id: str, obs: BoardObservation) -> str:
        """``Fierceness (phase 2)``; a card that copies: ``Flashback (as Clone, phase 2)``."""
        card = self.cards.get(card_id)
        if card is None:
            return card_id
        if not card.copies:
            return f"{card.name} (phase {card.phase})"
        played = self.as_played(card_id, obs)
        return f"{card.name} (as {played.name}, phase {played.phase})" if played else f"{card.name} (nothing to copy yet)"


def words_list(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def places_words(cat: Catalog, places: Sequence[int]) -> str:
    """``the River (3)``, ``the Source (7) and the Artefact (8)``."""
    return words_list([f"the {cat.place_name(p)} ({p})" for p in places])


def seat_name(obs: BoardObservation, seat: int) -> str:
    return obs.seats[seat].name if 0 <= seat < len(obs.seats) else "nobody"


# ------------------------------------------------------------------------------------------------ actions


@dataclass(frozen=True)
class MenuItem:
    """One line of the action dialog: one action, or several that differ only by place (a second step)."""

    label: str
    actions: tuple[Action, ...]
    then: str = ""  # the second step's question (where the token goes), when there are several actions
    place: int | None = None  # the place it names, when one (its number is its key)


def menu(cat: Catalog, obs: BoardObservation, legal: Sequence[Action]) -> list[MenuItem]:
    """The engine's legal actions of the seat at the keyboard, grouped and in words (nothing is added or
    dropped: every legal action is reachable, and only those)."""
    items: list[MenuItem] = []
    plays = [a for a in legal if isinstance(a, PlayPlaces)]
    for play in plays:
        items.append(
            MenuItem(
                f"Play {places_words(cat, play.places)} face down",
                (play,),
                place=play.places[0] if len(play.places) == 1 else None,
            )
        )
    tokens: dict[str, list[PlaceToken]] = {}
    for act in legal:
        if isinstance(act, PlaceToken):
            tokens.setdefault(act.token, []).append(act)
    for token, placings in tokens.items():
        items.append(
            MenuItem(
                f"Place the {token.capitalize()} token",
                tuple(placings),
                f"Where does the {token.capitalize()} token go?",
            )
        )
    cards: dict[str, list[PlayCard]] = {}
    for act in legal:
        if isinstance(act, PlayCard):
            cards.setdefault(act.card, []).append(act)
    for card_id, acts in cards.items():
        card = cat.as_played(card_id, obs)
        text = f": {card.text}" if card else ""
        if card is not None and card.id != card_id:
            text = f", copying {card.name}{text}"
        where = ""
        if len(acts) > 1 or acts[0].places:
            token = (card.token or "target") if card else "target"
            where = f"Where does the {token.capitalize()} token of {cat.card_name(card_id)} go?"
        items.append(MenuItem(f"Play {cat.card_name(card_id)}{text}", tuple(acts), where))
    for act in legal:
        if isinstance(act, Resist):
            back = cat.resist.get(act.will)
            what = f", then take back {back} place cards from your discard pile" if back else ""
            items.append(MenuItem(f"Resist: spend {act.will} will{what}", (act,)))
    for act in legal:
        if isinstance(act, GiveUp):
            items.append(
                MenuItem(
                    "Give up: take back your will and every discarded place card; "
                    "the Assimilation counter moves forward",
                    (act,),
                )
            )
    for act in legal:
        if isinstance(act, Pass):
            if tokens:
                token = next(iter(tokens))
                items.append(MenuItem(f"Leave the {token.capitalize()} token off the planet", (act,)))
            else:
                items.append(MenuItem("Play no card now", (act,)))
    known = (PlayPlaces, PlaceToken, PlayCard, Resist, GiveUp, Pass, Pick)
    # an action of a kind this screen does not know yet is still reachable, in the engine's words
    for act in legal:
        if not isinstance(act, known):
            items.append(MenuItem(f"{act.type.replace('-', ' ')}: {act.to_json()}", (act,)))
    return items


def where_label(cat: Catalog, action: Action) -> str:
    """The second step's line for an action of a group: the place(s) it names."""
    places = getattr(action, "places", ()) or ()
    return " and ".join(cat.place_tag(p) for p in places) if places else "no place"


# ------------------------------------------------------------------------------------------------ questions


def is_seat_question(why: str) -> bool:
    """Whether a question's number options are players (else places). The engine asks for a Hunted with
    ``who ...``, ``whose ...`` or ``which Hunted ...`` (crewkit.effects.words.seats); places otherwise."""
    return why.startswith(("who ", "whose ", "which Hunted"))


def token_names(text: str) -> str:
    """The engine's "the creature token" as the rules write the token: "the Creature token"."""
    for token in TOKEN_SIGNS:
        text = text.replace(f"the {token} token", f"the {token.capitalize()} token")
    return text


def question_title(q: QuestionView) -> str:
    why = token_names(q.why[:1].upper() + q.why[1:])
    if q.count > 1:
        why += f" (choose {q.count}; {len(q.picked)} chosen so far)"
    return why


def option_label(cat: Catalog, obs: BoardObservation, q: QuestionView, value: int | str) -> str:
    if isinstance(value, int):
        if is_seat_question(q.why):
            return seat_name(obs, value)
        return cat.place_tag(value)
    if value in cat.cards:
        card = cat.cards[value]
        return f"{card.name}: {card.text}"
    if value in cat.board_sides:
        spaces = ", ".join(map(str, cat.board_sides[value]))
        return f"Side {value.upper()} (Artemia symbols {spaces} spaces before the Rescue goal)"
    text = q.label(value)
    return text[:1].upper() + text[1:]


def picked_words(cat: Catalog, obs: BoardObservation, q: QuestionView) -> str:
    return words_list([option_label(cat, obs, q, v) for v in q.picked])


# ------------------------------------------------------------------------------------------------ the state


def waiting_words(obs: BoardObservation, viewer: int | None) -> str:
    """Who the game waits for (several during the secret choice; the order they chose in never shows)."""
    if obs.over or not obs.waiting:
        return ""
    names = ["you" if s == viewer else seat_name(obs, s) for s in obs.waiting]
    return f"waiting for {words_list(names)}"


def track_bar(position: int, goal: int, width: int) -> str:
    """``▰▰▰▱▱▱``: one mark per space when it fits, else scaled."""
    if goal <= 0:
        return ""
    marks = goal if goal <= width else width
    filled = round(position * marks / goal)
    return "▰" * filled + "▱" * (marks - filled)


def hand_words(cat: Catalog, obs: BoardObservation) -> tuple[str, str]:
    """(place cards, effect cards) of the seat at the keyboard, in words."""
    if obs.role == "creature":
        places = ""
    else:
        places = "  ".join(cat.place_tag(p) for p in obs.hand) or "none"
        if obs.played:
            places += "   · face down: " + ", ".join(cat.place_tag(p) for p in obs.played)
    effect = (
        ", ".join(
            cat.effect_card_words(c, obs)
            for c in obs.effect_cards
        )
        or "none"
    )
    return places, effect


def seat_status(cat: Catalog, obs: BoardObservation, seat: int) -> str:
    """Where a Hunted stands this round, as far as everyone knows."""
    view = obs.seats[seat]
    if view.role == "creature":
        return ""
    if view.revealed:
        return "on " + " + ".join(cat.place_name(p) for p in view.revealed)
    if view.face_down:
        return "card face down" if view.face_down == 1 else f"{view.face_down} cards face down"
    if seat in obs.waiting and obs.phase == "exploration":
        return "choosing"
    return ""


def played_this_round(cat: Catalog, obs: BoardObservation) -> list[str]:
    """The hunt and survival cards played this round (public), the tokens, the rules in force."""
    out = [
        f"{seat_name(obs, seat)}: {cat.card_name(card)}"
        + (f" (as {cat.card_name(obs.copies[card])})" if card in obs.copies else "")
        for _kind, card, seat in obs.cards_played
    ]
    out += [f"the {t.capitalize()} token, to be placed" for t in obs.tokens_to_place]
    return out


def outcome_words(obs: BoardObservation) -> str:
    """Who won, by side and by name."""
    if not obs.over:
        return ""
    creature = [s.name for s in obs.seats if s.role == "creature"]
    if set(obs.winners) == {0}:
        return f"The Creature wins: {words_list(creature)}."
    hunted = [s.name for s in obs.seats if s.role == "hunted"]
    return f"The Hunted win: {words_list(hunted)}."


def last_line(obs: BoardObservation, prefix: str) -> str:
    return next((line for line in reversed(obs.log) if line.startswith(prefix)), "")


def reason_of(obs: BoardObservation) -> str:
    """The engine's reason for the end, as the log says it."""
    return last_line(obs, "The game ends: ").removeprefix("The game ends: ").rstrip(".")


__all__ = [
    "Catalog",
    "MenuItem",
    "menu",
    "option_label",
    "question_title",
    "where_label",
]
