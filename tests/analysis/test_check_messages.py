"""``crewkit check`` tells authors the truth (issue 17): mission ids, reasons with details, solver-aware warnings."""

from __future__ import annotations

from crewkit.analysis.check import ConditionTrace, PlayerCountReport, check_mission


def test_check_accepts_a_mission_id_and_prints_reasons_in_full() -> None:
    report = check_mission("planet-nine/05", games=4, players=[4], solver=False, seed="msg")
    assert report.valid and report.mission == "planet-nine/05"
    text = report.format_text()
    counts = report.counts[0]
    for group in counts.reasons:
        example = counts.examples[group]
        assert example in text
        assert "a card" not in example and "a seat" not in example  # the grouping never replaces the text
    assert "{" not in text


def test_no_never_fulfilled_warning_when_the_solver_won() -> None:
    trace = ConditionTrace("all-ones", "", "count(t in tricks: t.number == 1) > 5", evaluations=30)
    assert any("may never be fulfilled" in w for w in trace.warnings())
    assert not any("may never be fulfilled" in w for w in trace.warnings(winnable=2))
    pc = PlayerCountReport(4, games=3, conditions=[trace])
    pc.solver["winnable"] = 1
    assert not any("may never be fulfilled" in w for w in pc.warnings())
