"""A seat's side of a hosted table: connect with a join link, receive the table's state, send actions.

Every message from the host is checked against the protocol's schema (a host of another version is refused
with both versions named). :class:`TableClient` is what ``crewkit join``'s terminal client, the tests'
recording clients and the load benchmark use.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import ssl
from collections.abc import Callable
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from crewkit.errors import CrewkitError
from crewkit.net.protocol import MAX_HOST_MESSAGE, VERSION, ProtocolError, decode, encode, parse_link

__all__ = ["FINAL_REFUSALS", "RECONNECT_FOR", "JoinRefused", "TableClient", "reconnect"]

RECONNECT_FOR = 600.0  # seconds a client retries its link after the connection dropped (the host restarting)
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 4.0)  # the backoff between attempts; the last repeats (never over 5 s)
# refusals that another attempt cannot change: the client stops retrying and says the host's words
FINAL_REFUSALS = frozenset({"version", "bad-code", "bad-link", "unknown-table", "bad-name", "bad-message"})


class JoinRefused(CrewkitError):
    """The host refused the seat (``code``: version, bad-code, seat-taken, rate-limited, ...) or cannot be reached."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TableClient:
    """One connected seat. ``state`` is the latest ``state`` message; ``received`` every message, in order
    (when ``keep`` is true: the tests' recording clients)."""

    def __init__(self, ws: ClientConnection, welcome: dict[str, Any], keep: bool = False, check: bool = True) -> None:
        self.ws = ws
        self.welcome = welcome
        self.seat: int = welcome["seat"]
        self.name: str = welcome["name"]
        self.state: dict[str, Any] | None = None
        self.keep = keep
        self.received: list[dict[str, Any]] = [welcome] if keep else []
        self.raw: list[str] = []  # the text of every message (recording clients)
        self.check = check  # check every message against the protocol's schema (the load benchmark does not)
        self._ids = itertools.count(1)
        # how this client joined: what :func:`reconnect` joins with again
        self.link = ""
        self.hello_name: str | None = None
        self.ssl_context: ssl.SSLContext | None = None

    @classmethod
    async def connect(cls, link: str, name: str | None = None, *, ssl_context: ssl.SSLContext | None = None,
                      timeout: float = 10.0, keep: bool = False, check: bool = True) -> TableClient:
        try:
            url, table, code = parse_link(link)
        except ValueError as exc:
            raise JoinRefused("bad-link", str(exc)) from None
        if url.startswith("wss:") and ssl_context is None:
            ssl_context = ssl.create_default_context()
        try:
            ws = await connect(url, ssl=ssl_context if url.startswith("wss:") else None, open_timeout=timeout,
                               max_size=MAX_HOST_MESSAGE, compression=None, ping_interval=10, ping_timeout=20)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise JoinRefused("unreachable", f"cannot reach the host at {url}: {exc}") from None
        hello: dict[str, Any] = {"type": "hello", "version": VERSION, "table": table, "code": code}
        if name:
            hello["name"] = name
        try:
            await ws.send(encode(hello))
            raw = await asyncio.wait_for(ws.recv(), timeout)
        except (ConnectionClosed, TimeoutError) as exc:
            await ws.close()
            raise JoinRefused("closed", f"the host closed the connection before welcoming this seat: {exc}") from None
        first = _decode_host(raw)
        if first["type"] == "refused":
            await ws.close()
            raise JoinRefused(first["code"], first["message"])
        if first["type"] != "welcome":
            await ws.close()
            raise JoinRefused("bad-message", f"the host sent {first['type']} before welcome")
        client = cls(ws, first, keep, check)
        client.link, client.hello_name, client.ssl_context = link, name, ssl_context
        if keep:
            client.raw.append(str(raw))
        return client

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the host (ConnectionClosed when the host has gone)."""
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        message = _decode_host(raw) if self.check else orjson.loads(raw)
        if message["type"] == "state":
            self.state = message
        if self.keep:
            self.received.append(message)
            self.raw.append(str(raw))
        return message

    async def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        """Read messages until one passes ``test`` (TimeoutError after ``timeout`` seconds)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv()
                if test(message):
                    return message

    def next_id(self) -> int:
        """A fresh message id (to wait for its answer before the message is sent)."""
        return next(self._ids)

    async def act(self, action: dict[str, Any], ident: int | None = None) -> int:
        """Send one action of this seat (its record form); returns the id its ack or error carries."""
        ident = next(self._ids) if ident is None else ident
        await self.ws.send(encode({"type": "act", "id": ident, "action": action}))
        return ident

    async def pass_window(self, ident: int | None = None) -> int:
        ident = next(self._ids) if ident is None else ident
        await self.ws.send(encode({"type": "pass", "id": ident}))
        return ident

    async def ping(self) -> int:
        ident = next(self._ids)
        await self.ws.send(encode({"type": "ping", "id": ident}))
        return ident

    async def review(self, ident: int | None = None) -> int:
        """Ask for the game's review (answered by a ``review`` message once the game is over, else an error)."""
        ident = next(self._ids) if ident is None else ident
        await self.ws.send(encode({"type": "review", "id": ident}))
        return ident

    async def close(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            await self.ws.close()


async def reconnect(client: TableClient, attempt: Callable[[int], None] | None = None,
                    give_up_after: float = RECONNECT_FOR) -> TableClient:
    """The same seat joined again with ``client``'s link after its connection dropped: retried with backoff
    (``attempt(n)`` is told before each try) until the host answers or ``give_up_after`` seconds have passed.
    A refusal another attempt cannot change (:data:`FINAL_REFUSALS`: a bad code, another version) is raised at
    once; after the time is up the last failure is raised. The caller cancels it to stop (the person quit)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + give_up_after
    for n in itertools.count(1):
        if attempt is not None:
            attempt(n)
        try:
            return await TableClient.connect(client.link, client.hello_name, ssl_context=client.ssl_context,
                                             keep=client.keep, check=client.check)
        except JoinRefused as exc:
            if exc.code in FINAL_REFUSALS or loop.time() >= deadline:
                raise
        await asyncio.sleep(min(RECONNECT_DELAYS[min(n - 1, len(RECONNECT_DELAYS) - 1)],
                                max(0.0, deadline - loop.time())))
    raise AssertionError("unreachable")


def _decode_host(raw: str | bytes) -> dict[str, Any]:
    try:
        return decode(raw, sender="host")
    except ProtocolError as exc:
        raise JoinRefused("bad-message", f"the host sent a message this client does not understand: {exc}") from None
