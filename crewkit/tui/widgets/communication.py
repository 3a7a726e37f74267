"""The crew around the table: commander, turn, cards left, tricks won, and each communicated card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.tui.text import STATEMENT_WORDS, card_text, plural, seat_label


def crew_text(obs: Any, kinds: Sequence[str], viewer: int | None, *, dealer: int | None = None,
              dummy_down: Sequence[int] | None = None, chips: Sequence[str] | None = None) -> Text:
    """The seats; ``dealer`` marks Hammer's dealer (★ then means dealer); ``dummy_down`` counts JARVIS's
    face-down cards per column (the cards themselves are never shown)."""
    out = Text()
    out.append("Crew" if dealer is None else "Players", style="bold")
    star = "★ commander" if dealer is None else "★ dealer"
    out.append(f"   {star}  ▶ to act  ✉ communicated card\n", style="dim")
    chief = obs.commander if dealer is None else dealer
    won: dict[int, int] = {}
    for trick in obs.tricks:
        won[trick.winner] = won.get(trick.winner, 0) + 1
    comms = {c.seat: c for c in obs.communications}
    for seat in range(obs.players):
        out.append("▶ " if seat == obs.to_act else "  ", style="bold yellow")
        out.append("★ " if seat == chief else "  ", style="bold yellow")
        name = seat_label(seat, kinds, viewer)
        out.append(f"{name:<14}", style="bold" if seat == viewer else "")
        cards = plural(obs.hand_sizes[seat], "card")
        out.append(f"{cards:>8} {won.get(seat, 0):>2} won  ", style="dim")
        if chips is not None:
            out.append(f"{chips[seat]:>6} chips  ", style="bold")
        comm = comms.get(seat)
        if comm is not None:
            out.append("✉ ")
            out.append_text(card_text(comm.card))
            out.append(f" {STATEMENT_WORDS.get(comm.statement or '', '(hidden)')}")
            if comm.played:
                out.append(" · played", style="red")
        elif obs.comm_used[seat]:
            out.append("✉ used", style="dim")
        out.append("\n")
        if seat == obs.dummy_seat:
            out.append("      up: ", style="dim")
            for card in obs.dummy_up:
                out.append_text(card_text(card, short=True))
                out.append(" ")
            if dummy_down is not None:
                out.append("· face-down: " + " ".join(str(d) for d in dummy_down), style="dim")
            out.append("\n")
    if obs.distress_direction:
        out.append(f"  Distress signal used: cards passed to the {obs.distress_direction}\n", style="bold red")
    return out


class CrewView(Static):
    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None, *, dealer: int | None = None,
             dummy_down: Sequence[int] | None = None, chips: Sequence[str] | None = None) -> None:
        self.update(crew_text(obs, kinds, viewer, dealer=dealer, dummy_down=dummy_down, chips=chips))
