"""Every attempt of a mission, listed and found again: ``crewkit campaign status`` prints each attempt's
reference (``@12``: the logbook's attempt number), date, outcome and game record; ``crewkit review @12`` and
the logbook screen open that record again (pure functions over the logbook's :class:`Attempt` rows)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from crewkit.campaign.store import Attempt, Logbook
from crewkit.errors import CrewkitError

REF_PATTERN = re.compile(r"@([0-9]+)")


class AttemptRefError(CrewkitError):
    """An attempt reference that names no reviewable attempt (exit 1): the message says which and why."""


def attempt_ref(attempt: Attempt) -> str:
    """``@12``: how an attempt is named on the command line (``crewkit review @12``)."""
    return f"@{attempt.id}"


def ref_number(text: str) -> int | None:
    """The attempt number of a reference (``@12`` -> 12); None when ``text`` is not a reference."""
    m = REF_PATTERN.fullmatch(text.strip())
    return int(m.group(1)) if m else None


def when_text(when: datetime) -> str:
    """An attempt's date as the listing shows it (UTC, to the minute)."""
    return when.strftime("%Y-%m-%d %H:%M UTC")


def record_file(attempt: Attempt, logbook: Path) -> Path | None:
    """Where the attempt's game record is: its stored path; None when the attempt kept no record (an abandoned
    attempt). A host keeps its tables' records by the path its ``--dir`` was given, maybe relative to where it
    ran: such a path is looked for from here, then from the logbook's folder and the folder above it."""
    if not attempt.record_path:
        return None
    path = Path(attempt.record_path).expanduser()
    if path.is_absolute():
        return path
    tries = [path, logbook.parent / path, logbook.parent.parent / path]
    return next((p for p in tries if p.is_file()), path)


def find_record(ref: str, logbook: Path | None = None) -> tuple[Attempt, Path]:
    """The attempt ``ref`` (``@12``) names in the logbook (yours, or ``logbook``) and its record file, or
    :class:`AttemptRefError` saying what is wrong: no such attempt, no record kept, the file gone."""
    number = ref_number(ref)
    if number is None:
        raise AttemptRefError(f"{ref}: an attempt reference is @ and the attempt's number, as `crewkit campaign "
                              "status` lists them (e.g. @12)")
    if logbook is not None and not logbook.is_file():
        raise AttemptRefError(f"{ref}: --logbook {logbook}: no such file")
    with Logbook.open(logbook, read_only=True) as book:
        found = [a for a in book.attempts() if a.id == number]
        where = book.path
    if not found:
        raise AttemptRefError(f"{ref}: the logbook {where} has no attempt {number}; `crewkit campaign status` "
                              "lists the attempts with their references")
    attempt = found[0]
    path = record_file(attempt, where)
    what = f"{ref} ({attempt.mission}, {when_text(attempt.when)}, {attempt.result})"
    if path is None:
        raise AttemptRefError(f"{what}: no game record was kept for this attempt"
                              + (" (it was abandoned before its end)" if attempt.result == "abandoned" else ""))
    if not path.is_file():
        raise AttemptRefError(f"{what}: its game record {path} is no longer there")
    return attempt, path


def attempt_json(attempt: Attempt, logbook: Path) -> dict[str, Any]:
    path = record_file(attempt, logbook)
    return {"ref": attempt_ref(attempt), "id": attempt.id, "when": attempt.when.isoformat(),
            "result": attempt.result, "reason": attempt.reason, "players": attempt.players,
            "record": None if path is None else str(path)}


def by_mission(attempts: Sequence[Attempt]) -> dict[str, list[Attempt]]:
    out: dict[str, list[Attempt]] = {}
    for a in attempts:
        out.setdefault(a.mission, []).append(a)
    return out


def attempts_text(missions: Sequence[str], attempts: Mapping[str, Sequence[Attempt]], titles: Mapping[str, str],
                  logbook: Path) -> str:
    """Each attempt of each mission (in the campaign's order): reference, date, outcome, players, record."""
    lines = ["attempts (review one with `crewkit review @N`, or its record file):"]
    for number, mission in enumerate(missions, start=1):
        rows = attempts.get(mission) or []
        if not rows:
            continue
        title = titles.get(mission, "")
        lines.append(f"  {number}. " + (f"{title} ({mission})" if title and title != "?" else mission))
        width = max(len(attempt_ref(a)) for a in rows)
        for a in rows:
            path = record_file(a, logbook)
            lines.append(f"    {attempt_ref(a):<{width}}  {when_text(a.when)}  {a.result:<9}  {a.players} players  "
                         + (str(path) if path is not None else "no record"))
    if len(lines) == 1:
        lines.append("  none yet")
    return "\n".join(lines)


__all__ = ["AttemptRefError", "attempt_json", "attempt_ref", "attempts_text", "by_mission", "find_record",
           "record_file", "ref_number", "when_text"]
