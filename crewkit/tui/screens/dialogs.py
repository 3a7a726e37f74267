"""The app shell's small modal screens, for every family's table: the hotseat hand-over, resume, a choice from a
list, the settings; :class:`SideDialog`, the base of a dialog drawn at the table's right."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from crewkit.tui.footer import FitFooter

ResultT = TypeVar("ResultT")


#: ``q`` in a dialog of the table: quit as at the table, with its confirmation (:func:`quit_from_dialog`)
QUIT_BINDING = Binding("q", "quit_table", "Quit")


def quit_from_dialog(app: Any) -> None:
    """``q`` in a dialog of a table: the table's own quit (its confirmation, the attempt saved) over the dialog;
    "keep playing" comes back to the dialog."""
    table = app.table() if hasattr(app, "table") else None
    if table is None:
        app.exit()
        return
    table.action_quit_table()


class SideDialog(ModalScreen[ResultT]):
    """A dialog of the table drawn at its right (CSS class ``side``), over the trick and the log: the crew, the
    tasks and the hand stay in sight; wider from 100 columns. ``q`` quits as at the table."""

    DEFAULT_CLASSES = "side"
    BINDINGS = [QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= 100, "wide")


class HandoffScreen(ModalScreen[None]):
    """Hotseat: hides every hand until the next player is at the keyboard."""

    BINDINGS = [Binding("enter,space", "ready", "I am at the keyboard", key_display="⏎"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, seat: int, why: str, name: str | None = None) -> None:
        super().__init__(id="handoff", classes="opaque")
        self.seat = seat
        self.why = why
        self.player_name = name or f"the player in seat {seat}"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                Text.assemble(
                    ("Pass the keyboard to ", "bold"), (self.player_name, "bold yellow"), "\n\n",
                    self.why, "\n\n",
                    f"Hands are hidden. {self.player_name}: press Enter when the others look away.",
                ),
                id="handoff-text",
            )
        yield FitFooter()

    def action_ready(self) -> None:
        self.dismiss(None)


class ResumeScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Resume", key_display="y"),
        Binding("n", "answer(False)", "New attempt"),
        Binding("escape", "answer(False)", "New attempt", show=False),
        QUIT_BINDING,  # nothing is lost: the saved attempt stays
    ]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, mission: str, summary: str) -> None:
        super().__init__(id="resume")
        self.mission = mission
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                Text.assemble(("A saved attempt of ", "bold"), (self.mission, "bold yellow"), (" exists.", "bold"),
                              "\n", self.summary, "\n\n", "y / Enter: resume it   n: start a new attempt"),
                id="resume-text",
            )
        yield FitFooter()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class ChoiceScreen(ModalScreen[Any]):
    """A titled list of options; Enter picks, Escape goes back (``None``). ``side``: drawn at the right of the
    table (as :class:`SideDialog`)."""

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, title: str, options: Sequence[tuple[str | Text, Any]], note: str = "", *,
                 id: str | None = None, side: bool = False) -> None:
        super().__init__(id=id, classes="side" if side else None)
        self.side = side
        self.title_text = title
        self.options = list(options)
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            if self.note:
                yield Static(self.note, classes="dialog-note")
            if self.options:
                yield OptionList(*[Option(label, id=str(i)) for i, (label, _) in enumerate(self.options)],
                                 id="choices")
        yield FitFooter()

    def on_mount(self) -> None:
        if self.side:
            self.set_class(self.app.size.width >= 100, "wide")
        if self.options:
            self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int(event.option.id or 0)
        self.dismiss(self.options[index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


def fit_dialog_body(screen: ModalScreen[Any], reserved: int) -> None:
    """The scrolling body of a dialog as tall as the terminal allows (the dialog is at most 90% of the rows
    above the footer) with ``reserved`` rows kept for the dialog's border, padding and the key line under it."""
    body = screen.query_one(".dialog-body", VerticalScroll)
    body.styles.max_height = max(3, (screen.app.size.height - 1) * 9 // 10 - reserved)


class SettingsScreen(ModalScreen[None]):
    """The table settings (``o``): Enter changes the highlighted one; kept for the next session."""

    BINDINGS = [Binding("escape,o", "close", "Close"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, settings: Any, delay_fixed: str = "", names: tuple[str, ...] | None = None) -> None:
        super().__init__(id="settings")
        self.settings = settings
        self.delay_fixed = delay_fixed
        self.names = names  # the settings the table in play has (None: every one)

    def compose(self) -> ComposeResult:
        from crewkit.tui.settings import SETTING_NAMES

        note = "Enter changes the highlighted setting; it is kept for the next time."
        if self.delay_fixed:
            note += f" This session's bot speed is {self.delay_fixed} (given to crewkit play)."
        with Vertical(classes="dialog"):
            yield Static(Text("Settings", style="bold"), classes="dialog-title")
            yield Static(note, classes="dialog-note")
            names = SETTING_NAMES if self.names is None else self.names
            yield OptionList(*[Option(self.settings.describe(n), id=n) for n in names], id="settings-list")
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        name = event.option.id or ""
        self.settings = self.settings.toggled(name)
        self.app.change_settings(self.settings)  # type: ignore[attr-defined]
        options = self.query_one(OptionList)
        index = options.highlighted
        options.replace_option_prompt(name, self.settings.describe(name))
        options.highlighted = index

    def action_close(self) -> None:
        self.dismiss(None)
