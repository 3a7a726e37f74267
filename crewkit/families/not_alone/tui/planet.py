"""The planet Artemia as a grid of place cards (2x5 in Not Alone): number, name, power in words, the hunt
tokens on it and the Hunted revealed there. Arrow keys (or the mouse) move a cursor; the place under it is
described in full by the table. Drawn from one seat's observation (public things only) and the catalog.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from crewkit.families.not_alone.observation import BoardObservation
from crewkit.families.not_alone.tui.text import TOKEN_SIGNS, TOKEN_STYLES, Catalog


def _wrap(text: str, width: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` cells; the last one ends with … when cut."""
    words = text.split()
    out: list[str] = []
    line = ""
    for i, word in enumerate(words):
        candidate = f"{line} {word}" if line else word
        if cell_len(candidate) <= width:
            line = candidate
            continue
        out.append(line)
        line = word[:width]
        if len(out) == lines:
            rest = " ".join(words[i:])
            if rest:
                last = out[-1]
                out[-1] = (last[: width - 1] + "…") if cell_len(last) >= width else last + "…"
            return out
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1] + "…"
    return out


class PlanetView(Widget, can_focus=True):
    """The grid of places. ``cursor`` is the place number under the cursor."""

    BINDINGS = [
        Binding("left", "move(0, -1)", "←", show=False),
        Binding("right", "move(0, 1)", "→", show=False),
        Binding("up", "move(-1, 0)", "↑", show=False),
        Binding("down", "move(1, 0)", "↓", show=False),
    ]

    class Moved(Message):
        def __init__(self, place: int) -> None:
            super().__init__()
            self.place = place

    def __init__(self, catalog: Catalog, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.catalog = catalog
        self.obs: BoardObservation | None = None
        self.cursor = catalog.rows[0][0] if catalog.rows and catalog.rows[0] else 1
        self.marked: set[int] = set()  # places offered by the open dialog

    def show(self, obs: BoardObservation | None) -> None:
        self.obs = obs
        self.refresh()

    def mark(self, places: set[int], cursor: int | None = None) -> None:
        self.marked = set(places)
        if cursor is not None:
            self.cursor = cursor
        self.refresh()

    def _cell_of(self, x: int, y: int) -> int | None:
        rows = self.catalog.rows
        if not rows:
            return None
        cols = max(len(r) for r in rows)
        width = max(1, self.size.width // cols)
        height = max(1, self.size.height // len(rows))
        r, c = y // height, x // width
        if 0 <= r < len(rows) and 0 <= c < len(rows[r]):
            return rows[r][c]
        return None

    def on_click(self, event: Click) -> None:
        place = self._cell_of(event.x, event.y)
        if place is not None:
            self.cursor = place
            self.refresh()
            self.post_message(self.Moved(place))

    def action_move(self, dr: int, dc: int) -> None:
        rows = self.catalog.rows
        for r, row in enumerate(rows):
            if self.cursor in row:
                c = row.index(self.cursor)
                r2 = max(0, min(len(rows) - 1, r + dr))
                c2 = max(0, min(len(rows[r2]) - 1, c + dc))
                self.cursor = rows[r2][c2]
                break
        self.refresh()
        self.post_message(self.Moved(self.cursor))

    def render(self) -> Text:
        rows = self.catalog.rows
        if not rows:
            return Text("")
        cols = max(len(r) for r in rows)
        width = max(8, self.size.width // cols)
        height = max(4, self.size.height // len(rows))
        inner = width - 2
        body_lines = height - 3  # the top border with the name, the token line, the bottom border
        out = Text()
        for r, row in enumerate(rows):
            cells = [self._cell(p, inner, body_lines) for p in row]
            for line in range(height):
                for cell in cells:
                    out.append_text(cell[line])
                if not (r == len(rows) - 1 and line == height - 1):
                    out.append("\n")
        return out

    def _cell(self, place: int, inner: int, body_lines: int) -> list[Text]:
        cat, obs = self.catalog, self.obs
        card = cat.places.get(place)
        name = card.name if card else f"place {place}"
        focused = place == self.cursor and self.has_focus
        border = "bold yellow" if place == self.cursor else "green" if place in self.marked else "grey50"
        title = f"{place} {name}"
        if obs is not None and obs.reserve and place in obs.reserve:
            title += f" ×{obs.reserve.count(place)}"
        title = title[:inner]
        top = Text()  # a Text's own style would colour every span of the line: each part is styled alone
        top.append("╭", style=border)
        top.append(
            title, style="bold reverse" if focused else "bold yellow" if place == self.cursor else "bold"
        )
        top.append("─" * (inner - cell_len(title)) + "╮", style=border)
        lines = [top]
        power = _wrap(card.text if card else "", inner, max(1, body_lines)) if body_lines > 0 else []
        for i in range(body_lines):
            text = power[i] if i < len(power) else ""
            line = Text()
            line.append("│", style=border)
            line.append(text.ljust(inner), style="dim" if obs is None else "")
            line.append("│", style=border)
            lines.append(line)
        lines.append(self._token_line(place, inner, border))
        bottom = Text()
        bottom.append("╰" + "─" * inner + "╯", style=border)
        lines.append(bottom)
        return lines

    def _token_line(self, place: int, inner: int, border: str) -> Text:
        obs = self.obs
        line = Text()
        line.append("│", style=border)
        content = Text()
        if obs is not None:
            for token, places in obs.tokens.items():
                if place in places:
                    content.append(
                        f" {TOKEN_SIGNS.get(token, token[:1].upper())} ",
                        style=TOKEN_STYLES.get(token, "bold"),
                    )
            if obs.marker_placed and place == self.catalog.marker_place:
                content.append(" ◉", style="bold cyan")
            here = [s.name for s in obs.seats if place in s.revealed]
            if here:
                content.append(" " + ",".join(here), style="bold")
        content.truncate(inner, overflow="ellipsis", pad=True)
        line.append_text(content)
        line.append("│", style=border)
        return line
