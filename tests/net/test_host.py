"""A real host on a free loopback port and real WebSocket clients: seats, codes, hostile clients, rejoining."""

from __future__ import annotations

import asyncio
import hmac
import json
from pathlib import Path

import pytest
from net_helpers import LOOPBACK, links, new_table, play_seat, running_host, seat_link
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from crewkit.games import replay
from crewkit.net.client import JoinRefused, TableClient
from crewkit.net.protocol import VERSION, decode, encode, join_link
from crewkit.net.server import Limits
from crewkit.net.table import HostedTable, TableConfig

pytestmark = pytest.mark.timeout(180)

MISSION = "planet-nine/01"


async def test_two_people_and_a_bot_play_planet_nine_01_to_its_end(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", MISSION, ["human", "human", "fast"], seed="two-and-a-bot")
        ann, bob = [await TableClient.connect(link, name) for link, name in zip(links(host, table), ["Ann", "Bob"], strict=True)]
        assert (ann.seat, bob.seat, ann.name, bob.name) == (0, 1, "Ann", "Bob")
        ends = await asyncio.gather(play_seat(ann, "a"), play_seat(bob, "b"))
        assert ends[0]["seq"] == ends[1]["seq"] == table.applied
        assert [p["name"] for p in ends[0]["players"]] == ["Ann", "Bob", "Bot 3"]
        assert ends[0]["outcome"]["result"] in ("success", "failure")
        record = json.loads((table.folder / "record.json").read_text())
        replayed = replay(record)
        assert replayed.error is None and replayed.game is not None
        assert replayed.game.outcome().result == ends[0]["outcome"]["result"]
        await ann.close()
        await bob.close()


async def test_a_wrong_code_another_tables_code_and_a_code_in_use_are_refused(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        one = new_table(host, "crew", MISSION, ["human", "human", "fast"])
        two = new_table(host, "crew", MISSION, ["human", "fast", "fast"], seed="other")
        good = seat_link(host, one, 1)
        code = one.seats[1].code
        assert code is not None and len(code) >= 32  # 24 random bytes, url-safe: 192 bits
        wrong = join_link("ws", LOOPBACK, host.port, one.id, code[:-2] + ("AA" if code[-2:] != "AA" else "BB"))
        with pytest.raises(JoinRefused) as refused:
            await TableClient.connect(wrong)
        assert refused.value.code == "bad-code"
        with pytest.raises(JoinRefused) as refused:  # a seat's code names that table's seat only
            await TableClient.connect(join_link("ws", LOOPBACK, host.port, two.id, code))
        assert refused.value.code == "bad-code"
        bob = await TableClient.connect(good, "Bob")
        assert bob.seat == 1  # the code of seat 1 takes seat 1, whatever the client asks
        with pytest.raises(JoinRefused) as refused:  # the same link while its seat is connected
            await TableClient.connect(good, "Mallory")
        assert refused.value.code == "seat-taken"
        assert one.seats[1].name == "Bob"
        await bob.close()


def test_codes_are_compared_with_every_seats_in_constant_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.net.table import HostedTable, TableConfig

    async def make() -> HostedTable:
        return HostedTable.create(tmp_path, TableConfig("crew", MISSION, 4, "s", ["human", "human", "fast", "human"]),
                                  "fast")

    table = asyncio.run(make())
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    assert table.seat_of_code(table.seats[0].code or "") == 0
    assert len(calls) == 3  # every human seat's code compared, no early exit
    calls.clear()
    assert table.seat_of_code("x" * 32) is None
    assert len(calls) == 3
    table.close()


async def test_failed_attempts_are_rate_limited_per_address(tmp_path: Path) -> None:
    async with running_host(tmp_path, Limits(failures=3, failure_window=60, ping_interval=None)) as host:
        table = new_table(host, "crew", MISSION, ["human", "fast", "fast"])
        for i in range(3):
            with pytest.raises(JoinRefused) as refused:
                await TableClient.connect(join_link("ws", LOOPBACK, host.port, table.id, f"guess{i}"))
            assert refused.value.code == "bad-code"
        with pytest.raises(JoinRefused) as refused:  # even the right code, while the address is limited
            await TableClient.connect(links(host, table)[0])
        assert refused.value.code == "rate-limited"
        host.failures.clear()  # the window passed
        client = await TableClient.connect(links(host, table)[0])
        assert client.seat == 0
        await client.close()


async def test_a_client_of_another_version_is_refused_naming_both(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", MISSION, ["human", "fast", "fast"])
        async with connect(f"ws://{LOOPBACK}:{host.port}/") as ws:
            await ws.send(json.dumps({"type": "hello", "version": VERSION + 1, "table": table.id,
                                      "code": table.seats[0].code, "client": "future"}))
            refused = decode(await ws.recv(), "host")
        assert refused["type"] == "refused" and refused["code"] == "version"
        assert f"version {VERSION}" in refused["message"] and f"version {VERSION + 1}" in refused["message"]


async def test_an_illegal_action_gets_a_message_and_changes_nothing(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", MISSION, ["human", "human", "fast"], seed="illegal")
        first, second = [await TableClient.connect(link) for link in links(host, table)]
        state = await first.until(lambda m: m["type"] == "state")
        waited = first if state["turn"] else second
        other = second if waited is first else first
        before = json.dumps(table.game.record())
        other_state = other.state or await other.until(lambda m: m["type"] == "state")
        attempts = [
            {"seat": other.seat, "type": "play", "card": "blue 1"},  # not that seat's turn
            {"seat": waited.seat, "type": "play", "card": "rocket 9"},  # no such card in that game
            {"seat": 1 - waited.seat if waited.seat < 2 else 0, "type": "take-task", "card": "blue 3"},
        ]
        for client, action in [(other, attempts[0]), (waited, attempts[1]), (waited, attempts[2])]:
            ident = await client.act(action)
            error = await client.until(lambda m: m["type"] in ("error", "ack"))
            assert error["type"] == "error" and error["id"] == ident, error
            assert error["message"]
        assert json.dumps(table.game.record()) == before
        assert other_state["seq"] == table.applied
        await first.close()
        await second.close()


async def test_every_message_dropped_over_the_rate_is_answered_by_its_id(tmp_path: Path) -> None:
    """A client over its allowance is told which of its messages were not applied (a person's client waits for
    the answer to its action: a silent drop left the table waiting for that seat forever)."""
    limits = Limits(rate=0.5, burst=4, flood_close=100, ping_interval=None)
    async with running_host(tmp_path, limits) as host:
        table = new_table(host, "crew", MISSION, ["human", "fast", "fast"])
        client = await TableClient.connect(links(host, table)[0])
        sent = [await client.ping() for _ in range(12)]
        answers: dict[int, str] = {}
        while len(answers) < len(sent):
            message = await client.until(lambda m: m["type"] in ("pong", "error"), timeout=60)
            if "id" in message:
                answers[message["id"]] = message.get("code", "pong")
        assert sorted(answers) == sorted(sent)
        assert list(answers.values()).count("flood") >= len(sent) - limits.burst - 1
        assert client.ws.close_code is None  # told, not closed: it may send again in a moment
        await client.close()


async def _answered(client: TableClient) -> None:
    """A ping of ``client`` is answered (the bound is a safety net, not a speed)."""
    ident = await client.ping()
    await client.until(lambda m: m["type"] == "pong" and m.get("id") == ident, timeout=60)


async def _half_open(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``count`` connections that start an HTTP request and never finish it."""
    opened = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and nothing more
        opened.append((reader, writer))
    return opened


async def test_hostile_clients_neither_crash_the_host_nor_stall_another_table(tmp_path: Path) -> None:
    """Malformed messages are answered and the connection still served; then a whole game of another table is
    played while a flood goes on and connections hang half-open (the host's timeouts are far off: they are all
    still there while that game runs, whatever the machine's speed)."""
    limits = Limits(open_timeout=600, hello_timeout=600, rate=50, burst=50, flood_close=10**9, ping_interval=None)
    async with running_host(tmp_path, limits) as host:
        victim = new_table(host, "crew", MISSION, ["human", "fast", "fast"], seed="victim")
        honest = new_table(host, "crew", MISSION, ["human", "human", "fast"], seed="honest")
        fuzzer = await TableClient.connect(links(host, victim)[0])
        ws = fuzzer.ws
        for raw in ["{", "[]", "null", '"hello"', json.dumps({"type": "launch"}),
                    json.dumps({"type": "act", "action": {"seat": 0, "type": "play"}, "extra": 1}),
                    json.dumps({"type": "act", "action": {"seat": 0, "type": "play", "nested": {"a": [1]}}}),
                    json.dumps({"type": "ping", "id": -1}), "[" * 5000 + "]" * 5000]:
            await ws.send(raw)
            error = await fuzzer.until(lambda m: m["type"] == "error", timeout=60)
            assert error["code"] in ("bad-message", "unknown-type"), error
        await ws.send(b"\x00\x01binary")
        assert (await fuzzer.until(lambda m: m["type"] == "error", timeout=60))["code"] == "bad-message"
        await _answered(fuzzer)  # still served after every malformed message
        hanging = await _half_open(host.port, 20)
        silent = await connect(f"ws://{LOOPBACK}:{host.port}/")  # never says hello
        sent = 0
        told: list[str] = []

        async def flood() -> None:  # as fast as the socket takes them, until the honest game is over
            nonlocal sent
            while True:
                await ws.send('{"type": "ping"}')
                sent += 1
                await asyncio.sleep(0)  # the other tasks of this process (the host, the honest clients) run too

        async def drain() -> None:  # the flooder reads its answers (a reader that never does is dropped)
            while True:
                told.append((await fuzzer.recv()).get("code", ""))

        flooding = [asyncio.create_task(flood()), asyncio.create_task(drain())]
        try:
            watcher, player = [await TableClient.connect(link) for link in links(host, honest)]
            ends = await asyncio.gather(play_seat(watcher, "w"), play_seat(player, "p"))
            assert ends[0]["over"] and ends[1]["over"]
            assert not any(task.done() for task in flooding), [t.exception() for t in flooding if t.done()]
        finally:
            for task in flooding:
                task.cancel()
            await asyncio.gather(*flooding, return_exceptions=True)
        assert sent > limits.burst and "flood" in told  # it was over its allowance all along
        assert honest.game.is_over()
        for reader, writer in hanging:  # and the half-open connections were there all along
            assert not reader.at_eof()
            writer.close()
        await silent.close()
        await watcher.close()
        await player.close()
        await fuzzer.close()


async def test_floods_huge_frames_and_silent_connections_are_closed(tmp_path: Path) -> None:
    """Each closed by the host on its own (events: the close, the refusal, the end of stream), and the victim's
    seat is free again."""
    limits = Limits(open_timeout=1.0, hello_timeout=1.0, rate=50, burst=50, flood_close=300, ping_interval=None)
    async with running_host(tmp_path, limits) as host:
        victim = new_table(host, "crew", MISSION, ["human", "fast", "fast"], seed="victim")
        fuzzer = await TableClient.connect(links(host, victim)[0])

        async def flood() -> None:  # thousands of messages as fast as the socket takes them
            for _ in range(5000):
                await fuzzer.ws.send(encode({"type": "ping", "id": 1}))

        with pytest.raises(ConnectionClosed):  # read meanwhile: the host's close is seen when it comes
            await asyncio.gather(flood(), fuzzer.until(lambda m: False, timeout=60))
        big = await TableClient.connect(links(host, victim)[0])  # a huge frame closes that connection only
        with pytest.raises(ConnectionClosed):
            await big.ws.send("x" * (limits.max_message + 1))
            await big.until(lambda m: False, timeout=60)
        assert big.ws.close_code == 1009
        hanging = await _half_open(host.port, 20)  # never finish their handshake, or never say hello
        silent = await connect(f"ws://{LOOPBACK}:{host.port}/")
        refused = decode(await asyncio.wait_for(silent.recv(), 60), "host")
        assert refused["type"] == "refused" and refused["code"] == "timeout"
        for reader, writer in hanging:
            assert await asyncio.wait_for(reader.read(), 60) is not None  # the host closed it (EOF)
            writer.close()
        again = await TableClient.connect(links(host, victim)[0])  # the victim's seat is free again
        assert (await again.until(lambda m: m["type"] == "state"))["seq"] == victim.applied
        await again.close()
        await silent.close()


async def test_a_dropped_client_rejoins_with_the_same_link_and_the_table_says_who_it_waits_for(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", MISSION, ["human", "human", "fast"], seed="rejoin", names=["Ann", "Bob", "Cat"])
        ann_link, bob_link = links(host, table)
        ann = await TableClient.connect(ann_link)
        bob = await TableClient.connect(bob_link)
        await asyncio.gather(play_seat(ann, "a", stop_at=4), play_seat(bob, "b", stop_at=4))
        await ann.ws.close()  # Ann's connection drops mid-game
        state = bob.state
        assert state is not None
        for _ in range(200):  # Bob plays until the table waits for Ann
            if "Ann" in state["waiting"] and not state["players"][0]["connected"]:
                break
            if state["turn"] and state["seq"] == table.applied:
                if state["window"]:
                    await bob.pass_window()
                elif state["legal"]:
                    await bob.act(state["legal"][0])
            await bob.until(lambda m: m["type"] in ("state", "error"), timeout=10)
            state = bob.state
        else:
            raise AssertionError("the table never waited for Ann")
        assert "waiting for Ann (disconnected)" in state["status"]
        ann = await TableClient.connect(ann_link)
        back = await ann.until(lambda m: m["type"] == "state")
        assert back["seq"] == table.applied and back["turn"]
        assert back["observation"] == json.loads(json.dumps(table.game.observation(0)))
        seen = await bob.until(lambda m: m["type"] == "state" and m["players"][0]["connected"])
        assert "(disconnected)" not in seen["status"]
        ends = await asyncio.gather(play_seat(ann, "a2"), play_seat(bob, "b2"))
        assert ends[0]["over"]
        await ann.close()
        await bob.close()


async def test_the_host_hands_a_left_seat_to_a_bot_and_back(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", MISSION, ["human", "human", "fast"], seed="hand-over", names=["Ann", "Bob", "Cat"])
        ann_link, bob_link = links(host, table)
        bob = await TableClient.connect(bob_link)
        await table.set_bot(0, True)  # Ann never came: her bot plays
        state = await play_seat(bob, "b", stop_at=12)
        assert state["players"][0]["bot"] == "fast"
        assert state["seq"] >= 12
        await table.set_bot(0, False)  # Ann is here: her seat is hers again
        ann = await TableClient.connect(ann_link)
        ends = await asyncio.gather(play_seat(ann, "a"), play_seat(bob, "b2"))
        assert ends[0]["over"] and "bot" not in ends[0]["players"][0]
        log = [json.loads(line) for line in (table.folder / "log.jsonl").read_text().splitlines()]
        assert [e["bot"] for e in log if e["event"] == "control"] == [True, False]
        await ann.close()
        await bob.close()


@pytest.mark.parametrize(("ruleset", "mission", "seats", "default_bot"), [
    ("crew", MISSION, ["human", "human", "no-such-bot", "human"], "fast"),  # a bot seat
    ("crew", MISSION, ["human", "human", "fast", "human"], "no-such-bot"),  # the bot a person's seat is handed to
    ("not-alone", None, ["human", "human", "human"], "fast"),  # a bot of the other family
])
def test_a_table_whose_bot_its_game_does_not_know_is_refused_when_made_and_resumed(
        tmp_path: Path, ruleset: str, mission: str | None, seats: list[str], default_bot: str) -> None:
    """A bot the game does not have is refused before the table is hosted, naming it; a seat handed to it
    mid-game would otherwise stop the table's bots."""
    from crewkit.net.table import TABLE_FILE, HostedTable, TableConfig, TableError

    with pytest.raises(TableError, match="unknown bot"):
        HostedTable.create(tmp_path / "new", TableConfig(ruleset, mission, len(seats), "s", seats), default_bot)
    assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())  # nothing left behind
    # the same bot written into a hosted table's file (by hand): resuming it says which file and which bot
    good = "heuristic" if ruleset == "not-alone" else "fast"
    table = HostedTable.create(tmp_path, TableConfig(ruleset, mission, len(seats), "s",
                                                     [good if k == "no-such-bot" else k for k in seats]), good)
    table.close()
    path = table.folder / TABLE_FILE
    data = json.loads(path.read_text())
    data["bot"] = default_bot
    data["config"]["seats"] = seats
    path.write_text(json.dumps(data))
    with pytest.raises(TableError, match=f"{TABLE_FILE}.*unknown bot"):
        HostedTable.resume(table.folder)


async def test_who_the_window_waits_for_follows_every_answer_and_handover(tmp_path: Path) -> None:
    """The open communication window's pending people (kept between changes) change with an answer and with a
    seat handed to its bot and back, exactly as a table rebuilt from the log works them out."""
    table = HostedTable.create(tmp_path, TableConfig("crew", MISSION, 3, "window", ["human", "human", "fast"]), "fast")
    try:
        for _ in range(40):  # the commander takes the task; then the window before the first trick opens
            if table.game.window() and len(table.window_pending()) == 2:
                break
            if not await table.bot_step():
                seat = table.waiting_seats()[0]
                await table.act(seat, table.state_for(seat)["legal"][0])
        assert sorted(table.window_pending()) == [0, 1]

        def rebuilt() -> list[int]:
            again = HostedTable.resume(table.folder)
            try:
                return again.window_pending()
            finally:
                again.close()

        await table.set_bot(1, True)  # a bot answers for Bob now: the window waits for Ann only
        assert table.window_pending() == [0] == rebuilt()
        await table.set_bot(1, False)
        assert sorted(table.window_pending()) == [0, 1] == sorted(rebuilt())
        await table.pass_window(0)
        assert table.window_pending() == [1] == rebuilt()
        await table.pass_window(1)
        assert table.window_pending() == [] == rebuilt()
    finally:
        table.close()
