"""Every attempt of one mission (the logbook screen's Enter): date, outcome, its reference (``@12``, as
``crewkit review`` takes it); ``w`` reviews the chosen attempt from its game record."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from crewkit.tui.footer import FitFooter
from crewkit.tui.safe import shown_plain
from crewkit.tui.services import AttemptRow, mission_attempts

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp

RESULT_STYLE = {"success": "bold green", "failure": "bold red", "abandoned": "yellow"}


def review_of_record(path: Path | None) -> tuple[Screen[None] | None, str]:
    """(the review screen of the game recorded at ``path``, "") or (None, why there is none), in words."""
    if path is None:
        return None, "No game record was kept for this attempt (it was abandoned before its end)."
    if not path.is_file():
        return None, f"This attempt's game record {path} is no longer there."
    from crewkit.engine.record_file import read_record
    from crewkit.engine.registry import known_action_types

    try:
        read = read_record(path, known_action_types())
    except Exception as exc:  # an unreadable file is said, never a traceback
        return None, f"The game record {path} cannot be read: {exc}"
    if read.issues or read.replay is None or read.family is None or read.replay.game is None:
        first = read.issues[0].message if read.issues else "it does not replay"
        return None, f"The game record {path} cannot be reviewed: {first}"
    from crewkit.tui.family import review_screen

    return review_screen(read.replay.game)


class AttemptsScreen(Screen[None]):
    BINDINGS = [
        Binding("w", "review", "Review"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, campaign: str, mission: str, title: str) -> None:
        super().__init__(id="attempts")
        self.campaign = campaign
        self.mission = mission
        self.title_text = title
        self.rows: list[AttemptRow] = []

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="attempts-title", classes="screen-title")
        yield DataTable(id="attempts-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="attempts-status", classes="status")
        yield FitFooter()

    def on_mount(self) -> None:
        from crewkit.campaign.attempts import when_text

        self.rows = mission_attempts(self.crew_app.services.logbook, self.campaign, self.mission)
        self.query_one("#attempts-title", Static).update(
            Text.assemble(("Attempts", "bold"), f" — {shown_plain(self.title_text)}"))
        table = self.query_one("#attempts-table", DataTable)
        table.add_columns("Attempt", "Date", "Outcome", "Record")
        for row in self.rows:
            table.add_row(row.ref, when_text(row.when), Text(row.result, style=RESULT_STYLE.get(row.result, "")),
                          Text(row.record.name if row.record is not None else "none", style="dim"), key=row.ref)
        self.say("w: review the chosen attempt (or `crewkit review @N` in a terminal)" if self.rows
                 else "No attempt of this mission yet.")
        table.focus()

    def say(self, text: str) -> None:
        self.query_one("#attempts-status", Static).update(Text(text))

    def chosen(self) -> AttemptRow | None:
        table = self.query_one("#attempts-table", DataTable)
        if not self.rows or table.cursor_row < 0 or table.cursor_row >= len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def action_review(self) -> None:
        row = self.chosen()
        if row is None:
            self.say("No attempt of this mission yet.")
            return
        screen, why = review_of_record(row.record)
        if screen is None:
            self.say(f"{row.ref}: {why}")
            return
        self.app.push_screen(screen)

    def action_close(self) -> None:
        self.dismiss(None)
