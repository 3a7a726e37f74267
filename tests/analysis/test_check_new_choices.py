"""``crewkit check`` names the setup choices the bots now reason about (issue 43): JARVIS's seat and a player
silenced by the mission (what silencing them costs)."""

from __future__ import annotations

from crewkit.analysis.check import check_mission
from crewkit.spec import bundled


def _mission(name: str) -> str:
    return str(next(p for p in bundled.bundled_missions() if p.stem.startswith(name) and "planet-nine" in str(p)))


def test_check_reports_jarvis_seat_and_the_silenced_player() -> None:
    report = check_mission(_mission("11-"), games=3, players=[2], ruleset="crew-jarvis", bot="fast", solver=False,
                           seed="choices")
    rows = report.to_json()["player_counts"][0]["choices"]
    seats = {r["chosen"] for r in rows if r["decision"] == "JARVIS's seat"}
    assert seats and seats <= {"right after the commander", "right before the commander"}
    assert sum(r["count"] for r in rows if r["decision"] == "JARVIS's seat") == 3  # one a deal
    silent = {r["chosen"] for r in rows if r["decision"] == "the silent chosen"}
    assert silent == {"JARVIS (who never communicates)"}  # silencing JARVIS costs the crew nothing
    assert "JARVIS's seat: right" in report.format_text()


def test_check_says_how_many_task_colour_cards_the_silenced_player_held() -> None:
    report = check_mission(_mission("11-"), games=2, players=[4], bot="fast", solver=False, seed="choices")
    rows = [r for r in report.to_json()["player_counts"][0]["choices"] if r["decision"] == "the silent chosen"]
    assert sum(r["count"] for r in rows) == 2
    assert all("cards of the tasks' colours" in r["chosen"] for r in rows)


def test_check_names_deep_sea_26s_second_volunteer() -> None:
    path = str(next(p for p in bundled.bundled_missions() if p.stem.startswith("26-") and "deep-sea" in str(p)))
    report = check_mission(path, games=2, players=[4], bot="fast", solver=False, seed="choices")
    rows = report.to_json()["player_counts"][0]["choices"]
    assert sum(r["count"] for r in rows if r["decision"] == "the volunteer") == 2  # one first volunteer a deal
    assert sum(r["count"] for r in rows if r["decision"] == "the second volunteer") == 2
