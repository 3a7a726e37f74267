"""A seat at a hosted table, for any game's table screen (``crewkit join``): :class:`HostSeat`, the seat's
connection to its host, and the words every table says at a hosted table.

A family's remote session (the trick-taking
:class:`~crewkit.families.trick_taking.tui.remote.RemoteSession`, Not Alone's
:class:`~crewkit.families.not_alone.tui.remote.RemoteHuntSession`) is a :class:`HostSeat` that says what a
``state`` message is to it; the shell opens it through the family's
:meth:`crewkit.tui.family.FamilyTUI.remote_session` and names no family here.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from typing import Any

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.net.client import FINAL_REFUSALS, RECONNECT_FOR, TableClient

__all__ = ["HOST_DECIDES", "LEAVE_CHOICES", "LEAVE_EXIT_NOTE", "LEAVE_NOTE", "LEAVE_TITLE", "HostSeat", "SeatNames"]

HOST_DECIDES = "Waiting for the host's next game: this table opens it without a key (q leaves the table)."
NEXT_GAME = 4000  # the host's close code for the table's next game (crewkit.net.server.NEXT_GAME)
# ``q`` at a hosted table (every game's table screen says the same)
LEAVE_TITLE = "Leave the table?"
LEAVE_NOTE = ("The host keeps the game. The table waits for you (the others read \"disconnected\"); join again "
              "with the same link to take your seat back.")
LEAVE_CHOICES = [("Leave — join again with the same link", True), ("Stay at the table", False)]
LEAVE_EXIT_NOTE = "crewkit: you left the table; join again with the same link to take your seat back."
HUMAN = "human"
JARVIS = "jarvis"
ANSWER_TIMEOUT = 30.0  # seconds an action waits for the host's ack or error
REVIEW_TIMEOUT = 600.0  # seconds a seat waits for the host's review (the solver runs on the host)


class SeatNames(list[str]):
    """The seats' kinds (``human``, ``bot``, ``jarvis``) with the players' names: the table's labels name the
    people at a hosted table (:func:`crewkit.tui.text.seat_label` reads ``names``)."""

    def __init__(self, kinds: list[str], names: list[str]) -> None:
        super().__init__(kinds)
        self.names = list(names)

# ---------------------------------------------------------------------------- a seat's connection
class HostSeat:
    """One seat's connection to its host, for any game's table screen: the host's messages read in the app's
    loop (:meth:`pump`), the latest ``state`` kept, every action sent and its answer awaited (a refusal in the
    host's words). A family's remote session (the trick-taking one, Not Alone's) says what a ``state`` is to it
    (:meth:`_take`) and what its table reads."""

    remote = True

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.seat: int = client.seat
        self.state: dict[str, Any] | None = None
        self.notices: list[str] = []  # the host's words on refused actions not waited for (the table shows them)
        self.lost: str | None = None  # why the connection ended for good, once it has
        self.reconnecting = 0  # the attempt at joining again after the connection dropped (0: connected)
        self.on_change: Callable[[], None] | None = None
        # the host opened the table's next game: called with the connection joined to it (the app opens its table)
        self.on_new_game: Callable[[TableClient], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.review_message: dict[str, Any] | None = None  # the host's review of the finished game, once asked
        self.review_first: dict[str, Any] | None = None  # the host's first (provisional) answer, until the final
        self._firsts: dict[int, Callable[[dict[str, Any]], None]] = {}  # who waits for a first answer, by id
        self._sending: set[asyncio.Task[dict[str, Any]]] = set()

    def _take(self, state: dict[str, Any]) -> None:
        """A ``state`` message from the host (the latest: what the table draws)."""
        self.state = state

    @property
    def sending(self) -> bool:
        """An action of this seat is on its way to the host (its answer not back yet)."""
        return bool(self._sending)

    async def pump(self) -> None:
        """Read the host's messages until the connection ends for good (the app runs this as a task). A dropped
        connection (the host restarting) is joined again with the same link, with backoff, for up to
        :data:`~crewkit.net.client.RECONNECT_FOR` seconds: :attr:`reconnecting` counts the attempts meanwhile,
        and the table is back with the host's next ``state``."""
        from websockets.exceptions import ConnectionClosed

        from crewkit.net.client import JoinRefused, reconnect

        self._loop = asyncio.get_running_loop()
        while True:
            next_game = False
            try:
                await self._read()
                return
            except ConnectionClosed as exc:
                next_game = exc.rcvd is not None and exc.rcvd.code == NEXT_GAME
            except JoinRefused as exc:
                self.lost = f"the host sent a message this client does not understand: {exc}"
                self._changed()
                return
            self._drop_answers("the connection to the host dropped: reconnecting")
            try:
                self.client = await reconnect(self.client, self._attempt, self.reconnect_for)
            except JoinRefused as exc:
                self.reconnecting = 0
                self.lost = (f"the host refused this seat: {exc.message}" if exc.code in FINAL_REFUSALS else
                             f"the host did not come back ({exc.message}): join again with the same link "
                             "(your seat waits)")
                self._changed()
                return
            self.reconnecting = 0
            if next_game and self.on_new_game is not None:
                self.on_new_game(self.client)  # a new session for the new game: this one ends here
                return
            self._changed()

    reconnect_for = RECONNECT_FOR  # seconds a dropped connection is retried

    def _attempt(self, n: int) -> None:
        self.reconnecting = n
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _drop_answers(self, why: str) -> None:
        for future in self._answers.values():
            if not future.done():
                future.set_result({"type": "error", "code": "lost", "message": why})

    async def _read(self) -> None:
        """The host's messages on this connection, until it ends (ConnectionClosed) or refuses the seat."""
        while True:
            message = await self.client.recv()
            kind = message["type"]
            if kind == "state":
                self._take(message)
            elif kind == "review" and message.get("final", True) is False:  # a first answer: the final follows
                self.review_first = message
                then = self._firsts.get(int(message.get("id", -1)))
                if then is not None:
                    then(message)
            elif kind == "review":
                self.review_message = message
                future = self._answers.pop(int(message.get("id", -1)), None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif kind in ("ack", "error"):
                future = self._answers.pop(int(message.get("id", -1)), None)
                if future is not None and not future.done():
                    future.set_result(message)
                elif kind == "error":
                    self.notices.append(self.named(message["message"]))
            elif kind == "refused":
                self.lost = f"the host closed this seat's connection: {message['message']}"
                self._drop_answers(self.lost)
                self._changed()
                return
            self._changed()

    @property
    def connection_note(self) -> str | None:
        """Why the table cannot be played now, for the status line: reconnecting, or lost for good."""
        if self.reconnecting:
            return f"reconnecting (attempt {self.reconnecting})… the host is not answering; q leaves"
        return f"Not connected: {self.lost}." if self.lost else None

    async def _send(self, action: Action | None) -> dict[str, Any]:
        """Send one action (None: pass the communication window) and wait for the host's ack or error."""
        if self.lost or self.reconnecting:
            return {"type": "error", "code": "lost", "message": self.lost or "not connected: reconnecting"}
        ident = self.client.next_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[ident] = future  # before sending: the answer may come back before the send returns
        try:
            await (self.client.pass_window(ident) if action is None else self.client.act(action.to_json(), ident))
            return await asyncio.wait_for(future, ANSWER_TIMEOUT)
        finally:
            self._answers.pop(ident, None)

    async def request_review(self, first: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """The host's final review of the finished game (a ``review`` message), or an ``error`` in the host's
        words; ``first`` is called with the host's first answer (``final: false``, provisional) if one comes
        before. The host computes both once for every seat; asked again, this seat's copy is given."""
        if self.review_message is not None:
            return self.review_message
        if self.lost or self.reconnecting:
            return {"type": "error", "code": "lost", "message": self.lost or "not connected: reconnecting"}
        ident = self.client.next_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[ident] = future
        if first is not None:
            self._firsts[ident] = first
        try:
            await self.client.review(ident)
            return await asyncio.wait_for(future, REVIEW_TIMEOUT)
        except TimeoutError:
            return {"type": "error", "code": "no-answer", "message": "the host's review did not come"}
        finally:
            self._answers.pop(ident, None)
            self._firsts.pop(ident, None)

    def _submit(self, action: Action | None) -> None:
        loop = self._loop
        if loop is None:
            raise IllegalAction("not-connected", "the table is not connected to its host yet")
        if threading.current_thread() is threading.main_thread() or _on_loop(loop):
            # on the app's own loop (a dialog): sent without waiting; a refusal reaches the table's status line
            task = loop.create_task(self._send(action))
            self._sending.add(task)  # held until done (the loop keeps weak references to tasks only)
            task.add_done_callback(self._late_answer)
            return
        try:
            answer = asyncio.run_coroutine_threadsafe(self._send(action), loop).result(ANSWER_TIMEOUT + 1)
        except TimeoutError:
            raise IllegalAction("no-answer", "the host did not answer in time; the table shows what it did") from None
        if answer["type"] == "error":
            raise IllegalAction(str(answer.get("code") or "refused"), self.named(str(answer["message"])))

    def _late_answer(self, task: asyncio.Task[dict[str, Any]]) -> None:
        self._sending.discard(task)
        if task.cancelled() or task.exception() is not None:
            return
        answer = task.result()
        if answer["type"] == "error":
            self.notices.append(self.named(str(answer["message"])))
        if self.on_change is not None:  # the answer is back: the table may ask this seat again
            self.on_change()

    @property
    def names(self) -> list[str]:
        return [str(p["name"]) for p in (self.state or {}).get("players", [])]

    def named(self, text: str) -> str:
        """The host's words with ``seat N`` (and ``Player N`` it named no one) as the players' names."""
        names = self.names
        return re.sub(r"\bseat (\d+)\b",
                      lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text)

    def status(self) -> str:
        """The host's status for this seat, as the host words it (:meth:`crewkit.net.table.HostedTable.status`:
        the host's console says the same, this seat's own person "you": ``waiting for you and Bob``)."""
        return self.named(str((self.state or {}).get("status") or ""))

    def save(self) -> None:
        """The host keeps the game (every action durable there): nothing to save here."""



def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
