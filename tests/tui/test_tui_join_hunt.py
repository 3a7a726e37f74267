"""``crewkit join`` draws a seat of Not Alone with the same table screen as ``crewkit play``: a real host on a free
loopback port, three people (Ann on the real app at 80x24, driven by keys; Bob and Cat as clients that decide
with the board bot from their own messages only), a round played.

Secret simultaneous choices: nothing of a choice reaches anyone before every seat has chosen (the host's
observations). Ann's table says whom it waits for while the others choose, and every screen she is shown is
checked for a card she cannot see; what her screen is drawn from (her seat's observation) is the same for a
game that differs only in what she cannot see."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from hunt_helpers import dialog_of
from screen_text import screen_text
from test_hunt_tui import altered, hidden_card_names
from test_tui_join import hosted, link
from websockets.exceptions import ConnectionClosed

from crewkit.families.not_alone.bots import make_board_bot
from crewkit.families.not_alone.family import FAMILY
from crewkit.families.not_alone.observation import board_observation_from_json
from crewkit.families.not_alone.tui.remote import RemoteHuntSession
from crewkit.families.not_alone.tui.table import HuntTableScreen
from crewkit.games.protocol import GameInPlay
from crewkit.net.client import TableClient
from crewkit.tui.join import remote_session
from crewkit.tui.seat import SeatApp

pytestmark = pytest.mark.timeout(90)

SIZE = (80, 24)
NAMES = ["Cat", "Ann", "Bob"]  # Cat is the Creature (seat 0); Ann and Bob are the Hunted
ANN, BOB, CAT = 1, 2, 0


async def read_all(client: TableClient) -> None:
    """Read every message the host sends, as it comes (the client's ``state`` is always the latest received)."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await client.recv()


class BotClient:
    """A person's client played by the board bot: it decides from this seat's ``state`` messages only."""

    def __init__(self, client: TableClient, seed: str) -> None:
        self.client = client
        self.bot = make_board_bot("heuristic", client.seat, seed, FAMILY.ruleset("not-alone"))
        self.acted_at = -1

    def due(self) -> bool:
        state = self.client.state or {}
        return bool(state.get("turn")) and bool(state.get("legal")) and state["seq"] != self.acted_at

    async def act(self) -> None:
        from crewkit.engine.actions import action_from_json

        state = self.client.state
        assert state is not None
        legal = [action_from_json(a, None) for a in state["legal"]]
        action = self.bot.choose(board_observation_from_json(state["observation"]), legal)
        self.acted_at = state["seq"]
        await self.client.act(action.to_json())


async def settle(pilot: Any) -> None:
    for _ in range(4):
        await pilot.pause(0.02)


async def test_three_people_play_a_round_of_not_alone_at_a_hosted_table(tmp_path: Path) -> None:
    async with hosted(tmp_path, ["human", "human", "human"], "join-hunt", NAMES, "not-alone", None, "heuristic") as (
            host, table):
        ann = await TableClient.connect(link(host, table, ANN), "Ann")
        opened, why = remote_session(ann)
        assert opened is not None, why
        await ann.until(lambda m: m["type"] == "state", timeout=10)
        session = opened()
        assert isinstance(session, RemoteHuntSession)
        others = {seat: BotClient(await TableClient.connect(link(host, table, seat), NAMES[seat]), "join-hunt")
                  for seat in (BOB, CAT)}
        app = SeatApp(session)
        read: set[str] = set()
        seen = {"checked": 0, "same-view": 0, "waited-for-bob": 0, "ann-chose-first": 0}
        engine = table.game.engine
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.table()
            assert isinstance(screen, HuntTableScreen) and screen.remote
            readers = [asyncio.create_task(read_all(bot.client)) for bot in others.values()]
            async with asyncio.timeout(80):  # a safety net: the loop ends with round 2
                while True:
                    await settle(pilot)
                    text = screen_text(app)
                    obs = session.obs
                    assert obs is not None and obs.seat == ANN
                    # every screen: no card of a hand Ann cannot see ...
                    for name in hidden_card_names(engine, ANN, read):
                        assert name not in text, (name, text)
                    # ... and what it is drawn from is the same for a game that differs only in what she cannot see
                    if not session.sending and session.state is not None and session.state["seq"] == table.applied:
                        assert obs == engine.observation(ANN)
                        other = altered(engine, ANN)
                        if other is not None:
                            assert other.observation(ANN) == obs
                            seen["same-view"] += 1
                    seen["checked"] += 1
                    if engine.round >= 2:
                        break
                    waiting = table.game.waiting()
                    if dialog_of(app) is not None:  # Ann's choice: the first one, by keys
                        if waiting == (ANN, BOB):
                            seen["ann-chose-first"] += 1
                        await pilot.press("home", "enter")
                        continue
                    bob_to_choose = waiting == (BOB,) and engine.phase == "exploration" and others[BOB].due()
                    if bob_to_choose and (session.sending or (session.state or {}).get("seq") != table.applied):
                        await asyncio.sleep(0.02)  # Ann's table has not had the host's latest state yet: Bob waits
                        continue
                    if bob_to_choose:
                        # Ann chose her place card face down; Bob has not: her table says it waits for him, and his
                        # messages show her card face down, never which
                        assert "waiting for Bob" in screen.status_text, screen.status_text
                        assert "waiting for Bob" in text
                        bob_view = others[BOB].client.state
                        assert bob_view is not None
                        ann_seen = bob_view["observation"]["seats"][ANN]
                        assert ann_seen["face_down"] >= 1 and ann_seen["revealed"] == []
                        seen["waited-for-bob"] += 1
                    due = [bot for bot in others.values() if bot.due()]
                    if due:
                        await due[0].act()
                    elif screen.session.human_seat() is not None and dialog_of(app) is None:
                        await pilot.press("enter")  # the dialog again (closed with Esc)
                    else:
                        await asyncio.sleep(0.02)  # the host has not answered yet
            for reader in readers:
                reader.cancel()
            assert engine.round >= 2, (engine.round, engine.phase, table.status())
            text = screen_text(app)
            assert "round 2" in text
            assert seen["waited-for-bob"] >= 1 and seen["ann-chose-first"] >= 1, seen
            assert seen["same-view"] >= 3 and seen["checked"] >= 6, seen
        for bot in others.values():
            await bot.client.close()
        await ann.close()
    held = list(vars(session).values())
    assert not any(isinstance(v, GameInPlay) or type(v).__name__ == "BoardGame" for v in held)
