"""Words every table and the shell use: seats' labels (``You``, ``Bot 2``), plurals, an action by its record
form, text from a file made readable. Presentation only: no rule is decided here, and no family is imported: a
family's words for its cards, actions, missions and briefings are its own (the trick-taking
:mod:`crewkit.families.trick_taking.tui.words` and :mod:`crewkit.families.trick_taking.tui.mission_words`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

if TYPE_CHECKING:
    from crewkit.engine.actions import Action


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 trick``, ``2 tricks``, ``0 attempts``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def seat_label(seat: int | None, kinds: Sequence[str], viewer: int | None = None) -> str:
    """``You``, ``Bot 2``, ``Player 2`` (a hotseat human), ``JARVIS`` (the dummy seat), ``nobody``."""
    if seat is None:
        return "nobody"
    kind = kinds[seat] if 0 <= seat < len(kinds) else "human"
    if kind == "jarvis":
        return "JARVIS"
    names = getattr(kinds, "names", None)  # a hosted table: its people by name (crewkit.tui.remote.SeatNames)
    if names is not None and 0 <= seat < len(names):
        return "You" if seat == viewer else str(names[seat])
    humans = sum(1 for k in kinds if k == "human")
    if kind == "human":  # hotseat players are numbered among the humans, like the bots: JARVIS renames nobody
        number = sum(1 for k in kinds[: seat + 1] if k == "human")
        if humans == 1 or seat == viewer:
            return f"You (player {number})" if humans > 1 else "You"
        return f"Player {number}"
    # bots are numbered among the bots, in seat order: JARVIS taking a seat does not rename them
    return f"Bot {sum(1 for k in kinds[: seat + 1] if k not in ('human', 'jarvis'))}"


_SEAT_RE = re.compile(r"\b[Ss]eat (\d+)\b")


def name_seats(text: str, kinds: Sequence[str], viewer: int | None = None) -> str:
    """The engine's ``seat 2`` in a message by the player's name (``Bot 2``, ``You``)."""

    def sub(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return seat_label(seat, kinds, viewer) if 0 <= seat < len(kinds) else m.group(0)

    return _SEAT_RE.sub(sub, text)


def generic_label(action: Action) -> str:
    data: Mapping[str, Any] = action.to_json()
    kind = str(data.get("type", "action")).replace("-", " ").replace("_", " ")
    parts = []
    for key, value in data.items():
        if key in ("seat", "type"):
            continue
        if isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return kind + (f" ({'; '.join(parts)})" if parts else "")


_CITATION = re.compile(r"\s*\((?=[^()]*(?:\bseed \d+|RULES\.md|§))[^()]*\)|\s*;?\s*\bseed \d{3}\b(?: §\d+)?")


def player_text(text: str) -> str:
    """Text from a rule set for players: one paragraph, without the sources it cites (``seed 002 §5``)."""
    return " ".join(_CITATION.sub("", str(text)).split())


def plain(markup: str) -> str:
    """Rich markup to plain text (for tests and tooltips)."""
    return Text.from_markup(markup).plain


