"""The web seats' server (``crewkit host --web``) without a browser: a real host and its web server on free
loopback ports, a WebSocket client speaking as the seat page's script does. The host's checks hold for the
browser: a wrong code is refused and counted against the browser's address (and that address is refused after
too many, even with a right code), a seat in play is not opened twice, a page of another site opens nothing;
with --certfile the page is https and its seat process reaches the host over wss:// with the host's own
certificate pinned. The whole seat in a real browser: test_web_browser.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from net_helpers import LOOPBACK, new_table, running_host, seat_link

from crewkit.cli import main
from crewkit.net.client import TableClient
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable
from crewkit.net.web import WebSeats

pytestmark = pytest.mark.timeout(60)


@contextlib.asynccontextmanager
async def web_seats(host: Host, scheme: str = "ws", certfile: str | None = None,
                    context: ssl.SSLContext | None = None) -> AsyncIterator[WebSeats]:
    seats = WebSeats(host, scheme, certfile, LOOPBACK)
    await seats.start(LOOPBACK, 0, context)
    try:
        yield seats
    finally:
        await seats.stop()


async def _join(web: WebSeats, table: str, code: str, scheme: str = "http", origin: str | None = None,
                context: ssl.SSLContext | None = None) -> tuple[aiohttp.ClientSession, Any]:
    """A WebSocket to a seat's page endpoint whose first message is the code, as the page's script sends it."""
    session = aiohttp.ClientSession()
    base = f"{scheme}://{LOOPBACK}:{web.port}"
    try:
        ws = await session.ws_connect(f"{base.replace('http', 'ws', 1)}/ws/{table}?width=80&height=24",
                                      origin=origin or base, ssl=context if context is not None else True)
    except BaseException:
        await session.close()
        raise
    await ws.send_str(json.dumps(["join", code]))
    return session, ws


async def _word(ws: Any, timeout: float = 20.0) -> tuple[str, str]:
    """The server's next word for the page's script (the terminal's bytes skipped)."""
    while True:
        message = await ws.receive(timeout)
        if message.type == aiohttp.WSMsgType.TEXT:
            kind, text = json.loads(message.data)
            if kind.startswith("crewkit-"):
                return kind, text
        elif message.type != aiohttp.WSMsgType.BINARY:
            raise AssertionError(f"the connection ended without a word: {message}")


async def _refused(web: WebSeats, table: str, code: str) -> str:
    session, ws = await _join(web, table, code)
    try:
        kind, text = await _word(ws)
        assert kind == "crewkit-refused"
        return text
    finally:
        await session.close()


def _code(table: HostedTable, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return code


async def test_a_wrong_code_is_refused_and_counted_against_the_browsers_address(tmp_path: Path) -> None:
    limits = Limits(ping_interval=None, ping_timeout=None, failures=3)
    async with running_host(tmp_path, limits) as host, web_seats(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="w")
        right = _code(table, 0)
        wrong = right[::-1] if right[::-1] != right else "x" * len(right)
        assert "no seat has this link" in await _refused(web, table.id, wrong)
        assert "no seat has this link" in await _refused(web, "0000ffff", right)  # another table's link
        # a code the protocol's schema refuses (a path, a script) is a wrong code: counted the same
        assert "no seat has this link" in await _refused(web, table.id, "../../<script>")
        assert len(host.failures[LOOPBACK]) == 3
        assert "too many failed attempts" in await _refused(web, table.id, right)  # the host's limit holds
        assert not web.sessions and not table.seats[0].connected  # no seat process was started


async def test_a_seat_in_play_is_not_opened_twice(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host, web_seats(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "human", "fast"], seed="w", names=["Ann", "Bob"
                                                                                                   , "Cat"])
        ann = await TableClient.connect(seat_link(host, table, 0))
        try:
            assert "Ann's seat is taken already" in await _refused(web, table.id, _code(table, 0))
        finally:
            await ann.close()
        assert not web.sessions and not host.failures  # a right code is no failed attempt


async def test_a_page_of_another_site_opens_nothing(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host, web_seats(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="w")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await _join(web, table.id, _code(table, 0), origin="http://elsewhere.example")
        assert refused.value.status == 403
        assert not web.sessions


async def test_the_seat_page_holds_no_code_and_loads_nothing_from_elsewhere(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host, web_seats(host) as web, aiohttp.ClientSession() as http:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="w")
        base = f"http://{LOOPBACK}:{web.port}"
        async with http.get(f"{base}/{table.id}") as page:
            assert page.status == 200
            text = await page.text()
            policy = page.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "connect-src 'self'" in policy
            assert "frame-ancestors 'none'" in policy and page.headers["Referrer-Policy"] == "no-referrer"
        assert _code(table, 0) not in text and "http" not in text  # every file the page loads is the server's
        for path in ("/crewkit-seat.js", "/static/js/textual.js", "/static/css/xterm.css"):
            async with http.get(base + path) as got:
                assert got.status == 200, path
        for path in ("/Not_A_Table", "/static/", "/a/b", "/ws/"):
            async with http.get(base + path) as got:
                assert got.status in (403, 404), path


def _self_signed(folder: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command makes this test's certificate; it is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=crewkit.example"],
                   check=True, capture_output=True, timeout=30)
    return cert, key


async def test_with_a_certificate_the_page_is_https_and_its_seat_joins_over_wss(tmp_path: Path) -> None:
    """The seat process pins the host's certificate (issued to another name than 127.0.0.1) and draws the table
    in the page; the page reloaded gets its seat again; q leaves: the page is told, the seat is free again, the
    process is gone."""
    cert, key = _self_signed(tmp_path)
    server_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_tls.load_cert_chain(cert, key)
    browser_tls = ssl.create_default_context(cafile=str(cert))
    browser_tls.check_hostname = False
    host = Host(tmp_path, Limits(ping_interval=None, ping_timeout=None))
    await host.start(LOOPBACK, 0, server_tls)
    try:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="w")
        async with web_seats(host, "wss", str(cert), server_tls) as web:
            for _reload in range(2):  # the page reloaded: its seat opens again (once the first process has quit)
                session, ws = await _join(web, table.id, _code(table, 0), "https", context=browser_tls)
                drawn = b""
                while b"First contact" not in drawn:  # planet-nine/01's title on the table, drawn by the seat process
                    message = await ws.receive(20)
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    drawn += message.data
                assert table.seats[0].connected and len(web.sessions) == 1
                if _reload == 0:
                    await session.close()
            try:
                process = next(iter(web.sessions.values())).process
                assert process is not None
                await ws.send_str(json.dumps(["stdin", "q"]))  # q, then Enter on "Leave": the seat leaves the table
                while b"Leave the table?" not in (await ws.receive(20)).data:
                    pass
                await ws.send_str(json.dumps(["stdin", "\r"]))
                kind, text = await _word(ws)
                assert kind == "crewkit-closed" and text.startswith("you left the table; join again"), text
            finally:
                await session.close()
            assert process.returncode is not None and not web.sessions
            assert not table.seats[0].connected
    finally:
        await host.stop()


async def test_a_game_the_table_screen_cannot_draw_says_so_in_the_page(tmp_path: Path) -> None:
    """The seat's process ends before drawing anything; its last word reaches the page (and the seat is free)."""
    import shutil

    from crewkit.spec.bundled import mission_path

    own = tmp_path / "own-mission.yaml"  # the host's own mission, which the seat's crewkit cannot load
    shutil.copy(mission_path("planet-nine/01"), own)
    async with running_host(tmp_path / "tables") as host, web_seats(host) as web:
        table = new_table(host, "crew", str(own), ["human", "fast", "fast"], seed="w")
        own.unlink()
        session, ws = await _join(web, table.id, _code(table, 0))
        try:
            kind, text = await _word(ws)
        finally:
            await session.close()
        assert kind == "crewkit-closed" and "this crewkit cannot load" in text, text
        assert "played in a terminal for now" in text
        assert not web.sessions and not table.seats[0].connected


def test_host_web_without_the_web_extra_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "textual_serve" else real(name, *a))
    assert main(["host", "--web", "--dir", str(tmp_path), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "--web needs the web extra" in err and "pip install 'crewkit[web]'" in err


async def test_a_seat_process_killed_leaves_no_private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The web server makes each seat process's private home and deletes it once the process has ended: a
    process killed before its own clean-up (kill -9, the out-of-memory killer) leaves nothing in the temporary
    folder."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the server's and the seat process's temporary folder
    monkeypatch.setattr("tempfile.tempdir", None)
    async with running_host(tmp_path / "host") as host, web_seats(host) as web:
        table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="w")
        session, ws = await _join(web, table.id, _code(table, 0))
        try:
            while not table.seats[0].connected:  # the seat's process has joined: it lives in its home
                await asyncio.sleep(0.05)
            homes = [p for p in temp.iterdir() if p.name.startswith("crewkit-seat-")]
            assert len(homes) == 1 and homes[0].is_dir()
            process = web.sessions[id(table.seats[0])].process
            assert process is not None
            process.kill()
            kind, _ = await _word(ws)
            assert kind == "crewkit-closed"
            while web.sessions:
                await asyncio.sleep(0.05)
            assert not homes[0].exists()
        finally:
            await session.close()
