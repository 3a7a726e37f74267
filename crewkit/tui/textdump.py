"""The screen as plain text, for tests that check what a screen *says* and for debugging.

Layout (what fits at 80x24 and 120x40) is pinned by the SVG snapshot tests (pytest-textual-snapshot,
tests/tui/test_tui_snapshots.py), not by this text. The fast path reads Textual's compositor (private, about
6 ms a screen); the public fallback reads ``app.export_screenshot()`` (about 230 ms, spacing approximate).
"""

from __future__ import annotations

import html
import re
from typing import Any


def screen_text(app: Any) -> str:
    """The current screen's visible text, one line per terminal row, trailing spaces removed."""
    try:
        strips = app.screen._compositor.render_strips()
        lines = [strip.text.rstrip() for strip in strips]
    except Exception:  # private API moved: fall back to the SVG screenshot's text
        return svg_text(app.export_screenshot())
    return "\n".join(lines).rstrip() + "\n"


def svg_text(svg: str) -> str:
    """The text runs of an SVG screenshot, grouped into rows by their y coordinate."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text[^>]*\bx="([\d.]+)"[^>]*\by="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        x, y, body = float(m.group(1)), float(m.group(2)), m.group(3)
        text = html.unescape(re.sub(r"<[^>]+>", "", body)).replace("\xa0", " ")
        rows.setdefault(y, []).append((x, text))
    return "\n".join("".join(t for _, t in sorted(parts)) for _, parts in sorted(rows.items())) + "\n"
