"""Designed campaigns in the app: the chooser with progress per campaign, a campaign from a folder (chapter text,
missions that open in order, the logbook per campaign identity), a mission file changed after attempts."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import SIZE, make_app, play_to_end, settle, text_of

from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.chooser import ChooserScreen
from crewkit.tui.screens.logbook import LogbookScreen
from crewkit.tui.services import Services, campaign_progress

CAMPAIGN = """\
name: training
title: Training night
description: Three small missions.
ruleset: crew
players: [3]
unlock: in-order
missions:
  - mission: 01-one.yaml
    chapter: {title: "Chapter 1: Lights on", text: The hangar is dark and cold.}
  - 02-two.yaml
  - planet-nine/03
"""


def mission(number: int, title: str, count: int) -> str:
    return f"number: {number}\ntitle: {title}\nrulesets: [crew]\ntasks: {{count: {count}}}\n"


def write_campaign(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(CAMPAIGN, encoding="utf-8")
    (folder / "01-one.yaml").write_text(mission(1, "One light", 1), encoding="utf-8")
    (folder / "02-two.yaml").write_text(mission(2, "Two lights", 2), encoding="utf-8")
    return folder


async def test_chooser_lists_campaigns_with_progress_and_opens_the_duet(services: Services) -> None:
    app = make_app(services, campaign=None, players=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen)
        text = text_of(app)
        assert "Duet with JARVIS" in text and "The Quest for Planet Nine" in text
        assert "0/8 done" in text and "0/50 done" in text
        duet = next(i for i, k in enumerate(app.screen.known) if k.ref == "jarvis-duet")
        await pilot.press(*["up"] * len(app.screen.known), *["down"] * duet, "enter")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert app.campaign.name == "jarvis-duet"
        text = text_of(app)
        assert "Duet with JARVIS" in text and "Power on" in text and "locked" in text
        assert app.kinds("planet-nine/01") == ["human", "bot"]  # the campaign's 2 players, JARVIS aside
        # in order: the second mission is locked until the first is done
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        await pilot.press("up", "enter")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        text = text_of(app)
        assert "Chapter 1: Two of us" in text and "Power on" in text and "JARVIS" in text
        await pilot.press("escape", "c")
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen)


async def test_folder_campaign_is_played_and_tracked_per_identity(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "a" / "training")
    other = write_campaign(tmp_path / "b" / "training")  # same name, another folder: another logbook
    app = make_app(services, campaign=str(folder), players=None, seats=["bot", "bot", "bot"], seed="camp")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert app.campaign.missions == ("01-one.yaml", "02-two.yaml", "planet-nine/03")
        assert "Training night" in text_of(app) and "One light" in text_of(app)
        await pilot.press("home", "enter")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        assert "Chapter 1: Lights on" in text_of(app) and "The hangar is dark and cold." in text_of(app)
        await pilot.press("enter")
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        result = app.screen.finished.result
        await pilot.press("escape")
        await settle(pilot)
        rows, older = campaign_progress(services.logbook, app.campaign)
        assert rows[0].attempts == 1 and rows[0].done == (result == "success") and not older
        attempts = services.logbook.attempts(app.campaign.key)  # type: ignore[attr-defined]
        assert [a.mission for a in attempts] == ["01-one.yaml"]
        assert app.campaign.key.startswith("training@") and str(folder.resolve()) in app.campaign.key
    # the other "training" shares nothing with this one
    app2 = make_app(services, campaign=str(other), players=None)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rows, _ = campaign_progress(services.logbook, app2.campaign)
        assert all(r.attempts == 0 for r in rows)


async def test_changed_mission_file_is_announced_not_mixed(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "training")
    app = make_app(services, campaign=str(folder), players=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        info = app.campaign
        services.logbook.record_attempt(campaign=info.key, mission="01-one.yaml", players=3, ruleset="crew",
                                        seed="s", result="success", reason="all tasks done",
                                        distress_used=False, mission_version=info.versions()["01-one.yaml"])
    (folder / "01-one.yaml").write_text(mission(1, "One light, moved", 2), encoding="utf-8")
    app = make_app(services, campaign=str(folder), players=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = text_of(app)
        assert "Changed since attempts were recorded" in text and "1 earlier attempt" in text
        rows, older = campaign_progress(services.logbook, app.campaign)
        assert rows[0].attempts == 0 and not rows[0].done and older == {"01-one.yaml": 1}
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LogbookScreen)
        assert "Changed since attempts were recorded" in text_of(app)


async def test_broken_campaign_folder_shows_a_note_not_a_crash(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "training")
    (folder / "campaign.yaml").write_text(CAMPAIGN.replace("02-two.yaml", "../escape.yaml"), encoding="utf-8")
    app = make_app(services, campaign=str(folder))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert "cannot be opened" in text_of(app)


async def test_duet_mission_is_played_to_the_end_and_logged_under_the_duet(services: Services) -> None:
    app = make_app(services, campaign="jarvis-duet", players=None, seats=["bot", "bot"], seed="duet")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        await pilot.press("enter")
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        session = app.screen.finished
        game = app.table().session.g  # type: ignore[union-attr]
        assert game.dummy_seat is not None and game.n == 3  # two players and JARVIS
        assert app.table().session.readings == {"jarvis-seat": "fixed"}  # type: ignore[union-attr]
        attempts = services.logbook.attempts("jarvis-duet")  # type: ignore[attr-defined]
        assert [(a.mission, a.players, a.ruleset, a.result) for a in attempts] == [
            ("planet-nine/01", 2, "crew-jarvis", session.result)]
        assert services.logbook.attempts("planet-nine") == []  # type: ignore[attr-defined]


async def test_chooser_offers_the_campaign_opened_by_path(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "training")
    app = make_app(services, campaign=str(folder), players=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen)
        text = text_of(app)
        assert "Training night" in text and "Duet with JARVIS" in text and "Three small missions." in text
        assert app.screen.selected().ref == str(folder)  # type: ignore[union-attr]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen) and app.campaign.name == "training"


async def test_zipped_campaign_opens_in_the_app(services: Services, tmp_path: Path) -> None:
    import zipfile

    folder = write_campaign(tmp_path / "training")
    archive = tmp_path / "training.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in sorted(folder.iterdir()):
            zf.write(file, f"training/{file.name}")
    app = make_app(services, campaign=str(archive), players=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert app.campaign.source == "zip" and app.campaign.key == f"training@{archive.resolve()}"
        assert "Training night" in text_of(app) and "Two lights" in text_of(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen) and "Chapter 1: Lights on" in text_of(app)


async def test_markup_in_campaign_files_is_shown_as_text(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "training")
    text = CAMPAIGN.replace("title: Training night", 'title: "[b]Training[/b] [red"').replace(
        "description: Three small missions.", 'description: "[/] closes"')
    (folder / "campaign.yaml").write_text(text, encoding="utf-8")
    (folder / "02-two.yaml").write_text(mission(2, '"[/bold] two"', 2), encoding="utf-8")
    services.logbook.record_attempt(campaign=f"training@{folder.resolve()}", mission="02-two.yaml", players=3,
                                    ruleset="crew", seed="s", result="failure", reason="r", distress_used=False,
                                    mission_version="an-older-version")
    app = make_app(services, campaign=str(folder), players=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = text_of(app)
        assert "[b]Training[/b] [red" in shown and "[/bold] two (1 earlier attempt)" in shown
        await pilot.press("c")
        await settle(pilot)
        assert "[/] closes" in text_of(app)
        await pilot.press("escape", "l")
        await settle(pilot)
        assert isinstance(app.screen, LogbookScreen) and "[/bold] two" in text_of(app)
