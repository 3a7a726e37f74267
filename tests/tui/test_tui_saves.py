"""Saved attempts are visible (issue 17): `q` says where the attempt went; the campaign list, the briefing and
`crewkit campaign status` show it, with the same words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tui_helpers import SIZE, find_seed, make_app, open_table, play_steps, settle, text_of

from crewkit.cli import main
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.dialogs import ChoiceScreen
from crewkit.tui.services import Services


async def test_quit_mid_mission_then_the_save_shows_everywhere(services: Services, home: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    seed = find_seed("success")
    app = make_app(services, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot)
        await play_steps(pilot, 5)
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert "Your attempt is saved. Open this mission again, from the campaign" in text_of(app)
        await pilot.press("home", "enter")
        await settle(pilot)
    assert app.exit_note == "crewkit: attempt saved; resume it from the campaign."

    app2 = make_app(services, seed=seed)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app2.screen, CampaignScreen)
        await pilot.pause(0.2)
        row = next(line for line in text_of(app2).splitlines() if "First contact" in line)
        assert "saved attempt" in row
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app2.screen, BriefingScreen)
        text = text_of(app2)
        assert "A saved attempt is waiting" in text
        assert "Logbook: 0 attempts, saved attempt" in text

    capsys.readouterr()
    assert main(["campaign", "status", "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)
    first = status["missions"][0]
    assert first["mission"] == "planet-nine/01" and first["saved_attempt"] and first["status"] == "saved attempt"
    assert main(["campaign", "status"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "planet-nine/01" in x)
    assert "saved attempt" in line
