"""The trick-taking table's help (:meth:`crewkit.tui.family.FamilyTUI.help_text`): its keys, at the terminal or at a
seat joined to a hosted table, the Crew's rules in short and its variants. Rich markup, headings in ``[b]``; a line
indented deeper than the one before continues it (the help screen wraps it at any width)."""

from __future__ import annotations

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

SEAT_KEYS = """\
[b]Keys at a hosted table[/]
  ← →, 1–9 0 - = [ ]  move in your hand (b g y p r: next card of that suit)
  Enter, or a click   play the selected card (or pass it: distress signal)
  ↑ ↓ and Enter       choose in a list: the task draft and the other choices
  c  communicate (any time: the table stops at the next window for you)
  s  signal a card (Persian reading)   d  distress signal   t  last trick   k  card tracker
  space               go on when the table waits
  Tab                 next panel: your hand, the tasks, a list of choices
  after the end       w where it went wrong (the host's review), Esc results, Esc again: the table
  ?  help      ctrl+p  the table's commands      q  leave (join again with your link)
"""


#: the Crew's rules in short
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

VARIANTS = """\
[b]Variants[/]  (crewkit play --ruleset NAME)
  crew-jarvis (2 players): JARVIS is a third seat with face-up cards; the commander first chooses its seat,
    then decides its tasks and plays its cards: on JARVIS's turn your hand shows "JARVIS plays".
  crew-persian (--mission persian or persian/level-N): your secret mission cards are shown to you only;
    complete them in number order. The commander may signal one card during a trick: s (or c).
  hammer (--mission hammer or hammer/NN): 8 rounds; the dealer chooses the mission card and its mode in the
    list (↑ ↓ Enter). A chip table follows every round (Enter deals the next); final standings at the end.
    Hammer and Persian games are not counted in the campaign logbook; a game record is still written.
"""


def help_text(remote: bool) -> str:
    """The table's keys (a seat's at a hosted table: ``remote``), the rules in short and, at the terminal, the
    variants a player may start."""
    if remote:
        return f"{SEAT_KEYS}\n{CREW_RULES}"
    return f"{KEYS}\n{CREW_RULES}\n{VARIANTS}"


__all__ = ["CREW_RULES", "KEYS", "SEAT_KEYS", "VARIANTS", "help_text"]
