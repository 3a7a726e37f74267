"""The chooser: every bundled and installed campaign (and one opened by path) with its progress, then the rule
sets that are games of their own (Not Alone) with each side's wins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from crewkit.tui.catalog import KnownCampaign, campaign_info, known_campaigns, known_games
from crewkit.tui.footer import FitFooter
from crewkit.tui.services import campaign_progress

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp


class ChooserScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "choose", "Open campaign", show=True),
        Binding("escape", "back", "Back"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__(id="chooser")
        self.known: list[KnownCampaign] = []

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(Text("Campaigns", style="bold"), id="chooser-title", classes="screen-title")
        yield DataTable(id="campaigns", cursor_type="row", zebra_stripes=True)
        yield Static(id="chooser-detail", classes="status")
        yield FitFooter()

    def on_mount(self) -> None:
        table = self.query_one("#campaigns", DataTable)
        wide = self.app.size.width >= 100  # at 80 columns the source is in the detail line below, not a column
        current = self.crew_app.campaign
        extra = current.ref if current.ref and current.source != "bundled" else None
        self.known = known_campaigns(extra, current.source) + known_games()
        # the name is what `--campaign` takes: never cut; the title gives way (it is in the detail line too)
        name_width = min(max([16, *(len(k.name) for k in self.known)]), 24)
        table.add_column("Campaign", key="title", width=(34 if wide else 30) - (name_width - 16))
        table.add_column("Name", key="name", width=name_width)
        if wide:
            table.add_column("Source", key="source", width=20)
        table.add_column("Progress", key="progress", width=22)
        logbook = self.crew_app.services.logbook
        for known in self.known:
            if known.game and not known.problem:
                progress = Text(self.crew_app.game_progress(known.game))
            elif known.problem:
                progress = Text(f"cannot open: {known.problem}"[:40], style="red")
            else:
                info = current if known.ref in (current.ref, current.name) else campaign_info(known.ref)
                rows, _ = campaign_progress(logbook, info)
                done = sum(1 for r in rows if r.done)
                attempts = sum(r.attempts for r in rows)
                progress = Text(f"{done}/{len(rows)} done · {attempts} att.",
                                style="bold green" if rows and done == len(rows) else "")
            source = [Text(known.source)] if wide else []
            table.add_row(Text(known.title, style="bold"), Text(known.name), *source, progress, key=known.ref)
        here = next((i for i, k in enumerate(self.known) if k.ref in (current.ref, current.name)), 0)
        if self.known:
            table.move_cursor(row=here)
        table.focus()
        self.show_detail()

    def selected(self) -> KnownCampaign | None:
        table = self.query_one("#campaigns", DataTable)
        if not table.row_count:
            return None
        return self.known[table.cursor_row] if 0 <= table.cursor_row < len(self.known) else None

    def show_detail(self) -> None:
        known = self.selected()
        detail = self.query_one("#chooser-detail", Static)
        if known is None:
            detail.update("No campaign found.")
            return
        what = "a game of its own, no missions" if known.game else f"{known.missions} missions"
        text = Text.assemble((known.title, "bold"), f" ({what}, {known.source})")
        if known.description:
            text.append(f"\n{known.description}")
        if known.problem:
            text.append(f"\ncannot be opened: {known.problem}", style="red")
        text.append("\nEnter: open · Esc: back", style="dim")
        detail.update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def action_choose(self) -> None:
        known = self.selected()
        if known is not None and known.game:
            self.crew_app.start_game_of(known.game)
        elif known is not None:
            self.crew_app.choose_campaign(known.ref)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_choose()

    def action_back(self) -> None:
        self.dismiss(None)
