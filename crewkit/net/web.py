"""The browser seats of ``crewkit host --web``: each human seat's table as a web page, for a friend without Python.

A seat's web link is ``http(s)://HOST:WEBPORT/TABLE#CODE``. The invite code is in the fragment, which a browser
never sends in a request (so it is in no server's or proxy's log, nor in a Referer): the page's script reads it
and sends it as the first message of its WebSocket. The server then checks it, as a ``hello``'s code is checked:
its format by the protocol's schema, then by the host itself (:meth:`Host.check_code`: every seat's code compared
in constant time, failures counted against the *browser's* address, which is refused after too many). Only then
does it start the seat's process, ``crewkit join`` for that one seat (:mod:`crewkit.net.web_seat`, run without a
shell, the link in its environment), with Textual's web driver: textual-serve's ``AppService`` relays its screen
to the page's terminal (textual-serve's xterm.js page script) and the keys back. That process joins the host like
any other client, so every rule, check and limit of the host applies to it unchanged; the web server only
forwards. One process per seat at a time: a seat whose person is connected (in a terminal or a browser) is not
opened a second time, so a stranger cannot make the host start processes without a valid code.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import ssl
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from crewkit.net.protocol import VERSION, ProtocolError, decode, encode, join_link
from crewkit.net.server import SEAT_USER, Host
from crewkit.net.table import Refusal, Seat
from crewkit.net.web_seat import CAFILE_ENV, HOME_ENV, LINK_ENV, MAX_NOTE, NOTE_ENV, new_home

__all__ = ["WebSeats", "web_link"]

JOIN_TIMEOUT = 10.0  # seconds from the page's WebSocket opening to its join message
MAX_BROWSER_MESSAGE = 64 * 1024  # a key, a paste or a resize; a bigger frame closes the connection
STOP_GRACE = 5.0  # seconds a seat's process has to quit when its page closes, before it is killed
_TABLE_PATH = re.compile(r"^[0-9a-z-]{1,40}$")  # the protocol's table id (its schema checks it again)

_PAGE_HEADERS = {
    # the page's own files only (textual-serve's terminal script injects its styles); no frame may hold it
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "font-src 'self'; img-src 'self' data:; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
}


def web_link(scheme: str, host: str, port: int, table: str, code: str) -> str:
    """A seat's web link: ``http://host:port/TABLE#CODE`` (``https`` with TLS); the code stays in the fragment."""
    return ("https" if scheme == "wss" else "http") + join_link(scheme, host, port, table, code)[len(scheme):]


def _local_address(bind: str) -> str:
    """Where the seat processes reach the host's WebSocket port on this machine."""
    if bind in ("", "0.0.0.0", "localhost"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


def _page_file(name: str) -> str:
    return resources.files("crewkit.net").joinpath("webpage", name).read_text(encoding="utf-8")


class _SeatProcess(AppService):
    """textual-serve's relay for one seat's process, started with ``exec`` (no shell; the link in the
    environment) and with a pipe for its last word. Its end is announced by the web server (with that word),
    not by the app's ``exit`` packet, which comes before the word is written."""

    def __init__(self, link: str, cafile: str | None, **kwargs: Any) -> None:
        super().__init__("crewkit join (a browser seat)", **kwargs)
        self.link = link
        self.cafile = cafile
        self.note_reader: int | None = None
        self.ending = False  # its page has closed: the process is quitting
        self.over = asyncio.Event()  # the process has ended and its seat is free for another page
        self.home: str | None = None  # the process's private home, deleted here once it has ended

    def _remove_home(self) -> None:
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    async def close(self) -> None:
        """The page is gone: the process is ended (killed if still running) and its private home deleted."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), STOP_GRACE)
        self._remove_home()

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        environment = self._build_environment(width=width, height=height)
        environment[LINK_ENV] = self.link
        if self.cafile:
            environment[CAFILE_ENV] = self.cafile
        self.home = new_home()
        environment[HOME_ENV] = self.home
        reader, writer = os.pipe()
        environment[NOTE_ENV] = str(writer)
        try:
            self._process = process = await asyncio.create_subprocess_exec(
                sys.executable, "-P", "-m", "crewkit.net.web_seat",  # -P: no module of the working folder
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                env=environment, pass_fds=(writer,))
        except BaseException:
            os.close(reader)
            self._remove_home()
            raise
        finally:
            os.close(writer)
        self.note_reader = reader
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_meta(self, data: bytes) -> None:
        if json.loads(data).get("type") == "exit":
            return  # the web server closes the page once the process has said its last word
        await super().on_meta(data)

    @property
    def process(self) -> asyncio.subprocess.Process | None:
        return self._process

    async def finished(self) -> str | None:
        """Wait for the process to end; its last word (None if it had none)."""
        if self._task is not None:
            await self._task
        if self._process is not None:
            await self._process.wait()
        self._remove_home()  # the process may have been killed before its own clean-up
        if self.note_reader is None:
            return None
        try:
            note = os.read(self.note_reader, MAX_NOTE).decode("utf-8", "replace").strip()
        finally:
            os.close(self.note_reader)
            self.note_reader = None
        return note or None

    async def end(self) -> None:
        """The page closed: ask the app to quit, and kill its process if it does not in time."""
        with contextlib.suppress(Exception):  # a process already gone cannot take the request
            await asyncio.wait_for(self.send_meta({"type": "quit"}), 1.0)
        process = self._process
        if process is not None:
            try:
                await asyncio.wait_for(process.wait(), STOP_GRACE)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()


@dataclass
class WebSeats:
    """The web server of one host: the seat page, textual-serve's terminal files, one WebSocket per open page."""

    host: Host
    scheme: str = "ws"  # the host's own scheme: "wss" when it has --certfile
    certfile: str | None = None  # the host's certificate: the seat processes pin it for their wss://
    host_bind: str = "127.0.0.1"  # the host's --bind: where the seat processes reach it
    link_host: str | None = None  # the host name of the printed links (--link-host): its pages' origin too
    log: Callable[[str], None] = field(default=lambda text: None)
    sessions: dict[int, _SeatProcess] = field(default_factory=dict)  # by id() of the Seat
    runner: web.AppRunner | None = None
    site: web.TCPSite | None = None
    downloads: DownloadManager = field(default_factory=DownloadManager)

    def app(self) -> web.Application:
        import textual_serve

        app = web.Application(client_max_size=4096)
        statics = Path(textual_serve.__file__).parent / "static"
        app.add_routes([
            web.get("/", self._front),
            web.get("/crewkit-seat.js", self._script),
            web.get("/favicon.ico", self._no_icon),
            web.get("/ws/{table}", self._socket),
            web.static("/static", statics, show_index=False),
            web.get("/{table}", self._page),
        ])
        return app

    async def start(self, bind: str, port: int, ssl_context: ssl.SSLContext | None = None) -> None:
        # no access log: a request line holds no code, but the log would only repeat the host's own
        self.runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self.runner.setup()
        self._guard(self.runner.server)
        self.site = web.TCPSite(self.runner, bind, port, ssl_context=ssl_context)
        await self.site.start()
        for origin in self.origins(bind):  # the host's port admits pages of this server only
            self.host.allow_origin(origin)

    def _guard(self, server: web.Server | None) -> None:
        """Every connection to the pages' port counted by the host (per address and in its total) as it is
        accepted: one over a cap is closed at once, so pages cannot take the process's open files either.
        (aiohttp's server tells its ``connection_made``/``connection_lost`` of every connection.)"""
        assert server is not None
        made, lost = server.connection_made, server.connection_lost
        admitted: dict[Any, str] = {}

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            made(handler, transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple | list) and peer else "?"
            if self.host.admit_other(address):
                admitted[handler] = address
            else:
                transport.abort()

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            lost(handler, exc)
            address = admitted.pop(handler, None)
            if address is not None:
                self.host.release_other(address)

        setattr(server, "connection_made", connection_made)  # noqa: B010 - an instance's hooks, not the class's
        setattr(server, "connection_lost", connection_lost)  # noqa: B010

    def origins(self, bind: str) -> list[str]:
        """The origins of this server's pages: its port under the names its links and this machine use."""
        scheme = "https" if self.scheme == "wss" else "http"
        names = {_local_address(bind), *([bind] if bind not in ("", "0.0.0.0", "::") else [])}
        if self.link_host:
            names.add(self.link_host)
        if names & {"127.0.0.1", "::1", "localhost"}:
            names |= {"127.0.0.1", "::1", "localhost"}
        found = []
        for name in sorted(names):
            where = f"[{name}]" if ":" in name and not name.startswith("[") else name
            found.append(f"{scheme}://{where}:{self.port}")
            if self.port == (443 if scheme == "https" else 80):  # a browser leaves the default port out
                found.append(f"{scheme}://{where}")
        return found

    @property
    def port(self) -> int:
        assert self.runner is not None and self.runner.addresses
        return int(self.runner.addresses[0][1])

    def link(self, host_name: str, table: str, code: str) -> str:
        """A seat's web link, with the name the host's links use."""
        return web_link(self.scheme, host_name, self.port, table, code)

    async def stop(self) -> None:
        await asyncio.gather(*(session.end() for session in list(self.sessions.values())))
        if self.runner is not None:
            await self.runner.cleanup()

    # ------------------------------------------------------------------ pages
    async def _front(self, request: web.Request) -> web.Response:
        return web.Response(text="crewkit: open the link the host sent you (it ends with #CODE, your seat's "
                                 "invite code).\n", headers=_PAGE_HEADERS)

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _script(self, request: web.Request) -> web.Response:
        return web.Response(text=_page_file("seat.js"), content_type="text/javascript", headers=_PAGE_HEADERS)

    async def _page(self, request: web.Request) -> web.Response:
        table = request.match_info["table"]
        if not _TABLE_PATH.match(table):
            raise web.HTTPNotFound(text="crewkit: not a table's link\n")
        # the table's id only (it is in the page's address already); whether it exists is said after the code
        page = _page_file("seat.html").replace("{{table}}", table)
        return web.Response(text=page, content_type="text/html", headers=_PAGE_HEADERS)

    # ------------------------------------------------------------------ a seat's WebSocket
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="crewkit: a seat's page opens its own connection only\n")
        address = request.remote or "?"
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_BROWSER_MESSAGE)
        await ws.prepare(request)
        try:
            seat = await self._admit(ws, address, request.match_info["table"])
            if seat is None:
                return ws
            table, person = seat
            # the host counts the process's connection against the browser's address, not this machine's
            token = self.host.vouch(address)
            link = join_link(self.scheme, _local_address(self.host_bind), self.host.port, table, person.code or "")
            link = link.replace("://", f"://{SEAT_USER}:{token}@", 1)  # sent as the handshake's Basic credentials
            session = _SeatProcess(link, self.certfile, write_bytes=ws.send_bytes, write_str=ws.send_str,
                                   close=ws.close, download_manager=self.downloads)
            self.sessions[id(person)] = session
            self.log(f"{table}: {person.name} opened their web page from {address}")
            try:
                await self._relay(ws, session, request)
            finally:
                await session.close()
                self.sessions.pop(id(person), None)
                self.host.unvouch(token)
                session.over.set()
        finally:
            await ws.close()
        return ws

    async def _admit(self, ws: web.WebSocketResponse, address: str, table_id: str) -> tuple[str, Seat] | None:
        """The page's join message, its code checked by the protocol's schema and by the host; None (and the
        page told why) when it is refused."""
        try:
            message = await ws.receive(JOIN_TIMEOUT)
        except TimeoutError:
            await _tell(ws, "crewkit-refused", f"no invite code within {JOIN_TIMEOUT:g} seconds")
            return None
        code = None
        if message.type == WSMsgType.TEXT:
            with contextlib.suppress(ValueError, RecursionError):
                first = json.loads(message.data)
                if isinstance(first, list) and len(first) == 2 and first[0] == "join" and isinstance(first[1], str):
                    code = first[1]
        if code is None:
            await _tell(ws, "crewkit-refused", "the page did not send an invite code")
            return None
        try:  # the same check as a hello's: the table id's and the code's formats
            decode(encode({"type": "hello", "version": VERSION, "table": table_id, "code": code}))
        except ProtocolError:
            code = "-"  # well-formed and certainly wrong: counted against the address like any wrong code
        try:
            table, index = self.host.check_code(address, table_id, code)
        except Refusal as exc:
            await _tell(ws, "crewkit-refused", exc.message)
            return None
        person = table.seats[index]
        await self._after_reload(person)
        if person.connected or id(person) in self.sessions:
            await _tell(ws, "crewkit-refused", f"{person.name}'s seat is taken already (close its other page or "
                                               "terminal first)")
            return None
        return table.id, person

    async def _after_reload(self, person: Seat) -> None:
        """A page reloaded (or opened again right after it closed): let the seat's previous process finish
        quitting, and its connection to the host close, before the seat is looked at."""
        previous = self.sessions.get(id(person))
        if previous is None or not previous.ending:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(previous.over.wait(), STOP_GRACE + 1)
        for _ in range(40):  # the host sees the process's connection close a moment after it ends
            if not person.connected:
                return
            await asyncio.sleep(0.05)

    async def _relay(self, ws: web.WebSocketResponse, session: _SeatProcess, request: web.Request) -> None:
        """The seat's process drawn in the page until either ends; the page is told the process's last word."""
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        await session.start(width, height)
        keys = asyncio.get_running_loop().create_task(self._keys(ws, session))
        ended = asyncio.get_running_loop().create_task(session.finished())
        try:
            await asyncio.wait([keys, ended], return_when=asyncio.FIRST_COMPLETED)
            if ended.done():
                note = ended.result()
                await _tell(ws, "crewkit-closed", note or "You left the table. Open your link again to return "
                                                          "to your seat.")
            else:  # the page closed: the process quits (the seat waits for its person)
                session.ending = True
                await session.end()
                await ended
        finally:
            keys.cancel()
            if not ended.done():
                await session.end()
                ended.cancel()

    async def _keys(self, ws: web.WebSocketResponse, session: _SeatProcess) -> None:
        """textual-serve's page messages (keys, size, focus, ping), anything else ignored."""
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except (ValueError, RecursionError):
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], (envelope[1] if len(envelope) > 1 else None)
            if kind == "stdin" and isinstance(data, str):
                await session.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await session.set_terminal_size(_size(data.get("width"), 80), _size(data.get("height"), 24))
            elif kind == "ping":
                await ws.send_json(["pong", data if isinstance(data, str | int | float) else None])
            elif kind == "blur":
                await session.blur()
            elif kind == "focus":
                await session.focus()


def _size(value: Any, default: int) -> int:
    """A terminal dimension from the page, within what a screen can hold."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return max(10, min(number, 500))


async def _tell(ws: web.WebSocketResponse, kind: str, text: str) -> None:
    """A word for the page's own script (textual-serve's terminal script ignores it)."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(json.dumps([kind, text]))
