"""Not Alone's choices as dialogs at the foot of the table (the planet stays in sight above them).

* :class:`HuntActionDialog`: the seat's legal actions in words (place cards, Resist, Give Up, hunt and survival
  cards, tokens); an action that needs a place (a token, a Target card) is a second step listing the places.
* :class:`HuntQuestionDialog`: a question an effect asks (a Pick): places, players, cards or options.

Keys: ↑ ↓ and Enter, or a place's number (0 for the tenth) where places are listed; Esc goes back (or lets
the player look at the table; Enter there opens the dialog again). The mouse clicks an option.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from crewkit.engine.actions import Action
from crewkit.engine.machine import Pick
from crewkit.families.not_alone.observation import BoardObservation
from crewkit.families.not_alone.tui.text import (
    Catalog,
    MenuItem,
    is_seat_question,
    option_label,
    picked_words,
    question_title,
    where_label,
)
from crewkit.tui.footer import FitFooter
from crewkit.tui.screens.dialogs import QUIT_BINDING, quit_from_dialog

Marker = Callable[[set[int], "int | None"], None]  # the table's planet: places offered, the one highlighted


def _digit_place(key: str) -> int | None:
    if key.isdigit() and len(key) == 1:
        return 10 if key == "0" else int(key)
    return None


class _Dialog(ModalScreen[Action | None]):
    BINDINGS = [Binding("escape", "back", "Back / look at the table"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)  # q quits here too, with the table's confirmation

    def __init__(self, title: str, note: str, mark: Marker | None) -> None:
        super().__init__(classes="hunt-dialog-screen")
        self.title_text = title
        self.note = note
        self.mark = mark
        self.entries: list[tuple[str, Any, int | None]] = []  # (label, value, place or None)

    def compose(self) -> ComposeResult:
        with Vertical(classes="hunt-dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="hunt-dialog-title")
            yield Static(Text(self.note), classes="hunt-dialog-note")
            yield OptionList(classes="hunt-options")
        yield FitFooter(show_command_palette=False)

    def on_resize(self) -> None:
        # under the planet (its two rows end on line 10 at 24 lines): the tokens on it stay in sight
        height = self.app.size.height
        self.query_one(".hunt-dialog", Vertical).styles.max_height = (
            max(8, height - 12) if height < 32 else 20
        )

    def show(self, title: str, note: str, entries: list[tuple[str, Any, int | None]]) -> None:
        self.entries = entries
        self.query_one(".hunt-dialog-title", Static).update(Text(title, style="bold"))
        note_widget = self.query_one(".hunt-dialog-note", Static)
        note_widget.update(Text(note))  # card names and titles come from files: never markup
        note_widget.display = bool(note)
        options = self.query_one(OptionList)
        options.clear_options()
        for i, (label, _, _place) in enumerate(entries):
            options.add_option(Option(Text(label), id=str(i)))
        options.highlighted = 0 if entries else None
        options.focus()
        self._marks()

    def _marks(self, highlighted: int | None = None) -> None:
        if self.mark is None:
            return
        places = {p for _, _, p in self.entries if p is not None}
        cursor = (
            self.entries[highlighted][2]
            if highlighted is not None and highlighted < len(self.entries)
            else None
        )
        self.mark(places, cursor)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._marks(int(event.option.id or 0))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.chosen(self.entries[int(event.option.id or 0)][1])

    def on_key(self, event: Key) -> None:
        place = _digit_place(event.character or "")
        if place is None:
            return
        for _, value, p in self.entries:
            if p == place:
                event.stop()
                self.chosen(value)
                return

    def chosen(self, value: Any) -> None:
        raise NotImplementedError

    def close(self, result: Action | None) -> None:
        if self.mark is not None:
            self.mark(set(), None)
        self.dismiss(result)

    def action_back(self) -> None:
        self.close(None)


class HuntActionDialog(_Dialog):
    """The seat's legal actions, grouped (:func:`crewkit.families.not_alone.tui.text.menu`); returns the action chosen."""

    def __init__(
        self, catalog: Catalog, title: str, note: str, items: Sequence[MenuItem], mark: Marker | None = None
    ) -> None:
        super().__init__(title, note, mark)
        self.catalog = catalog
        self.items = list(items)
        self.item: MenuItem | None = None

    def on_mount(self) -> None:
        self.show_items()

    def show_items(self) -> None:
        self.item = None
        self.show(self.title_text, self.note, [(it.label, it, it.place) for it in self.items])

    def chosen(self, value: Any) -> None:
        if isinstance(value, MenuItem):
            if len(value.actions) == 1 and not value.then:
                self.close(value.actions[0])
                return
            if len(value.actions) == 1 and not getattr(value.actions[0], "places", ()):
                self.close(value.actions[0])
                return
            self.item = value
            entries = []
            for action in value.actions:
                places: tuple[int, ...] = getattr(action, "places", ()) or ()
                entries.append(
                    (where_label(self.catalog, action), action, places[0] if len(places) == 1 else None)
                )
            self.show(value.then or "Where?", value.label, entries)
            return
        self.close(value)

    def action_back(self) -> None:
        if self.item is not None:
            self.show_items()
        else:
            self.close(None)


class HuntQuestionDialog(_Dialog):
    """A question of the game (``obs.question``) for the seat at the keyboard; returns a :class:`Pick`."""

    def __init__(
        self, catalog: Catalog, obs: BoardObservation, note: str = "", mark: Marker | None = None
    ) -> None:
        assert obs.question is not None
        if obs.question.picked:  # a question of several picks, asked again after each
            note = f"Chosen so far: {picked_words(catalog, obs, obs.question)}" + (
                f"\n{note}" if note else ""
            )
        super().__init__(question_title(obs.question), note, mark)
        self.catalog = catalog
        self.obs = obs

    def on_mount(self) -> None:
        q = self.obs.question
        assert q is not None
        left = [o for o in q.options if o not in q.picked]
        places = isinstance(left[0], int) and not is_seat_question(q.why) if left else False
        entries = [
            (
                option_label(self.catalog, self.obs, q, v),
                Pick(self.obs.seat, v),
                v if places and isinstance(v, int) else None,
            )
            for v in left
        ]
        self.show(self.title_text, self.note, entries)

    def chosen(self, value: Any) -> None:
        self.close(value)
