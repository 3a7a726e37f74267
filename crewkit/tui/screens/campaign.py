"""The campaign: every mission with its logbook attempts; the next unfinished one highlighted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from crewkit.campaign.report import mission_status
from crewkit.tui.catalog import mission_number
from crewkit.tui.footer import FitFooter
from crewkit.tui.safe import shown_plain
from crewkit.tui.services import Progress, campaign_progress, changed_notice, hinted_missions, saved_missions

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp


class CampaignScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "open", "Briefing", show=True),
        Binding("l", "app.logbook", "Logbook"),
        Binding("c", "app.campaigns", "Campaigns"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__(id="campaign")
        self.next_index = 0
        self.titles: dict[str, str] = {}

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="campaign-title", classes="screen-title")
        yield DataTable(id="missions", cursor_type="row", zebra_stripes=True)
        yield Static(id="campaign-note", classes="status")
        yield FitFooter()

    def on_mount(self) -> None:
        table = self.query_one("#missions", DataTable)
        table.add_column("#", key="num", width=4)
        # 80 columns hold every column (a saved attempt's status is the widest word; it names the distress
        # signal); the titles take the rest of the width, up to the longest
        table.add_column("Mission", key="title", width=20)
        table.add_column("Attempts", key="attempts", width=8)
        table.add_column("Status", key="status", width=30)
        self.reload(titles=True)

    def on_screen_resume(self) -> None:
        self.reload()

    def progress(self) -> list[Progress]:
        return campaign_progress(self.crew_app.services.logbook, self.crew_app.campaign)[0]

    def reload(self, titles: bool = False) -> None:
        info = self.crew_app.campaign
        if titles or not self.titles:
            self.titles = {m: self.crew_app.title_of(m) for m in info.missions}
            self.fit_titles()
        rows, older = campaign_progress(self.crew_app.services.logbook, info)
        saved = saved_missions(self.crew_app.services.saves, info.key)
        hinted = hinted_missions(self.crew_app.services.logbook, info.key)
        done = sum(1 for r in rows if r.done)
        self.query_one("#campaign-title", Static).update(
            Text.assemble((info.title, "bold"), f"   campaign {info.name} · {done}/{len(rows)} missions done")
        )
        note = self.query_one("#campaign-note", Static)
        how = ("missions open in order" if info.unlock == "in-order" else "any mission can be chosen")
        lines = [info.note or f"Enter: mission briefing · {how} · c: other campaigns"]
        notice = changed_notice(older, lambda m: self.titles.get(m, ""))
        if notice:
            lines.append(notice)
        note.update(Text("\n".join(lines)))  # titles and notes come from files: never markup
        table = self.query_one("#missions", DataTable)
        # the row the player was on, unless this is another campaign (its next mission then)
        keep = table.cursor_row if table.row_count and not titles else None
        table.clear()
        self.next_index = next((i for i, r in enumerate(rows) if not r.done), max(0, len(rows) - 1))
        for i, row in enumerate(rows):
            is_next = i == self.next_index and not row.done
            num = str(i + 1) if row.mission.endswith((".yaml", ".yml")) else mission_number(row.mission)
            title = self.titles.get(row.mission, "")
            # the words of `crewkit campaign status`
            word = mission_status(row, row.mission in saved, row.mission in hinted)
            if row.done:
                status = Text(f"✓ {word}", style="bold green")
            elif row.mission in saved:
                status = Text(f"⏸ {word}", style="bold cyan")
            elif row.attempts:
                status = Text(f"✗ {word}", style="red")
            elif is_next:
                status = Text("▶ next", style="bold yellow")
            elif info.unlock == "in-order" and i > self.next_index:
                status = Text("locked", style="dim")
            else:
                status = Text("")
            style = "bold yellow" if is_next else ""
            table.add_row(
                Text(num, style=style),
                Text(shown_plain(title or row.mission), style=style),
                str(row.attempts) if row.attempts else "·",
                status,
                key=row.mission,
            )
        if rows:
            target = self.next_index if keep is None or keep == 0 else min(keep, len(rows) - 1)
            table.move_cursor(row=target)
        table.focus()

    def fit_titles(self) -> None:
        """The Mission column as wide as the longest title, within what the other columns leave (80 columns:
        "Rocket parade for three" whole)."""
        from textual.widgets.data_table import ColumnKey

        table = self.query_one("#missions", DataTable)
        longest = max((len(t or m) for m, t in self.titles.items()), default=20)
        free = self.app.size.width - (4 + 8 + 30) - 2 * 4 - 2  # the other columns, cell padding, scroll bar
        column = table.columns.get(ColumnKey("title"))
        if column is not None:
            column.width = max(20, min(longest, free))
            table.refresh()

    def on_resize(self) -> None:
        if self.titles:
            self.fit_titles()

    def selected_mission(self) -> str | None:
        table = self.query_one("#missions", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    def action_open(self) -> None:
        mission = self.selected_mission()
        if mission is not None:
            self.crew_app.open_briefing(mission)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.crew_app.open_briefing(str(event.row_key.value))
