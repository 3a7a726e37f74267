"""The terminal as plain text, through Textual's public widget API, for tests that check what a screen *says*.

Every widget that is displayed is asked for its own lines (``Widget.render_lines``, the call Textual's
compositor makes) and they are painted into a grid at the widget's place on the screen
(``Screen.find_widget``: region, clip and painting order), the top-most last. What a modal screen lets show
through (the table under a dialog) is painted first. So the text is what the terminal shows: a card name in
the status line, the log, a notification, a dialog, a border title or the footer is found; a widget that is
hidden, scrolled out of its panel or covered by a dialog is not.

Layout (what fits at 80x24 and 120x40) is pinned by the SVG snapshots (test_tui_snapshots.py), not by this
text. About 3-6 ms a screen here, against about 230 ms for ``app.export_screenshot()`` and parsing its SVG.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.cells import cell_len
from textual.errors import NoWidget
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget


def screen_text(app: Any) -> str:
    """The visible text of the terminal, one line per row, trailing spaces removed."""
    width, height = app.size
    grid = [[" "] * width for _ in range(height)]
    for screen in _visible_screens(app):
        _paint(screen, grid, width, height)
    return "\n".join("".join(row).rstrip() for row in grid).rstrip() + "\n"


def _visible_screens(app: Any) -> list[Screen[Any]]:
    """The current screen and those under it that show through its background (bottom first): the rule
    Textual uses for a modal screen with a translucent background."""
    stack = list(app.screen_stack)
    shown = [stack[-1]]
    for screen in reversed(stack[:-1]):
        if shown[-1].styles.background.a >= 1:
            break
        shown.append(screen)
    return shown[::-1]


def _displayed(node: Widget) -> Iterator[Widget]:
    for child in node.displayed_children:
        if child.visible:
            yield child
        yield from _displayed(child)


def _paint(screen: Screen[Any], grid: list[list[str]], width: int, height: int) -> None:
    screen_region = Region(0, 0, width, height)
    placed = []
    for widget in _displayed(screen):
        try:
            geometry = screen.find_widget(widget)
        except NoWidget:  # displayed but not laid out (yet)
            continue
        visible = geometry.visible_region.intersection(screen_region)
        if visible.area:
            placed.append((geometry.order, widget, geometry.region, visible))
    if screen.styles.background.a >= 1:  # an opaque screen paints its own background first
        placed.append(((), screen, screen_region, screen_region))
    placed.sort(key=lambda item: item[0])  # painting order: the top-most last
    for _, widget, region, visible in placed:
        crop = visible.translate((-region.x, -region.y))
        for dy, strip in enumerate(widget.render_lines(crop)):
            row = grid[visible.y + dy]
            x = visible.x
            for segment in strip:
                text = segment.text
                if segment.control or not text:
                    continue
                if cell_len(text) == len(text):  # one cell a character: the common case, copied at once
                    end = min(x + len(text), visible.right)
                    row[x:end] = text[: end - x]
                    x = end
                    continue
                for char in text:
                    cells = cell_len(char)
                    if cells == 0 and x > visible.x:  # a combining mark joins the cell before it
                        row[x - 1] += char
                        continue
                    if x + cells > visible.right:
                        break
                    row[x] = char
                    if cells == 2:
                        row[x + 1] = ""
                    x += cells
