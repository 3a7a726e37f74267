"""Issue 30, at the table round two: no dead key after a mission, no stop every trick, no false end of a
campaign, the chooser's cursor, the card received, JARVIS's choice beside your hand, the palette; settings,
card tracker, hints, practice and the your-turn bell. Every test drives the app by keys (Pilot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_tui_campaigns import write_campaign
from tui_helpers import (
    SIZE,
    FirstLegalBot,
    find_seed,
    make_app,
    open_table,
    pass_distress,
    play_to_end,
    press_first_legal,
    settle,
    text_of,
)

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.tui.dialogs import CommunicateScreen, DistressScreen, TrackerScreen
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.hand import HandView
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.families.trick_taking.tui.words import short_card
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.screens.chooser import ChooserScreen
from crewkit.tui.screens.dialogs import SettingsScreen
from crewkit.tui.services import Services, hinted_missions, progress_of
from crewkit.tui.settings import Settings, load_settings, save_settings


def footer_line(app: Any) -> str:
    return text_of(app).rstrip("\n").splitlines()[-1]


async def steps_until(pilot: Any, done: Any, *, max_steps: int = 300) -> None:
    """Our turns by the first legal card (no space pressed ever) until ``done(game)``."""
    app = pilot.app
    for _ in range(max_steps):
        await settle(pilot)
        if await pass_distress(pilot):
            continue
        table = app.table()
        if done(table.session.g) and isinstance(app.screen, TableScreen):
            return
        if isinstance(app.screen, TableScreen) and table.session.g.to_act == 0:
            await press_first_legal(pilot)
    raise AssertionError("the state was not reached")


# ---------------------------------------------------------------- 1. no dead end after a mission
async def test_table_after_the_end_keeps_working_keys(services: Services) -> None:
    seed = find_seed("success")
    app = make_app(services, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape")  # look at the table
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        footer = footer_line(app)
        assert "n Next mission" in footer and "r Play again" in footer and "esc Results" in footer
        assert "Play card" not in footer and "Communicate" not in footer
        assert "The mission is over" in text_of(app)
        await pilot.press("escape")  # the results again
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape", "n")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen) and app.screen.mission == "planet-nine/02"


async def test_table_after_the_end_plays_again_and_back_to_campaign(services: Services) -> None:
    # (prefix a: a failure in trick 3, played twice; the default prefix's fails in trick 7)
    app = make_app(services, seed=find_seed("failure", prefix="a"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await play_to_end(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert table.session.attempt == 2 and not table.session.g.is_over()
        await play_to_end(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)


# ---------------------------------------------------------------- 3. no false end of a campaign
def _first_policy_fails(mission: Path, players: int, prefix: str) -> str:
    for i in range(300):
        seed = f"{prefix}-{i}"
        game = new_game("crew", str(mission), players, seed=seed)
        while not game.is_over():
            game.apply(FirstLegalBot(game.to_act).act(game.observation(game.to_act)))
        if game.outcome().result == "failure":
            return seed
    raise AssertionError("no failing seed")


async def test_failing_a_mission_whose_next_is_locked_says_so(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "training")
    seed = _first_policy_fails(folder / "02-two.yaml", 3, "lock")
    app = make_app(services, campaign=str(folder), players=3, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        missions = app.campaign.missions
        services.logbook.record_attempt(campaign=app.campaign.key, mission=missions[0], players=3, ruleset="crew",
                                        seed="done", result="success", reason="all tasks done",
                                        distress_used=False)
        app.screen.reload()
        await settle(pilot)
        await pilot.press("enter")  # mission 2: the cursor is on the next mission
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen) and app.screen.mission == missions[1]
        await pilot.press("enter")
        await settle(pilot)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen) and "MISSION FAILED" in text_of(app)
        text = text_of(app)
        assert "opens once" in text and "last mission" not in text
        assert "Next mission" not in footer_line(app)  # the footer offers no n the dialog does not list
        await pilot.press("escape")
        await settle(pilot)
        assert "Next mission" not in footer_line(app) and "n next mission" not in text_of(app)


# ---------------------------------------------------------------- 2. the pace: no stop every trick
async def test_the_game_goes_on_without_space_and_c_stops_before_the_next_lead(services: Services) -> None:
    app = make_app(services, seed="pace-1", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        game = table.session.g
        assert not app.settings.stop_every_trick  # the default
        # never a space: bots lead their tricks on their own
        await steps_until(pilot, lambda g: len(g.tricks) >= 2 and g.to_act == 0 and g.plays)
        assert table.session.communications(0) == []  # mid-trick: no window
        await pilot.press("c")  # speak before the next lead
        await settle(pilot)
        assert table.speak_requested
        assert "before the next lead" in text_of(app)
        await press_first_legal(pilot)
        for _ in range(100):
            await settle(pilot)
            if isinstance(app.screen, CommunicateScreen) or game.is_over():
                break
            if game.to_act == 0 and isinstance(app.screen, TableScreen) and not game.in_communication_window():
                await press_first_legal(pilot)
        assert isinstance(app.screen, CommunicateScreen), "the table did not stop at the next window"
        assert game.in_communication_window() and not game.plays
        await pilot.press("enter", "enter")  # the first card, its first statement
        await settle(pilot)
        assert any(isinstance(a, Communicate) and a.seat == 0 for a in game.actions)


async def test_stop_every_trick_setting_persists_and_stops(services: Services, home: Path) -> None:
    app = make_app(services, seed="pace-2", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot)
        await steps_until(pilot, lambda g: g.phase == "tricks")
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        assert "press c to speak" in text_of(app)
        await pilot.press("enter")  # the first setting: stop every trick
        await settle(pilot)
        assert app.settings.stop_every_trick and "stop before every trick" in text_of(app)
        await pilot.press("down", "enter")  # bot speed: the next value
        await pilot.press("escape")
        await settle(pilot)
    saved = json.loads((home / "settings.json").read_text(encoding="utf-8"))
    assert saved["stop_every_trick"] is True and saved["bot_delay"] == 0.8
    app2 = make_app(services, seed="pace-2", mission="planet-nine/02")  # 01 was saved: no resume question
    async with app2.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        assert app2.settings.stop_every_trick
        for _ in range(60):  # until a bot-led trick: the table waits for space
            await settle(pilot)
            if await pass_distress(pilot):
                continue
            if "space:" in text_of(app2) and "leads" in text_of(app2):
                break
            if table.session.g.to_act == 0:
                await press_first_legal(pilot)
        before = len(table.session.g.actions)
        await settle(pilot)
        assert len(table.session.g.actions) == before and "space Continue" in footer_line(app2)
        await pilot.press("space")
        await settle(pilot)
        assert len(table.session.g.actions) > before


def test_settings_file_errors_name_the_value(home: Path) -> None:
    (home / "settings.json").write_text('{"bot_delay": "fast", "colour": 1, "bell": false}', encoding="utf-8")
    settings, notes = load_settings(home)
    assert settings == Settings(bell=False)
    assert any("'bot_delay' expects a number of seconds" in n and "'fast'" in n for n in notes)
    assert any("unknown setting 'colour'" in n for n in notes)
    (home / "settings.json").write_text("{oops", encoding="utf-8")
    settings, notes = load_settings(home)
    assert settings == Settings() and "settings.json:1:2: not JSON" in notes[0]
    save_settings(home, Settings(bot_delay=0.2))
    assert load_settings(home) == (Settings(bot_delay=0.2), [])


# ---------------------------------------------------------------- 5. the chooser
async def test_duet_opens_on_its_next_mission_and_titles_fit_80_columns(services: Services) -> None:
    services.logbook.record_attempt(campaign="planet-nine", mission="planet-nine/01", players=4, ruleset="crew",
                                    seed="s", result="success", reason="done", distress_used=False)
    app = make_app(services, campaign=None, players=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen)
        planet = next(i for i, k in enumerate(app.screen.known) if k.ref == "planet-nine")
        await pilot.press(*["up"] * len(app.screen.known), *["down"] * planet, "enter")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen) and app.screen.selected_mission() == "planet-nine/02"
        await pilot.press("c")
        await settle(pilot)
        duet = next(i for i, k in enumerate(app.screen.known) if k.ref == "jarvis-duet")
        await pilot.press(*["up"] * len(app.screen.known), *["down"] * duet, "enter")
        await settle(pilot)
        assert app.campaign.name == "jarvis-duet"
        assert app.screen.selected_mission() == "planet-nine/01"  # the next mission, not the locked 02
        await pilot.press(*["down"] * 8)
        await settle(pilot)
        assert "Rocket parade for three" in text_of(app)


# ---------------------------------------------------------------- 6. the smaller ones
async def test_the_card_received_after_a_distress_signal_is_named(services: Services) -> None:
    app = make_app(services, seed="received-1", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        for _ in range(40):
            await settle(pilot)
            if isinstance(app.screen, DistressScreen):
                break
            if table._other_actions:
                await pilot.press("home", "enter")
        assert isinstance(app.screen, DistressScreen)
        await pilot.press("down", "enter")  # signal: the first direction
        await settle(pilot)
        await pilot.press("home", "enter")  # pass the first card offered
        await settle(pilot)
        game = table.session.g
        assert game.phase == "tricks"
        received = table.session.received_card(0)
        assert received is not None and received in game.hand(0)
        text = text_of(app)
        assert f"you received {received}" in text


async def test_the_command_palette_offers_the_signal_only_where_there_is_one(services: Services) -> None:
    app = make_app(services, seed="palette", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Signal" not in titles and "Communicate" in titles
        assert {"Hint", "Card tracker", "Settings", "Take back"} <= set(titles)
    app = make_app(services, ruleset="crew-persian", players=4, mission="persian", seed="palette")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert "Signal" in [c.title for c in app.get_system_commands(app.screen)]


# ---------------------------------------------------------------- card tracker
async def test_card_tracker_shows_played_cards_and_voids_by_key(services: Services) -> None:
    app = make_app(services, seed="tracker-1", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await steps_until(pilot, lambda g: len(g.tricks) >= 3 and g.to_act == 0)
        game = table.session.g
        await pilot.press("k")
        await settle(pilot)
        assert isinstance(app.screen, TrackerScreen)
        text = text_of(app)
        assert "Card tracker" in text and "Voids shown" in text and "Trumps out" in text
        played = [c for t in game.tricks for _, c in t.plays]
        for card in played:
            assert short_card(card) in text
        hidden = [c for s in range(1, game.n) for c in game.hand(s)]
        tracker_text = str(app.screen.query_one("#tracker-text").render())
        for card in hidden:
            assert short_card(card) not in tracker_text  # never a card the seat cannot see
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)


@pytest.mark.parametrize(("ruleset", "mission", "players"), [("crew-jarvis", "planet-nine/01", 2),
                                                            ("crew-persian", "persian", 4)])
async def test_tracker_and_hint_at_jarvis_and_persian_tables(services: Services, ruleset: str, mission: str,
                                                             players: int) -> None:
    """k and h work at the JARVIS and Persian tables as at the Crew's: the cards played in sight, no hidden
    card, the expert's card selected and legal."""
    from test_tui_variants import seed_where

    seed = seed_where(ruleset, mission, players, lambda g: g.commander == 0, "keys")
    app = make_app(services, ruleset=ruleset, players=players, mission=mission, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        session = table.session
        for _ in range(300):  # the human's turns (JARVIS's too, for the commander) by the first legal choice
            await settle(pilot)
            if await pass_distress(pilot):
                continue
            game = session.g
            if (game.phase == "tricks" and game.tricks and game.to_act == table.viewer
                    and isinstance(app.screen, TableScreen)):
                break
            if isinstance(app.screen, TableScreen) and session.is_human(game.to_act):
                await press_first_legal(pilot)
        game = session.g
        assert game.phase == "tricks" and game.tricks and game.to_act == table.viewer
        await pilot.press("k")
        await settle(pilot)
        assert isinstance(app.screen, TrackerScreen)
        tracker_text = str(app.screen.query_one("#tracker-text").render())
        for trick in game.tricks:
            for _, card in trick.plays:
                assert short_card(card) in tracker_text
        seen = game.observation(table.observer())
        visible = {c.id for c in seen.hand} | {c.id for c in seen.dummy_up or ()}
        for s in range(game.n):
            for card in game.hand(s):
                if card.id not in visible:  # in a hand the viewer cannot see
                    assert short_card(card) not in tracker_text, (s, str(card))
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("h")
        for _ in range(300):  # the expert bot thinks in a worker
            await pilot.pause(0.1)
            if "Hint:" in text_of(app):
                break
        assert "Hint: " in text_of(app)
        hand = table.query_one("#hand", HandView)
        assert hand.selected is not None and hand.selected.id in hand.legal
        assert table.session.hints_used


# ---------------------------------------------------------------- hints
async def test_hint_selects_the_expert_card_and_marks_the_attempt(services: Services) -> None:
    app = make_app(services, seed=find_seed("success"), mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await steps_until(pilot, lambda g: g.phase == "tricks" and g.to_act == 0)
        await pilot.press("h")
        await settle(pilot)
        for _ in range(300):  # the expert bot thinks in a worker
            if "Hint:" in text_of(app):
                break
            await pilot.pause(0.1)
        text = text_of(app)
        assert "Hint: play " in text
        hand = table.query_one("#hand", HandView)
        assert hand.selected is not None and f"play {hand.selected}" in text
        assert not list(app._notifications)  # in the status line: a toast would cover the trick panel
        assert text.count(f"play {hand.selected}") == 1  # said once
        assert table.session.hints_used
        await play_to_end(pilot)
        assert "Hints were asked in this attempt (marked in the logbook)" in text_of(app)
        assert not list(app._notifications)  # no toast covers the result
    assert "planet-nine/01" in hinted_missions(services.logbook, "planet-nine")


async def test_a_campaign_can_forbid_hints(services: Services, tmp_path: Path) -> None:
    folder = write_campaign(tmp_path / "strict")
    path = folder / "campaign.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("unlock: in-order", "unlock: in-order\nhints: forbidden"),
                    encoding="utf-8")
    app = make_app(services, campaign=str(folder), players=3, seed="strict")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await steps_until(pilot, lambda g: g.phase == "tricks" and g.to_act == 0)
        await pilot.press("h")
        await settle(pilot)
        assert "No hint: this campaign forbids hints" in text_of(app)
        assert not table.session.hints_used


# ---------------------------------------------------------------- practice
async def test_practice_takes_back_a_card_and_replays_the_deal(services: Services) -> None:
    app = make_app(services, seed="practice-1", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        await pilot.press("p")
        await settle(pilot)
        table = app.table()
        assert table is not None and table.session.practice
        await steps_until(pilot, lambda g: g.phase == "tricks" and g.to_act == 0)
        game = table.session.g
        hand_before = list(game.hand(0))
        await press_first_legal(pilot)
        await settle(pilot)
        assert len(table.session.g.hand(0)) == len(hand_before) - 1
        assert "u Take back" in footer_line(app)
        await pilot.press("u")
        await settle(pilot)
        assert "Taken back" in text_of(app)
        game = table.session.g
        assert sorted(c.id for c in game.hand(0)) == sorted(c.id for c in hand_before) and game.to_act == 0
        seed = game.seed
        await play_to_end(pilot)
        assert "A practice game: not counted in the logbook" in text_of(app)
        await pilot.press("s")  # the same deal again
        await settle(pilot)
        assert table.session.g.seed == seed and table.session.practice
    assert progress_of(services.logbook, "planet-nine", ["planet-nine/01"])[0].attempts == 0


async def test_no_take_back_in_an_attempt_that_counts(services: Services) -> None:
    app = make_app(services, seed="counts-1", mission="planet-nine/01")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_table(pilot)
        await steps_until(pilot, lambda g: g.phase == "tricks" and g.to_act == 0)
        await press_first_legal(pilot)
        await settle(pilot)
        played = [a for a in table.session.g.actions if isinstance(a, Play) and a.seat == 0]
        assert "Take back" not in footer_line(app)
        await pilot.press("u")
        await settle(pilot)
        assert [a for a in table.session.g.actions if isinstance(a, Play) and a.seat == 0] == played
        table.action_take_back()  # the palette's command: the reason in the status line
        assert "only in a practice game" in text_of(app)


# ---------------------------------------------------------------- the your-turn bell
async def test_your_turn_rings_when_the_terminal_is_not_focused(services: Services, home: Path) -> None:
    for bell, mission in ((True, "planet-nine/01"), (False, "planet-nine/02")):
        save_settings(home, Settings(bell=bell))
        app = make_app(services, seed="bell-1", mission=mission)
        rings: list[int] = []
        app.bell = lambda r=rings: r.append(1)  # type: ignore[method-assign,misc]
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            table = await open_table(pilot)
            await steps_until(pilot, lambda g: g.phase == "tricks" and g.to_act == 0)
            app.app_focus = False  # the player looks at another window...
            hand = table.query_one("#hand", HandView)
            hand.select(next(c for c in hand.cards if c.id in hand.legal))
            table.action_play_selected()  # ...right after playing (Enter's action; a key press would focus it)
            game = table.session.g
            for _ in range(100):  # the bots play on their own until it is our turn again
                await settle(pilot)
                if game.to_act == 0 and len(game.tricks) >= 1 and not table._engine_busy:
                    break
                await pilot.pause(0.02)
            await settle(pilot)
            assert game.to_act == 0
            assert len(rings) == (1 if bell else 0)
            assert "Your turn." in text_of(app)  # visible too, once the player looks again


# ---------------------------------------------------------------- 4. 80x24 and below
async def test_below_80x24_the_table_says_what_it_needs(services: Services) -> None:
    app = make_app(services, seed="small", mission="planet-nine/01")
    async with app.run_test(size=(70, 20)) as pilot:
        await open_table(pilot)
        await settle(pilot)
        assert "The terminal is 70x20: the table needs at least 80x24" in text_of(app)
    app = make_app(services, seed="small", mission="planet-nine/02")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot)
        assert "the table needs at least" not in text_of(app)


async def test_tasks_panel_scrolls_three_lines_a_press_at_80x24(services: Services) -> None:
    app = make_app(services, seed="scroll", mission="planet-nine/41", players=5)  # 4 conditions: too long
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        await pass_distress(pilot)
        box = table.query_one("#tasks-box")
        assert box.max_scroll_y > 0 and "more below" in text_of(app)
        await pilot.press("tab")
        while not box.has_focus:
            await pilot.press("tab")
        await pilot.press("down")
        await settle(pilot)
        assert box.scroll_y == min(3, box.max_scroll_y)  # one press, three lines (it was one line, animated)
        await pilot.press("pagedown", "pagedown", "pagedown")
        await settle(pilot)
        assert box.scroll_y == box.max_scroll_y


async def test_choosing_jarvis_card_keeps_your_own_hand_in_sight(services: Services) -> None:
    from test_tui_variants import seed_where

    seed = seed_where("crew-jarvis", "planet-nine/01", 2, lambda g: g.commander == 0, "jarvis")
    app = make_app(services, ruleset="crew-jarvis", players=2, mission="planet-nine/01", seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(pilot)
        await pilot.press("home", "enter")  # JARVIS's seat: the first choice
        session = table.session
        for _ in range(200):
            await settle(pilot)
            if await pass_distress(pilot):
                continue
            game = session.g
            if game.phase == "tricks" and game.to_act == game.dummy_seat:
                break
            if session.is_human(game.to_act):
                await press_first_legal(pilot)
        game = session.g
        assert game.to_act == game.dummy_seat and table.acting() == game.dummy_seat
        text = text_of(app)
        assert "JARVIS plays" in text
        own_line = next(line for line in text.splitlines() if "own hand:" in line)
        assert all(short_card(c) in own_line for c in game.hand(table.viewer))
