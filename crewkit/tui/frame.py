"""What every crewkit app has, the shell (:class:`crewkit.tui.app.CrewApp`) and a joined seat's
(:class:`crewkit.tui.seat.SeatApp`): the style sheets, the filter that keeps control characters off the terminal,
notifications held while a dialog is open, and the notice below 80x24."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual.app import App
from textual.filter import LineFilter
from textual.screen import ModalScreen

from crewkit.tui.safe import with_safe_lines
from crewkit.tui.sizes import too_small_words

__all__ = ["FrameApp"]


class FrameApp(App[int]):
    # the shell's (a family's table brings its own in its screen's CSS_PATH, read when it first opens); absolute:
    # Textual reads a relative one from the subclass's folder
    CSS_PATH = [Path(__file__).parent / "app.tcss"]
    TITLE = "crewkit"

    def __init__(self) -> None:
        super().__init__()
        self._held_notes: list[tuple[str, dict[str, Any]]] = []  # notifications held while a dialog is open
        self._size_said = ""  # the too-small sentence last shown (crewkit.tui.sizes), once per size

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the one that keeps control characters off the terminal (crewkit.tui.safe)."""
        return with_safe_lines(super().get_line_filters())

    def notify(self, message: str, **kw: Any) -> None:
        """A notification, held back while a dialog is open (it would cover it) and shown once it closes."""
        if self.screen_stack and isinstance(self.screen, ModalScreen):
            self._held_notes.append((message, kw))
            return
        super().notify(message, **kw)

    def pop_screen(self) -> Any:
        result = super().pop_screen()
        if self._held_notes:
            self.call_later(self._release_notes)
        return result

    def _release_notes(self) -> None:
        if isinstance(self.screen, ModalScreen):
            return  # another dialog: held until it closes too
        held, self._held_notes = self._held_notes, []
        for message, kw in held:
            super().notify(message, **kw)

    def on_resize(self) -> None:
        """Below 80x24 a notice over whatever screen is open (a dialog may hide the table's status line)."""
        small = too_small_words(*self.size)
        if small and small != self._size_said:
            self.notify(small, title="Terminal too small", severity="warning", timeout=8)
        self._size_said = small
