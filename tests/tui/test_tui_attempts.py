"""The logbook screen lists every attempt of a mission (date, outcome) and reviews one with ``w``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tui_helpers import make_app, settle

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.tui.review import ReviewScreen
from crewkit.tui.screens.attempts import AttemptsScreen
from crewkit.tui.screens.logbook import LogbookScreen
from crewkit.tui.services import Services
from tests.review.lost_games import lost_record


async def test_logbook_lists_attempts_and_reviews_one(services: Services, home: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # the review screen's own answers are another test's (test_tui_review_refines.py): here none is searched
    def nothing(*args: object) -> reviews.Review:
        return reviews.Review(reviews.UNDECIDED, "not searched in this test")

    monkeypatch.setattr(reviews, "quick_review", nothing)
    monkeypatch.setattr(reviews, "final_review", nothing)
    lost = lost_record(home / "records")
    book = services.logbook
    for minute, result, record in ((10, "failure", lost), (20, "abandoned", None),
                                   (30, "failure", home / "records" / "gone.json")):
        book.record_attempt(campaign="planet-nine", mission="planet-nine/10", players=4, ruleset="crew", seed="s",
                            result=result, reason="why", distress_used=False,
                            record_path=None if record is None else str(record),
                            when=datetime(2026, 12, 5, 3, minute, tzinfo=UTC))  # type: ignore[call-arg]
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.action_logbook()
        await settle(pilot)
        assert isinstance(app.screen, LogbookScreen)
        await pilot.press(*["down"] * 9, "enter")  # planet-nine/10's row
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AttemptsScreen) and screen.mission == "planet-nine/10"
        assert [(r.ref, r.result) for r in screen.rows] == [("@1", "failure"), ("@2", "abandoned"), ("@3", "failure")]
        table = screen.query_one("#attempts-table")
        assert "2026-12-05 03:10 UTC" in str(table.get_row_at(0))  # type: ignore[attr-defined]
        status = screen.query_one("#attempts-status")
        await pilot.press("down", "w")  # the abandoned attempt: no record
        assert "@2: No game record was kept" in str(status.render())
        await pilot.press("down", "w")  # its record was deleted
        assert "@3: This attempt's game record" in str(status.render()) and "no longer there" in str(status.render())
        await pilot.press("up", "up", "w")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        recorded = json.loads(lost.read_text())["actions"]
        assert [a.to_json() for a in app.screen.game.actions] == recorded  # the recorded game, replayed
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, AttemptsScreen)
