"""The end of a game, for every family: a dialog over the final table with the family's words (who won or why
the mission failed, the record written, the logbook) and the keys that go on from there. A family's end screen
(`crewkit.families.trick_taking.tui.end`, `crewkit.families.not_alone.tui.end`) says what to show
(:meth:`GameEndScreen.body`) and which choices it offers; the shell frames it, and every end screen is
dismissed with the word of the choice made (``table``: Esc, look at the final table)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from crewkit.tui.footer import FitFooter

__all__ = ["GameEndScreen"]


class GameEndScreen(ModalScreen[str]):
    """The frame of every family's end screen: ``body()`` in a dialog (ids ``<id>-dialog``, ``<id>-text``), the
    footer and ``l`` the logbook; ``choose(word)`` dismisses with the word."""

    # (a family's own keys, Esc to look at the final table among them, come in its BINDINGS, in its footer's order)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("l", "app.logbook", "Logbook", show=False)]
    #: the choices a seat joined to a hosted table has (crewkit.tui.seat.SeatApp): look at the table (the app's
    #: quit is the app's own); no new game, no campaign (the host opens the next game)
    SEAT_ACTIONS: ClassVar[frozenset[str]] = frozenset({"choose('table')"})
    #: the command palette in the footer (a game whose end offers no command leaves it out)
    PALETTE_IN_FOOTER = True

    def body(self) -> Text:
        """What the end says, the keys line last (the family's)."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id=f"{self.id}-dialog"):
            yield Static(self.body(), id=f"{self.id}-text")
        yield FitFooter(show_command_palette=self.PALETTE_IN_FOOTER)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
