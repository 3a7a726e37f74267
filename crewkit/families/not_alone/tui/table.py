"""The Not Alone table: the planet, both tracks, the players (will, discard piles), the cards played this
round, the log of the reckoning and your hand; the game's choices open as dialogs at its foot.

Everything drawn comes from the session's ``observation(viewer)`` (the seat at the keyboard) and the rule set's
printed cards; what may be done is the session's ``legal_actions(viewer)`` or the pending question. The session
is the local game (:class:`HuntSession`: bots in the other seats act in turn, a short delay each; at a hotseat
table the hand-over screen hides everything private before the next person takes the keyboard) or one seat at
a hosted table (:class:`RemoteHuntSession`: the host's messages to that seat, every choice sent to the host;
the table says whom it waits for while the others choose).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.not_alone.blocks import PlaceToken, PlayPlaces
from crewkit.families.not_alone.observation import BoardObservation
from crewkit.families.not_alone.tui.dialogs import HuntActionDialog, HuntQuestionDialog
from crewkit.families.not_alone.tui.end import HELP, HuntEndScreen, HuntLogScreen, HuntPlacesScreen
from crewkit.families.not_alone.tui.planet import PlanetView
from crewkit.families.not_alone.tui.remote import RemoteHuntSession
from crewkit.families.not_alone.tui.session import HuntSession
from crewkit.families.not_alone.tui.text import (
    hand_words,
    menu,
    outcome_words,
    played_this_round,
    seat_name,
    seat_status,
    token_names,
    track_bar,
    waiting_words,
)
from crewkit.tui.footer import FitFooter
from crewkit.tui.remote import HOST_DECIDES, LEAVE_CHOICES, LEAVE_EXIT_NOTE, LEAVE_NOTE, LEAVE_TITLE
from crewkit.tui.screens.dialogs import ChoiceScreen, HandoffScreen
from crewkit.tui.screens.game_table import GameTableScreen
from crewkit.tui.screens.help import HelpScreen
from crewkit.tui.sizes import too_small_words
from crewkit.tui.turn_bell import TurnBell

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp


class HuntTableScreen(GameTableScreen):
    CSS_PATH = Path(__file__).parent / "hunt.tcss"  # app-wide (Textual), read when the first Hunt table opens
    SETTINGS = ("bot_delay", "bell")  # the settings this table follows (``o``): no communication in this game
    session: HuntSession | RemoteHuntSession
    BINDINGS = [
        Binding("enter", "choose", "Choose", key_display="⏎"),
        Binding("p", "focus_planet", "Planet"),
        Binding("i", "read_places", "Places"),
        Binding("g", "read_log", "Game log"),
        Binding("l", "app.logbook", "Logbook"),
        Binding("o", "app.settings", "Settings", show=False),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "quit_table", "Quit"),
    ]
    #: the keys a seat joined to a hosted table has (crewkit.tui.seat.SeatApp): the table's, not the logbook's
    SEAT_ACTIONS = frozenset({"choose", "focus_planet", "read_places", "read_log", "help", "quit_table"})

    def __init__(self, session: HuntSession | RemoteHuntSession, delay: float = 0.6) -> None:
        super().__init__(id="hunt-table")
        self.session = session
        self.remote = isinstance(session, RemoteHuntSession)
        self.delay = delay
        self._bell = TurnBell()  # the your-turn bell (a setting), once per turn
        self.catalog = session.catalog
        humans = session.humans
        self.viewer: int | None = humans[0] if humans else None
        self._scheduled = False  # a bot's move is on a timer
        self._dialog_open = False
        self._ended = False
        self._log_seen: tuple[int | None, tuple[str, ...]] = (None, ())  # (viewer, its log) in the log panel
        self._log_read: list[str] = []  # every line the panel showed this viewer (``g`` reads them all)
        self.status_text = ""

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="hunt-info")
        yield Static(id="hunt-tracks")
        yield PlanetView(self.catalog, id="planet")
        yield Static(id="place-detail")
        with Horizontal(id="hunt-mid"):
            yield Static(id="hunt-players")
            with Vertical(id="hunt-right"):
                yield Static(id="hunt-round")
                yield RichLog(id="hunt-log", wrap=True, markup=False, auto_scroll=True, min_width=16)
        yield Static(id="hunt-hand")
        yield Static(id="hunt-status")
        yield FitFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#hunt-log", RichLog).border_title = "Log"
        if isinstance(self.session, RemoteHuntSession):  # the host's messages, read in the app's loop
            def changed() -> None:
                self.call_later(self.remote_changed)

            self.session.on_change = changed
            self.run_worker(self.session.pump(), group="remote", exit_on_error=False)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self._fit()
        self.refresh_view()

    def _status(self) -> Text:
        """The status line, after the sentence that says the terminal is too small (below 80x24)."""
        small = too_small_words(*self.app.size)
        return Text.assemble((small, "bold red"), " ", self.status_text) if small else Text(self.status_text)

    def _fit(self) -> None:
        """Bigger places (more of each power) and a wider players panel on a bigger terminal."""
        width, height = self.size.width or 80, self.size.height or 24
        self.query_one("#planet", PlanetView).styles.height = 8 if height < 32 else 12 if height < 40 else 14
        self.query_one("#hunt-players", Static).styles.width = 50 if width < 100 else 66
        self.query_one("#hunt-hand", Static).styles.height = 2 if height < 32 else 3
        # a fixed height: an auto height was not always measured again when the text grew
        self.query_one("#hunt-round", Static).styles.height = 3 if height < 32 else 4

    # ------------------------------------------------------------------ drawing
    def observation(self) -> BoardObservation | None:
        return self.session.observation(self.viewer) if self.viewer is not None else None

    def refresh_view(self) -> None:
        obs = self.observation()
        width = self.size.width or 80
        info = Text()
        info.append("Not Alone", style="bold")
        if obs is None:
            waiting = next(iter(self.session.waiting()), None)
            who = self.session.names[waiting] if waiting is not None else "the next player"
            info.append(f" · everything private is hidden until {who} is at the keyboard")
        else:
            info.append(f" · round {obs.round} · {obs.phase}")
            you = obs.seats[obs.seat]
            info.append(f" · you: {you.name} ({'the Creature' if you.role == 'creature' else 'Hunted'})")
            waits = waiting_words(obs, self.viewer)
            if waits:
                info.append(f" · {waits}", style="yellow")
        info.truncate(max(10, width - 2), overflow="ellipsis")
        self.query_one("#hunt-info", Static).update(info)
        self.query_one("#hunt-tracks", Static).update(self._tracks(obs, width))
        planet = self.query_one("#planet", PlanetView)
        planet.show(obs)
        self._detail(planet.cursor)
        self.query_one("#hunt-players", Static).update(self._players(obs))
        self.query_one("#hunt-round", Static).update(self._round(obs))
        self._log(obs)
        self.query_one("#hunt-hand", Static).update(self._hand(obs))
        self.query_one("#hunt-status", Static).update(self._status())

    def _tracks(self, obs: BoardObservation | None, width: int) -> Text:
        out = Text()
        if obs is None:
            return out
        bar = 20 if width >= 100 else 12
        for i, (track, (pos, goal)) in enumerate(sorted(obs.tracks.items(), key=lambda t: t[0] != "rescue")):
            if i:
                out.append("   ")
            style = "bold cyan" if track == "rescue" else "bold red"
            out.append(f"{track.capitalize()} ", style=style)
            out.append(track_bar(pos, goal, bar), style=style)
            out.append(f" {pos}/{goal}")
        if obs.options.get("board_side"):
            out.append(f"   side {obs.options['board_side'].upper()}", style="dim")
        return out

    def _detail(self, place: int) -> None:
        """The whole power of the place under the cursor below the planet: the area grows to its lines (two
        at least, so the table does not jump for short powers) as far as the players panel keeps a row for
        every seat; a power longer than that says where to read it in full (``i``)."""
        card = self.catalog.places.get(place)
        text = Text()
        if card is not None:
            text.append(f"{place} {card.name}: ", style="bold yellow")
            text.append(card.text)
        detail = self.query_one("#place-detail", Static)
        width = max(10, (self.size.width or 80) - 2)  # the detail's padding
        lines = list(text.wrap(self.app.console, width))
        room = max(2, self._detail_room())
        if len(lines) > room:  # a short terminal with many seats: the rest behind a key, said on the last line
            more = Text(" … i: every place in full", style="bold")
            last = lines[room - 1].copy()
            last.rstrip()
            last.truncate(max(1, width - more.cell_len))
            lines = [*lines[: room - 1], last + more]
            text = Text("\n").join(lines)
        detail.styles.height = max(2, len(lines))
        detail.update(text)

    def _detail_room(self) -> int:
        """The rows the place detail may take: the terminal's rows less the fixed parts of the table and the
        players panel's rows (a line for the Creature, the Hunted's header and one line each)."""
        height = self.size.height or 24
        fixed = 1 + 1 + 1 + 1  # the info line, the tracks, the status line, the footer
        for name in ("#planet", "#hunt-hand"):
            rows = self.query_one(name).styles.height
            fixed += int(rows.value) if rows is not None else 0
        players = len(self.session.names) + 1
        return height - fixed - players

    def _players(self, obs: BoardObservation | None) -> Group | Text:
        if obs is None:
            return Text("Players: " + ", ".join(self.session.names), style="dim")
        wide = (self.query_one("#hunt-players", Static).size.width or 50) >= 60
        cat = self.catalog
        lines: list[Any] = []
        table = Table(
            box=None, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False, expand=True, header_style="bold"
        )
        table.add_column("Hunted", no_wrap=True, overflow="ellipsis", max_width=16)
        table.add_column("will", no_wrap=True)
        table.add_column("hand", no_wrap=True, justify="right")
        table.add_column("survival" if wide else "surv", no_wrap=True, justify="right")
        table.add_column("where", no_wrap=True, overflow="ellipsis", max_width=19 if wide else 12)
        table.add_column("discard", no_wrap=True, overflow="ellipsis", ratio=1, min_width=7)
        for view in obs.seats:
            you = view.seat == obs.seat
            name = Text()
            name.append("▶" if view.seat in obs.waiting else " ", style="yellow")
            name.append(
                view.name + (" (you)" if you and wide else "*" if you else ""), style="bold" if you else ""
            )
            if view.role == "creature":  # a line of its own above the Hunted's table
                line = name.copy()
                line.append(" the Creature", style="bold red")
                line.append(f" · {view.effect_cards} hunt card{'s' if view.effect_cards != 1 else ''}")
                lines.append(line)
                continue
            will = Text()
            will.append("●" * view.will, style="green")
            will.append("○" * max(0, cat.will - view.will), style="dim")
            if view.discard is None:
                discard = Text(f"{view.discard_size} hidden", style="dim")
            elif not view.discard:
                discard = Text("—", style="dim")
            else:
                discard = Text(
                    ", ".join(cat.place_tag(p) for p in view.discard)
                    if wide
                    else " ".join(str(p) for p in view.discard)
                )
            status = seat_status(cat, obs, view.seat).replace("card face down", "face down")
            status = status.replace(" cards face down", " down") if not wide else status
            table.add_row(
                name, will, str(view.hand_size), str(view.effect_cards), Text(status, style="cyan"), discard
            )
        return Group(*lines, table)

    def _round(self, obs: BoardObservation | None) -> Text:
        out = Text()
        if obs is None:
            return out
        played = played_this_round(self.catalog, obs)
        out.append("This round: ", style="bold")
        out.append("; ".join(played) if played else "no card played")
        if obs.rules_in_force:
            out.append("\nIn force: ", style="bold")
            out.append("; ".join(token_names(r) for r in obs.rules_in_force))
        return out

    def _log(self, obs: BoardObservation | None) -> None:
        """Append what is new in the viewer's log. The engine shows this round and the one before; lines it
        drops stay above (the viewer has read them), until another person takes the keyboard."""
        log = self.query_one("#hunt-log", RichLog)
        lines = obs.log if obs is not None else ()
        viewer, old = self._log_seen
        new: tuple[str, ...] | None = None
        if viewer == self.viewer:
            for drop in range(len(old) + 1):  # the engine's window moved on by ``drop`` lines
                kept = old[drop:]
                if lines[: len(kept)] == kept:
                    new = lines[len(kept) :]
                    break
        if new is None:
            log.clear()
            self._log_read.clear()
            new = lines
        self._log_read.extend(new)
        for line in new:
            style = "bold" if line.startswith(("Round ", "The game ends")) else ""
            log.write(Text(line, style=style))
        self._log_seen = (self.viewer, tuple(lines))

    def _hand(self, obs: BoardObservation | None) -> Text:
        out = Text()
        if obs is None:
            out.append("Hands are hidden.", style="dim")
            return out
        places, effect = hand_words(self.catalog, obs)
        if obs.role == "creature":
            out.append("Your hunt cards: ", style="bold")
            out.append(effect)
        else:
            out.append("Your place cards: ", style="bold")
            out.append(places)
            out.append("\nYour survival cards: ", style="bold")
            out.append(effect)
        for owner, cards in obs.shown_to_me:
            out.append(f"\n{seat_name(obs, owner)} showed you: ", style="bold")
            out.append(", ".join(self.catalog.place_tag(p) for p in cards) or "nothing")
        return out

    def set_status(self, text: str) -> None:
        self.status_text = text
        self.query_one("#hunt-status", Static).update(self._status())

    def on_planet_view_moved(self, event: PlanetView.Moved) -> None:
        self._detail(event.place)

    def mark_places(self, places: set[int], cursor: int | None) -> None:
        planet = self.query_one("#planet", PlanetView)
        planet.mark(places, cursor)
        if cursor is not None:
            self._detail(cursor)

    # ------------------------------------------------------------------ the flow
    def logbook_ruleset(self) -> str | None:
        return None if self.remote else self.session.ruleset  # each side's wins of this rule set

    def advance(self) -> None:
        """Whoever the game waits for: a bot moves (after the delay), a person gets the dialog."""
        if self._scheduled or self._dialog_open or self._ended:
            return
        if self.session.is_over():
            self.finish()
            return
        bot = self.session.bot_seat()
        if bot is not None:
            self._scheduled = True
            if self.delay > 0:
                self.set_timer(self.delay, lambda: self.bot_turn(bot))
            else:
                self.call_later(self.bot_turn, bot)
            return
        seat = self.session.human_seat()
        if seat is None:
            if isinstance(self.session, RemoteHuntSession):
                self.say_remote(self.session)
            return
        if self.session.hotseat and seat != self.viewer:
            self.handoff(seat)
            return
        self.viewer = seat
        self.prompt()

    def bot_turn(self, seat: int) -> None:
        self._scheduled = False
        if not self.is_attached or self._ended:
            return
        try:
            self.session.bot_move(seat)
        except IllegalAction as exc:  # a bot's mistake: said, and the game asks again
            self.set_status(f"{self.session.names[seat]}: {exc.message}")
        self.refresh_view()
        self.advance()

    def handoff(self, seat: int) -> None:
        self._dialog_open = True
        self.viewer = None
        self.refresh_view()  # nothing private stays on the table
        name = self.session.names[seat]

        def done(_: None) -> None:
            self._dialog_open = False
            self.viewer = seat
            self.refresh_view()
            self.advance()

        self.app.push_screen(HandoffScreen(seat, "It is their turn to choose.", name), done)

    def prompt(self) -> None:
        """Open the dialog of the seat at the keyboard: the pending question, else its legal actions."""
        if self.viewer is None or self._dialog_open:
            return
        obs = self.observation()
        assert obs is not None
        self._bell.ring(self, (obs.round, obs.phase, len(obs.log), self.viewer))
        self.refresh_view()
        if obs.question is not None:
            self.set_status("Choose in the list (Esc: look at the table, Enter: back to the choice).")
            dialog: Any = HuntQuestionDialog(self.catalog, obs, self._latest(obs), mark=self.mark_places)
        else:
            legal = self.session.legal_actions(self.viewer)
            if not legal:
                return
            title, note = self._title(obs, legal)
            self.set_status("Your choice (Esc: look at the table, Enter: back to the choice).")
            dialog = HuntActionDialog(
                self.catalog, title, note, menu(self.catalog, obs, legal), self.mark_places
            )
        self._dialog_open = True
        self.app.push_screen(dialog, self._chosen)

    def _title(self, obs: BoardObservation, legal: list[Action]) -> tuple[str, str]:
        plays = [a for a in legal if isinstance(a, PlayPlaces)]
        if plays:
            count = len(plays[0].places)
            what = "your place card" if count == 1 else f"your {count} place cards"
            return (
                f"Round {obs.round}, exploration: {what} for this round",
                "Played face down; the Creature sees them only when the cards are revealed.",
            )
        if any(isinstance(a, PlaceToken) for a in legal):
            return (
                f"Round {obs.round}, hunting: place your tokens",
                "The Hunted's places are revealed after this.",
            )
        return f"Round {obs.round}, {obs.phase}: play a card?", self._latest(obs)

    def _latest(self, obs: BoardObservation) -> str:
        """The newest lines of the log this round (the dialog covers the log): what a card may answer."""
        start = max((i for i, line in enumerate(obs.log) if line.startswith("Round ")), default=0)
        recent = [line for line in obs.log[start:] if not line.startswith("Round ")][-2:]
        return "\n".join(f"· {line}" for line in recent)

    def _chosen(self, action: Action | None) -> None:
        self._dialog_open = False
        if action is None:
            self.set_status("Enter: back to your choice · arrows on the planet (p) read the places' powers.")
            return
        try:
            self.session.apply(action)  # saved after every action; at a hosted table, sent to the host
            self.set_status("Your choice is on its way to the host." if self.remote else "")
        except IllegalAction as exc:
            self.set_status(f"Not allowed: {exc.message}")
        self.refresh_view()
        self.advance()

    # ------------------------------------------------------------------ a seat at a hosted table
    def remote_changed(self) -> None:
        """The host sent something: a new state (redrawn; this seat is asked if the table waits for it), a
        refused choice (said), or the end of the connection."""
        s = self.session
        if not isinstance(s, RemoteHuntSession) or not self.is_attached or self._ended:
            return
        self.refresh_view()
        if s.notices:
            refused = s.notices[-1]
            s.notices.clear()
            self.set_status(f"Not done: {refused}")
            if not self._dialog_open and s.human_seat() is not None:
                self.prompt()  # the choice again, with the host's words on the status line
            return
        self.advance()

    def say_remote(self, s: RemoteHuntSession) -> None:
        """Whom the table waits for (``waiting for Bob and Cat``), or why this seat cannot play on."""
        note = s.connection_note
        if note:
            self.set_status(note)
        elif s.unreadable:  # never silently fewer choices than the host offers
            self.set_status(f"This client cannot read an action the host offers ({s.unreadable[0]}); join with "
                            "the same crewkit version as the host, or with --plain.")
        elif s.sending:
            self.set_status("Your choice is on its way to the host.")
        else:
            self.set_status(s.status())

    # ------------------------------------------------------------------ keys
    def action_choose(self) -> None:
        if self._dialog_open or self._scheduled:
            return
        if self.session.is_over():
            self.finish(again=True)
            return
        self.advance()

    def action_focus_planet(self) -> None:
        self.query_one("#planet", PlanetView).focus()

    def action_read_places(self) -> None:
        """Every place's power in full (the planet's boxes show their first words), the one under the cursor
        first in sight."""
        planet = self.query_one("#planet", PlanetView)
        places = [(n, card.name, card.text) for n, card in sorted(self.catalog.places.items())]
        self.app.push_screen(HuntPlacesScreen(places, planet.cursor))

    def action_help(self) -> None:
        """The shell's help screen with Not Alone's rules and keys."""
        self.app.push_screen(HelpScreen(HELP))

    def action_read_log(self) -> None:
        """The whole log this viewer was shown, to scroll (the panel holds a few lines at 80x24)."""
        self.app.push_screen(HuntLogScreen(tuple(self._log_read)))

    def action_quit_table(self) -> None:
        if self.session.is_over() or not self.session.humans:
            self.app.exit()
            return

        def done(quit_now: bool | None) -> None:
            if quit_now:
                if self.remote:
                    self.crew_app.exit_note = LEAVE_EXIT_NOTE
                self.app.exit()

        if self.remote:
            self.app.push_screen(ChoiceScreen(LEAVE_TITLE, LEAVE_CHOICES, LEAVE_NOTE, id="quit"), done)
            return
        self.app.push_screen(
            ChoiceScreen(
                "Quit the game?",
                [("Quit (the game is saved: the chooser or the same command resumes it)", True),
                 ("Keep playing", False)],
                id="quit",
            ),
            done,
        )

    # ------------------------------------------------------------------ the end
    def finish(self, again: bool = False) -> None:
        if self._ended and not again:
            return
        self._ended = True
        self.refresh_view()
        humans = self.session.humans
        viewer = self.viewer if self.viewer is not None else humans[0] if humans else 0
        obs = self.session.observation(viewer)

        def chosen(what: str | None) -> None:
            if what == "new" and self.remote:
                self.set_status(HOST_DECIDES)
            elif what == "new":
                self.new_game()
            elif what == "quit":
                self.app.exit()

        finished = self.session.finish()  # the record written, the result in the logbook (once)
        written = [f"Record: {finished.record_path.name} (crewkit replay reads it)"] if finished.record_path else []
        if self.remote:
            written = ["The host keeps this game's record and opens the next game."]
        note = "\n".join(written + finished.errors)
        roles = {obs.seats[s].role for s in humans}
        self.app.push_screen(HuntEndScreen(obs, outcome_words(obs), personal=len(roles) <= 1, note=note,
                                         hosted=self.remote), chosen)

    def new_game(self) -> None:
        self.session.new_game(self.session.next_seed())
        self.catalog = self.session.catalog
        self._ended = False
        self._scheduled = False
        humans = self.session.humans
        self.viewer = humans[0] if humans else None
        self._log_seen = (None, ())
        self.query_one("#hunt-log", RichLog).clear()
        self.set_status("A new game.")
        self.refresh_view()
        self.advance()
