"""The footer of every screen: the keys that fit the terminal's width, whole (80 columns too).

Textual's footer cuts what does not fit (``v Co▏^p palette``). This one leaves keys out instead, in this
order: the command palette's key (ctrl+p still opens it), the app's own keys (Compare), then the screen's
keys it names as spare (``FOOTER_SPARE``), then the screen's keys from the right; Help and Quit stay. The
help screen lists every key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KEEP = ("help", "quit", "quit_table", "close", "back")  # never left out (the way to the others and out)


def _width(key: FooterKey) -> int:
    """The cells ``key`` takes in a compact footer: its text and the margin after it (the palette's key:
    its text and the bar before it)."""
    text = key.key_display + (f" {key.description}" if key.description else "")
    return cell_len(text) + 1


class FitFooter(Footer):
    """A compact footer that leaves keys out rather than cut them (see the module docstring)."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("compact", True)
        super().__init__(**kw)
        self._composed_width = 0

    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        width = self.app.size.width
        self._composed_width = width
        yield from fitted(keys, width, self._app_actions(), tuple(getattr(self.screen, "FOOTER_SPARE", ())))

    def _app_actions(self) -> set[str]:
        """The actions of the app's own bindings shown here (not the screen's)."""
        app = self.app
        return {node_binding.action for node, node_binding, _, _ in self.screen.active_bindings.values()
                if node is app}

    def on_resize(self, event: events.Resize) -> None:
        if self._composed_width and event.size.width != self._composed_width:
            self.call_after_refresh(self.recompose)


def _action(key: FooterKey) -> str:
    return key.action.rpartition(".")[2]


def fitted(widgets: Iterable[Widget], width: int, app_actions: set[str], spare: tuple[str, ...]) -> list[Widget]:
    """``widgets`` (the footer's keys, in order) without those that do not fit in ``width`` cells."""
    shown = list(widgets)

    def total() -> int:
        return sum(_width(w) for w in shown if isinstance(w, FooterKey))

    def rank(index: int, w: Widget) -> tuple[int, int]:  # the lowest goes first
        if not isinstance(w, FooterKey):
            return (9, index)
        action = _action(w)
        if w.has_class("-command-palette"):
            return (0, 0)
        if action in KEEP:
            return (9, index)
        if w.action in app_actions or action in app_actions:
            return (1, -index)
        if action in spare:
            return (2, spare.index(action))
        return (3, -index)

    while total() > width:
        order = sorted(enumerate(shown), key=lambda item: rank(*item))
        index, first = order[0]
        if rank(index, first)[0] == 9:
            break  # only the keys that stay are left
        shown.pop(index)
    return shown
