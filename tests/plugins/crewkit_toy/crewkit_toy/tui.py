"""The toy family at the terminal: crewkit's app shell asks for its session and its table screen here (the
family's ``tui`` names this module's TERMINAL); nothing of crewkit names the toy.

The table: your hand (← → choose a card, Enter plays it), the round's cards, the rounds won; bots play the other
seats. When the game ends its record is written and the end says who won (n: a new game, q: leave). The same
table draws a seat joined to a hosted toy table (``crewkit join``): :class:`ToyRemoteSession`, built on the shell's
:class:`crewkit.tui.remote.HostSeat`, holds that seat's view from the host's messages and sends its plays.
"""

from __future__ import annotations

import secrets
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.errors import UsageError
from crewkit.games import family_for
from crewkit.games.protocol import GameInPlay, SeatPlayer
from crewkit.net.client import TableClient
from crewkit.tui.options import PlayOptions, normalise_seats
from crewkit.tui.remote import HOST_DECIDES, HostSeat
from crewkit.tui.screens.end import GameEndScreen
from crewkit.tui.screens.game_table import GameTableScreen
from crewkit.tui.services import Services


class ToySession:
    """A table of the toy game: who sits where, the bots, the game in play; its record written when it ends."""

    def __init__(self, ruleset: str, options: PlayOptions, services: Services) -> None:
        self.ruleset = ruleset
        self.family = family_for(ruleset)
        self.services = services
        players = options.players or (len(options.seats) if options.seats else 3)
        self.kinds = normalise_seats(options.seats, players, True, options.bot or self.family.default_bot)
        bad = [k for k in self.kinds if k not in ("human", *self.family.bot_names())]
        if bad:
            raise UsageError(f"--seats: no toy bot {bad[0]!r}; toy bots: {', '.join(self.family.bot_names())}")
        self.players = players
        self.seed = options.seed or secrets.token_hex(4)
        self.record_path: str | None = None
        self.new_game(self.seed)

    def new_game(self, seed: str) -> None:
        self.seed = seed
        names = ["You" if k == "human" else f"Bot {s + 1}" for s, k in enumerate(self.kinds)]
        self.game: GameInPlay = self.family.open(self.ruleset, None, self.players, seed, None, names)
        self.bots: dict[int, SeatPlayer] = {s: self.family.seat_players(self.game, kind, seed)[s]
                                            for s, kind in enumerate(self.kinds) if kind != "human"}

    # the shell's saves: this table keeps none
    def saved_record(self) -> dict[str, Any] | None:
        return None

    def resume(self, record: dict[str, Any]) -> str | None:
        return "the toy table keeps no saves"

    def discard_saved(self) -> None:
        return None

    def abandon(self, record: dict[str, Any]) -> None:
        return None

    def finish(self) -> str:
        """The end in words; the record written (once)."""
        if self.record_path is None:
            try:
                self.record_path = str(self.services.write_record(self.game.record(), self.ruleset, self.seed))
            except OSError as exc:
                self.record_path = f"not written: {exc}"
        return f"{self.game.outcome().words()}\nRecord: {self.record_path}"


class HostedToyGame:
    """The host's game as one joined seat sees it (what :class:`ToyTable` reads of a game): its own hand from
    the host's ``state`` messages; its plays go to the host, which checks them."""

    def __init__(self, seat: ToyRemoteSession) -> None:
        self.seat = seat

    @property
    def state(self) -> dict[str, Any]:
        return self.seat.state or {}

    def observation(self, seat: int) -> dict[str, Any]:
        if seat != self.seat.seat:
            raise IllegalAction("not-your-seat", "a hosted table's client holds its own seat's view only")
        return dict(self.state.get("observation") or {"hand": [], "trick": [], "won": []})

    @property
    def to_act(self) -> int | None:
        if self.is_over():
            return None
        to_act = (self.state.get("observation") or {}).get("to_act")
        return to_act if isinstance(to_act, int) else None

    def is_over(self) -> bool:
        return bool(self.state.get("over"))

    def legal_actions(self, seat: int) -> list[Action]:
        from .family import PlayNumber

        if seat != self.seat.seat or self.seat.sending:
            return []
        return [PlayNumber(seat, int(a["card"])) for a in self.state.get("legal") or () if a.get("type") == "play-number"]

    def apply(self, action: Action) -> None:
        self.seat._submit(action)  # the host's refusal, if any, comes back as a notice

    def words(self) -> str:
        return str((self.state.get("outcome") or {}).get("words") or "")


class ToyRemoteSession(HostSeat):
    """A seat joined to a hosted toy table: no bots here (the host plays them), no record (the host keeps it)."""

    def __init__(self, client: TableClient) -> None:
        super().__init__(client)
        self.game = HostedToyGame(self)
        self.bots: dict[int, SeatPlayer] = {}
        self.record_path: str | None = None
        if client.state is not None:
            self._take(client.state)

    @property
    def kinds(self) -> list[str]:
        return ["human" if s == self.seat else "away" for s in range(len(self.names) or 1)]

    def finish(self) -> str:
        return f"{self.named(self.game.words())}\n{HOST_DECIDES}"


class ToyEndScreen(GameEndScreen):
    BINDINGS = [Binding("n", "choose('new')", "New game"), Binding("escape", "choose('table')", "Look at the table"),
                Binding("q", "choose('quit')", "Quit")]

    def __init__(self, words: str) -> None:
        super().__init__(id="toy-end")
        self.words = words

    def body(self) -> Text:
        return Text(self.words)


class ToyTable(GameTableScreen):
    BINDINGS = [Binding("left", "move(-1)", "Left"), Binding("right", "move(1)", "Right"),
                Binding("enter", "play", "Play"), Binding("question_mark", "app.help", "Help", key_display="?"),
                Binding("q", "app.quit", "Quit")]

    def __init__(self, session: ToySession | ToyRemoteSession, delay: float) -> None:
        super().__init__(id="toy-table")
        self.session = session
        self.delay = delay
        self.cursor = 0
        self._scheduled = False
        self._ended = False

    def compose(self) -> ComposeResult:
        yield Static(id="toy-board")
        yield Footer()

    def on_mount(self) -> None:
        if isinstance(self.session, ToyRemoteSession):  # the host's messages, read in the app's loop, redraw it
            self.session.on_change = lambda: self.call_later(self.advance)
            self.run_worker(self.session.pump(), group="remote", exit_on_error=False)
        self.advance()

    @property
    def seat(self) -> int:
        if isinstance(self.session, ToyRemoteSession):
            return self.session.seat
        return self.session.kinds.index("human") if "human" in self.session.kinds else 0

    def draw(self) -> None:
        game = self.session.game
        obs = game.observation(self.seat)
        hand = obs["hand"]
        self.cursor = min(self.cursor, max(0, len(hand) - 1))
        text = Text(f"Rounds won: {obs['won']}\nOn the table: {[c for _, c in obs['trick']]}\nYour hand: ")
        if isinstance(self.session, ToyRemoteSession):  # the host's status line and its refusals
            text = Text(f"{self.session.connection_note or self.session.status()}\n") + text
            for notice in self.session.notices:
                text.append(f"\nNot done: {notice}")
        for i, card in enumerate(hand):
            text.append(f" {card} ", style="reverse" if i == self.cursor else "")
        self.query_one("#toy-board", Static).update(text)

    def advance(self) -> None:
        self.draw()
        game = self.session.game
        if game.is_over():
            if not self._ended:
                self._ended = True
                self.app.push_screen(ToyEndScreen(self.session.finish()), self.chosen)
            return
        seat = game.to_act
        if seat in self.session.bots and not self._scheduled:
            self._scheduled = True
            if self.delay > 0:
                self.set_timer(self.delay, self.bot_moves)
            else:
                self.call_later(self.bot_moves)

    def bot_moves(self) -> None:
        self._scheduled = False
        game = self.session.game
        seat = game.to_act
        if seat is not None and seat in self.session.bots:
            game.apply(self.session.bots[seat].act(game))
        self.advance()

    def action_move(self, step: int) -> None:
        hand = self.session.game.observation(self.seat)["hand"]
        if hand:
            self.cursor = (self.cursor + step) % len(hand)
        self.draw()

    def action_play(self) -> None:
        game = self.session.game
        if game.to_act != self.seat:
            return
        legal = game.legal_actions(self.seat)
        if legal:
            game.apply(legal[min(self.cursor, len(legal) - 1)])  # legal: the hand's cards in order
        self.advance()

    def chosen(self, what: str | None) -> None:
        if what == "quit":
            self.app.exit()
        elif what == "new" and isinstance(self.session, ToySession):
            self.session.record_path = None
            self.session.new_game(secrets.token_hex(4))
            self._ended = False
            self.advance()


class ToyTUI:
    def session(self, ruleset: str, options: PlayOptions, services: Services) -> ToySession:
        return ToySession(ruleset, options, services)

    def mission_session(self, start: Any, services: Services) -> ToySession:
        raise UsageError("toy rule sets play no mission")

    def remote_session(self, client: TableClient) -> tuple[Any, str]:
        return (lambda: ToyRemoteSession(client)), ""

    def make_bot(self, name: str, seat: int, seed: str) -> Any:
        raise UsageError("a toy table seats its own bots")

    def table(self, session: Any, delay: float) -> ToyTable:
        assert isinstance(session, ToySession | ToyRemoteSession)
        return ToyTable(session, delay)


TERMINAL = ToyTUI()
