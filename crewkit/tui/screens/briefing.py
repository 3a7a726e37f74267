"""The mission briefing: tasks, tokens, symbols and conditions in words, before the attempt starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from crewkit.campaign.report import mission_status
from crewkit.tui.catalog import in_mission_set
from crewkit.tui.family import family_briefing
from crewkit.tui.footer import FitFooter
from crewkit.tui.safe import shown
from crewkit.tui.services import campaign_progress, hinted_missions, progress_of, saved_missions
from crewkit.tui.text import plural

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp


class BriefingScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,s", "start", "Start mission", key_display="⏎"),
        Binding("p", "practice", "Practice"),
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
        yield FitFooter()

    def briefing_markup(self) -> str:
        app = self.crew_app
        ruleset = app.ruleset_for(self.mission)
        kinds = app.kinds(self.mission)
        try:
            from crewkit.games import family_for

            rs, spec = family_for(ruleset).mission_specs(ruleset, app.ref_of(self.mission), len(kinds),
                                                         app.readings_for(self.mission))
        except Exception as exc:
            self.error = str(exc)
            return (f"[b red]Mission {shown(self.mission)} cannot be played under {shown(ruleset)}[/]\n\n"
                    f"{shown(str(exc))}")
        data = rs.data
        mission_set = in_mission_set(ruleset, self.mission)
        entry = app.entry(self.mission)
        lines = family_briefing(ruleset, rs, spec, kinds, shown_id=self.mission, mission_set=mission_set,
                                entry=entry, fixed_readings=app.campaign.readings if entry is not None else {})
        campaign = app.campaign_for(self.mission)
        if campaign:
            older: dict[str, int] = {}
            if app.entry(self.mission) is not None:
                all_rows, older = campaign_progress(app.services.logbook, app.campaign)
                rows = [r for r in all_rows if r.mission == self.mission]
            else:
                rows = progress_of(app.services.logbook, campaign, [self.mission])
            if older.get(self.mission):
                lines.append("")
                lines.append(f"[b yellow]The mission file changed[/] after {plural(older[self.mission], 'attempt')} "
                             f"{'was' if older[self.mission] == 1 else 'were'} recorded; the logbook counts the attempts of this version only.")
            if rows:
                row = rows[0]
                saved = self.mission in saved_missions(app.services.saves, campaign)
                hinted = self.mission in hinted_missions(app.services.logbook, campaign)
                state = mission_status(row, saved, hinted)  # the words of the campaign list and `campaign status`
                lines.append("")
                if saved:
                    lines.append("[b cyan]A saved attempt is waiting:[/] Enter offers to resume it.")
                lines.append(f"[b]Logbook:[/] {plural(row.attempts, 'attempt')}, {state}"
                             + (" · distress signal used" if row.distress_used else ""))
        lines.append("")
        what = "the match" if data.get("scoring") else "the game" if mission_set else "the attempt"
        lines.append(f"[b]Enter[/]: start {what}   [b]p[/]: practice (not counted)   [b]Esc[/]: back to the campaign")
        return "\n".join(lines)

    def action_start(self, practice: bool = False) -> None:
        if self.error:
            self.notify(shown(self.error), title="Cannot start", severity="error")
            return
        self.crew_app.start_mission(self.mission, practice=practice)

    def action_practice(self) -> None:
        """A practice game of this mission: not in the logbook; take back your last card, replay the deal."""
        self.action_start(practice=True)

    def action_back(self) -> None:
        self.crew_app.show_campaign()
