"""The logbook: attempts per mission of the campaign, as the campaign store keeps them; for a game of its own
(Not Alone) the games played at each player count and how often each side won."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from crewkit.tui.catalog import mission_number
from crewkit.tui.footer import FitFooter
from crewkit.tui.safe import shown_plain
from crewkit.tui.services import campaign_progress, changed_notice, hinted_missions

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp


class LogbookScreen(Screen[None]):
    BINDINGS = [
        Binding("escape,l,q", "close", "Back"),
        Binding("a", "attempts", "Attempts"),  # Enter too: the chosen mission's attempts, each reviewable
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
    ]

    def __init__(self, game: str | None = None) -> None:
        """``game``: a rule set that is a game of its own (its results per side), else the campaign's."""
        super().__init__(id="logbook")
        self.game = game
        self.missions: list[str] = []  # the campaign's missions, by row

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="logbook-title", classes="screen-title")
        yield DataTable(id="logbook-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="logbook-total", classes="status")
        yield FitFooter()

    def on_mount(self) -> None:
        if self.game is not None:
            self._show_game(self.game)
            return
        info = self.crew_app.campaign
        rows, older = campaign_progress(self.crew_app.services.logbook, info)
        self.query_one("#logbook-title", Static).update(Text.assemble(("Logbook", "bold"), f" — {info.title}"))
        table = self.query_one("#logbook-table", DataTable)
        hinted = hinted_missions(self.crew_app.services.logbook, info.key)
        table.add_columns("#", "Mission", "Attempts", "Done", "Distress", "Hints", "Last result")
        self.missions = [row.mission for row in rows]
        for i, row in enumerate(rows):
            in_folder = row.mission.endswith((".yaml", ".yml"))
            table.add_row(
                str(i + 1) if in_folder else mission_number(row.mission),
                Text(shown_plain(self.crew_app.title_of(row.mission) or row.mission)),  # from a file: never markup
                str(row.attempts),
                Text("✓", style="bold green") if row.done else "",
                "yes" if row.distress_used else "",
                "yes" if row.mission in hinted else "",  # an attempt played with hints (the table's h)
                Text(row.last_result or ""),
                key=row.mission,
            )
        done = [r for r in rows if r.done]
        total = sum(r.attempts for r in done)
        self.query_one("#logbook-total", Static).update(Text(
            f"{len(done)} of {len(rows)} missions done · {total} attempts for the missions done"
            f" · {sum(r.attempts for r in rows)} attempts in all"
            + (f"\n{changed_notice(older, self.crew_app.title_of)}" if older else "")
        ))
        table.focus()

    def _show_game(self, ruleset: str) -> None:
        from crewkit.games import family_for
        from crewkit.tui.catalog import ruleset_title
        from crewkit.tui.services import side_results
        from crewkit.tui.text import plural

        family = family_for(ruleset)
        won, lost = family.words.sides or ("Won", "Lost")
        title = ruleset_title(ruleset)
        self.query_one("#logbook-title", Static).update(Text.assemble(("Logbook", "bold"), f" — {title}"))
        table = self.query_one("#logbook-table", DataTable)
        table.add_columns("Players", "Games", f"{won} won", f"{lost} won", "Abandoned")
        rows = side_results(self.crew_app.services.logbook, family.name, ruleset)
        for row in rows:
            table.add_row(str(row.players), str(row.games), str(row.won), str(row.lost), str(row.abandoned),
                          key=str(row.players))
        games = sum(r.games for r in rows)
        self.query_one("#logbook-total", Static).update(Text(
            f"{plural(games, 'game')} finished · {won} won {sum(r.won for r in rows)} · {lost} won {sum(r.lost for r in rows)}"))
        table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``a`` only in a campaign's logbook (a game of its own lists no attempts)."""
        return bool(self.missions) if action == "attempts" else True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_attempts()

    def action_attempts(self) -> None:
        """Every attempt of the chosen mission (date, outcome), each reviewable with ``w``."""
        from crewkit.tui.screens.attempts import AttemptsScreen

        row = self.query_one("#logbook-table", DataTable).cursor_row
        if not self.missions or not 0 <= row < len(self.missions):
            return
        mission = self.missions[row]
        self.app.push_screen(AttemptsScreen(self.crew_app.campaign.key, mission,
                                            self.crew_app.title_of(mission) or mission))

    def action_close(self) -> None:
        self.dismiss(None)
