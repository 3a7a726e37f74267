"""The host against its own guests and its neighbours (issue 41): browser origins, web seat processes vouched
for by the web server (their failures and limits are their browser's, not the machine's), caps on connections
and unfinished handshakes per address, running out of open files without a traceback, and names that cannot
impersonate another seat or fill the journal. Other loopback addresses (127.0.0.2, ...) stand for other
machines: Linux routes all of 127.0.0.0/8 to this machine."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from net_helpers import LOOPBACK, new_table, running_host, seat_link
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from crewkit.cli import main
from crewkit.net.client import JoinRefused, TableClient
from crewkit.net.protocol import VERSION, encode
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig, TableError
from crewkit.net.web import WebSeats

pytestmark = pytest.mark.timeout(120)


def _other_loopback(address: str) -> None:
    """Skip where this loopback address cannot be a source (only Linux routes all of 127.0.0.0/8 here)."""
    probe = socket.socket()
    try:
        probe.bind((address, 0))
    except OSError:
        pytest.skip(f"{address} is not a local address on this machine")
    finally:
        probe.close()


@contextlib.asynccontextmanager
async def _web(host: Host) -> AsyncIterator[WebSeats]:
    web = WebSeats(host, "ws", None, LOOPBACK)
    await web.start(LOOPBACK, 0)
    try:
        yield web
    finally:
        await web.stop()


def _code(table: HostedTable, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return code


async def _hello(port: int, table: str, code: str, origin: str | None = None, source: str = LOOPBACK,
                 user_info: str = "") -> dict[str, Any]:
    """One raw handshake and hello to the host's port; the host's first answer."""
    async with connect(f"ws://{user_info}{LOOPBACK}:{port}/", origin=origin,  # type: ignore[arg-type]
                       local_addr=(source, 0)) as ws:
        await ws.send(encode({"type": "hello", "version": VERSION, "table": table, "code": code}))
        answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return answer


# ---------------------------------------------------------------------------- origins
async def test_the_hosts_port_refuses_a_page_of_another_origin_and_admits_its_own_web_server(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host, _web(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "human", "fast"], seed="o")
        with pytest.raises(InvalidStatus) as refused:
            await _hello(host.port, table.id, _code(table, 0), origin="http://evil.example")
        assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as refused:  # the host's own address, another port: another origin
            await _hello(host.port, table.id, _code(table, 0), origin=f"http://{LOOPBACK}:{host.port}")
        assert refused.value.response.status_code == 403
        assert (await _hello(host.port, table.id, _code(table, 0)))["type"] == "welcome"  # no Origin: a client
        own = await _hello(host.port, table.id, _code(table, 1), origin=f"http://{LOOPBACK}:{web.port}")
        assert own["type"] == "welcome"
        assert not host.failures  # a refused origin is no code tried


async def test_without_a_web_server_the_hosts_port_admits_no_browser_page(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="o")
        with pytest.raises(InvalidStatus) as refused:
            await _hello(host.port, table.id, _code(table, 0), origin=f"http://{LOOPBACK}:{host.port + 1}")
        assert refused.value.response.status_code == 403
        assert (await _hello(host.port, table.id, _code(table, 0)))["type"] == "welcome"


# ---------------------------------------------------------------------------- vouched web seats
async def _browser_seat(web: WebSeats, table: str, code: str, source: str) -> tuple[str, bytes]:
    """A page opened from ``source`` sends its code; (the server's word for the page if any, what was drawn
    until the table's title or that word)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        base = f"http://{LOOPBACK}:{web.port}"
        async with session.ws_connect(f"ws://{LOOPBACK}:{web.port}/ws/{table}?width=80&height=24",
                                      origin=base) as ws:
            await ws.send_str(json.dumps(["join", code]))
            drawn = b""
            while b"First contact" not in drawn:  # planet-nine/01's title, drawn by the seat's process
                message = await ws.receive(30)
                if message.type == aiohttp.WSMsgType.TEXT:
                    kind, text = json.loads(message.data)
                    if kind.startswith("crewkit-"):
                        return text, drawn
                elif message.type == aiohttp.WSMsgType.BINARY:
                    drawn += message.data
                else:
                    return f"closed: {message}", drawn
            return "", drawn


async def test_wrong_codes_from_this_machine_or_another_browser_do_not_lock_a_browser_out(tmp_path: Path) -> None:
    """11 wrong codes from a plain client on this machine (127.0.0.1, where every web seat process connects from)
    and 10 from another browser's address: the browser with the right code still gets its seat, its process's
    connection counted against that browser's address."""
    for address in ("127.0.0.2", "127.0.0.3"):
        _other_loopback(address)
    async with running_host(tmp_path) as host, _web(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="v", names=["Ann"])
        right = _code(table, 0)
        wrong = "x" * len(right)
        for _ in range(11):
            answer = await _hello(host.port, table.id, wrong)
            assert answer["type"] == "refused" and answer["code"] in ("bad-code", "rate-limited")
        assert (await _hello(host.port, table.id, right))["code"] == "rate-limited"  # this machine is locked out
        for _ in range(10):  # another browser tries codes through the web server
            word, _drawn = await _browser_seat(web, table.id, wrong, "127.0.0.3")
            assert "no seat has this link" in word
        word, _drawn = await _browser_seat(web, table.id, right, "127.0.0.3")
        assert "too many failed attempts" in word  # that browser is locked out ...
        word, drawn = await _browser_seat(web, table.id, right, "127.0.0.2")
        assert word == "" and b"First contact" in drawn  # ... this one is not, nor is its process
        assert "127.0.0.2" not in host.failures
        await _until(lambda: not host._vouched)  # its token ends with its page


async def test_a_seat_process_the_web_server_did_not_start_is_not_vouched_for(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host, _web(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="v")
        token = host.vouch("127.0.0.9")
        host.unvouch(token)  # a page closed: its token is no longer good
        for forged in (token, "A" * 32):
            with pytest.raises(InvalidStatus) as refused:
                await _hello(host.port, table.id, _code(table, 0), user_info=f"crewkit-seat:{forged}@")
            assert refused.value.response.status_code == 403
        assert len(host.failures[LOOPBACK]) == 2  # counted against the address it came from
        assert web.sessions == {}


# ---------------------------------------------------------------------------- connection caps
def _closed_by_peer(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


async def _until(test: Any, timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not test():
            await asyncio.sleep(0.05)


async def test_one_address_at_its_caps_does_not_keep_another_address_from_its_seat(tmp_path: Path) -> None:
    _other_loopback("127.0.0.2")
    limits = Limits(ping_interval=None, ping_timeout=None, connections=3, handshakes=2, hello_timeout=60,
                    open_timeout=60)
    async with running_host(tmp_path, limits) as host:
        table = new_table(host, "crew", "planet-nine/01", ["human", "human", "fast"], seed="c")
        ann = await TableClient.connect(seat_link(host, table, 0))
        holders = [await connect(f"ws://{LOOPBACK}:{host.port}/", local_addr=("127.0.0.2", 0)) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:  # handshaken connections of 127.0.0.2: at its cap
            await connect(f"ws://{LOOPBACK}:{host.port}/", local_addr=("127.0.0.2", 0))
        assert refused.value.response.status_code == 503
        raw = []
        for _ in range(6):  # connections that never send their handshake: two are kept waiting, the rest closed
            sock = socket.socket()
            sock.bind(("127.0.0.2", 0))
            sock.connect((LOOPBACK, host.port))
            raw.append(sock)
        try:
            await _until(lambda: sum(_closed_by_peer(s) for s in raw) == 4)
            await ann.close()  # Ann's seat rejoins from another address while 127.0.0.2 holds its caps
            await _until(lambda: not table.seats[0].connected)
            ann = await TableClient.connect(seat_link(host, table, 0))
            assert (await ann.until(lambda m: m["type"] == "state"))["players"][0]["connected"]
            assert all(h.state.name == "OPEN" for h in holders)  # the cap-holder's connections are still open
            assert sum(_closed_by_peer(s) for s in raw) == 4
            bob = await TableClient.connect(seat_link(host, table, 1))  # and a new one joins too
            await bob.close()
        finally:
            for sock in raw:
                sock.close()
            for holder in holders:
                await holder.close()
            await ann.close()


async def test_one_address_at_its_cap_of_web_connections_does_not_keep_another_from_its_page(tmp_path: Path
                                                                                              ) -> None:
    _other_loopback("127.0.0.2")
    limits = Limits(ping_interval=None, ping_timeout=None)
    limits.connections = 3
    async with running_host(tmp_path, limits) as host, _web(host) as web, aiohttp.ClientSession() as http:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="c")
        idle = []
        for _ in range(5):  # connections to the pages' port that never send a request: three are kept
            sock = socket.socket()
            sock.bind(("127.0.0.2", 0))
            sock.connect((LOOPBACK, web.port))
            idle.append(sock)
        try:
            await _until(lambda: sum(_closed_by_peer(s) for s in idle) == 2)
            async with http.get(f"http://{LOOPBACK}:{web.port}/{table.id}") as page:  # another address's page
                assert page.status == 200
            word, drawn = await _browser_seat(web, table.id, _code(table, 0), LOOPBACK)
            assert word == "" and b"First contact" in drawn
            assert sum(_closed_by_peer(s) for s in idle) == 2
        finally:
            for sock in idle:
                sock.close()


def _limited(soft: int, hard: int) -> Any:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return limit


def _start_host(folder: Path, soft: int, hard: int, stderr: Any = subprocess.DEVNULL
                ) -> tuple[subprocess.Popen[str], str, int]:
    """A real ``crewkit host`` under the given open-files limits: the process, its seat's link and its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(folder), "--port", "0", "--bind", LOOPBACK,
         "--mission", "planet-nine/01", "--seats", "human,fast,fast", "--seed", "x", "--delay", "0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=_limited(soft, hard))
    assert process.stdout is not None
    link, port = "", 0
    for _ in range(50):
        line = process.stdout.readline()
        found = re.search(r"'(ws://127\.0\.0\.1:(\d+)/[^']+)'", line)
        if found:
            link, port = found.group(1), int(found.group(2))
        if not line or line.startswith("listening on"):
            break
    assert link, "the host printed no link"
    return process, link, port


@contextlib.contextmanager
def _stopped(process: subprocess.Popen[str]) -> Iterator[None]:
    try:
        yield
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads the host's limits in /proc (Linux)")
async def test_the_host_raises_its_soft_open_files_limit_to_the_hard_one(tmp_path: Path) -> None:
    hard = min(2048, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    process, _link, _port = _start_host(tmp_path / "tables", 256, hard)
    with _stopped(process):
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        (line,) = [row for row in limits.splitlines() if row.startswith("Max open files")]
        assert line.split()[3:5] == [str(hard), str(hard)]


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="counts the host's open files in /proc (Linux)")
async def test_a_flood_of_connections_at_a_real_host_leaves_no_traceback_and_a_seat_rejoins(tmp_path: Path) -> None:
    """700 connections from one address at a host that may open 512 files: the address's unfinished
    handshakes are capped (the host holds 32 of them at most), the rest closed at once (no "Too many open
    files"), and a seat rejoins meanwhile."""
    _other_loopback("127.0.0.2")
    wanted = 700 + 100  # the test's own sockets and files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"this test opens {wanted} files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    log = tmp_path / "host-stderr.txt"
    with open(log, "w") as stderr:
        process, link, port = _start_host(tmp_path / "tables", 512, 512, stderr)
    flood: list[socket.socket] = []
    with _stopped(process):
        first = await TableClient.connect(link)
        await first.close()
        files = len(os.listdir(f"/proc/{process.pid}/fd"))
        try:
            for _ in range(700):
                sock = socket.socket()
                sock.bind(("127.0.0.2", 0))
                sock.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    sock.connect((LOOPBACK, port))
                flood.append(sock)
            await _until(lambda: "refusing connections from 127.0.0.2" in log.read_text())
            seat = await TableClient.connect(link)  # the seat rejoins while the flood's connections are open
            assert (await seat.until(lambda m: m["type"] == "state"))["players"][0]["connected"]
            # the cap, the seat's connection, a few refused ones the loop is closing
            assert len(os.listdir(f"/proc/{process.pid}/fd")) <= files + 32 + 1 + 4
            await seat.close()
        finally:
            for sock in flood:
                sock.close()
        process.terminate()
        process.wait(30)
    err = log.read_text()
    assert "Traceback" not in err and "Too many open files" not in err, err[-2000:]
    assert err.count("refusing connections from 127.0.0.2") == 1  # said once, in one line


_EMFILE_HOST = """
import asyncio, resource, sys
from pathlib import Path
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits, default_log
from crewkit.net.table import HostedTable, TableConfig

async def main(folder):
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    limits = Limits(ping_interval=None, ping_timeout=None)
    limits.connections = limits.handshakes = limits.total = 10_000  # past the files this process may open
    host = Host(folder, limits, log=default_log)
    table = host.add(HostedTable.create(folder, TableConfig("crew", "planet-nine/01", 3, "e",
                                                            ["human", "fast", "fast"]), "fast"))
    await host.start("127.0.0.1", 0)
    print(join_link("ws", "127.0.0.1", host.port, table.id, table.seats[0].code), flush=True)
    await asyncio.Event().wait()

asyncio.run(main(Path(sys.argv[1])))
"""


async def test_running_out_of_open_files_is_one_line_not_a_traceback_per_accept(tmp_path: Path) -> None:
    """Caps set past what the open files allow (as other files may use them up): accept fails with "Too many
    open files", which the host says in one line; once the connections close, a seat joins."""
    _other_loopback("127.0.0.2")
    process = subprocess.Popen([sys.executable, "-c", _EMFILE_HOST, str(tmp_path / "tables")],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    link = process.stdout.readline().strip()
    port = int(link.split(":")[2].split("/")[0])
    flood: list[socket.socket] = []
    with _stopped(process):
        try:
            for _ in range(120):
                sock = socket.socket()
                sock.bind(("127.0.0.2", 0))
                sock.connect((LOOPBACK, port))
                flood.append(sock)
            await asyncio.sleep(3)  # accept fails, is retried a second later, fails again: say so once
        finally:
            for sock in flood:
                sock.close()
        seat = await TableClient.connect(link, timeout=60)
        await seat.close()
        process.terminate()
        _out, err = process.communicate(timeout=30)
    assert "Traceback" not in err, err[-2000:]
    assert err.count("cannot accept connections for a moment: Too many open files") == 1, err[-2000:]


# ---------------------------------------------------------------------------- names
async def _join_as(host: Host, table: HostedTable, seat: int, name: str | None) -> str:
    """Join ``seat`` as ``name`` and leave; the name the host gave, or the refusal's code and message."""
    try:
        client = await TableClient.connect(seat_link(host, table, seat), name)
    except JoinRefused as exc:
        return f"refused {exc.code}: {exc.message}"
    await client.close()
    await _until(lambda: not table.seats[seat].connected)
    return client.name


async def test_a_name_that_imitates_another_seats_or_shows_nothing_is_refused(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = new_table(host, "crew", "planet-nine/01", ["human", "human", "fast"], seed="n",
                          names=["Ann", "Bob", "Cat"])
        for impostor in ("Ann\u200b", "ANN", " ann ", "\uff21nn", "A\u2060nn", "cat"):  # zero-width, case, spaces,
            said = await _join_as(host, table, 1, impostor)                            # fullwidth A, word joiner
            assert said.startswith("refused bad-name") and "is taken" in said, (impostor, said)
        for blank in (" \u200b\u200d ", "\u200b"):
            said = await _join_as(host, table, 1, blank)
            assert said.startswith("refused bad-name") and "no visible letter" in said, said
        assert await _join_as(host, table, 1, "  Zo\u00eb \u00a0  Smith ") == "Zo\u00eb Smith"
        assert table.seats[1].name == "Zo\u00eb Smith"
        assert await _join_as(host, table, 1, "zo\u00eb smith\u200b") == "zo\u00eb smith"  # its own name, recased


async def test_renames_are_bounded_per_seat(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:  # the default: 3 renames within 10 minutes
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="r", names=["Ann"])
        for name in ("A1", "A2", "A3"):
            assert await _join_as(host, table, 0, name) == name
        said = await _join_as(host, table, 0, "A4")
        assert said.startswith("refused bad-name") and "renamed 3 times" in said, said
        assert await _join_as(host, table, 0, "A3") == "A3"  # its name now, or none: no rename, welcome
        assert await _join_as(host, table, 0, None) == "A3"
        log = (table.folder / "log.jsonl").read_text().splitlines()
        assert sum(json.loads(line)["event"] == "name" for line in log) == 3


def test_a_table_opened_with_two_seats_of_one_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    for names, why in ((["Ann", "ann\u200b", "Cat"], "two seats would be called 'Ann' and 'ann'"),
                       (["Ann", "\u200b", "Cat"], "no visible letter")):
        with pytest.raises(TableError, match=why):
            HostedTable.create(tmp_path, TableConfig("crew", "planet-nine/01", 3, "t", ["human"] * 3, {}, names),
                               "fast")
    config = TableConfig("crew", "planet-nine/01", 3, "t", ["human"] * 3, {}, [" Ann ", "B\u200bob", "Cat"])
    assert [s.name for s in HostedTable.create(tmp_path, config, "fast").seats] == ["Ann", "Bob", "Cat"]
    assert main(["host", "--dir", str(tmp_path), "--port", "0", "--players", "3", "--names", "Ann,ANN,Cat"]) == 2
    assert "--names: two seats would be called 'Ann' and 'ANN'" in capsys.readouterr().err
