"""The smallest terminal a table is laid out for, and the sentence a table says below it (every family's table
puts it first on its status line)."""

from __future__ import annotations

MIN_SIZE = (80, 24)
#: rows below which a table is "short" (80x24): panels give their title lines to their borders
SHORT_ROWS = 30


def too_small_words(width: int, height: int) -> str:
    """Below 80x24 the panels overlap and the hand wraps: the sentence that says so, else ``""``."""
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        return (f"The terminal is {width}x{height}: the table needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]}; "
                "make the window larger.")
    return ""
