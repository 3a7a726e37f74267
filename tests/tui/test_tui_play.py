"""Playing missions in the TUI by key presses only (Pilot, 120x40)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tui_helpers import (
    SIZE,
    FirstLegalBot,
    advance,
    find_seed,
    make_app,
    open_table,
    pass_distress,
    play_steps,
    play_to_end,
    settle,
    text_of,
)

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.tui.dialogs import CommunicateScreen, DistressScreen
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.hand import HandView
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.dialogs import HandoffScreen, ResumeScreen
from crewkit.tui.screens.logbook import LogbookScreen
from crewkit.tui.services import MemoryLogbook, Services, progress_of


async def test_mission_01_success_by_keys(services: Services, home: Path) -> None:
    seed = find_seed("success")
    app = make_app(services, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert "▶ next" in text_of(app)
        table = await open_table(pilot)
        assert table.session.mission == "planet-nine/01"
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        text = text_of(app)
        assert "MISSION ACCOMPLISHED" in text
        assert table.session.g.outcome().reason.split(" in trick")[0] in text
        # logbook and record
        row = progress_of(services.logbook, "planet-nine", ["planet-nine/01"])[0]
        assert row.done and row.attempts == 1
        records = list((home / "records").glob("*.json"))
        assert len(records) == 1
        # next mission from the end screen opens its briefing
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        assert app.screen.mission == "planet-nine/02"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        text = text_of(app)
        assert "✓ done" in text


async def test_illegal_card_shows_engine_reason(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        hand = table.query_one("#hand", HandView)
        for _ in range(300):
            await settle(pilot)
            game = table.session.g
            assert not game.is_over(), "no illegal card came up"
            if isinstance(app.screen, TableScreen) and game.to_act == 0 and game.phase == "tricks":
                illegal = [i for i, c in enumerate(hand.cards) if c.id not in hand.legal]
                if game.plays and illegal:
                    before = len(game.actions)
                    await pilot.press("home", *(["right"] * illegal[0]), "enter")
                    await settle(pilot)
                    assert len(game.actions) == before  # refused
                    status = text_of(app)
                    assert "must follow" in status
                    assert table.status_is_error()
                    return
                from tui_helpers import press_first_legal

                await press_first_legal(pilot)
            elif isinstance(app.screen, TableScreen):
                await pilot.press("space")


async def test_communicate_a_card(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await pilot.press("home", "enter")  # draft, if it is our choice
        for _ in range(50):
            await settle(pilot)
            game = table.session.g
            if game.in_communication_window() and table.session.communications(0):
                break
            await advance(pilot, game.to_act == 0)
        legal = table.session.communications(0)
        assert legal
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CommunicateScreen)
        assert "Step 1 of 2" in text_of(app)
        await pilot.press("enter")  # the first card
        await settle(pilot)
        assert "Step 2 of 2" in text_of(app)
        await pilot.press("enter")  # its first true statement
        await settle(pilot)
        game = table.session.g
        assert [c.seat for c in game.communications] == [0]
        comm = game.communications[0]
        assert (comm.card, comm.statement) == (legal[0].card, legal[0].position)
        text = text_of(app)
        word = {"top": "highest", "bottom": "lowest", "only": "only"}[comm.statement]
        assert f"✉ {comm.card} {word}" in text
        # a second communication is refused with the engine's reason
        await settle(pilot)
        if isinstance(app.screen, TableScreen):
            await pilot.press("c")
            await settle(pilot)
            text = text_of(app)
            assert "No communication possible:" in text
            assert "already communicated" in text or "only between tricks" in text
            await pilot.press("escape")


async def test_communicate_in_dead_zone_hides_statement(services: Services) -> None:
    app = make_app(services, seed="dz-1", mission="planet-nine/06", seats=["human", "human", "bot", "bot"])
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        for _ in range(60):
            await settle(pilot)
            if isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
                continue
            if await pass_distress(pilot):
                continue
            game = table.session.g
            if game.phase == "tricks" and table.viewer is not None and table.session.communications(table.viewer):
                break
            await advance(pilot, table.session.is_human(game.to_act))
        speaker = table.viewer
        assert speaker is not None
        assert all(a.position is None for a in table.session.communications(speaker))
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("enter")  # the card; no statement to choose in a dead zone
        await settle(pilot)
        game = table.session.g
        assert [c.seat for c in game.communications] == [speaker]
        other = 1 - speaker
        obs = game.observation(other)
        assert obs.communications[0].statement is None  # hidden from the others
        from crewkit.families.trick_taking.tui.communication import crew_text

        assert f"✉ {game.communications[0].card} (hidden)" in crew_text(obs, table.session.kinds, other).plain


async def test_distress_signal(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        for _ in range(10):  # the draft, by keys, until the table asks about the distress signal
            await settle(pilot)
            if isinstance(app.screen, DistressScreen):
                break
            await pilot.press("home", "enter")
        game = table.session.g
        assert isinstance(app.screen, DistressScreen) and app.screen.ask
        assert table.session.distress_actions(0)
        assert "Distress signal: call it or pass" in text_of(app)
        hand_before = set(game.hand(0))
        await pilot.press("home", "down", "enter")  # cards go to the left
        await settle(pilot)
        assert "which card do you pass?" in text_of(app)
        await pilot.press("enter")  # the first passable card
        await settle(pilot)
        assert game.distress_used()
        assert game.phase == "tricks"  # the test bots passed their cards too
        assert set(game.hand(0)) != hand_before
        assert "Distress signal used" in text_of(app)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        assert "distress signal was used" in text_of(app)


class ChattyBot(FirstLegalBot):
    """Communicates whenever it may: the first communication closes the distress window."""

    def optional(self, obs: Any) -> Action | None:
        return next((a for a in obs.legal if isinstance(a, Communicate)), None)


async def test_distress_window_waits_for_the_human(home: Path) -> None:
    """Issue 17: bots used to communicate 0.6 s after the draft, closing the window before `d` could be
    pressed. The table asks the human first (at the bots' real pace, not the fast test mode) and bots speak
    only after the answer."""
    from tui_helpers import _saves

    services = Services(bot_factory=lambda name, seat, seed: ChattyBot(seat), logbook=MemoryLogbook(),
                        saves=_saves(lambda: home), home=lambda: home)
    app = CrewApp(PlayOptions(mission="planet-nine/01", seed="distress-wait", delay=0.01), services=services)
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        for _ in range(40):
            await settle(pilot)
            if isinstance(app.screen, DistressScreen) or table.session.g.phase == "tricks":
                break
            if table.session.g.to_act == 0 and table._other_actions:
                await pilot.press("home", "enter")
            else:
                await pilot.pause(0.05)
        assert isinstance(app.screen, DistressScreen), "the table did not ask about the distress signal"
        await pilot.pause(0.3)  # bots wait, however long the human thinks
        game = table.session.g
        assert not game.communications
        assert table.session.distress_actions(0)
        await pilot.press("home", "enter")  # pass
        await settle(pilot)
        for _ in range(20):
            await pilot.pause(0.05)
            if game.communications:
                break
        assert game.communications  # now the bots speak
        assert not table.session.distress_actions(0)


async def test_failed_attempt_then_retry_and_logbook(services: Services) -> None:
    seed = find_seed("failure", prefix="a")  # a failure in trick 3 (the default prefix's: in trick 7)
    app = make_app(services, seed=seed, mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        text = text_of(app)
        assert "MISSION FAILED" in text
        reason = table.session.g.outcome().reason
        assert reason.split(":")[0] in text
        assert "1 attempt for this mission" in text
        await pilot.press("r")
        await settle(pilot)
        await pass_distress(pilot)  # the new attempt asks about the distress signal again, once the draft is over
        assert isinstance(app.screen, TableScreen)
        assert table.session.attempt == 2
        assert table.session.g.seed == f"{seed}-2"
        assert not table.session.g.is_over()
        assert "attempt 2" in text_of(app)
        row = progress_of(services.logbook, "planet-nine", ["planet-nine/01"])[0]
        assert (row.attempts, row.done, row.last_result) == (1, False, "failure")
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LogbookScreen)
        text = text_of(app)
        assert "Logbook" in text and "First contact" in text and "failure" in text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)


async def test_quit_and_resume(services: Services) -> None:
    seed = find_seed("success")
    app = make_app(services, seed=seed, mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await play_steps(pilot, 6)
        await settle(pilot)
        actions = [a.to_json() for a in table.session.g.actions]
        assert len(actions) >= 4
    # a new app, the same home: the saved attempt is offered
    app2 = make_app(services, seed=seed, mission="planet-nine/01")
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app2.screen, ResumeScreen)
        assert "saved attempt" in text_of(app2)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app2.screen, TableScreen)
        resumed = [a.to_json() for a in app2.screen.session.g.actions]
        assert resumed[: len(actions)] == actions


async def test_hotseat_hides_hands_between_turns(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01", seats=["human", "human", "bot", "bot"])
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot)
        seen = False
        for _ in range(80):
            await settle(pilot)
            if isinstance(app.screen, HandoffScreen):
                seen = True
                text = text_of(app)
                assert "Pass the keyboard to Player 2" in text
                assert "Your hand" not in text and "your turn" not in text
                break
            if await pass_distress(pilot):
                continue
            table = app.screen
            assert isinstance(table, TableScreen)
            await advance(pilot, table.session.is_human(table.session.g.to_act))
        assert seen
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)


async def test_mouse_click_selects_then_plays(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        hand = table.query_one("#hand", HandView)
        for _ in range(40):
            await settle(pilot)
            game = table.session.g
            if game.phase == "tricks" and game.to_act == 0 and not game.plays:
                break
            await advance(pilot, game.to_act == 0)
        game = table.session.g
        assert game.to_act == 0
        target = 2
        card = hand.cards[target]
        before = len(game.actions)
        offset = (1 + target * 5 + 1, 2)  # padding + cells, the card label row
        await pilot.click("#hand", offset=offset)
        await settle(pilot)
        assert hand.selected == card
        assert len(game.actions) == before
        await pilot.click("#hand", offset=offset)
        await settle(pilot)
        assert any(a.to_json().get("card") == card.name and a.seat == 0 for a in game.actions[before:])


async def test_declining_resume_counts_abandoned(services: Services) -> None:
    seed = find_seed("success")
    app = make_app(services, seed=seed, mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await play_steps(pilot, 4)
        await settle(pilot)
        assert table.session.g.actions
    app2 = make_app(services, seed=seed, mission="planet-nine/01")
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app2.screen, ResumeScreen)
        await pilot.press("n")
        await settle(pilot)
        table2 = app2.table()
        assert table2 is not None
        assert table2.session.g.actions == [] or table2.session.g.actions[0].type == "take-task"
        row = progress_of(services.logbook, "planet-nine", ["planet-nine/01"])[0]
        assert (row.attempts, row.last_result) == (1, "abandoned")


async def test_bots_wait_for_the_delay(services: Services) -> None:
    from crewkit.families.trick_taking.engine.setup import new_game

    seed = next(f"slow-{i}" for i in range(100) if new_game(seed=f"slow-{i}").commander != 0)
    app = CrewApp(PlayOptions(seed=seed, mission="planet-nine/01", delay=30.0), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        for _ in range(5):
            await pilot.pause()
        table = app.table()
        assert table is not None
        # the commander is a bot: its first choice waits for the delay instead of happening at once
        assert table._scheduled and table._timer is not None
        assert table.session.g.actions == []
        table._timer.stop()
