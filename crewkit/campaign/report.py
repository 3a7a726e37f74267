"""Plain-text campaign status (pure functions; the CLI may render the same data with rich)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from crewkit.campaign.store import MissionProgress

CURRENT_MARK = ">"
_HEADERS = ("#", "mission", "title", "attempts", "status")


class ProgressLine(Protocol):
    """A logbook line: :class:`MissionProgress`, or the app's copy of it."""

    @property
    def mission(self) -> str: ...
    @property
    def attempts(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def distress_used(self) -> bool: ...
    @property
    def last_result(self) -> str | None: ...


HINTED = ", with hints"  # the mark of a mission with an attempt played with hints (the table's h)


def mission_status(line: ProgressLine, saved: bool = False, hinted: bool = False) -> str:
    """A short status word for one logbook line; the terminal app and ``crewkit campaign status`` both use
    it. ``saved``: an attempt is saved (resume it from the campaign); ``hinted``: an attempt of the mission was
    played with hints (marked ``, with hints``)."""
    return _status(line, saved) + (HINTED if hinted else "")


def _status(line: ProgressLine, saved: bool) -> str:
    if line.done:
        return "done (distress +1)" if line.distress_used else "done"
    if saved:
        return f"saved attempt, last: {line.last_result or 'failure'}" if line.attempts else "saved attempt"
    if line.attempts == 0:
        return "not started"
    status = f"last: {line.last_result or 'failure'}"
    return status + ", distress" if line.distress_used else status


def status_json(progress: Sequence[MissionProgress], titles: Mapping[str, str], current: str | None,
                saved: Collection[str] = (), hinted: Collection[str] = ()) -> dict[str, object]:
    """``crewkit campaign status --format json``: the same lines and words as the text table."""
    return {
        "missions": [{"number": n, "mission": line.mission, "title": titles.get(line.mission, ""),
                      "attempts": line.attempts, "done": line.done, "distress_used": line.distress_used,
                      "last_result": line.last_result, "saved_attempt": line.mission in saved,
                      "hints_used": line.mission in hinted,
                      "status": mission_status(line, line.mission in saved, line.mission in hinted)}
                     for n, line in enumerate(progress, start=1)],
        "done": sum(1 for line in progress if line.done),
        "total_attempts": sum(line.attempts for line in progress),
        "current": current,
    }


def format_status(progress: Sequence[MissionProgress], titles: Mapping[str, str], current: str | None,
                  saved: Collection[str] = (), hinted: Collection[str] = ()) -> str:
    """A plain-text table (#, mission, title, attempts, status) with the current mission marked by ``>``,
    followed by a summary line: missions done N/total and the total logbook attempts. ``hinted``: the missions
    with an attempt played with hints (their status says so).
    """
    rows: list[tuple[str, ...]] = []
    for number, line in enumerate(progress, start=1):
        rows.append(
            (
                str(number),
                line.mission,
                titles.get(line.mission, ""),
                str(line.attempts) if line.attempts else "-",
                mission_status(line, line.mission in saved, line.mission in hinted),
            )
        )
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(_HEADERS)]
    right_aligned = {0, 3}

    def render(cells: Sequence[str], mark: str) -> str:
        parts = [
            c.rjust(w) if i in right_aligned else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return f"{mark:<{len(CURRENT_MARK)}} " + "  ".join(parts).rstrip()

    lines = [render(_HEADERS, ""), render(["-" * w for w in widths], "")]
    for line, cells in zip(progress, rows, strict=True):
        lines.append(render(cells, CURRENT_MARK if line.mission == current else ""))
    done = sum(1 for line in progress if line.done)
    total = sum(line.attempts for line in progress)
    summary = f"missions done: {done}/{len(progress)}, total attempts: {total}"
    if current is not None:
        summary += f", current mission: {current}"
    elif progress and done == len(progress):
        summary += ", campaign complete"
    lines.append("")
    lines.append(summary)
    return "\n".join(lines)
