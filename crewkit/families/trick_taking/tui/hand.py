"""The hand: cards sorted by suit, legal ones bright and underlined, illegal ones dim; a cursor to pick one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from crewkit.cards import Card
from crewkit.families.trick_taking.tui.words import short_card, suit_style, unplayable_style

CELL = 5  # columns per card
# the key that picks card i: 1-9, 0, then the keys after 0 on the keyboard's top row and beside it
CARD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "=", "[", "]")


class HandView(Widget, can_focus=True):
    """A row of cards. Arrows / digits / suit letters move the cursor; Enter (or a second click) chooses."""

    BINDINGS = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
        Binding("enter", "choose", "Play card", priority=False),
    ]

    DEFAULT_CSS = """
    HandView { height: 5; padding: 0 1; }
    """

    cursor: reactive[int] = reactive(0)

    class Chosen(Message):
        """The player chose the card under the cursor (Enter, a click on the selected card)."""

        def __init__(self, hand: HandView, card: Card) -> None:
            super().__init__()
            self.hand = hand
            self.card = card

    class Moved(Message):
        def __init__(self, hand: HandView, card: Card | None) -> None:
            super().__init__()
            self.hand = hand
            self.card = card

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.cards: list[Card] = []
        self.legal: set[int] = set()
        self.marked: set[int] = set()  # communicated cards
        self.hidden = False
        self.closed = False  # the mission is over: nothing to play, the letters are the table's keys
        self.title_text = "Your hand"

    # ------------------------------------------------------------------ state
    def set_cards(
        self, cards: Sequence[Card], legal: Iterable[Card], marked: Iterable[Card] = (), *, title: str = "Your hand"
    ) -> None:
        old = self.selected
        self.cards = list(cards)
        self.legal = {c.id for c in legal}
        self.marked = {c.id for c in marked}
        self.title_text = title
        self.hidden = False
        first_legal = next((i for i, c in enumerate(self.cards) if c.id in self.legal), None)
        if old is not None and old in self.cards and (old.id in self.legal or first_legal is None):
            index = self.cards.index(old)
        else:
            index = first_legal if first_legal is not None else 0
        self.cursor = max(0, min(index, len(self.cards) - 1))
        self.refresh()

    def hide(self, title: str = "Hand hidden") -> None:
        self.cards = []
        self.legal = set()
        self.marked = set()
        self.hidden = True
        self.title_text = title
        self.refresh()

    @property
    def selected(self) -> Card | None:
        if 0 <= self.cursor < len(self.cards):
            return self.cards[self.cursor]
        return None

    def select(self, card: Card) -> None:
        if card in self.cards:
            self.cursor = self.cards.index(card)

    # ------------------------------------------------------------------ rendering
    def render(self) -> Text:
        out = Text()
        out.append(self.title_text, style="bold")
        if self.hidden or not self.cards:
            out.append("\n\n  " + ("(hidden)" if self.hidden else "(no cards)"), style="dim")
            return out
        legal_count = sum(1 for c in self.cards if c.id in self.legal)
        out.append(f"   {legal_count} of {len(self.cards)} playable", style="dim")
        out.append("\n")
        labels = Text()
        marks = Text()
        index_line = Text()
        focused = self.has_focus
        for i, card in enumerate(self.cards):
            label = short_card(card).center(CELL - 1)
            is_legal = card.id in self.legal
            style = suit_style(card) if is_legal else unplayable_style(card)  # the suit's colour, always
            if i == self.cursor:
                style += " reverse" if focused else " underline"
            labels.append(label, style=style)
            labels.append(" ")
            mark = ("━" * (CELL - 1)) if is_legal else " " * (CELL - 1)
            marks.append(mark, style=suit_style(card) if is_legal else "")
            marks.append(" ")
            tag = "↑" if i == self.cursor else ("✉" if card.id in self.marked else " ")
            key = CARD_KEYS[i] if i < len(CARD_KEYS) else " "
            index_line.append(f"{key}{tag}".center(CELL - 1), style="bold" if i == self.cursor else "dim")
            index_line.append(" ")
        out.append(labels)
        out.append("\n")
        out.append(marks)
        out.append("\n")
        out.append(index_line)
        return out

    def watch_cursor(self, _old: int, _new: int) -> None:
        self.post_message(self.Moved(self, self.selected))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # ------------------------------------------------------------------ input
    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = max(0, len(self.cards) - 1)

    def action_choose(self) -> None:
        card = self.selected
        if card is not None:
            self.post_message(self.Chosen(self, card))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No "Play card" once the mission is over or while the hand is hidden."""
        if action == "choose":
            return not (self.closed or self.hidden or not self.cards)
        return True

    def on_key(self, event: events.Key) -> None:
        if self.closed:
            return
        char = event.character
        if char in CARD_KEYS:
            index = CARD_KEYS.index(char)
            if index < len(self.cards):
                self.cursor = index
                event.stop()
                event.prevent_default()
            return
        if char and char.isalpha() and len(char) == 1:
            # a suit letter jumps to the next card of that suit
            matches = [
                i for i, c in enumerate(self.cards) if c.suit is not None and c.suit.code.lower() == char.lower()
            ]
            if matches:
                after = [i for i in matches if i > self.cursor]
                self.cursor = after[0] if after else matches[0]
                event.stop()
                event.prevent_default()

    def index_at(self, x: int) -> int | None:
        """The card under content column ``x``."""
        if x < 0:
            return None
        index = x // CELL
        return index if index < len(self.cards) else None

    def focus_on_click(self) -> bool:
        """A click takes the keys only when the hand has a card to choose."""
        return bool(self.legal)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        index = self.index_at(offset.x)
        if index is None:
            return
        if self.legal:  # a hand with nothing to choose leaves the keys where they are (a list waits for them)
            self.focus()
        if index == self.cursor:
            self.action_choose()
        else:
            self.cursor = index
