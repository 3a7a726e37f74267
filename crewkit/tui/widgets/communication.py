"""The crew around the table: commander, turn, cards left, tricks won, and each communicated card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.tui.text import STATEMENT_WORDS, card_text, plural, seat_label, short_card


def crew_text(obs: Any, kinds: Sequence[str], viewer: int | None, *, dealer: int | None = None,
              dummy_columns: Sequence[tuple[Any, int]] | None = None, chips: Sequence[str] | None = None,
              narrow: bool = False) -> Text:
    """The seats; ``dealer`` marks Hammer's dealer (★ then means dealer); ``dummy_columns``: JARVIS's columns
    as (face-up card or None, how many face-down cards under it): the face-up card stands over its stack, the
    face-down cards are only counted (never shown), and JARVIS's card count includes them. ``narrow`` (80
    columns): one line per seat, a played communication struck through instead of "· played"."""
    out = Text()
    out.append("Crew" if dealer is None else "Players", style="bold")
    star = "★ commander" if dealer is None else "★ dealer"
    legend = "" if narrow or dealer is not None else "  ✉ communicated card"  # Hammer: no communication
    out.append(f"  {star}  ▶ to act{legend}\n", style="dim")
    chief = obs.commander if dealer is None else dealer
    won: dict[int, int] = {}
    for trick in obs.tricks:
        won[trick.winner] = won.get(trick.winner, 0) + 1
    comms = {c.seat: c for c in obs.communications}
    for seat in range(obs.players):
        out.append("▶ " if seat == obs.to_act else "  ", style="bold yellow")
        out.append("★ " if seat == chief else "  ", style="bold yellow")
        name = seat_label(seat, kinds, viewer)
        out.append(f"{name:<{9 if narrow else 14}}", style="bold" if seat == viewer else "")
        held = obs.hand_sizes[seat]
        if seat == obs.dummy_seat and dummy_columns is not None:
            held = sum((1 if up is not None else 0) + down for up, down in dummy_columns)
        cards = plural(held, "card")
        out.append(f"{cards:>8} {won.get(seat, 0):>2} won  ", style="dim")
        if chips is not None:
            out.append(f"{chips[seat]:>5} chips  " if narrow else f"{chips[seat]:>6} chips  ", style="bold")
        comm = comms.get(seat)
        if comm is not None:
            out.append("✉ ")
            said = Text()
            said.append_text(card_text(comm.card, short=narrow))
            said.append(f" {STATEMENT_WORDS.get(comm.statement or '', '(hidden)')}")
            if comm.played and narrow:
                said.stylize("strike dim")
            out.append_text(said)
            if comm.played and not narrow:
                out.append(" · played", style="red")
        elif obs.comm_used[seat]:
            out.append("✉ used", style="dim")
        out.append("\n")
        if seat == obs.dummy_seat:
            columns = list(dummy_columns) if dummy_columns is not None else [(c, 0) for c in obs.dummy_up]
            out.append("      face up   ", style="dim")
            for up, _ in columns:
                out.append_text(card_text(up, short=True) if up is not None else Text("·", style="dim"))
                out.append(" " * (4 - len(short_card(up) if up is not None else "·")))
            out.append("\n      face down ", style="dim")
            for _, down in columns:  # how many cards lie under each face-up card (which ones: never)
                label = "▒" * down if down <= 3 else f"▒{down}"
                out.append(f"{label or '·':<4}", style="dim")
            out.append("\n")
    if obs.distress_direction:
        out.append(f"  Distress signal used: cards passed {obs.distress_direction}\n", style="bold red")
    out.rstrip()  # no empty last line: the panel is as tall as its seats
    return out


class CrewView(Static):
    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None, *, dealer: int | None = None,
             dummy_columns: Sequence[tuple[Any, int]] | None = None, chips: Sequence[str] | None = None) -> None:
        narrow = self.app.size.width < 100
        self.update(crew_text(obs, kinds, viewer, dealer=dealer, dummy_columns=dummy_columns, chips=chips,
                              narrow=narrow))
