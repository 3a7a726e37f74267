"""The crew around the table: commander, turn, cards left, tricks won, and each communicated card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.families.trick_taking.tui.mission_words import commander_word
from crewkit.families.trick_taking.tui.words import STATEMENT_WORDS, card_text, short_card
from crewkit.tui.sizes import SHORT_ROWS
from crewkit.tui.text import plural, seat_label


def crew_text(obs: Any, kinds: Sequence[str], viewer: int | None, *, dealer: int | None = None,
              dummy_columns: Sequence[tuple[Any, int]] | None = None, chips: Sequence[str] | None = None,
              narrow: bool = False, short: bool = False) -> Text:
    """The seats; ``dealer`` marks Hammer's dealer (★ then means dealer); ``dummy_columns``: JARVIS's columns
    as (face-up card or None, how many face-down cards under it): the face-up card stands over its stack, the
    face-down cards are only counted (never shown), and JARVIS's card count includes them. ``narrow`` (80
    columns): one line per seat, a played communication struck through instead of "· played". ``short`` (24
    rows): without the title line and the distress line (:func:`crew_title` and :func:`distress_words` go on
    the panel's border), the rows go to the tasks."""
    out = Text()
    if not short:
        out.append_text(crew_title(dealer is not None, narrow, commander_word(obs.rules)))
        out.append("\n")
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
    if obs.distress_direction and not short:
        out.append(f"  {distress_words(obs)}\n", style="bold red")
    out.rstrip()  # no empty last line: the panel is as tall as its seats
    return out


def crew_title(hammer: bool, narrow: bool, commander: str = "commander") -> Text:
    """``Crew  ★ commander  ▶ to act`` (Hammer: ``Players  ★ dealer``; the ✉ legend where there is room);
    ``commander``: the rule set's word for it (:func:`crewkit.tui.text.commander_word`)."""
    star = "★ dealer" if hammer else f"★ {commander}"
    legend = "" if narrow or hammer else "  ✉ communicated card"  # Hammer: no communication
    return Text.assemble(("Players" if hammer else "Crew", "bold"), (f"  {star}  ▶ to act{legend}", "dim"))


def distress_words(obs: Any) -> str:
    return f"Distress signal used: cards passed {obs.distress_direction}" if obs.distress_direction else ""


class CrewView(Static):
    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None, *, dealer: int | None = None,
             dummy_columns: Sequence[tuple[Any, int]] | None = None, chips: Sequence[str] | None = None) -> None:
        narrow = self.app.size.width < 100
        short = self.app.size.height < SHORT_ROWS
        self.update(crew_text(obs, kinds, viewer, dealer=dealer, dummy_columns=dummy_columns, chips=chips,
                              narrow=narrow, short=short))
        # a short terminal: the title and the distress signal on the border, the rows to the tasks panel
        self.border_title = crew_title(dealer is not None, narrow, commander_word(obs.rules)) if short else None
        distress = distress_words(obs) if short else ""
        self.border_subtitle = Text(distress, style="bold red") if distress else None
