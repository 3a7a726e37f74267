"""The trick-taking table's words and markup for its cards, actions, communications and chips (the terminal app).
Presentation only: no rule is decided here. The words for seats, tasks and missions the shell shows too (the
briefing) are the shell's, :mod:`crewkit.tui.text`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

# The one wording of a communication (token positions top | bottom | only): the dialog, the crew panel,
# the log and the status line all read it from here.
from crewkit.families.trick_taking.engine.words import STATEMENT_WORDS
from crewkit.families.trick_taking.tui.mission_words import scoring_words
from crewkit.tui.safe import shown
from crewkit.tui.text import generic_label, seat_label

if TYPE_CHECKING:
    from crewkit.cards import Card
    from crewkit.engine.actions import Action

__all__ = [
    "STATEMENT_WORDS", "SUIT_GLYPHS", "SUIT_STYLES", "TASK_CARD_TYPES", "action_label", "card_markup", "card_name",
    "card_text", "cards_line", "chip_str", "dummy_seat_label", "public_action_label", "round_mission_lines",
    "short_card", "statement_text", "suit_glyph", "suit_style", "task_card_action_label", "unplayable_style",
]


SUIT_STYLES: dict[str, str] = {
    "blue": "bold #5fafff",
    "green": "bold #5fd75f",
    "yellow": "bold #ffd700",
    "pink": "bold #ff5fd7",
    "rocket": "bold #ff8700",
    "submarine": "bold #ff8700",  # Mission Deep Sea's trumps, coloured as the rockets they replace
    "red": "bold #ff5f5f",
}


# One glyph per suit name, the same in every game: the shape tells the suit without its colour, and no letter
# means red in one game and rocket in another. A suit not listed here shows its code from the rule set.
SUIT_GLYPHS: dict[str, str] = {
    "blue": "◆",
    "green": "♣",
    "yellow": "●",
    "pink": "♥",
    "red": "■",
    "rocket": "▲",
    "submarine": "▼",
}


def suit_style(card: Card) -> str:
    if card.suit is None:
        return "bold"
    return SUIT_STYLES.get(card.suit.name.lower(), "bold")


def suit_glyph(card: Card) -> str:
    if card.suit is None:
        return ""
    return SUIT_GLYPHS.get(card.suit.name.lower(), card.suit.code)


def unplayable_style(card: Card) -> str:
    """A card that cannot be played now: its suit's colour kept, dimmed (not all grey)."""
    return suit_style(card).replace("bold", "").strip() + " dim"


def card_name(card: Card) -> str:
    return card.name


def short_card(card: Card) -> str:
    """A compact label: rank then suit glyph, ``9♥``, ``4▲`` (a card without a suit: its label)."""
    if card.suit is None:
        return card.label or card.name
    return f"{card.rank}{suit_glyph(card)}"


def card_text(card: Card, *, short: bool = False, dim: bool = False) -> Text:
    label = short_card(card) if short else card.name
    style = unplayable_style(card) if dim else suit_style(card)
    return Text(label, style=style)


def card_markup(card: Card) -> str:
    return f"[{suit_style(card)}]{shown(card.name)}[/]"


def statement_text(statement: str | None, suit: str) -> str:
    if statement is None:
        return "hidden (dead zone)"
    word = STATEMENT_WORDS.get(statement, statement)
    return f"my {word} {suit}"


def action_label(action: Action) -> str:
    """A human label for any action; unknown action types are described from their JSON form."""
    from crewkit.families.trick_taking.engine.blocks.communication import Communicate, Signal
    from crewkit.families.trick_taking.engine.blocks.distress import Distress, PassCard
    from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
    from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission
    from crewkit.families.trick_taking.engine.blocks.tricks import Play
    from crewkit.families.trick_taking.engine.step_actions import Answer, ChoosePlayer

    if isinstance(action, Play):
        return f"play {action.card}"
    if isinstance(action, TakeTask):
        return f"take the task {action.card}"
    if isinstance(action, PassCard):
        return f"pass {action.card}"
    if isinstance(action, Communicate):
        if action.position is None:
            return f"communicate {action.card} (statement hidden)"
        return f"communicate {action.card}: {STATEMENT_WORDS.get(action.position, action.position)}"
    if isinstance(action, Distress):
        return f"distress signal: pass cards to the {action.direction}"
    if isinstance(action, Signal):
        return f"signal {action.card}"
    if isinstance(action, ChooseDummySeat):
        return f"JARVIS sits in seat {action.dummy_seat}"
    if isinstance(action, ChooseMission):
        return f"mission {action.mission} in {action.mode} mode"
    if isinstance(action, Answer):
        return f"answer \u201c{action.answer}\u201d"
    if isinstance(action, ChoosePlayer):
        return f"choose seat {action.player} as the {action.role.replace('_', ' ')}"
    return generic_label(action)


TASK_CARD_TYPES = frozenset({"take-task-card", "pass-task", "choose-number", "give-task-card"})


def task_card_action_label(action: Any, deck: Any, kinds: Sequence[str] = (), viewer: int | None = None, *,
                           public: bool = False) -> str:
    """A draft action on task cards with objectives, the card in words (``deck``: the rules' task deck);
    ``public``: as the other seats may read it (a number kept secret is not named)."""
    task = getattr(action, "task", None)
    words = f"\u201c{deck.card(task).text}\u201d" if task is not None and deck.has(task) else str(task)
    if action.type == "take-task-card":
        return f"take the task card {words}"
    if action.type == "pass-task":
        return "pass: take no task card this turn"
    if action.type == "choose-number":
        ask = deck.card(task).asks if task is not None and deck.has(task) else None
        if public and ask is not None and not ask.shown:
            return f"name a secret number for {words}"
        return f"name {action.number} for {words}"
    if action.type == "give-task-card":
        who = seat_label(action.player, kinds, viewer) if kinds else f"seat {action.player}"
        return f"give {words} to {who}"
    return generic_label(action)


def public_action_label(action: Action) -> str:
    """``action_label`` for another seat's move, as every seat may read it: a passed card is not named
    (only the giver and the receiver see it; the log shows it to them)."""
    from crewkit.families.trick_taking.engine.blocks.distress import PassCard

    if isinstance(action, PassCard):
        return "passes a card"
    return action_label(action)


def dummy_seat_label(action: Any, player_kinds: Sequence[str], n: int) -> str:
    """``JARVIS plays first: JARVIS, You, Bot 1`` — the seating a choose-dummy-seat action leads to, in playing
    order and by name (no seat numbers in player text)."""
    seats: list[str] = list(player_kinds)
    seats.insert(action.dummy_seat, "jarvis")
    names = [seat_label(s, seats) for s in range(min(n, len(seats)))]
    place = _ORDINALS[action.dummy_seat] if 0 <= action.dummy_seat < len(_ORDINALS) else f"in place {action.dummy_seat + 1}"
    return f"JARVIS plays {place}: " + ", ".join(names)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def round_mission_lines(mission_id: str, title: str) -> dict[str, str]:
    """Hammer mission card ``mission_id`` in words per mode (from its file): penalty and challenge."""
    from crewkit.tui.catalog import quick_mission_data

    data = quick_mission_data(mission_id)
    out = {"title": title, "description": str(data.get("description") or "")}
    out.update(scoring_words(data.get("scoring") or {}))
    return out


def chip_str(value: Any) -> str:
    from crewkit.families.trick_taking.engine.scoring import chip_text

    return str(chip_text(value))


def cards_line(cards: Sequence[Card]) -> Text:
    """Cards as short labels in their suits' colours, one space apart (``3◆ 7◆ 2♣``)."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card, short=True))
    return out
