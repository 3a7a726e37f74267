"""The mission briefing: tasks, tokens, symbols and conditions in words, before the attempt starts."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from crewkit.campaign.report import mission_status
from crewkit.tui.catalog import in_mission_set
from crewkit.tui.services import campaign_progress, progress_of, saved_missions
from crewkit.tui.text import mission_briefing_lines, player_text, plural, seat_label

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
        yield Footer(compact=True)

    def briefing_markup(self) -> str:
        app = self.crew_app
        ruleset = app.ruleset_for(self.mission)
        kinds = app.kinds(self.mission)
        try:
            from crewkit.engine.setup import specs_for

            rs, spec = specs_for(ruleset, app.ref_of(self.mission), len(kinds), app.readings_for(self.mission))
        except Exception as exc:
            self.error = str(exc)
            return (f"[b red]Mission {escape(self.mission)} cannot be played under {escape(ruleset)}[/]\n\n"
                    f"{escape(str(exc))}")
        data = rs.data
        mission_set = in_mission_set(ruleset, self.mission)
        lines: list[str] = []
        if mission_set:
            lines += [f"[b]{escape(str(data.get('title') or rs.name))}[/]   [dim]{escape(self.mission)}[/]", ""]
            description = player_text(str(data.get("description") or ""))
            level = re.fullmatch(r".+/level-(\d+)", self.mission)
            if level:  # the rule set's description names its default level; this game deals another
                description = re.sub(r"\blevel-\d+\b", f"level-{level.group(1)}", description)
                lines[0] = lines[0].replace(escape(self.mission), f"{escape(self.mission)} · level {level.group(1)}")
            if description:
                lines += [escape(description), ""]
        else:
            entry = app.entry(self.mission)
            if entry is not None and (entry.chapter_title or entry.chapter_text):
                if entry.chapter_title:
                    lines.append(f"[b]{escape(entry.chapter_title)}[/]")
                if entry.chapter_text:
                    lines.append(f"[i]{escape(entry.chapter_text)}[/]")
                lines.append("")
            number = spec.number if spec.number is not None else "?"
            title = entry.title if entry is not None else spec.title
            shown_id = self.mission if entry is not None else spec.id
            lines += [f"[b]Mission {number}: {escape(title)}[/]   [dim]{escape(shown_id)}[/]", ""]
        seats = "in playing order " + ", ".join(seat_label(s, kinds) for s in range(len(kinds)))
        crew = "Players" if data.get("scoring") else "Crew"
        lines.append(f"[b]{crew}:[/] {len(kinds)} players under the [b]{escape(rs.name)}[/] rules — {escape(seats)}")
        if data.get("dummy"):
            lines.append("[b]JARVIS[/] takes a third seat: its face-up cards are public; the commander decides "
                         "where it sits, its tasks and its cards. Face-down cards turn up as the cards above "
                         "them are played.")
        if data.get("scoring"):
            lines.append("Each round the dealer chooses a mission card and its mode (penalty: everyone scores; "
                         "challenge: the dealer's bet). The chips are shown after every round.")
        elif (data.get("tasks") or {}).get("secret"):
            lines.append("Each player holds secret mission cards: only you see yours. They must be completed "
                         "in number order. The commander may signal one card during a trick (key s).")
        elif mission_set:
            pass
        elif (data.get("tasks") or {}).get("deck"):
            holder = escape(str((data.get("commander") or {}).get("holder_of") or "the commander's card"))
            lines.append(f"The holder of {holder} is captain, leads the first trick and takes the first task card.")
        else:
            lines.append("The holder of rocket 4 is commander, leads the first trick and chooses the first task.")
        if not mission_set:
            lines.append("")
            lines.extend(mission_briefing_lines(spec.data, len(kinds)))
        fixed = app.campaign.readings if app.entry(self.mission) is not None else {}
        readings = [r for r in data.get("readings") or [] if isinstance(r, dict)
                    if rs.name != "crew" or r.get("id") in fixed]
        if readings:
            lines.append("")
            lines.append("[b]Readings[/] (how this rule set reads the unclear rules):")
            for r in readings:
                choice = str(r.get("choice", ""))
                text = ((r.get("options") or {}).get(choice) or {}).get("text", "") if choice else ""
                lines.append(f"  • {escape(player_text(str(r.get('question', r.get('id', '')))))}")
                lines.append(f"    [dim]{escape(choice)}:[/] {escape(player_text(str(text)))}")
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
                state = mission_status(row, saved)  # the words of the campaign list and `campaign status`
                lines.append("")
                if saved:
                    lines.append("[b cyan]A saved attempt is waiting:[/] Enter offers to resume it.")
                lines.append(f"[b]Logbook:[/] {plural(row.attempts, 'attempt')}, {state}"
                             + (" · distress signal used" if row.distress_used else ""))
        lines.append("")
        what = "the match" if data.get("scoring") else "the game" if mission_set else "the attempt"
        lines.append(f"[b]Enter[/]: start {what}   [b]Esc[/]: back to the campaign")
        return "\n".join(lines)

    def action_start(self) -> None:
        if self.error:
            self.notify(self.error, title="Cannot start", severity="error")
            return
        self.crew_app.start_mission(self.mission)

    def action_back(self) -> None:
        self.crew_app.show_campaign()
