"""``crewkit play --ruleset not-alone``: the terminal app for a game of the board family (Not Alone).

One screen, the table (:mod:`crewkit.tui.screens.hunt_table`), opened on a new game; bots in the seats
no person takes, hotseat with the hand-over screen when several people play. Nothing is written to disk.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter

from crewkit.tui.hunt_session import HuntSession, seat_kinds
from crewkit.tui.options import PlayOptions
from crewkit.tui.safe import with_safe_lines
from crewkit.tui.screens.hunt_table import HuntTableScreen


def hunt_session(options: PlayOptions, side: str | None = None) -> HuntSession:
    """The session ``crewkit play`` asked for (raises UsageError or SetupError on options it cannot play)."""
    ruleset = options.ruleset or "not-alone"
    players = options.players if options.players is not None else (len(options.seats) if options.seats else 4)
    kinds = seat_kinds(players, side, options.seats, options.bot)
    return HuntSession(
        ruleset, players, kinds, options.seed or secrets.token_hex(4), readings=dict(options.readings)
    )


class HuntApp(App[int]):
    CSS_PATH = ["app.tcss", "hunt.tcss"]
    TITLE = "crewkit"
    SUB_TITLE = "Not Alone at the terminal"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the one that keeps control characters off the terminal (crewkit.tui.safe)."""
        return with_safe_lines(super().get_line_filters())

    def __init__(self, session: HuntSession, options: PlayOptions | None = None) -> None:
        super().__init__()
        self.session = session
        self.options = options or PlayOptions()
        self._games = 0

    def on_mount(self) -> None:
        self.push_screen(HuntTableScreen(self.session, delay=self.options.bot_delay))

    def table(self) -> HuntTableScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, HuntTableScreen):
                return screen
        return None

    def next_seed(self) -> str:
        """The seed of the next game at this table: derived from the first when one was given."""
        self._games += 1
        return f"{self.options.seed}/{self._games}" if self.options.seed else secrets.token_hex(4)


def run_hunt(options: PlayOptions, side: str | None = None) -> int:
    app = HuntApp(hunt_session(options, side), options)
    return int(app.run() or 0)
