"""The mission's tasks: card, token, owner, and a done mark."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.tui.text import card_text, seat_label, token_text


def tasks_text(tasks: Sequence[Any], kinds: Sequence[str], viewer: int | None) -> Text:
    out = Text()
    out.append("Tasks", style="bold")
    done = sum(1 for t in tasks if t.done)
    out.append(f"   {done}/{len(tasks)} done\n", style="dim")
    if not tasks:
        out.append("  none: this mission has conditions only\n", style="dim")
    for task in tasks:
        if task.done:
            out.append(" ✓ ", style="bold green")
        else:
            out.append(" ○ ", style="dim")
        label = card_text(task.card)
        label.pad_right(9 - len(label.plain))
        out.append_text(label)
        tok = token_text(task.token)
        out.append(f"{('[' + tok + ']') if tok else '':<7}", style="bold cyan" if tok else "")
        if task.owner is None:
            out.append("not taken", style="italic dim")
        else:
            out.append(seat_label(task.owner, kinds, viewer), style="bold" if task.owner == viewer else "")
        if task.done:
            out.append(f"  (trick {task.trick})", style="dim")
        out.append("\n")
    return out


class TasksView(Static):
    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None) -> None:
        self.update(tasks_text(obs.tasks, kinds, viewer))
