"""Help: the rules in short and every key, for every family (the Crew's text by default; a family's table
gives its own, e.g. Not Alone's)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from crewkit.tui.footer import FitFooter

KEYS = """\
[b]Keys at the table[/]
  ← →, 1–9 0 - = [ ]  move in your hand (b g y p r: next card of that suit)
  Enter, or a click   play the selected card (or pass it: distress signal)
  ↑ ↓ and Enter       choose in a list: the task draft and the other choices
  c  communicate (any time: the table stops at the next window for you)
  d  distress signal  t  last trick          l  logbook        o  settings
  k  card tracker     h  hint (marks the attempt "with hints")
  u  take back your last card (practice games: p on the briefing)
  space               go on when the table waits (setting: stop every trick)
  after the end       n next   r play again   c campaign   Esc results
  Tab                 next panel: your hand, the tasks, a list of choices
  ↑ ↓ in the tasks    scroll them when they do not fit ("more below" shows)
  ?  help      ctrl+p  command palette      q  quit (the attempt is saved)
"""

#: the Crew's rules in short: the help of the shell and of a seat at a hosted table (crewkit.tui.seat)
CREW_RULES = """\
[b]The Crew in short[/]
• 40 cards: blue, green, yellow, pink 1–9 and rockets 1–4, all dealt. Rocket 4's holder is [b]commander[/]
  and leads the first trick.
• [b]Tasks[/]: revealed task cards are drafted one each, clockwise from the commander. The owner of a task
  must win the trick containing that card. Tokens 1–5 / Ω (last) / > >> >>> >>>> fix an order.
• [b]Tricks[/]: follow the led suit if you can (any rank); otherwise play anything, a rocket included.
  The highest rocket wins, else the highest card of the led colour. The winner leads next.
• The mission [b]succeeds[/] when every task is done; it [b]fails[/] at once when a task card goes to the
  wrong player, an order is broken, a condition is broken, or the hands run out.
• [b]Communication[/] (once per attempt, between tricks): show one colour card and say whether it is your
  highest, lowest or only card of its colour — only a true statement can be made. Dead zone: the others
  do not learn which. Disruption N: not before trick N.
• [b]Distress signal[/]: after the draft, before any communication or trick, every player passes one colour
  card to the same neighbour. A success with it counts one extra attempt.
• Nothing else about your hand may be said. Only the last trick may be looked at again.

[b]Cards[/]  rank and suit sign, in the suit's colour: ◆ blue  ♣ green  ● yellow  ♥ pink  ▲ rocket  ▼ submarine  ■ red
  A card you cannot play now keeps its colour, dimmed; the playable ones are underlined.
"""

SHELL_TOPICS = """\
[b]Campaigns[/]  (crewkit play --campaign NAME, FOLDER, campaign.yaml or .zip)
  c in the mission list opens the campaign chooser: every bundled and installed campaign with its progress.
  A campaign may open its missions in order (the others show "locked") and tell a chapter in the briefing.

[b]Variants[/]  (crewkit play --ruleset NAME)
  crew-jarvis (2 players): JARVIS is a third seat with face-up cards; the commander first chooses its seat,
    then decides its tasks and plays its cards: on JARVIS's turn your hand shows "JARVIS plays".
  crew-persian (--mission persian or persian/level-N): your secret mission cards are shown to you only;
    complete them in number order. The commander may signal one card during a trick: s (or c).
  hammer (--mission hammer or hammer/NN): 8 rounds; the dealer chooses the mission card and its mode in the
    list (↑ ↓ Enter). A chip table follows every round (Enter deals the next); final standings at the end.
    Hammer and Persian games are not counted in the campaign logbook; a game record is still written.

[b]Elsewhere[/]
  Campaign: ↑ ↓ Enter to open a mission briefing; Enter on the briefing starts the attempt.
  End of mission: r play again, n next mission, c campaign, Esc look at the final table.
  Hotseat (several human seats): a hand-over screen hides the hands between turns.
  Quitting mid-mission saves the attempt; starting the mission again offers to resume it.
"""

HELP = f"{KEYS}\n{CREW_RULES}\n{SHELL_TOPICS}"


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

    def __init__(self, text: str = HELP) -> None:
        super().__init__(id="help")
        self.text = text

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(reflowed(self.text), id="help-text")
        yield FitFooter()

    def action_close(self) -> None:
        self.dismiss(None)
