"""Whether the footer the terminal shows holds every key its Footer widget lists, whole (none cut at the
right edge, none pushed out of sight)."""

from __future__ import annotations

from typing import Any

from screen_text import screen_text
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


def footer_keys(app: Any) -> list[str]:
    """The keys the current screen's footer lists, as ``"key description"`` (the palette's key included)."""
    footers = list(app.screen.query(Footer))
    assert footers, f"{type(app.screen).__name__} has no footer"
    return [f"{key.key_display} {key.description}".strip() for key in footers[0].query(FooterKey)]


def footer_line(app: Any) -> str:
    """The terminal's last row, as shown."""
    rows = screen_text(app).splitlines()
    return rows[app.size.height - 1] if len(rows) >= app.size.height else ""


def footer_cut(app: Any) -> list[str]:
    """The footer's keys that the terminal's last row does not show whole (an empty list: all fit)."""
    last = footer_line(app)
    return [key for key in footer_keys(app) if key not in last]
