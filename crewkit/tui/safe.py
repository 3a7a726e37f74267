"""Text from outside, shown by the terminal app: never a control sequence, never markup.

A campaign, mission or rule set file, a card file, a record, a file name or an option may hold ``ESC ] 0 ;``
(retitle the terminal), ``ESC ] 52 ;`` (write the clipboard), a C1 control or a right-to-left override, and
Textual markup (``[@click=app.quit]``, ``[link=...]``). Such text enters the app through :func:`shown` (or
:func:`shown_plain` where no markup is read): control characters are written out as ``\\x1b`` by
:func:`crewkit.safetext.escape_controls`, the one escaping function of every command, and markup is escaped.

:class:`SafeLines` is the app's last line of defence: a line filter, run by Textual on every line of every
widget before it is drawn, that drops any control character that reached a widget anyway (the app draws with
escape sequences of its own, which are not text of any line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.markup import escape
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from crewkit.safetext import escape_controls

# what escape_controls writes out, less tab and newline (a line holds neither)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def shown(text: object) -> str:
    """``text`` from a file, record, path or option, for a widget that reads markup (``Static``, a label, a
    notification, a list option): controls written out, markup escaped."""
    return escape(escape_controls(str(text)))


def shown_plain(text: object) -> str:
    """``text`` from outside for a place that reads no markup (``rich.text.Text``, a title): controls written
    out."""
    return escape_controls(str(text))


class SafeLines(LineFilter):
    """Drops every control character from the text of a line (a segment marked as a control sequence, the
    app's own, is kept). Dropped, not written out: a control character takes no cell, so the line keeps its
    width."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        out = segments
        for i, segment in enumerate(segments):
            if segment.control is None and _CONTROL.search(segment.text):
                if out is segments:
                    out = list(segments)
                out[i] = Segment(_CONTROL.sub("", segment.text), segment.style, segment.control)
        return out


SAFE_LINES = SafeLines()


def with_safe_lines(filters: Sequence[LineFilter]) -> list[LineFilter]:
    """The app's line filters and :data:`SAFE_LINES` last (``App.get_line_filters``)."""
    return [*filters, SAFE_LINES]


__all__ = ["SAFE_LINES", "SafeLines", "shown", "shown_plain", "with_safe_lines"]
