"""The trick-taking games' end screens (in the shell's frame, :class:`crewkit.tui.screens.end.GameEndScreen`): the end
of a mission (success or failure with the engine's reason, the logbook's attempts, retry / next) and the end of a
Hammer match (the standings and every round's chips)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.tui.dialogs import chip_table
from crewkit.families.trick_taking.tui.session import Finished, Session
from crewkit.families.trick_taking.tui.words import card_text, chip_str
from crewkit.tui.footer import FitFooter
from crewkit.tui.safe import shown_plain
from crewkit.tui.screens.dialogs import fit_dialog_body
from crewkit.tui.screens.end import GameEndScreen
from crewkit.tui.text import name_seats, plural, seat_label

if TYPE_CHECKING:
    from textual.app import App

    from crewkit.families.trick_taking.tui.remote import RemoteSession
    from crewkit.families.trick_taking.tui.table import TableScreen
    from crewkit.tui.app import CrewApp


def show_seat_end(app: App[Any], table: TableScreen, finished: Finished) -> None:
    """The end of a trick-taking game at a seat joined to a hosted table: what happened, and the table's keys
    only (the host opens the next game)."""
    from crewkit.tui.remote import HOST_DECIDES

    app.clear_notifications()  # a toast would cover the result
    session = table.session
    if session.variant == "hammer":  # the standings are the seat's observation
        app.push_screen(StandingsScreen(session, finished, hosted=True))
        return
    end = EndScreen(session.mission, session.title or session.mission, finished, False,
                    why_no_next=HOST_DECIDES, hosted=True, kinds=session.kinds)
    app.push_screen(end)


def show_end(app: CrewApp, table: TableScreen, finished: Finished) -> None:
    """The end of a local mission in the shell: its end screen (a Hammer match's standings) and what the
    player chooses there (retry, the same deal, take back, the next mission, the campaign)."""
    session = table.session
    assert isinstance(session, Session)
    mission = session.mission
    nxt_mission = app.next_mission(mission)
    no_next = app.why_no_next(mission)

    def chosen(what: str | None) -> None:
        if what == "retry":
            table.restart()
        elif what == "same-deal":
            table.restart(same_deal=True)
        elif what == "take-back":
            table.action_take_back()
        elif what == "next":
            nxt = app.next_mission(mission)
            if nxt is not None:
                app.open_briefing(nxt)
        elif what == "campaign":
            app.show_campaign()

    app.clear_notifications()  # a hint's toast would cover the result
    if session.variant == "hammer":
        app.push_screen(StandingsScreen(session, finished), chosen)
        return
    app.push_screen(EndScreen(mission, session.title or app.title_of(mission), finished,
                              nxt_mission is not None and no_next is None, why_no_next=no_next,
                              practice=session.practice), chosen)


def secret_reveal(session: Session) -> Text:
    """Persian reading, at the end: every player's secret mission cards, face up, done or not."""
    game = session.g
    kinds = session.kinds
    out = Text()
    out.append("Secret missions revealed:\n", style="bold")
    by_seat: dict[int, list[Any]] = {}
    for task in game.tasks:
        if task.owner is not None:
            by_seat.setdefault(task.owner, []).append(task)
    for seat in sorted(by_seat):
        out.append(f"  {seat_label(seat, kinds)}: ", style="bold")
        for i, task in enumerate(sorted(by_seat[seat], key=lambda t: getattr(t, "number", 0) or 0)):
            if i:
                out.append(", ")
            number = getattr(task, "number", None)
            out.append(f"#{number} " if number is not None else "", style="cyan")
            out.append_text(card_text(task.card))
            out.append(" ✓" if task.trick is not None else " ✗", style="green" if task.trick is not None else "red")
        out.append("\n")
    return out


class EndScreen(GameEndScreen):
    """Dismissed with ``retry``, ``next``, ``same-deal``, ``take-back``, ``campaign`` or ``table`` (look at the
    final table)."""

    BINDINGS = [
        Binding("n", "choose('next')", "Next mission"),
        Binding("r", "choose('retry')", "Play again"),
        Binding("s", "choose('same-deal')", "Same deal"),
        Binding("u", "choose('take-back')", "Take back"),
        Binding("c", "choose('campaign')", "Campaign"),
        Binding("w", "review", "Where it went wrong", show=False),  # said in the keys line: the footer is full at 80
        Binding("escape", "choose('table')", "Table"),
        Binding("q", "app.quit", "Quit"),
    ]
    #: a seat at a hosted table also opens the review (the host's, once the game is over: check_action)
    SEAT_ACTIONS = GameEndScreen.SEAT_ACTIONS | {"review"}

    def __init__(self, mission: str, title: str, finished: Finished, has_next: bool, *,
                 why_no_next: str | None = None, practice: bool = False, hosted: bool = False,
                 kinds: Sequence[str] | None = None) -> None:
        """``kinds``: the seats as the table names them (a joined seat's session; else the app's session's);
        ``why_no_next``: why ``n`` opens nothing (the last mission; the next one still locked, and by
        what); ``practice``: a game that does not count (``u`` takes back the last card); ``hosted``: a seat at
        a hosted table (the host opens the next game: no new game is offered, as at Hammer's and Not Alone's)."""
        super().__init__(id="end")
        self.mission = mission
        self.title_text = title
        self.finished = finished
        self.has_next = has_next
        self.why_no_next = why_no_next
        self.practice = practice
        self.hosted = hosted
        self.kinds = kinds

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that do something: ``n`` when there is a next mission to open, ``u`` in practice."""
        if action == "choose" and parameters:
            if parameters[0] == "next":
                return self.has_next
            if parameters[0] == "take-back":
                return self.practice
        if action == "review" and self.hosted:
            return self._hosted_over()
        return True

    def on_mount(self) -> None:
        # the review (w) searches with the C search: a fresh install compiles it now, while the end is read
        # (never waiting: the review's first answer uses the Python search until it is ready); a seat's review
        # is the host's
        if not self.hosted:
            import threading

            from crewkit.families.trick_taking.solve import native

            threading.Thread(target=native.prepare, name="crewkit review prepare", daemon=True).start()

    def _hosted_over(self) -> bool:
        """A seat's table session, and its game is over (the host sends the hands only then)."""
        session = self._hosted_session()
        return session is not None and session.g.is_over()

    def _hosted_session(self) -> RemoteSession | None:
        from crewkit.families.trick_taking.tui.remote import RemoteSession

        table = getattr(self.app, "table", lambda: None)()  # the seat's table screen, whose session is the seat
        session = getattr(table, "session", None)
        return session if isinstance(session, RemoteSession) else None

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    def body(self) -> Text:
        f = self.finished
        success = f.result == "success"
        body = Text()
        body.append("MISSION ACCOMPLISHED" if success else "MISSION FAILED", style="bold green" if success else "bold red")
        body.append(f"\n\n{shown_plain(self.mission)}  {shown_plain(self.title_text)}\n", style="bold")
        session = getattr(self.app, "session", None)
        kinds = self.kinds if self.kinds is not None else session.kinds if session is not None else None
        body.append(f"{name_seats(f.reason, kinds) if kinds is not None else f.reason}\n\n")  # players, not seats
        if f.progress is not None:
            p = f.progress
            state = "done" if p.done else "not yet done"
            body.append(f"Logbook: {plural(p.attempts, 'attempt')} for this mission, {state}")
            if p.distress_used:
                body.append(" (distress signal used: +1 attempt on success)")
            body.append("\n")
        if f.logbook_note:
            body.append(f.logbook_note + "\n", style="dim")
        elif not f.logbook:
            body.append("This rule set is not part of the campaign logbook.\n", style="dim")
        if f.practice:
            body.append("A practice game: not counted in the logbook.\n", style="cyan")
        if f.distress_used:
            body.append("The distress signal was used in this attempt.\n", style="yellow")
        if f.hints_used:
            body.append("Hints were asked in this attempt" + (" (marked in the logbook)" if f.logbook else "")
                        + ".\n", style="yellow")
        if isinstance(session, Session) and session.variant == "secret":  # the Crew's end (Not Alone has its own)
            body.append_text(secret_reveal(session))
        if f.record_path is not None:
            body.append(f"Game record: {f.record_path}\n", style="dim")
        if f.attempt is not None:  # the listing's reference: reviewed later from the logbook or the CLI
            body.append(f"This attempt in the logbook: {f.attempt} (crewkit review {f.attempt})\n", style="dim")
        for err in f.errors:
            body.append(err + "\n", style="red")
        if not self.has_next and self.why_no_next:
            body.append(self.why_no_next.rstrip(".") + ".\n", style="dim")
        body.append("\n")
        if self.hosted:
            body.append("w: where it went wrong   Esc: look at the table   q: quit", style="bold")
            return body
        keys = ["r: play again", "s: same deal (practice)"]
        if self.has_next:
            keys.insert(0 if success else 1, "n: next mission")
        if self.practice:
            keys.insert(0, "u: take back your last card")
        keys += ["w: where it went wrong", "c: campaign", "Esc: look at the table", "q: quit"]
        body.append("   ".join(keys), style="bold")
        return body

    def action_review(self) -> None:
        """``w``: the review screen (the solver's turning point, trick by trick); at a hosted table's seat, the
        host's review."""
        from crewkit.families.trick_taking.tui.review import ReviewScreen

        if self.hosted:  # a seat: the host's review (it computes it once for every seat), only after the end
            seat = self._hosted_session()
            if seat is None or not seat.g.is_over():
                return
            self.app.push_screen(ReviewScreen(None, [seat_label(s, seat.kinds) for s in range(len(seat.names))],
                                              host=seat))
            return
        session = self.crew_app.session
        if not isinstance(session, Session):
            return
        self.app.push_screen(ReviewScreen(session.g, [seat_label(s, session.kinds) for s in range(session.g.n)]))

    def action_choose(self, what: str) -> None:
        if what == "next" and not self.has_next:
            self.notify(self.why_no_next or "There is no next mission.")
            return
        self.dismiss(what)


class StandingsScreen(GameEndScreen):
    """The end of a Hammer match: the winner, the final standings and every round's chips.

    Dismissed with ``retry`` (a new match), ``campaign`` or ``table`` (look at the final table)."""

    BINDINGS = [
        Binding("r", "choose('retry')", "New match"),
        Binding("c", "choose('campaign')", "Campaign"),
        Binding("escape", "choose('table')", "Look at the table"),
        Binding("q", "app.quit", "Quit"),
        Binding("w", "review", "Where it went wrong", show=False),  # the trick-taking end's key: why there is none
    ]
    SEAT_ACTIONS = GameEndScreen.SEAT_ACTIONS | {"review"}  # the host's review, once the match is over

    def __init__(self, session: Session | RemoteSession, finished: Finished, hosted: bool = False) -> None:
        """``hosted``: a seat at a hosted table (the host opens the next match: ``r`` is not offered)."""
        super().__init__(id="standings")
        self.session = session
        self.finished = finished
        self.hosted = hosted
        self._keys_rows = 2

    def _body_text(self) -> Text:
        """The winner, the final standings and the heading of the chips per round."""
        game = self.session.g
        kinds = self.session.kinds
        viewer = self.session.humans[0] if len(self.session.humans) == 1 else None
        body = Text()
        body.append("GAME OVER", style="bold green")
        body.append(f"   {self.session.title}\n\n", style="bold")
        body.append(f"{name_seats(self.finished.reason, kinds, viewer)}\n\n")  # "Bot 3 wins", not "seat 2 wins"
        body.append("Final standings\n", style="bold")
        chips = game.state(MatchState).chips
        order = sorted(range(game.n), key=lambda seat: (-chips[seat], seat))
        for place, seat in enumerate(order, 1):
            body.append(f"  {place}. {seat_label(seat, kinds, viewer):<16}{chip_str(chips[seat]):>8} chips\n",
                        style="bold" if place == 1 else "")
        body.append("\nChips per round\n", style="bold")
        return body

    def compose(self) -> ComposeResult:
        game = self.session.g
        kinds = self.session.kinds
        viewer = self.session.humans[0] if len(self.session.humans) == 1 else None
        body = self._body_text()
        tail = Text()
        if self.finished.record_path is not None:
            tail.append(f"Game record: {self.finished.record_path}\n", style="dim")
        for err in self.finished.errors:
            tail.append(err + "\n", style="red")
        keys = "the host opens the next match" if self.hosted else "r: new match   c: campaign"
        tail.append(f"\n{keys}   w: where it went wrong   Esc: look at the table   q: quit", style="bold")
        compact = self.app.size.width < 100
        self._keys_rows = len(tail.plain.splitlines())
        with Vertical(classes="dialog", id="standings-dialog"):
            with VerticalScroll(classes="dialog-body"):  # 8 rounds do not fit at 80x24: the body scrolls
                yield Static(body, id="standings-text")
                yield Static(chip_table(game, kinds, viewer, compact=compact), id="standings-table")
            yield Static(tail, id="standings-keys")
        yield FitFooter()

    def on_mount(self) -> None:
        fit_dialog_body(self, reserved=4 + self._keys_rows)

    def action_review(self) -> None:
        """``w``: the review of every round (the adversarial search, every hand known) on the review screen,
        trick by trick; at a hosted table's seat, the host's (computed there once for every seat, after the
        end)."""
        from crewkit.families.trick_taking.engine.game import Game
        from crewkit.families.trick_taking.tui.remote import RemoteSession
        from crewkit.families.trick_taking.tui.review import MatchReviewScreen

        session = self.session
        if isinstance(session.g, Game):
            names = [seat_label(s, session.kinds) for s in range(session.g.n)]
            self.app.push_screen(MatchReviewScreen(session.g, names))
        elif isinstance(session, RemoteSession) and session.g.is_over():
            names = [seat_label(s, session.kinds) for s in range(len(session.names))]
            self.app.push_screen(MatchReviewScreen(None, names, host=session))
        else:
            self.query_one("#standings-text", Static).update(Text.assemble(
                self._body_text(), ("\nThe review opens once the match is over (no hand is shown before).", "yellow")))

    def on_resize(self) -> None:
        self.on_mount()
