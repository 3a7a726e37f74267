"""Not Alone first-class in the one app (issue 27, item 3): offered by the chooser, saved after every action
and resumed like a Crew mission, its finished games recorded (replayable) and kept in the logbook per side."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from hunt_helpers import choose, dialog_of, hunt_services, make_hunt_app, play_to_end, settle
from screen_text import screen_text

from crewkit.families.not_alone.tui.end import HuntEndScreen
from crewkit.families.not_alone.tui.table import HuntTableScreen
from crewkit.games import replay
from crewkit.tui.app import CrewApp
from crewkit.tui.options import PlayOptions
from crewkit.tui.screens.chooser import ChooserScreen
from crewkit.tui.screens.dialogs import ChoiceScreen, ResumeScreen
from crewkit.tui.screens.logbook import LogbookScreen
from crewkit.tui.services import side_results

SIZE = (120, 40)


def test_a_game_is_saved_after_each_action_and_resumed(tmp_path: Path) -> None:
    services = hunt_services(tmp_path)

    async def first() -> list[dict[str, object]]:
        app = make_hunt_app(players=3, side="hunted", seed="save", services=services)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            for _ in range(3):
                await choose(pilot)
                await settle(pilot)
            session = app.session
            saved = services.saves.load(session.save_key)  # type: ignore[union-attr]
            assert saved is not None and saved == session.play.record()  # type: ignore[union-attr]
            await pilot.press("escape", "q")  # quit mid-game: the confirmation says the game is saved
            await pilot.pause()
            assert isinstance(app.screen, ChoiceScreen) and "the game is saved" in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
        return list(saved["actions"])  # type: ignore[arg-type]

    actions = asyncio.run(first())
    assert actions

    async def again(resume: bool) -> None:
        app = make_hunt_app(players=3, side="hunted", seed="other", services=services)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen)
            assert "Seed save" in screen_text(app)
            await pilot.press("y" if resume else "n")
            await settle(pilot)
            assert app.table() is not None
            play = app.session.play  # type: ignore[union-attr]
            if resume:
                assert play.seed == "save" and [a.to_json() for a in play.actions][: len(actions)] == actions
            else:
                assert play.seed == "other"

    asyncio.run(again(resume=True))
    asyncio.run(again(resume=False))  # a new game instead: the saved one counts as abandoned
    assert [r.abandoned for r in side_results(services.logbook, "not-alone", "not-alone")] == [1]


def test_a_finished_game_is_recorded_replayable_and_in_the_logbook(tmp_path: Path) -> None:
    services = hunt_services(tmp_path)

    async def run() -> None:
        # a shorter game than "end" (9 rounds instead of 11, the Hunted win in both)
        app = make_hunt_app(players=3, side="creature", seed="c", services=services)
        async with app.run_test(size=(80, 24)) as pilot:  # the smallest supported terminal (and the cheapest)
            await play_to_end(pilot, random.Random(5))
            assert isinstance(app.screen, HuntEndScreen)
            session = app.session
            finished = session.finished  # type: ignore[union-attr]
            assert finished is not None and finished.record_path is not None
            assert f"Record: {finished.record_path.name}" in screen_text(app)
            record = json.loads(finished.record_path.read_text(encoding="utf-8"))
            assert record == session.play.record()  # type: ignore[union-attr]
            replayed = replay(record)
            assert replayed.error is None and replayed.game is not None
            assert replayed.game.record() == record and replayed.game.is_over()
            assert services.saves.load(session.save_key) is None  # type: ignore[union-attr]  # a finished game leaves no save
            winners = session.game.winners  # type: ignore[union-attr]
            rows = side_results(services.logbook, "not-alone", "not-alone")
            assert [(r.players, r.won, r.lost) for r in rows] == [(3, int(winners != (0,)), int(winners == (0,)))]
            await pilot.press("l")  # the shell's end screen: l is the logbook there too, Esc comes back
            await pilot.pause()
            assert isinstance(app.screen, LogbookScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HuntEndScreen)
            await pilot.press("escape")  # the table, then its logbook: each side's wins
            await pilot.pause()
            assert isinstance(app.screen, HuntTableScreen)
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, LogbookScreen)
            text = screen_text(app)
            assert "Logbook — Not Alone" in text and "Hunted won" in text and "Creature won" in text
            assert "1 game finished" in text

    asyncio.run(run())
    attempts = services.logbook.attempts  # type: ignore[attr-defined]
    assert [a["result"] for a in attempts] in (["success"], ["failure"])


def test_the_chooser_offers_not_alone_with_each_sides_wins(tmp_path: Path) -> None:
    services = hunt_services(tmp_path)
    services.logbook.record_attempt(campaign="not-alone", mission="not-alone", players=4, ruleset="not-alone",
                                    seed="x", result="failure", reason="The Creature won", distress_used=False)

    async def run() -> None:
        app = CrewApp(PlayOptions(campaign=None, fast=True, seats=["human", "bot", "bot", "bot"]),
                      services=services)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.action_campaigns()
            await pilot.pause()
            chooser = app.screen
            assert isinstance(chooser, ChooserScreen)
            text = screen_text(app)
            assert "Not Alone" in text and "Hunted 0 · Creature 1" in text
            row = next(i for i, k in enumerate(chooser.known) if k.game == "not-alone")
            chooser.query_one("#campaigns").move_cursor(row=row)  # type: ignore[attr-defined]
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.table(), HuntTableScreen)
            assert dialog_of(app) is not None  # the person at the keyboard plays a Hunted: asked to choose

    asyncio.run(run())


def test_the_settings_and_the_your_turn_bell_apply_to_the_not_alone_table(tmp_path: Path) -> None:
    """One settings screen for every family (issue 27): ``o`` at the Not Alone table opens the shell's settings
    with what this table follows (bot speed, the bell; no communication here), kept in the same file; the bell
    rings once when it becomes the player's turn while the terminal is not focused."""
    from crewkit.tui.screens.dialogs import SettingsScreen
    from crewkit.tui.settings import Settings, load_settings, save_settings

    for bell in (True, False):
        home = tmp_path / f"bell-{bell}"
        home.mkdir()
        save_settings(home, Settings(bell=bell, bot_delay=0.2))
        options = PlayOptions(ruleset="not-alone", players=3, seed="bell", delay=0.3, campaign=None, side="hunted")
        app = CrewApp(options, services=hunt_services(home))  # the bots take 0.3 s a move: time to look away
        rings: list[int] = []
        app.bell = lambda r=rings: r.append(1)  # type: ignore[method-assign,misc]

        async def run(app: CrewApp = app, rings: list[int] = rings, bell: bool = bell, home: Path = home) -> None:
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                await settle(pilot)
                await choose(pilot)
                app.app_focus = False  # the player chose, then looks at another window while the others move
                await settle(pilot)
                assert dialog_of(app) is not None  # the player's turn again
                assert len(rings) == (1 if bell else 0)
                assert "Your turn." in screen_text(app)
                await pilot.press("escape")  # look at the table: the dialog opens again with Enter, no new bell
                await pilot.press("enter")
                await settle(pilot)
                assert len(rings) == (1 if bell else 0)
                if not bell:
                    return
                await pilot.press("escape", "o")
                await settle(pilot)
                assert isinstance(app.screen, SettingsScreen)
                text = screen_text(app)
                assert "Bot speed: 0.2 s per move" in text and "bell when the terminal is not focused" in text
                assert "Communication" not in text and "--delay 0.3" in text  # this session's speed
                await pilot.press("enter")  # the bot speed: its next value, kept for the next session
                await pilot.press("escape")
                await settle(pilot)
                assert dialog_of(app) is not None  # back at the table, the player's choice open again
                assert load_settings(home)[0].bot_delay == 0.4

        asyncio.run(run())
