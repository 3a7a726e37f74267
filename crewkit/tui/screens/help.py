"""Help: the table's keys and the game's rules in short, each family's own (its terminal face's optional
``help_text``, :func:`crewkit.tui.family.help_of`), and the shell's topics (campaigns, the screens around a
table) when the shell shows it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from crewkit.tui.footer import FitFooter

#: the shell's own topics: the screens around a table, for every family
SHELL_TOPICS = """\
[b]Campaigns[/]  (crewkit play --campaign NAME, FOLDER, campaign.yaml or .zip)
  c in the mission list opens the campaign chooser: every bundled and installed campaign with its progress.
  A campaign may open its missions in order (the others show "locked") and tell a chapter in the briefing.

[b]Elsewhere[/]
  Campaign: ↑ ↓ Enter to open a mission briefing; Enter on the briefing starts the attempt.
  End of mission: r play again, n next mission, c campaign, Esc look at the final table.
  Hotseat (several human seats): a hand-over screen hides the hands between turns.
  Quitting mid-mission saves the attempt; starting the mission again offers to resume it.
"""


def shell_help(family_text: str) -> str:
    """The shell's help: the family's table and rules (``family_text``), then the shell's topics."""
    return f"{family_text}\n{SHELL_TOPICS}" if family_text else SHELL_TOPICS


def reflowed(text: str) -> str:
    """Continuation lines (indented deeper than the line they continue) joined to it, so the text wraps to
    the terminal's width (80 columns too) instead of breaking at fixed places."""
    out: list[str] = []
    indent_of_last = 0
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if out and stripped and indent > indent_of_last and not out[-1].startswith("[b]") and out[-1].strip():
            out[-1] = f"{out[-1].rstrip()} {stripped}"
            continue
        out.append(line)
        indent_of_last = 0 if stripped.startswith("• ") else indent
    return "\n".join(out)


class HelpScreen(Screen[None]):
    """The one help screen of the app shell: ``text`` is the family's rules in short and keys (Rich markup,
    headings in ``[b]``; a line indented deeper than the one before continues it, see :func:`reflowed`)."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "close", "Back")]

    def __init__(self, text: str) -> None:
        super().__init__(id="help")
        self.text = text

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(reflowed(self.text), id="help-text")
        yield FitFooter()

    def action_close(self) -> None:
        self.dismiss(None)
