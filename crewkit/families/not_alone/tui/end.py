"""Not Alone: the end of the game (who won, why, both tracks), its log and places to read, and its rules and
keys in short (shown by the app shell's help screen)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from crewkit.families.not_alone.observation import BoardObservation
from crewkit.families.not_alone.tui.text import reason_of
from crewkit.tui.footer import FitFooter
from crewkit.tui.screens.dialogs import QUIT_BINDING, quit_from_dialog
from crewkit.tui.screens.end import GameEndScreen


class HuntEndScreen(GameEndScreen):
    """Dismissed with ``new`` (another game, same seats), ``quit``, or ``table`` (look at the final table)."""

    BINDINGS = [
        Binding("n", "choose('new')", "New game"),
        Binding("escape", "choose('table')", "Look at the table"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("w", "review", "Where it went wrong", show=False),  # the trick-taking end's key: said, not broken
    ]
    PALETTE_IN_FOOTER = False
    SEAT_ACTIONS = frozenset({"choose('table')", "choose('quit')"})  # a seat leaves; the host opens the next game

    #: what ``w`` says here
    NO_REVIEW = "There is no review for Not Alone: the review uses the solver, which searches trick-taking games."

    def action_review(self) -> None:
        # said in the dialog itself: the app holds notifications back while a dialog is open
        text = self.body()
        text.append("\n\n" + self.NO_REVIEW, style="yellow")
        self.query_one(f"#{self.id}-text", Static).update(text)

    def __init__(self, obs: BoardObservation, headline: str, personal: bool = True, note: str = "",
                 hosted: bool = False) -> None:
        """``personal``: say "You win" to the seat at the keyboard (not at a hotseat table of both sides);
        ``note``: where the game's record went (or why it could not be written); ``hosted``: a seat at a hosted
        table (the host opens the next game: ``n`` is not offered)."""
        super().__init__(id="hunt-end")
        self.obs = obs
        self.headline = headline
        self.personal = personal
        self.note = note
        self.hosted = hosted

    def body(self) -> Text:
        obs = self.obs
        you_won = obs.seat in obs.winners
        body = Text()
        body.append(self.headline + "\n", style="bold green" if you_won or not self.personal else "bold red")
        if self.personal:
            body.append("You win!\n" if you_won else "You lose.\n", style="bold")
        reason = reason_of(obs)
        if reason:
            body.append(f"\n{reason[:1].upper() + reason[1:]}.\n")
        body.append(f"After {obs.round} round{'s' if obs.round != 1 else ''}: ")
        body.append(
            ", ".join(
                f"{t.capitalize()} {p} of {g}"
                for t, (p, g) in sorted(obs.tracks.items(), key=lambda t: t[0] != "rescue")
            )
        )
        body.append(".\n\n")
        if self.note:
            body.append(self.note + "\n\n", style="dim")
        keys = "Esc: look at the table   q: leave" if self.hosted else \
            "n: a new game (same seats)   Esc: look at the table   q: quit"
        body.append(keys, style="bold")
        return body


# Not Alone's content of the shell's help screen (crewkit.tui.screens.help.HelpScreen): one line per paragraph
# (the screen wraps it at any width: a hard break made 80 columns wrap mid-sentence); the key lines stay under
# 76 columns
HELP = """\
[b]Not Alone[/]: one Creature against the Hunted on the planet Artemia.

[b]Each round[/]
1. Exploration: every Hunted plays a place card face down (or first Resists: spend will to take back discarded cards; or Gives Up: all will and cards back, the Assimilation counter moves).
2. Hunting: the Creature puts its Creature token (and the Target or Artemia token when a card or the Rescue track allows it) on places.
3. Reckoning: the cards are revealed; from the Creature's left each Hunted uses their place's power or takes a card back, unless a token is there: the Creature token costs a will and moves the Assimilation counter; the Artemia token makes you discard a place card.
4. End of the round: the Rescue counter moves forward one space.

The Hunted win when the Rescue counter reaches its goal, the Creature when the Assimilation counter does: at once, whatever the phase.

[b]Keys[/]
  Enter      open your choice again (after Esc)
  ↑ ↓ Enter  choose in a dialog; a place's number (0: the 10th) picks it
  p          the planet: the arrows show each place's power under it
  i          every place's power in full
  g          the game log from its first line: why each track moved
  Esc        back, or close the dialog to look at the table
  q          quit

On the planet: C the Creature token, T the Target token, A the Artemia token, ◉ the marker on the Beach, ×2 copies left in the reserve, and the names of the Hunted revealed on each place."""


class HuntLogScreen(ModalScreen[None]):
    """The game's log as this seat was shown it, from its first line, to scroll (``g``): why each track moved."""

    BINDINGS = [Binding("escape,g,enter", "close", "Close"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, lines: tuple[str, ...]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        text = Text()
        for line in self.lines or ("Nothing has happened yet.",):
            text.append(line + "\n", style="bold" if line.startswith(("Round ", "The game ends")) else "")
        with VerticalScroll(classes="dialog", id="hunt-log-all"):
            yield Static(Text("Game log", style="bold"))
            yield Static(text, id="hunt-log-text")
        yield FitFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#hunt-log-all", VerticalScroll).scroll_end(animate=False)  # the latest lines first in sight

    def action_close(self) -> None:
        self.dismiss(None)


class HuntPlacesScreen(ModalScreen[None]):
    """Every place of the planet with its whole power (``i``), to scroll; the place under the planet's cursor
    is marked and in sight."""

    BINDINGS = [Binding("escape,i,enter", "close", "Close"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, places: list[tuple[int, str, str]], cursor: int | None = None) -> None:
        super().__init__()
        self.places = places
        self.cursor = cursor

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="hunt-places"):
            yield Static(Text("The places of the planet", style="bold"))
            for number, name, power in self.places:
                text = Text()
                text.append("▶ " if number == self.cursor else "  ", style="bold yellow")
                text.append(f"{number} {name}: ", style="bold yellow" if number == self.cursor else "bold")
                text.append(power)
                yield Static(text, id=f"hunt-place-{number}", classes="hunt-place")
        yield FitFooter(show_command_palette=False)

    def on_mount(self) -> None:
        if self.cursor is not None:
            self.query_one(f"#hunt-place-{self.cursor}", Static).scroll_visible(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
