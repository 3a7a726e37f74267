"""The app of a seat joined to a hosted table (``crewkit join`` in a terminal, and a browser seat's process,
:mod:`crewkit.net.web_seat`): the table, drawn by the family's own table screen, and nothing else.

A joined seat is a client and nothing more. It plays, communicates, looks (the last trick, the cards, the log),
reads the help and leaves; it has no campaign, logbook, compare, settings, screenshot or game of its own, and it
writes nothing. This is not done by hiding the shell's keys one by one: :class:`SeatApp` is not the shell
(:class:`crewkit.tui.app.CrewApp`), so the shell's commands do not exist here, and every action a key, a click
or the command palette asks for passes one gate (:meth:`SeatApp.seat_allows`):

* an action of the app itself: only those in :attr:`SeatApp.APP_ACTIONS` (quit, help, focus, the palette);
* an action of a screen that declares ``SEAT_ACTIONS`` (the table screens and the end screens, which also carry
  the keys of a local game: next mission, play again, campaign): only those it lists;
* a dialog or a widget the table opened (its own keys: choose, close, scroll): allowed.

So a key added to the shell or to a table screen for local games is refused at a seat until it is listed as a
seat's, and the footer and the palette show only what the gate allows.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from textual import actions
from textual.app import SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from crewkit.tui.frame import FrameApp
from crewkit.tui.remote import HostSeat

if TYPE_CHECKING:
    from crewkit.net.client import TableClient
    from crewkit.tui.screens.game_table import GameTableScreen

__all__ = ["SeatApp", "seat_help"]

#: what a seat's help says after the family's keys and rules
SEAT_NOTE = ("The person who hosts runs the game, keeps its record and opens the next game: this window is your seat "
             "at their table and nothing else.")


def seat_help(seat: HostSeat) -> str:
    """The help of a seat at a hosted table: the keys of its family's table at a seat and the game's rules in
    short (the family's), and what a seat is."""
    from crewkit.errors import CrewkitError
    from crewkit.games import TRICK_TAKING, family_named
    from crewkit.tui.family import NO_HELP, help_of

    try:
        text = help_of(family_named(str(seat.client.welcome.get("family") or TRICK_TAKING)), remote=True)
    except CrewkitError:
        text = NO_HELP
    return f"{text}\n{SEAT_NOTE}\n"


@lru_cache(maxsize=64)
def _parsed(entries: frozenset[str]) -> frozenset[tuple[str, tuple[object, ...]]]:
    """A screen's ``SEAT_ACTIONS`` as (name, parameters); no parameters: the action with any."""
    out = set()
    for entry in entries:
        _, name, params = actions.parse(entry)
        out.add((name, tuple(params)))
    return frozenset(out)


class SeatApp(FrameApp):
    """A seat at a hosted table: the family's table screen is the app's only screen of its own."""

    SUB_TITLE = "a seat at a hosted table"
    BINDINGS = [Binding("ctrl+q", "quit", "Leave the table", priority=True, show=False)]
    #: the app's own actions a seat may run (anything else of Textual's or of a shell's is refused)
    APP_ACTIONS = frozenset({"quit", "help", "help_quit", "focus_next", "focus_previous", "command_palette", "bell"})
    #: Textual's own keys on every screen (select and copy text)
    SCREEN_ACTIONS = frozenset({"copy_text"})

    def __init__(self, seat: HostSeat) -> None:
        super().__init__()
        from crewkit.campaign.home import crewkit_home
        from crewkit.tui.settings import load_settings

        self.seat = seat
        seat.on_new_game = self._new_game
        self.games = 1  # the table's games this seat has sat at (the host's ``next`` opens another)
        self.session: Any = None  # a local game's session: a seat never holds one (the end screen asks)
        self.fatal_message: str | None = None  # why the app stopped (said by ``crewkit join``)
        self.exit_note: str | None = None  # a word for the terminal once the app has closed (the seat left)
        # the player's own settings (the bell, the table's stops) are read, never written
        self.settings, self._settings_notes = load_settings(crewkit_home(create=False))

    bot_delay = 0.0  # the host's bots play at the host's pace

    # ------------------------------------------------------------------ the gate
    def seat_allows(self, target: DOMNode, name: str, params: tuple[object, ...]) -> bool:
        """Whether a seat may run the action ``name(params)`` of ``target`` (see the module's words)."""
        if target is self:
            return name in self.APP_ACTIONS
        if isinstance(target, Screen):
            listed = getattr(target, "SEAT_ACTIONS", None)
            if listed is None or name in self.SCREEN_ACTIONS:
                return True
            allowed = _parsed(frozenset(listed))
            return (name, ()) in allowed or (name, tuple(params)) in allowed
        return True

    async def run_action(self, action: Any, default_namespace: DOMNode | None = None,
                         namespaces: Any = None) -> bool:
        target, name, params = self._parse_action(action, self if default_namespace is None else default_namespace,
                                                  namespaces)
        if not self.seat_allows(target, name, tuple(params)):
            return False
        return await super().run_action(action, default_namespace, namespaces)

    def _check_action_state(self, action: Any, default_namespace: DOMNode) -> bool | None:
        """What the footer shows: an action the gate refuses is not shown at all."""
        target, name, params = self._parse_action(action, default_namespace)
        if not self.seat_allows(target, name, tuple(params)):
            return False
        return super()._check_action_state(action, default_namespace)

    # ------------------------------------------------------------------ the table
    def get_default_screen(self) -> Screen[Any]:
        """A blank base: each game's table is pushed on it (:meth:`on_mount`) and goes with its game (the host's
        next game replaces it, :meth:`_switch`), so the screens of the games before never stay stacked."""
        return Screen()

    def table_screen_of(self, seat: HostSeat) -> Screen[Any]:
        """The table of the family of the host's game (its terminal face draws a joined seat's session)."""
        from crewkit.games import TRICK_TAKING, family_named
        from crewkit.tui.family import terminal_of

        face = terminal_of(family_named(str(seat.client.welcome.get("family") or TRICK_TAKING)))
        return face.table(seat, 0.0)

    def _new_game(self, client: TableClient) -> None:
        """The host opened the table's next game and this seat's connection joined it: its table opens."""
        self.run_worker(self._switch(client), group="next-game", exit_on_error=False)

    async def _switch(self, client: TableClient) -> None:
        from crewkit.tui.join import remote_session

        try:
            await client.until(lambda m: m["type"] == "state", timeout=15)
        except TimeoutError:
            await client.close()
            self.fail("the host sent no table for its next game within 15 seconds")
            return
        session, why = remote_session(client)
        if session is None:
            await client.close()
            self.fail(f"the host's next game cannot be drawn here ({why}): join again with the same link")
            return
        seat = session()
        seat.on_new_game = self._new_game
        self.seat = seat
        self.games += 1
        self.clear_notifications()
        while len(self.screen_stack) > 1:  # the game before's screens go: its end screen, any dialog, its table
            await self.pop_screen()
        await self.push_screen(self.table_screen_of(seat))

    def on_mount(self) -> None:
        from crewkit.tui.safe import shown

        self.push_screen(self.table_screen_of(self.seat))

        for note in self._settings_notes:
            self.notify(shown(note), title="crewkit", severity="warning", timeout=8)

    def table(self) -> GameTableScreen | None:
        """The table screen (the app's first screen)."""
        from crewkit.tui.screens.game_table import GameTableScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameTableScreen):
                return screen
        return None

    def fail(self, message: str, code: int = 1) -> None:
        """Stop on an error the seat cannot play on: ``crewkit join`` says ``message`` and exits with ``code``."""
        self.fatal_message = message
        self.exit(code, return_code=code)

    def action_help(self) -> None:
        from crewkit.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(seat_help(self.seat)))

    # ------------------------------------------------------------------ the command palette
    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The keys the seat has on ``screen`` (those its footer shows: the gate allows them), and help: none of
        Textual's own commands (no screenshot, no theme) and none of the shell's."""
        seen = set()
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if not (active.enabled and binding.show and binding.description) or binding.description in seen:
                continue
            seen.add(binding.description)
            action, namespace = binding.action, active.node

            async def run(action: str = action, namespace: DOMNode = namespace) -> None:
                await self.run_action(action, namespace)

            yield SystemCommand(binding.description, f"key {binding.key_display or key}", run)
        if "Help" not in seen:
            yield SystemCommand("Help", "The table's keys and the rules in short", self.action_help)
