"""format_status(): the plain-text campaign table."""

from __future__ import annotations

from crewkit.campaign.report import format_status
from crewkit.campaign.store import MissionProgress

MISSIONS = [f"planet-nine/{n:02d}" for n in range(1, 51)]


def _progress() -> list[MissionProgress]:
    lines = [
        MissionProgress(MISSIONS[0], 3, True, False, "success"),
        MissionProgress(MISSIONS[1], 2, True, True, "success"),
        MissionProgress(MISSIONS[2], 2, False, False, "failure"),
    ]
    lines += [MissionProgress(m, 0, False, False, None) for m in MISSIONS[3:]]
    return lines


def test_table_columns_marker_and_summary() -> None:
    titles = {MISSIONS[0]: "Training", MISSIONS[2]: "Orders"}
    text = format_status(_progress(), titles, MISSIONS[2])
    lines = text.splitlines()
    header = lines[0].split()
    assert header == ["#", "mission", "title", "attempts", "status"]
    rows = [line for line in lines if "planet-nine/" in line and not line.startswith("missions")]
    assert len(rows) == 50
    marked = [row for row in rows if row.startswith(">")]
    assert len(marked) == 1 and MISSIONS[2] in marked[0] and "Orders" in marked[0]
    assert "Training" in rows[0] and "done" in rows[0] and " 3 " in rows[0]
    assert "distress" in rows[1]
    assert "not started" in rows[10]
    assert lines[-1].startswith("missions done: 2/50, total attempts: 7")


def test_columns_line_up() -> None:
    text = format_status(_progress(), {MISSIONS[0]: "A rather long mission title"}, MISSIONS[2])
    rows = [
        line for line in text.splitlines()[2:] if "planet-nine/" in line and not line.startswith("missions")
    ]
    starts = {row.index("planet-nine/") for row in rows}
    assert len(starts) == 1


def test_complete_campaign_summary() -> None:
    lines = [MissionProgress(m, 1, True, False, "success") for m in MISSIONS]
    text = format_status(lines, {}, None)
    assert not any(line.startswith(">") for line in text.splitlines())
    assert text.splitlines()[-1] == "missions done: 50/50, total attempts: 50, campaign complete"
