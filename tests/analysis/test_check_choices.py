"""``crewkit check`` says what the bots chose at a mission's setup and how those deals went (issue 43)."""

from __future__ import annotations

from crewkit.analysis.check import check_mission
from crewkit.spec import bundled


def _mission(name: str) -> str:
    return str(next(p for p in bundled.bundled_missions() if p.stem.startswith(name) and "planet-nine" in str(p)))


def test_check_reports_the_role_choice_and_its_success() -> None:
    report = check_mission(_mission("05-"), games=8, players=[4], bot="fast", solver=False, seed="choices")
    (count,) = report.to_json()["player_counts"]
    rows = [r for r in count["choices"] if r["decision"] == "the sick chosen"]
    assert rows, count["choices"]
    assert sum(r["count"] for r in rows) == 8  # one choice a deal
    assert abs(sum(r["share"] for r in rows) - 1) < 1e-6
    text = report.format_text()
    assert "the sick chosen: the player with the" in text
    assert "% then" in text


def test_check_reports_the_hand_out() -> None:
    report = check_mission(_mission("24-"), games=4, players=[4], bot="fast", solver=False, seed="choices")
    (count,) = report.to_json()["player_counts"]
    labels = {r["chosen"] for r in count["choices"] if r["decision"] == "a task handed out"}
    assert labels <= {"to the player holding its card", "to a player not holding its card"}
    # six tasks a deal (the distress signal, where the bots called it, has rows of its own)
    assert sum(r["count"] for r in count["choices"] if r["decision"] == "a task handed out") == 4 * 6


def test_check_of_a_mission_without_choices_says_nothing_of_them() -> None:
    report = check_mission(_mission("01-"), games=2, players=[4], bot="fast", solver=False, seed="choices")
    assert report.to_json()["player_counts"][0]["choices"] == []
    assert "choice " not in report.format_text()
