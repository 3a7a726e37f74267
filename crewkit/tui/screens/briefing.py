"""The mission briefing: tasks, tokens, symbols and conditions in words, before the attempt starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from crewkit.tui.catalog import mission_spec
from crewkit.tui.services import progress_of
from crewkit.tui.text import mission_briefing_lines, seat_label

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp


class BriefingScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,s", "start", "Start mission", key_display="⏎"),
        Binding("escape,b", "back", "Campaign"),
        Binding("l", "app.logbook", "Logbook"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, mission: str) -> None:
        super().__init__(id="briefing")
        self.mission = mission
        self.error: str | None = None

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="briefing-body"):
            yield Static(self.briefing_markup(), id="briefing-text")
        yield Footer()

    def briefing_markup(self) -> str:
        app = self.crew_app
        try:
            spec = mission_spec(self.mission)
        except Exception as exc:
            self.error = str(exc)
            return f"[b red]Mission {escape(self.mission)} cannot be loaded[/]\n\n{escape(str(exc))}"
        number = spec.number if spec.number is not None else "?"
        lines = [f"[b]Mission {number}: {escape(spec.title)}[/]   [dim]{escape(spec.id)}[/]", ""]
        ruleset = app.ruleset_for(self.mission)
        kinds = app.kinds()
        seats = ", ".join(f"{s}: {seat_label(s, kinds)}" for s in range(len(kinds)))
        lines.append(f"[b]Crew:[/] {len(kinds)} players under the [b]{escape(ruleset)}[/] rules — {escape(seats)}")
        lines.append("The holder of rocket 4 is commander, leads the first trick and chooses the first task.")
        lines.append("")
        lines.extend(mission_briefing_lines(spec.data, len(kinds)))
        campaign = app.campaign_for(self.mission)
        if campaign:
            rows = progress_of(app.services.logbook, campaign, [self.mission])
            if rows:
                row = rows[0]
                state = "done" if row.done else ("not yet done" if row.attempts else "not yet tried")
                lines.append("")
                lines.append(f"[b]Logbook:[/] {row.attempts} attempt(s), {state}"
                             + (" · distress signal used" if row.distress_used else ""))
        lines.append("")
        lines.append("[b]Enter[/]: start the attempt   [b]Esc[/]: back to the campaign")
        return "\n".join(lines)

    def action_start(self) -> None:
        if self.error:
            self.notify(self.error, title="Cannot start", severity="error")
            return
        self.crew_app.start_mission(self.mission)

    def action_back(self) -> None:
        self.crew_app.show_campaign()
