"""JARVIS at a hosted table (The Crew for 2 players): the commander's client is asked for JARVIS's plays and
makes them; the other player's attempt to play for JARVIS is refused; when JARVIS is seated elsewhere at the
setup every client follows the engine's renumbering. A real host on a loopback port, real clients (the
plain terminal client plays the commander's seat and JARVIS's)."""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from net_helpers import new_table, play_seat, running_host, seat_link

from crewkit.net.client import TableClient
from crewkit.net.plain import run_plain
from crewkit.net.table import HostedTable

pytestmark = pytest.mark.timeout(180)

MISSION = "planet-nine/10"


def _people(table: HostedTable) -> tuple[int, int, int]:
    """(JARVIS's seat, the commander's, the other player's) now."""
    dummy = table.game.dummy_seat
    assert dummy is not None
    commander = table.game.controller(dummy)
    assert commander != dummy
    other = next(s for s in range(len(table.seats)) if s not in (dummy, commander))
    return dummy, commander, other


def _answer_to(ident: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] in ("ack", "error") and m.get("id") == ident


async def _fresh(client: TableClient, table: HostedTable) -> dict[str, Any]:
    """The client's state once it shows the table as it is now."""
    state = client.state
    while state is None or state["seq"] != table.applied:
        await client.until(lambda m: m["type"] == "state", timeout=10)
        state = client.state
    return state


async def test_the_commanders_client_plays_jarvis_and_the_other_player_may_not(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew-jarvis", MISSION, ["human", "human"], seed="jarvis-1", names=["Ann", "Bob"],
                          players=2)
        assert [s.name for s in table.seats] == ["Ann", "Bob", "JARVIS"] and table.game.dummy_seat == 2
        ann, bob = (await TableClient.connect(seat_link(host, table, 0)), await TableClient.connect(seat_link(host, table, 1)))
        by_name = {"Ann": ann, "Bob": bob}
        dummy, commander, other = _people(table)
        boss, rival = by_name[table.seats[commander].name], by_name[table.seats[other].name]
        # the setup: the commander seats JARVIS first (here: in the first seat; the players keep their order)
        state = await _fresh(boss, table)
        choose = [a for a in state["legal"] if a["type"] == "choose-dummy-seat" and a["dummy_seat"] == 0]
        assert choose and state["turn"]
        await boss.act(choose[0])
        await boss.until(lambda m: m["type"] == "ack")
        assert [s.name for s in table.seats] == ["JARVIS", "Ann", "Bob"]
        dummy, commander, other = _people(table)
        for client in (ann, bob):
            state = await _fresh(client, table)
            assert table.seats[state["seat"]].name == client.name  # each client follows its seat
            assert [p["name"] for p in state["players"]] == ["JARVIS", "Ann", "Bob"]
            assert state["observation"]["dummy"]["seat"] == 0
        # play on until the table waits for JARVIS
        asked = refused = 0
        for _ in range(400):
            if table.game.is_over():
                break
            boss_state, rival_state = await _fresh(boss, table), await _fresh(rival, table)
            waits = table.game.waiting()
            if waits == (dummy,) and not table.window_pending():
                asked += 1
                assert boss_state["turn"] and "for JARVIS" in boss_state["status"]
                jarvis_moves = [a for a in boss_state["legal"] if a["seat"] == dummy]
                assert jarvis_moves and all(a["seat"] == dummy for a in boss_state["legal"])
                face_up = set(boss_state["observation"]["dummy"]["face_up"])
                assert {a["card"] for a in jarvis_moves if a["type"] == "play"} <= face_up
                assert not rival_state["turn"] and all(a["seat"] == other for a in rival_state["legal"])
                if refused < 2:  # the other player tries to play for JARVIS: refused, nothing changes
                    before = table.applied
                    ident = await rival.act(jarvis_moves[0])
                    error = await rival.until(_answer_to(ident))
                    assert error["type"] == "error" and error["code"] == "not-your-seat" and table.applied == before
                    refused += 1
                await boss.act(jarvis_moves[0])
                await boss.until(lambda m: m["type"] in ("ack", "error"))
                continue
            for client, state in ((boss, boss_state), (rival, rival_state)):
                if state["turn"]:
                    if state["window"]:
                        await client.pass_window()
                    else:
                        own = [a for a in state["legal"] if a["seat"] == state["seat"]]
                        await client.act(own[0])
                    await client.until(lambda m: m["type"] in ("ack", "error"))
                    break
            else:
                await asyncio.sleep(0.02)
        assert asked >= 1 and refused == min(asked, 2)
        log = [json.loads(line) for line in (table.folder / "log.jsonl").read_text().splitlines()]
        assert any(e["event"] == "act" and e["action"]["seat"] == dummy for e in log)
        await ann.close()
        await bob.close()
    # the table resumes from its log as it was: the renumbered seats, the same game
    again = HostedTable.resume(table.folder)
    assert [s.name for s in again.seats] == ["JARVIS", "Ann", "Bob"]
    assert again.applied == table.applied and again.game.observation(1) == table.game.observation(1)
    again.close()


async def test_the_plain_client_plays_jarvis_turns(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew-jarvis", MISSION, ["human", "human"], seed="jarvis-plain", players=2,
                          readings={"jarvis-seat": "fixed"})
        dummy, commander, other = _people(table)
        rival = await TableClient.connect(seat_link(host, table, other))
        out = io.StringIO()
        typed = iter(["p", "1"] * 2000)  # pass a communication window when one is open, else the first action
        deadline = time.monotonic() + 120

        over = False

        def read_line() -> str:
            time.sleep(0.01)
            if over:
                return "q\n"  # the game is over: the client waits for the host's next game; Cleo leaves
            return next(typed, "") + "\n" if time.monotonic() < deadline else ""

        plain = asyncio.create_task(run_plain(seat_link(host, table, commander), "Cleo", lines=read_line, out=out))
        end = await play_seat(rival, "rival")
        assert end["over"]
        over = True
        assert await asyncio.wait_for(plain, 30) == 0
        shown = out.getvalue()
        assert "for JARVIS: play" in shown and "JARVIS's face-up cards:" in shown
        log = [json.loads(line) for line in (table.folder / "log.jsonl").read_text().splitlines()]
        played = [e["action"] for e in log if e["event"] == "act" and e["action"]["type"] == "play"]
        assert sum(a["seat"] == dummy for a in played) >= 1
        assert not table.bot_faults
        await rival.close()


async def test_with_jarvis_taking_part_the_commander_communicates_for_it(tmp_path: Path) -> None:
    """The reading where JARVIS communicates and passes a card in the distress signal: the commander's client
    is offered JARVIS's communication too, each action naming JARVIS's seat, and the game plays to its end."""
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew-jarvis", MISSION, ["human", "human"], seed="jarvis-talks", players=2,
                          readings={"jarvis-seat": "fixed", "jarvis-communication": "jarvis-takes-part"})
        dummy, commander, other = _people(table)
        boss = await TableClient.connect(seat_link(host, table, commander), keep=True)
        rival = await TableClient.connect(seat_link(host, table, other), keep=True)
        ends = await asyncio.gather(play_seat(boss, "boss"), play_seat(rival, "rival"))
        assert ends[0]["over"] and not table.bot_faults
        offered = {a["type"] for m in boss.received if m["type"] == "state" for a in m["legal"] if a["seat"] == dummy}
        assert "communicate" in offered and "play" in offered
        assert not any(a["seat"] == dummy for m in rival.received if m["type"] == "state" for a in m["legal"])
        await boss.close()
        await rival.close()
