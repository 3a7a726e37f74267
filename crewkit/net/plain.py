"""``crewkit join``'s plain terminal client: the table's news as lines, your actions by number.

It shows what the host sends this seat (its log, its hand, who the table waits for, by name) and offers the
actions the game allows it now; the host checks every action with the engine. A dropped connection is joined
again with the same link, with backoff, for up to ten minutes (the seat waits for its person).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import ssl
import sys
from collections.abc import Callable
from typing import Any, TextIO

from websockets.exceptions import ConnectionClosed

from crewkit.errors import CrewkitError
from crewkit.net.client import FINAL_REFUSALS, RECONNECT_FOR, JoinRefused, TableClient, reconnect
from crewkit.net.lines import LineReader, read_stdin_lines
from crewkit.safetext import escape_controls

__all__ = ["action_words", "play_plain", "run_plain"]

NEXT_GAME = 4000  # the host's close code for the table's next game (crewkit.net.server.NEXT_GAME)
FIRST_ANSWER = "The host has a first answer; its solver is refining it, the final review follows…"
HELP = "type a number to act, s to show the table again, q to quit"


def help_words(welcome: dict[str, Any]) -> str:
    """What the person may type at the table the host's ``welcome`` names: what every table takes, ``p`` where its
    games have communication windows (its family's words say so) and ``w`` where its family has a review."""
    from crewkit.games import TRICK_TAKING, family_named, review_of

    try:
        family = family_named(str(welcome.get("family") or TRICK_TAKING))
    except CrewkitError:  # a family not installed here: the lines as the host writes them, no review
        return HELP
    extra = []
    if family.words.windows:
        extra.append("p to pass a communication window")
    if review_of(family) is not None:
        extra.append("w for the review once the game is over")
    return HELP.replace(", q to quit", "".join(f", {e}" for e in extra) + ", q to quit")


def action_words(action: dict[str, Any], names: list[str], own: int | None = None) -> str:
    """An action's record form in words: ``play blue 4``, ``give-task blue 3 to Ann``, ``play-places 2, 4``;
    an action of another seat than ``own`` (the commander's for JARVIS) says whose: ``for JARVIS: play red 2``."""
    seat = action.get("seat")
    parts = [str(action.get("type", "?"))]
    if own is not None and isinstance(seat, int) and seat != own and 0 <= seat < len(names):
        parts.insert(0, f"for {names[seat]}:")
    for key, value in action.items():
        if key in ("seat", "type") or value is None:
            continue
        if key in ("to", "player") and isinstance(value, int) and 0 <= value < len(names):
            parts.append(f"to {names[value]}")
        elif isinstance(value, list):
            parts.append(", ".join(str(v) for v in value))
        else:
            parts.append(str(value))
    return " ".join(parts)


_SEAT = re.compile(r"\bseat (\d+)\b")


def with_names(text: str, names: list[str]) -> str:
    """A log line with seat numbers replaced by the players' names."""
    return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text)


class PlainView:
    """Prints a seat's states as lines (only what changed)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.shown_log = 0
        self.last: dict[str, Any] | None = None
        self.quitting = False  # the person typed q: the connection's end is theirs, not a lost one
        self.client: TableClient | None = None  # the connection now (joined again after a drop)
        self.over_said = False  # the game's end was said (once, however many states follow)
        # the family's words for the host's log lines (a trick-taking log as the table's log panel words it);
        # None: the lines are words already
        self.log_words: Callable[[list[str], list[str], int], list[str]] | None = None

    def words(self, lines: list[str], names: list[str], seat: int) -> list[str]:
        """The log's lines in the table's words (``Task revealed: pink 1``), with names; a family without words
        of its own has its lines shown as they are, with names."""
        if self.log_words is None:
            return [with_names(line, names) for line in lines]
        return self.log_words(lines, names, seat)

    def game(self, welcome: dict[str, Any]) -> None:
        """The game the host's welcome names: its family words its log (through its terminal face)."""
        from crewkit.tui.family import plain_log_words

        self.log_words = plain_log_words(welcome)

    def review(self, message: dict[str, Any]) -> None:
        """The host's review of the finished game in words (its family's), or why there is none; its first
        answer (``final: false``) is only announced: the final one follows and is printed."""
        from crewkit.games import TRICK_TAKING, family_named, review_of

        if message.get("final", True) is False:
            self.say(FIRST_ANSWER)
            return
        if message.get("review") is None:
            self.say(f"No review: {message.get('error') or 'the host has none for this game'}")
            return
        welcome = self.client.welcome if self.client is not None else {}
        try:
            answer = review_of(family_named(str(welcome.get("family") or TRICK_TAKING)))
        except CrewkitError as exc:
            self.say(f"No review here: {exc}")
            return
        if answer is None:
            self.say("No review: this game's family has none")
            return
        try:
            text = answer.text_of(message["record"], list(message["names"]), message["review"])
        except (CrewkitError, ValueError, KeyError, TypeError) as exc:  # the host's message, not this client's
            self.say(f"The host's review could not be read: {exc}")
            return
        self.say("Where it went wrong (every hand shown: the game is over):")
        for line in text.splitlines():
            self.say(f"  {line}")

    def say(self, text: str) -> None:
        self.out.write(escape_controls(text) + "\n")
        self.out.flush()

    def show(self, state: dict[str, Any], full: bool = False) -> None:
        self.last = state
        log = state["log"]
        names = [p["name"] for p in state["players"]]
        start = 0 if full else min(self.shown_log, len(log))
        for line in self.words(log[start:], names, int(state["seat"])):
            self.say(f"  {line}")
        self.shown_log = len(log)
        if state["over"]:
            if not self.over_said:
                self.over_said = True
                self.say(f"Game over. {with_names(state['outcome']['words'], names)}")
                self.say("Waiting for the host's next game: this table opens it without a key (w: where it went "
                         "wrong; q quits).")
            return
        self.over_said = False
        obs = state["observation"]
        if state["turn"] or full:
            if "hand" in obs:
                self.say("Your hand: " + ", ".join(str(c) for c in obs["hand"]))
            dummy = obs.get("dummy")
            if dummy and dummy.get("face_up") is not None and 0 <= dummy.get("seat", -1) < len(names):
                self.say(f"{names[dummy['seat']]}'s face-up cards: " + ", ".join(map(str, dummy["face_up"])))
            if obs.get("current_trick"):
                self.say("On the table: " + ", ".join(f"{names[p['seat']]} {p['card']}" if isinstance(p, dict)
                                                       else str(p) for p in obs["current_trick"]))
            if obs.get("question"):
                self.say(f"Question: {obs['question']}")
        self.say(state["status"])
        if state["turn"] and state["legal"]:
            for i, action in enumerate(state["legal"], 1):
                self.say(f"  {i}. {action_words(action, names, state['seat'])}")
            if state["window"]:
                self.say("  p. nothing to say (pass)")


async def run_plain(link: str, name: str | None, context: ssl.SSLContext | None = None,
                    lines: Any = None, out: TextIO | None = None) -> int:
    """Play one seat in the terminal until the game ends (0), the person quits (0) or the host goes (1)."""
    client = await TableClient.connect(link, name, ssl_context=context)
    return await play_plain(client, lines, out)


async def play_plain(client: TableClient, lines: Any = None, out: TextIO | None = None,
                     reconnect_for: float = RECONNECT_FOR) -> int:
    """:func:`run_plain` with a seat already connected. A dropped connection is joined again with the same link
    for up to ``reconnect_for`` seconds (the person may quit meanwhile)."""
    out = out or sys.stdout
    view = PlainView(out)
    view.client = client
    view.game(client.welcome)
    view.say(f"{client.welcome['title']}: {client.welcome['game']}. You are {client.name}. "
             f"{help_words(client.welcome)}.")
    reader = LineReader(lines or read_stdin_lines())
    inputs = asyncio.get_running_loop().create_task(_inputs(view, reader))
    try:
        while True:
            try:
                message = await client.recv()
            except ConnectionClosed as exc:
                if inputs.done() or view.quitting:
                    return 0
                next_game = exc.rcvd is not None and exc.rcvd.code == NEXT_GAME
                try:
                    again = await _rejoin(view, client, inputs, reconnect_for)
                except JoinRefused as exc:
                    if exc.code in FINAL_REFUSALS:
                        view.say(f"The host refused your seat: {exc.message}")
                    else:
                        view.say(f"The host did not come back ({exc.message}). Join again with the same link: "
                                 "your seat waits for you.")
                    return 1
                if again is None:
                    return 0  # the person quit meanwhile
                view.client = client = again
                if next_game:
                    view.shown_log = 0
                    view.game(client.welcome)
                    view.say(f"The host opened the next game: {client.welcome['game']}.")
                else:
                    view.say("Back at the table.")
                continue
            if message["type"] == "state":
                view.show(message)
            elif message["type"] == "review":
                view.review(message)
            elif message["type"] == "error":
                view.say(f"Not done: {message['message']}")
            elif message["type"] == "refused":
                view.say(f"The host closed your seat's connection: {message['message']}")
                return 1
            if inputs.done():
                return 0
    finally:
        inputs.cancel()
        await client.close()


async def _rejoin(view: PlainView, client: TableClient, inputs: asyncio.Task[None],
                  give_up_after: float) -> TableClient | None:
    """The seat joined again after its connection dropped, or None when the person quit meanwhile."""
    def attempt(n: int) -> None:
        view.say(f"reconnecting (attempt {n})… the host is not answering; q quits")

    trying = asyncio.get_running_loop().create_task(reconnect(client, attempt, give_up_after))
    await asyncio.wait({trying, inputs}, return_when=asyncio.FIRST_COMPLETED)
    if not trying.done():
        trying.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await trying
        return None
    return trying.result()


async def _inputs(view: PlainView, reader: LineReader) -> None:
    while True:
        line = await reader.next()
        if not line:
            return  # end of input: keep watching the table
        word = line.strip().lower()
        state = view.last
        client = view.client
        assert client is not None
        if word in ("q", "quit"):
            view.quitting = True
            await client.close()
            return
        if state is None:
            continue
        if word in ("s", "show"):
            view.show(state, full=True)
        elif word in ("p", "pass"):
            await client.pass_window()
        elif word in ("w", "review"):
            if state["over"]:
                view.say("Asking the host for the review (the solver may take a while)…")
                await client.review()
            else:
                view.say("The review opens once the game is over (no hand is shown before).")
        elif word.isdigit() and 1 <= int(word) <= len(state["legal"]):
            await client.act(state["legal"][int(word) - 1])
        elif word:
            view.say(help_words(client.welcome))
