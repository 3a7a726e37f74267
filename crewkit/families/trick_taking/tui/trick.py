"""The trick on the table: the cards played so far with their seats; the finished trick until the next lead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.families.trick_taking.tui.words import card_text
from crewkit.tui.text import seat_label


def trick_text(plays: Sequence[tuple[int, Any]], players: int, leader: int, kinds: Sequence[str],
               viewer: int | None, to_act: int | None = None) -> Text:
    """One line per seat in play order from the leader: ``You     pink 7``."""
    out = Text()
    played = dict(plays)
    for i in range(players):
        seat = (leader + i) % players
        name = seat_label(seat, kinds, viewer)
        out.append(f"  {name:<16}", style="bold" if seat == viewer else "")
        card = played.get(seat)
        if card is not None:
            out.append_text(card_text(card))
        elif seat == to_act:
            out.append("… to play", style="italic")
        else:
            out.append("·", style="dim")
        out.append("\n")
    return out


class TrickView(Static):
    """The current trick; between tricks the one just finished, with its winner."""

    DEFAULT_CSS = """
    TrickView { height: auto; min-height: 7; }
    """

    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None) -> None:
        out = Text()
        if obs.current_trick:
            out.append(f"Trick {obs.trick_number} of {obs.total_tricks}", style="bold")
            led = obs.led_suit
            if led is not None:
                out.append(f"   led: {led.name}", style="dim")
            out.append("\n")
            leader = obs.current_trick[0][0]
            out.append_text(trick_text(obs.current_trick, obs.players, leader, kinds, viewer, obs.to_act))
        elif obs.tricks:
            last = obs.tricks[-1]
            out.append(f"Trick {last.number} of {obs.total_tricks}", style="bold")
            out.append(" — won by ", style="")
            out.append(seat_label(last.winner, kinds, viewer), style="bold")
            out.append(" with ")
            out.append_text(card_text(last.winning_card))
            out.append("\n")
            out.append_text(trick_text(last.plays, obs.players, last.leader, kinds, viewer))
        else:
            out.append(f"Trick {obs.trick_number} of {obs.total_tricks}", style="bold")
            out.append("\n  no card played yet\n", style="dim")
        out.rstrip()
        self.update(out)
