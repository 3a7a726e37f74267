"""The hint mark (issue 42, item 9): an attempt played with hints is marked in the logbook, and the logbook
screen, the mission list, the briefing and ``crewkit campaign status`` (text and JSON) show the mark."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from screen_text import screen_text
from tui_helpers import make_app, settle

from crewkit.campaign.store import Logbook
from crewkit.cli.core import main
from crewkit.tui.screens.logbook import LogbookScreen
from crewkit.tui.services import Services


def record(hints: bool, mission: str, result: str = "success") -> None:
    with Logbook.open() as book:
        book.record_attempt(campaign="planet-nine", mission=mission, players=4, ruleset="crew", seed="h",
                            result=result, reason="test", distress_used=False, hints_used=hints)


async def test_the_logbook_screen_and_the_mission_list_show_the_mark(services: Services, home: Path) -> None:
    record(True, "planet-nine/01")
    record(False, "planet-nine/02")
    app = make_app(services, campaign="planet-nine")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rows = {line.split()[0]: line for line in screen_text(app).splitlines()
                if line.split()[:1] in (["01"], ["02"])}
        assert "with hints" in rows["01"] and "with hints" not in rows["02"], rows
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LogbookScreen)
        text = screen_text(app)
        assert "Hints" in text.splitlines()[2]  # the column's heading, whole at 80 columns
        rows = {line.split()[0]: line.split() for line in text.splitlines() if line.split()[:1] in (["01"], ["02"])}
        assert "yes" in rows["01"] and "yes" not in rows["02"], rows
        await pilot.press("escape")
        app.open_briefing("planet-nine/01")
        await settle(pilot)
        assert "with hints" in " ".join(screen_text(app).split())


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_campaign_status_shows_the_mark(home: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    record(True, "planet-nine/01")
    record(False, "planet-nine/02", "failure")
    assert main(["campaign", "status", "--campaign", "planet-nine", "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        missions = {m["mission"]: m for m in json.loads(out)["missions"]}
        assert missions["planet-nine/01"]["hints_used"] is True
        assert missions["planet-nine/01"]["status"] == "done, with hints"
        assert missions["planet-nine/02"]["hints_used"] is False
        return
    lines = {word: line for line in out.splitlines() for word in line.split() if word.startswith("planet-nine/")}
    assert lines["planet-nine/01"].rstrip().endswith("done, with hints")
    assert "hints" not in lines["planet-nine/02"]
