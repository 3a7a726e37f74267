"""The host: hosted tables served over WebSockets (``websockets``, asyncio), one connection per seat.

A connection's first message is a ``hello`` naming the table and carrying the seat's invite code; the code is
compared with every seat's in constant time, a wrong one counts against the client's address (too many
failures and that address is refused for a while, before any code is looked at), and a seat already connected
is not taken twice. Every message is size-limited by the transport (a bigger frame closes that connection)
and checked against the protocol's schema; a connection sending faster than its allowance is told so (each
dropped message that carries an ``id`` is answered by a ``flood`` error with that id, so a client waiting for
that answer is never left waiting without a word) and, if it keeps on, closed. A slow reader never stalls a table: each connection has its own bounded queue of
outgoing messages and is dropped when it overflows. Bots think in worker threads (see
:meth:`HostedTable.bot_step`), so the event loop keeps serving every other table meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import http
import json
import os
import secrets
import socket
import ssl
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidHeader
from websockets.headers import parse_authorization_basic
from websockets.http11 import Request, Response

from crewkit.net.protocol import MAX_CLIENT_MESSAGE, VERSION, ProtocolError, decode, encode
from crewkit.net.table import TABLE_FILE, HostedTable, Refusal, Seat, TableError

__all__ = ["SEAT_USER", "Host", "Limits", "raise_open_files_limit"]

SEAT_USER = "crewkit-seat"  # the user name of a vouched seat process's link (its password: the token)
# connections the system queues before the host accepts them: a burst from one address must not fill the queue
# (a seat's connection dropped from a full queue waits a second for its retry); the system may cap it lower.
# asyncio accepts at most its own backlog (100) a turn, so that a burst is not accepted all at once (each
# accepted connection is an open file until the host has looked at it).
LISTEN_BACKLOG = 4096
RESERVE_FILES = 128  # open files kept for the tables' logs, the web seats' processes and the rest


@dataclass
class Limits:
    """What one client may do (the defaults suit people; tests and the load benchmark change some)."""

    max_message: int = MAX_CLIENT_MESSAGE  # bytes of one incoming message (a bigger frame closes the connection)
    open_timeout: float = 10.0  # seconds to finish the WebSocket handshake
    close_timeout: float = 2.0  # seconds a closed client has to answer the close (a flooder reads nothing)
    hello_timeout: float = 10.0  # seconds from the handshake to the hello
    failures: int = 10  # failed hellos (wrong table or code) per address ...
    failure_window: float = 60.0  # ... within this many seconds; then the address is refused until they age
    rate: float = 20.0  # messages a second a connection may send, on average ...
    burst: int = 60  # ... with bursts of this many
    flood_close: int = 200  # messages dropped for exceeding the rate before the connection is closed
    outbox: int = 4096  # messages queued for a client that does not read before it is dropped
    ping_interval: float | None = 10.0  # keepalive pings find a dead peer within interval + timeout
    ping_timeout: float | None = 10.0
    connections: int = 128  # open connections per address (a household or an ssh tunnel holds a few)
    handshakes: int = 32  # connections per address that have not finished their handshake yet
    total: int | None = None  # open connections in all (None: the open-files limit less a reserve)
    renames: int = 3  # renames of one seat ...
    rename_window: float = 600.0  # ... within this many seconds


NEXT_GAME = 4000  # the close code that tells a client the table opened its next game: join again, same link
NEXT_GAME_MARK = "\x00next-game"  # queued after the last message of a game: the writer closes with NEXT_GAME


class _Connection:
    """One client: its queue of outgoing messages (drained by its own task) and its incoming allowance."""

    def __init__(self, ws: ServerConnection, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        self.queue: asyncio.Queue[str] = asyncio.Queue(limits.outbox)
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()
        self.dropped = 0
        self.warned = 0.0

    def post(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(encode(message))
        except asyncio.QueueFull:  # a client that does not read: drop it, not the table
            self.queue = asyncio.Queue(1)
            asyncio.get_running_loop().create_task(self.ws.close(1013, "too slow reading"))

    def next_game(self) -> None:
        """The table opened its next game: the client joins again (close code :data:`NEXT_GAME`) and is welcomed
        to the new game (its rules, its mission), after the messages queued before."""
        self.queue.put_nowait(NEXT_GAME_MARK)

    async def write_loop(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await self.queue.get()
                if text is NEXT_GAME_MARK:
                    await self.ws.close(NEXT_GAME, "the table's next game")
                    return
                await self.ws.send(text)

    def allow(self) -> bool:
        """One incoming message within the allowance (a token bucket)?"""
        now = time.monotonic()
        self.tokens = min(float(self.limits.burst), self.tokens + (now - self.stamp) * self.limits.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False


def raise_open_files_limit() -> tuple[int, int] | None:
    """Raise the soft limit of open files to the hard one (allowed without privileges), so that a host under
    the usual soft 1,024 serves more connections; the (soft, hard) limits after, None without such limits."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # an unlimited hard limit cannot be the soft one (Linux caps it at nr_open, macOS at OPEN_MAX)
    for target in ([hard] if hard != resource.RLIM_INFINITY else []) + [1 << 20, 1 << 16, 10240]:
        if soft >= target:
            break
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
            break
    return soft, hard


def _files_limit() -> int | None:
    """The soft limit of open files of this process (None: unknown or unlimited)."""
    try:
        import resource
    except ImportError:
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


class _GuardedConnection(ServerConnection):
    """A connection counted against its address from the moment it is accepted (:meth:`Host._accept`): one
    over a cap is aborted at once, before anything is read from it."""

    host: Host  # set on a subclass of its own by each Host (:meth:`Host.start`)
    peer = "?"  # the address it comes from
    address = "?"  # whom it counts against: the peer, or the browser a vouched seat process speaks for
    pending = False  # accepted, its handshake request not looked at yet
    counted = False  # past its handshake's checks, counted against ``address``

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.peer = self.address = str(peer[0]) if isinstance(peer, tuple | list) and peer else "?"
        if not self.host._accept(self) and isinstance(transport, asyncio.Transport):
            transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.host._release(self)


class Host:
    """Every table of a folder, served on one port."""

    def __init__(self, folder: Path, limits: Limits | None = None, bot_delay: float = 0.0,
                 log: Callable[[str], None] | None = None) -> None:
        self.folder = folder
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.tables: dict[str, HostedTable] = {}
        self.failures: dict[str, deque[float]] = {}
        self.bot_after: float | None = None  # hand a seat whose person left to its bot after this many seconds
        self._runners: dict[str, asyncio.Task[None]] = {}
        self._handovers: dict[tuple[str, int], asyncio.Task[None]] = {}  # by table and id() of its Seat
        self._reviews: set[asyncio.Task[None]] = set()  # reviews being sent (held: the loop keeps weak references)
        self._say = log or (lambda text: None)
        self.server: Server | None = None
        # browser origins admitted (the host's own web server's: crewkit.net.web); a client that sends no
        # Origin (crewkit join, TableClient) is always admitted
        self.origins: set[str] = set()
        self._vouched: dict[str, str] = {}  # a web seat process's token: the browser address it speaks for
        self._pending: dict[str, int] = {}  # by address: connections whose handshake is not looked at yet
        self._open: dict[str, int] = {}  # by address (a vouched one's: its browser's): connections past it
        self._other: dict[str, int] = {}  # by address: connections to the web pages' port (admit_other)
        self._total = 0  # connections of every address, on every port of this process
        self._total_cap = 0
        self._noted: dict[str, float] = {}  # when each kind of refusal was last logged
        self._loop_handler: tuple[asyncio.AbstractEventLoop, Any] | None = None

    # ------------------------------------------------------------------ tables
    def resume_all(self) -> list[HostedTable]:
        """Every table of the folder that is not over yet, as its log leaves it."""
        found = []
        if self.folder.is_dir():
            for sub in sorted(self.folder.iterdir()):
                if (sub / TABLE_FILE).exists() or (sub / TABLE_FILE).is_symlink():  # a FIFO too: resume says why
                    table = HostedTable.resume(sub)
                    for note in table.notes:
                        self._say(note)
                    if table.game.is_over():
                        table.settle()  # what a host killed at the very end had still to write
                        table.close()
                        continue
                    self.add(table)
                    found.append(table)
        return found

    def add(self, table: HostedTable) -> HostedTable:
        if table.id in self.tables:
            raise TableError(f"table {table.id} is hosted already")
        self.tables[table.id] = table
        with contextlib.suppress(RuntimeError):  # no running loop yet: start() starts the runners
            self._start_runner(table)
        return table

    async def next_game(self, table: HostedTable, mission: str | None, campaign: dict[str, str] | None) -> None:
        """The table's next game (its game now over), at the same seats and links: every connected client is
        closed with :data:`NEXT_GAME` and joins again by itself, welcomed to the new game."""
        for outbox in await table.next_game(mission, campaign):
            if isinstance(outbox, _Connection):
                outbox.next_game()

    def _start_runner(self, table: HostedTable) -> None:
        if table.id not in self._runners:
            self._runners[table.id] = asyncio.get_running_loop().create_task(table.run_bots(self.bot_delay))
            table.changed.set()

    # ------------------------------------------------------------------ serving
    async def start(self, bind: str, port: int, ssl_context: ssl.SSLContext | None = None) -> Server:
        for table in self.tables.values():
            self._start_runner(table)
        lim = self.limits
        self._guard_loop()
        guarded = type("HostConnection", (_GuardedConnection,), {"host": self})
        self.server = await serve(self._handle, bind, port, ssl=ssl_context, max_size=lim.max_message,
                                  max_queue=16, open_timeout=lim.open_timeout, ping_interval=lim.ping_interval,
                                  ping_timeout=lim.ping_timeout, close_timeout=lim.close_timeout,
                                  compression=None, process_request=self._check_request, create_connection=guarded)
        for listening in self.server.sockets:  # asyncio's backlog (100) stays its batch of accepts a turn
            with contextlib.suppress(OSError), socket.socket(fileno=os.dup(listening.fileno())) as same:
                same.listen(LISTEN_BACKLOG)
        return self.server

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(next(iter(self.server.sockets)).getsockname()[1])

    async def stop(self) -> None:
        for task in [*self._runners.values(), *self._handovers.values()]:
            task.cancel()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        for table in self.tables.values():
            table.close()
        if self._loop_handler is not None:
            loop, handler = self._loop_handler
            loop.set_exception_handler(handler)
            self._loop_handler = None

    # ------------------------------------------------------------------ guards
    def _guard_loop(self) -> None:
        """The total cap from the open-files limit, and running out of open files said in one line."""
        if self._loop_handler is not None:
            return
        files = _files_limit()
        self._total_cap = self.limits.total if self.limits.total is not None else (
            max(64, files - RESERVE_FILES) if files is not None else 100_000)
        loop = asyncio.get_running_loop()
        self._loop_handler = (loop, loop.get_exception_handler())
        loop.set_exception_handler(self._loop_exception)

    def allow_origin(self, origin: str) -> None:
        """Admit browsers whose page comes from ``origin`` (``http://host:port``): the host's own web server."""
        self.origins.add(origin.lower().rstrip("/"))

    def vouch(self, address: str) -> str:
        """A secret for a seat process the web server starts for a browser at ``address``: the process's
        connection (its link's user ``crewkit-seat``, the secret its password) counts against ``address``,
        not against the machine's own address it comes from. Valid until :meth:`unvouch`."""
        token = secrets.token_urlsafe(24)
        self._vouched[token] = address
        return token

    def unvouch(self, token: str) -> None:
        self._vouched.pop(token, None)

    def _note(self, key: str, text: str) -> None:
        """One line in the host's log, at most once a minute for each kind of refusal (a flood says it once)."""
        now = time.monotonic()
        if now - self._noted.get(key, -120.0) >= 60.0:
            self._noted[key] = now
            self._say(text)

    def _accept(self, conn: _GuardedConnection) -> bool:
        """A connection just accepted: counted, or refused (False) when its address has too many unfinished
        handshakes or the host as many connections as its open files allow."""
        address = conn.peer
        if self._total >= self._total_cap:
            self._note("total", f"refusing connections: {self._total} are open, the most this host takes "
                                f"(its open-files limit); said once a minute")
            return False
        if self._pending.get(address, 0) >= self.limits.handshakes:
            self._note(f"pending {address}", f"refusing connections from {address}: {self.limits.handshakes} of "
                                              "its handshakes are unfinished; said once a minute")
            return False
        conn.pending = True
        self._pending[address] = self._pending.get(address, 0) + 1
        self._total += 1
        return True

    def admit_other(self, address: str) -> bool:
        """A connection just accepted on another port of this process (the web pages'), counted in the host's
        total and against its address (:attr:`Limits.connections` of them per address); False: refused."""
        self._guard_loop()
        if self._total >= self._total_cap:
            self._note("total", f"refusing connections: {self._total} are open, the most this host takes "
                                f"(its open-files limit); said once a minute")
            return False
        if self._other.get(address, 0) >= self.limits.connections:
            self._note(f"web {address}", f"refusing web connections from {address}: {self.limits.connections} "
                                         "are open already; said once a minute")
            return False
        self._other[address] = self._other.get(address, 0) + 1
        self._total += 1
        return True

    def release_other(self, address: str) -> None:
        self._total -= 1
        self._other[address] -= 1
        if not self._other[address]:
            del self._other[address]

    def _release(self, conn: _GuardedConnection) -> None:
        for flag, counts, address in (("pending", self._pending, conn.peer), ("counted", self._open, conn.address)):
            if getattr(conn, flag):
                setattr(conn, flag, False)
                self._total -= 1
                counts[address] -= 1
                if not counts[address]:
                    del counts[address]

    def _check_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """The handshake's request, before the upgrade: a browser page of another origin is refused (403), a
        vouched web seat process counts against its browser's address, and an address with too many open
        connections is refused (503)."""
        assert isinstance(connection, _GuardedConnection)
        conn = connection
        self._release(conn)  # its handshake is no longer unfinished; counted again below if admitted
        origins = request.headers.get_all("Origin")
        if origins and (len(origins) > 1 or origins[0].lower().rstrip("/") not in self.origins):
            self._note(f"origin {conn.peer}", f"refused a connection from {conn.peer}: a page of "
                                              f"{origins[0][:80]!r} (only crewkit's own clients may connect)")
            return conn.respond(http.HTTPStatus.FORBIDDEN, "crewkit: this port takes crewkit's own clients only\n")
        vouched, browser = self._vouched_for(request)
        if not vouched:
            self._failed(conn.peer)
            return conn.respond(http.HTTPStatus.FORBIDDEN, "crewkit: not a seat this host vouches for\n")
        address = browser or conn.peer
        if self._open.get(address, 0) >= self.limits.connections:
            self._note(f"open {address}", f"refusing connections from {address}: {self.limits.connections} are "
                                          "open already; said once a minute")
            return conn.respond(http.HTTPStatus.SERVICE_UNAVAILABLE,
                                "crewkit: too many connections from your address\n")
        conn.address = address
        conn.counted = True
        self._open[address] = self._open.get(address, 0) + 1
        self._total += 1
        return None

    def _vouched_for(self, request: Request) -> tuple[bool, str | None]:
        """(False, None) for a seat process's credentials this host did not hand out; else (True, the browser
        address it speaks for, or None for a client that does not claim to be one)."""
        values = request.headers.get_all("Authorization")
        if not values:
            return True, None
        try:
            user, token = parse_authorization_basic(values[0])
        except InvalidHeader:
            return True, None  # not a seat process's: ignored
        if user != SEAT_USER:
            return True, None
        found = None
        for known, address in self._vouched.items():  # every token compared, in constant time
            if hmac.compare_digest(known.encode(), token.encode()):
                found = address
        return (found is not None and len(values) == 1), found

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's errors: running out of open files while accepting is one line in the log (asyncio
        retries the accept a second later), never a traceback per attempt; anything else as before."""
        exc = context.get("exception")
        if (isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
                and "accept" in str(context.get("message", ""))):
            self._note("accept", f"cannot accept connections for a moment: {exc.strerror} (open files: "
                                 f"{self._total} connections); said once a minute")
            return
        previous = self._loop_handler[1] if self._loop_handler is not None else None
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def _rate_limited(self, address: str) -> bool:
        now = time.monotonic()
        stamps = self.failures.get(address)
        if stamps is None:
            return False
        while stamps and now - stamps[0] > self.limits.failure_window:
            stamps.popleft()
        if not stamps:
            del self.failures[address]
            return False
        return len(stamps) >= self.limits.failures

    def _failed(self, address: str) -> None:
        self.failures.setdefault(address, deque()).append(time.monotonic())

    async def _refuse(self, ws: ServerConnection, code: str, message: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(encode({"type": "refused", "code": code, "message": message}))
            await ws.close(1008, code)

    async def _hello(self, ws: ServerConnection, address: str) -> tuple[HostedTable, int, str | None] | None:
        try:
            raw = await asyncio.wait_for(ws.recv(), self.limits.hello_timeout)
        except TimeoutError:
            await self._refuse(ws, "timeout", f"no hello within {self.limits.hello_timeout:g} seconds")
            return None
        with contextlib.suppress(ValueError, RecursionError):  # a client of another version: name both
            early = json.loads(raw)
            if isinstance(early, dict) and early.get("type") == "hello" and early.get("version") != VERSION:
                await self._refuse(ws, "version", f"this host speaks crewkit protocol version {VERSION}; "
                                                  f"the client speaks version {early.get('version')!r}: use the "
                                                  f"same crewkit version as the host")
                return None
        try:
            hello = decode(raw)
        except ProtocolError as exc:
            await self._refuse(ws, "bad-message", exc.message)
            return None
        if hello["type"] != "hello":
            await self._refuse(ws, "bad-message", f"the first message is a hello, found {hello['type']}")
            return None
        try:
            table, seat = self.check_code(address, hello["table"], hello["code"])
        except Refusal as exc:
            await self._refuse(ws, exc.code, exc.message)
            return None
        return table, seat, hello.get("name")

    def check_code(self, address: str, table_id: str, code: str) -> tuple[HostedTable, int]:
        """The table and seat an invite code opens, for a client at ``address``: an address with too many failed
        attempts is refused before any code is looked at, and a wrong table or code counts against it
        (:class:`Refusal` ``rate-limited`` or ``bad-code``). The web seats (:mod:`crewkit.net.web`) check a
        browser's code here too, against the browser's address."""
        if self._rate_limited(address):
            raise Refusal("rate-limited", "too many failed attempts from your address; try again later")
        table = self.tables.get(table_id)
        seat = None if table is None else table.seat_of_code(code)
        if table is None or seat is None:
            self._failed(address)
            raise Refusal("bad-code", "no seat has this link (a wrong table or invite code)")
        return table, seat

    async def _handle(self, ws: ServerConnection) -> None:
        if isinstance(ws, _GuardedConnection):  # a vouched web seat process: its browser's address
            address = ws.address
        else:
            address = str(ws.remote_address[0]) if ws.remote_address else "?"
        conn = _Connection(ws, self.limits)
        writer = asyncio.get_running_loop().create_task(conn.write_loop())
        joined: tuple[HostedTable, Seat] | None = None
        try:
            found = await self._hello(ws, address)
            if found is None:
                return
            table, index, name = found
            # the connection holds its Seat: its index follows the engine's renumbering when JARVIS moves
            seat = table.seats[index]

            def greeting(final_name: str, at: int) -> dict[str, Any]:
                return {"type": "welcome", "version": VERSION, "table": table.id, "seat": at, "name": final_name,
                        "family": table.game.family.name, "title": table.game.family.title,
                        "game": _game_words(table), "setup": _setup(table)}

            try:
                await table.join(seat, conn, name, greeting, (self.limits.renames, self.limits.rename_window))
            except Refusal as exc:  # taken, or a name refused
                await self._refuse(ws, exc.code, exc.message)
                return
            joined = (table, seat)
            self._say(f"{table.id}: {seat.name} joined from {address}")
            handover = self._handovers.pop((table.id, id(seat)), None)
            if handover is not None:
                handover.cancel()
            if seat.by_bot and self.bot_after is not None:
                await table.set_bot(seat, False)  # the person returned: their seat is theirs again
            await self._serve(ws, conn, table, seat)
        except ConnectionClosed:
            pass
        finally:
            if joined is not None:
                table, seat = joined
                await table.leave(seat, conn)
                self._say(f"{table.id}: {seat.name} left")
                if self.bot_after is not None and not seat.connected:
                    self._handovers[(table.id, id(seat))] = asyncio.get_running_loop().create_task(
                        self._hand_over_later(table, seat, self.bot_after))
            writer.cancel()

    async def _send_review(self, table: HostedTable, conn: _Connection, ident: dict[str, Any]) -> None:
        """A seat asked for the game's review: the host's one review of it (or why not yet), its first answer
        (``final: false``) before while the final one is still being computed."""
        try:
            first = await table.first_review()
            if first is not None:
                conn.post({"type": "review", **ident, **first})
            conn.post({"type": "review", **ident, **await table.review()})
        except Refusal as exc:
            conn.post({"type": "error", **ident, "code": exc.code, "message": exc.message})
        except Exception as exc:  # the solver failed: the seat is told, the host goes on
            conn.post({"type": "error", **ident, "code": "review-failed", "message": f"the review failed: {exc}"})

    async def _hand_over_later(self, table: HostedTable, seat: Seat, after: float) -> None:
        await asyncio.sleep(after)
        self._handovers.pop((table.id, id(seat)), None)
        if not seat.connected:
            await table.set_bot(seat, True)
            self._say(f"{table.id}: a bot plays {seat.name}'s seat until they return")

    async def _serve(self, ws: ServerConnection, conn: _Connection, table: HostedTable, seat: Seat) -> None:
        async for raw in ws:
            if not conn.allow():
                if conn.dropped >= self.limits.flood_close:
                    await self._refuse(ws, "flood", "too many messages; the connection is closed")
                    return
                dropped_id = _message_id(raw)
                if dropped_id is not None:  # its sender waits for this answer: say it was not applied
                    conn.post({"type": "error", "id": dropped_id, "code": "flood",
                               "message": f"not applied: more than {self.limits.rate:g} messages a second; "
                                          f"send it again in a moment"})
                    continue
                now = time.monotonic()
                if now - conn.warned > 1.0:
                    conn.warned = now
                    conn.post({"type": "error", "code": "flood",
                               "message": "too many messages: this one and the next ones are ignored; slow down"})
                continue
            try:
                message = decode(raw)
            except ProtocolError as exc:
                conn.post({"type": "error", "code": exc.code, "message": exc.message})
                continue
            ident = {"id": message["id"]} if "id" in message else {}
            kind = message["type"]
            try:
                if kind == "act":
                    seq = await table.act(seat, message["action"])
                    conn.post({"type": "ack", **ident, "seq": seq})
                elif kind == "pass":
                    seq = await table.pass_window(seat)
                    conn.post({"type": "ack", **ident, "seq": seq})
                elif kind == "ping":
                    conn.post({"type": "pong", **ident})
                elif kind == "review":  # computed in a thread: this seat's other messages go on meanwhile
                    task = asyncio.get_running_loop().create_task(self._send_review(table, conn, ident))
                    self._reviews.add(task)
                    task.add_done_callback(self._reviews.discard)
                else:  # a second hello
                    conn.post({"type": "error", **ident, "code": "bad-message", "message": "already joined"})
            except Refusal as exc:
                conn.post({"type": "error", **ident, "code": exc.code, "message": exc.message})


def _message_id(raw: str | bytes) -> int | None:
    """The ``id`` of a message dropped unread (over the rate), when it has a valid one: its answer is due."""
    with contextlib.suppress(ValueError, RecursionError):
        message = orjson.loads(raw)
        ident = message.get("id") if isinstance(message, dict) else None
        if type(ident) is int and 0 <= ident < 2**53:
            return ident
    return None


def _setup(table: HostedTable) -> dict[str, Any]:
    """The public part of how the game was opened (never its seed): a client compiles the same rules from it."""
    config = table.config
    return {"ruleset": config.ruleset, "mission": config.mission, "players": config.players,
            "readings": dict(config.readings)}


def _game_words(table: HostedTable) -> str:
    config = table.config
    what = config.mission or config.ruleset
    return f"{what}, {config.players} players"


def default_log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
