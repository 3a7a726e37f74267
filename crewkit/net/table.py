"""One hosted table: a game of any family (through :class:`~crewkit.games.protocol.GameInPlay` only), its seats
(people with invite codes, bots), its durable log, and what each seat is sent.

A table lives in a folder: ``table.json`` (how the game was opened, who sits where, the invite codes; written
atomically, readable by its owner only) and ``log.jsonl`` (one line per event: an action, a seat's "nothing to
say" in a communication window, a seat handed to a bot or back, a name). Each event is appended and synced
(with every other table's appends of the moment: :mod:`crewkit.net.journal`) before it is acknowledged or
shown to anyone, so a host killed at any moment restarts on the folder with every
acknowledged event; a torn last line (the host died while writing it) was never acknowledged and is dropped.
Each line carries its sequence number and a hash chained to the line before, and ``log.head`` the last
committed one (:mod:`crewkit.net.journal`): a journal cut, deleted or changed is refused, never resumed.
At the end ``record.json`` holds the game's record (``crewkit replay`` reads it).

The engine checks every action: a client's action is carried out only if it is one of the actions the game
offers now to a seat the client decides for (its own; the commander's client also JARVIS's:
:meth:`GameInPlay.controller`, the rule the terminal table follows too), and :meth:`GameInPlay.apply` still has
the last word. When JARVIS is seated elsewhere during the setup the engine renumbers the seats; the table's
seats (each person's code, name and connection) follow the same renumbering.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import re
import secrets
import sqlite3
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import orjson

from crewkit.atomic import write_text_atomic
from crewkit.campaign.store import LOGBOOK_FILENAME, Logbook, LogbookError
from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.errors import CrewkitError
from crewkit.games import logbook_attempt, open_game
from crewkit.games.driver import BotError
from crewkit.games.protocol import GameInPlay, SeatPlayer, dummy_moved
from crewkit.net.journal import (
    HEAD_FILE,
    JOURNAL_FORMAT,
    Head,
    chained_line,
    check_head,
    genesis,
    group_commit,
    read_head,
    read_journal,
    read_regular,
)
from crewkit.net.protocol import MAX_NAME

__all__ = ["CODE_BYTES", "Refusal", "Seat", "TableConfig", "TableError", "HostedTable", "check_names", "normal_name"]

CODE_BYTES = 24  # an invite code's random bytes (192 bits)
TABLE_FILE = "table.json"
LOG_FILE = "log.jsonl"
RECORD_FILE = "record.json"
TABLE_FORMAT = "crewkit-table/1"
RENAMES = (3, 600.0)  # a seat's renames at most, within this many seconds (the host's Limits set its own)


_SEAT_WORD = re.compile(r"\bseat (\d+)\b")  # "seat 2" in the engine's words: a person's name at a table
_INVISIBLE = frozenset({"Cf", "Cc", "Zl", "Zp"})  # format (zero-width, bidi), control and line/paragraph breaks


def normal_name(name: str) -> str:
    """A name as the table keeps it: NFKC (look-alike compatibility forms folded), no format or control
    characters, surrounding spaces trimmed and inner runs of spaces made one (``"Ann\u200b"`` is ``"Ann"``)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) not in _INVISIBLE)
    return " ".join(text.split())


class TableError(CrewkitError):
    """A table folder that cannot be opened or resumed (the message names the file and what is wrong)."""


class Refusal(Exception):
    """An action or request of a seat the table refuses (``code`` names why); nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Outbox(Protocol):
    """Where a seat's messages go (a client's connection): ``post`` queues one, never blocks."""

    def post(self, message: dict[str, Any]) -> None: ...


@dataclass
class TableConfig:
    """How a table's game is opened (what ``crewkit host`` takes, as ``crewkit play`` does)."""

    ruleset: str
    mission: str | None
    players: int
    seed: str
    seats: list[str]  # per seat: "human", or the bot spec that plays it
    readings: dict[str, str] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  # per seat (default "Player N" / "Bot N")
    # a campaign's mission: its logbook keys ``identity`` (the campaign's), ``mission`` (the mission's key in
    # it) and ``version`` (of the mission's file); the finished game counts in the host's logbook
    campaign: dict[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        campaign = data.get("campaign")
        return cls(str(data["ruleset"]), data.get("mission"), int(data["players"]), str(data["seed"]),
                   [str(s) for s in data["seats"]], {str(k): str(v) for k, v in (data.get("readings") or {}).items()},
                   [str(n) for n in data.get("names") or []],
                   None if campaign is None else {str(k): str(v) for k, v in campaign.items()})


@dataclass
class Seat:
    """One seat of a table: who plays it now and how to reach them."""

    index: int
    name: str
    bot_spec: str  # the bot that plays it while no person does (a human seat handed to a bot uses it)
    code: str | None  # a human seat's invite code (None: a bot's seat)
    by_bot: bool  # a bot plays it now
    outbox: Outbox | None = None  # the connected client, if any
    player: SeatPlayer | None = None
    renamed: deque[float] = field(default_factory=deque)  # when its person renamed it (bounded: see join)

    @property
    def human(self) -> bool:
        return self.code is not None

    @property
    def connected(self) -> bool:
        return self.outbox is not None


def _check_bots(game: GameInPlay, config: TableConfig, default_bot: str, where: str) -> None:
    """Every bot the table may seat is one its game has: the bot seats' and the one a person's seat is handed
    to. Checked when the table is made or resumed, not when a seat is handed over mid-game (a bot the game
    does not know would stop the table's bot runner then)."""
    for spec in sorted({default_bot, *(kind for kind in config.seats if kind != "human")}):
        try:
            game.family.bot_spec(spec)
        except CrewkitError as exc:
            raise TableError(f"{where}: {exc}") from None


def _seat_names(config: TableConfig, game: GameInPlay) -> list[str]:
    """Each seat's name: the configuration's, else "Player N" (a person), "Bot N" or "JARVIS"."""
    names = config.names or []
    return [names[i] if i < len(names) else
            "JARVIS" if i == game.dummy_seat else f"Player {i + 1}" if kind == "human" else f"Bot {i + 1}"
            for i, kind in enumerate(config.seats)]


def check_names(names: list[str]) -> list[str]:
    """The names a table is opened with (``--names``), normalised as a joining person's name is; an empty,
    overlong or repeated one (ignoring case) is a TableError."""
    normal = _given_names(names)
    _distinct(normal)
    return normal


def _given_names(names: list[str]) -> list[str]:
    normal = [normal_name(n) for n in names]
    for given, name in zip(names, normal, strict=True):
        if not name:
            raise TableError(f"the name {given!r} has no visible letter: give every seat a name")
        if len(name) > MAX_NAME:
            raise TableError(f"the name {name!r} is longer than {MAX_NAME} characters")
    return normal


def _distinct(names: list[str]) -> None:
    """No two seats of a table with the same name, ignoring case (each name is normalised already)."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            raise TableError(f"two seats would be called {seen[key]!r} and {name!r}: give every seat its own name "
                             "(names are compared ignoring case and invisible characters)")
        seen[key] = name


def _normal(obj: Any) -> Any:
    """JSON data as it reads back (tuples become lists), for comparing an action's form with a client's."""
    return orjson.loads(orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS))


class HostedTable:
    """A table: its game, seats and log. Every method that changes it runs under :attr:`lock`."""

    def __init__(self, folder: Path, table_id: str, config: TableConfig, codes: list[str | None],
                 game: GameInPlay, default_bot: str, head: Head | None = None) -> None:
        self.folder = folder
        self.id = table_id
        self.config = config
        self.game = game
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()  # set after every change: the bots' runner looks again
        self.answered: set[int] = set()  # human seats that answered the open communication window
        self.offered_at = -1  # the action count at which the bots were last offered the window
        # actions applied, in the order they were (a secret choice counts when made; the game's ``actions``
        # list it only once revealed): a state's ``seq``, the log's ``act`` events in order
        self.applied = 0
        self.broken: str | None = None  # why the table stopped (its log could not be written)
        self.bot_faults: list[str] = []  # illegal choices of bots (replaced by the first legal action)
        self.logbook_error: str | None = None  # why the finished game is not in the host's logbook
        self.on_change: Callable[[HostedTable], None] | None = None  # the host's console, tests
        self.seats: list[Seat] = []
        for i, (kind, name) in enumerate(zip(config.seats, _seat_names(config, game), strict=True)):
            human = kind == "human"
            self.seats.append(Seat(i, name, default_bot if human else kind, codes[i], not human))
        self._players: dict[str, list[SeatPlayer]] = {}
        self._control = [game.controller(s) for s in range(game.seats)]  # who decides for each seat
        # per seat, until the next action: its observation, its log and its player's legal actions (record form)
        self._views: dict[int, tuple[dict[str, Any], list[str], list[dict[str, Any]]]] = {}
        self._pending: tuple[tuple[int, frozenset[int], tuple[bool, ...]], tuple[int, ...]] | None = None
        self._log: Any = open(folder / LOG_FILE, "ab")  # noqa: SIM115 - open while the table is hosted
        # the journal's chain: the last line's sequence number and hash (HostedTable.resume sets them)
        self._seq, self._hash = 0, genesis(table_id)
        self._head = head  # None only while a journal of an earlier crewkit is replayed (see _upgrade)
        self.notes: list[str] = []  # what the host says on resuming the table (a journal upgraded)
        self.game_number = 1  # the table's games so far: ``next`` opens another at the same seats (a ``game`` event)
        # the review of a finished game, computed once for every seat: (the game's number, the first answer's
        # computation, the final one's: it starts once the first is done, as the local screen's)
        self._review: tuple[int, asyncio.Future[dict[str, Any] | None], asyncio.Future[dict[str, Any]]] | None = None

    # ------------------------------------------------------------------ creating and resuming
    @classmethod
    def create(cls, parent: Path, config: TableConfig, default_bot: str, table_id: str | None = None) -> HostedTable:
        """A new table in a new folder under ``parent`` (the game opened now: a bad option raises here)."""
        config.names = _given_names(config.names)
        game = open_game(config.ruleset, config.mission, config.players, config.seed, config.readings,
                         config.names or None)
        if len(config.seats) == config.players < game.seats:  # a seat no player takes (JARVIS): a bot plays it
            config.seats = [*config.seats, *[default_bot] * (game.seats - config.players)]
        if len(config.seats) != game.seats:
            raise TableError(f"{len(config.seats)} seats given for a game of {game.seats} seats")
        _check_bots(game, config, default_bot, "the table")
        _distinct(_seat_names(config, game))
        table_id = table_id or secrets.token_hex(4)
        folder = parent / table_id
        folder.mkdir(parents=True, exist_ok=False)
        codes = [secrets.token_urlsafe(CODE_BYTES) if kind == "human" else None for kind in config.seats]
        data = {"format": TABLE_FORMAT, "id": table_id, "config": config.to_json(), "codes": codes,
                "bot": default_bot, "journal": JOURNAL_FORMAT}
        (folder / LOG_FILE).touch()  # the journal and its head before the table file names them
        head = Head(folder / HEAD_FILE, (0, genesis(table_id)), create=True)
        path = write_text_atomic(folder / TABLE_FILE, json.dumps(data, indent=1) + "\n")
        os.chmod(path, 0o600)  # the invite codes: the host's owner only
        return cls(folder, table_id, config, codes, game, default_bot, head)

    @classmethod
    def resume(cls, folder: Path) -> HostedTable:
        """The table of ``folder`` as its journal leaves it, if the journal is whole: every line in sequence and
        chained, and it reaches the line the head file says was committed last (a torn last line, never
        acknowledged, is dropped). Anything else raises TableError naming the file and line, changing nothing."""
        path = folder / TABLE_FILE
        try:
            data = json.loads(read_regular(path, 1024 * 1024).decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError(f"a JSON object expected, found {type(data).__name__}")
            if data.get("format") != TABLE_FORMAT:
                raise TableError(f"{path}: not a crewkit table (format {data.get('format')!r}, "
                                 f"expected {TABLE_FORMAT!r})")
            config = TableConfig.from_json(data["config"])
            codes = [None if c is None else str(c) for c in data["codes"]]
            table_id, default_bot = str(data["id"]), str(data["bot"])
            journal_format = data.get("journal")
            if journal_format not in (None, JOURNAL_FORMAT):
                raise ValueError(f"journal format {journal_format!r}, expected {JOURNAL_FORMAT!r}")
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise TableError(f"{path}: cannot read the table: {exc}") from None
        chained = journal_format is not None
        try:
            game = open_game(config.ruleset, config.mission, config.players, config.seed, config.readings,
                             config.names or None)
        except CrewkitError as exc:
            raise TableError(f"{path}: the table's game cannot be opened: {exc}") from None
        _check_bots(game, config, default_bot, str(path))
        log_path, head_path = folder / LOG_FILE, folder / HEAD_FILE
        todo = (f"Nothing was changed. Put the journal back from a copy if there is one; else move the folder "
                f"{folder} out of {folder.parent} to host the other tables (this table cannot be resumed as it was).")
        try:
            raw = read_regular(log_path)
            journal = read_journal(raw, log_path, genesis(table_id) if chained else None)
            if chained:
                committed = read_head(head_path)
                check_head(journal, log_path, head_path, committed)
        except FileNotFoundError as exc:
            what = "journal" if exc.filename == str(log_path) else "journal's head file"
            raise TableError(f"{exc.filename}: the table's {what} is missing (deleted or moved). {todo}") from None
        except (OSError, ValueError) as exc:
            said = exc if isinstance(exc, ValueError) else f"{exc.filename or log_path}: {exc.strerror or exc}"
            raise TableError(f"{said}. {todo}") from None
        try:
            table = cls(folder, table_id, config, codes, game, default_bot, Head(head_path, (0, ""))
                        if chained else None)
        except OSError as exc:  # e.g. a journal or head the host may read but not write
            raise TableError(f"{exc.filename or log_path}: cannot open it to write: {exc.strerror or exc}") from None
        for number, event in journal.events:
            try:
                table._replay(event)
            except (ValueError, KeyError, TypeError, IndexError, AttributeError, IllegalAction, Refusal,
                    CrewkitError) as exc:
                table.close()
                raise TableError(f"{log_path}:{number}: cannot replay this event: {exc}. {todo}") from None
        table._seq, table._hash = len(journal.events), journal.hashes[-1]
        if journal.whole != len(raw):
            with open(log_path, "r+b") as fh:  # drop the torn line so the next append starts clean
                fh.truncate(journal.whole)
                fh.flush()
                os.fsync(fh.fileno())
        if not chained:
            table._upgrade(data, [event for _, event in journal.events])
        return table

    def _upgrade(self, data: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A journal written before the chain: rewritten chained (its events unchanged), with its head file;
        lost lines before now cannot be told (the host says so)."""
        self.close()
        digest, lines = genesis(self.id), []
        for seq, event in enumerate(events, 1):
            line, digest = chained_line(digest, seq, event)
            lines.append(line.decode("utf-8"))
        write_text_atomic(self.folder / LOG_FILE, "".join(lines))
        self._head = Head(self.folder / HEAD_FILE, (len(events), digest), create=True)
        write_text_atomic(self.folder / TABLE_FILE, json.dumps({**data, "journal": JOURNAL_FORMAT}, indent=1) + "\n")
        os.chmod(self.folder / TABLE_FILE, 0o600)
        self._log = open(self.folder / LOG_FILE, "ab")  # noqa: SIM115 - open while the table is hosted
        self._seq, self._hash = len(events), digest
        self.notes.append(f"{self.folder / LOG_FILE}: written by an earlier crewkit without sequence numbers and "
                          f"hashes: now chained ({len(events)} events kept); lines lost before now cannot be told")

    def _seat_number(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(self.seats):
            raise ValueError(f"a seat is a number from 0 to {len(self.seats) - 1}, found {value!r}")
        return value

    def _replay(self, event: dict[str, Any]) -> None:
        """One event of the journal (each field checked: a bad one raises ValueError or Refusal)."""
        kind = event.get("event")
        if kind == "act":
            action = event.get("action")
            if not isinstance(action, dict):
                raise ValueError(f"an action is a JSON object, found {action!r}")
            self._apply(self._legal(self._controller(self._seat_number(action.get("seat"))), action))
        elif kind == "pass":
            self.answered.add(self._seat_number(event.get("seat")))
        elif kind == "control":
            seat, bot = self._seat_number(event.get("seat")), event.get("bot")
            if not isinstance(bot, bool):
                raise ValueError(f"\"bot\" is true or false, found {bot!r}")
            if not self.seats[seat].human:
                raise ValueError(f"seat {seat} is a bot's: it is not handed over")
            self.seats[seat].by_bot = bot
        elif kind == "name":
            seat, name = self._seat_number(event.get("seat")), event.get("name")
            longest = MAX_NAME + 8  # journals of earlier versions: a name taken by another seat got " (N)" added
            if not isinstance(name, str) or not 0 < len(name) <= longest:
                raise ValueError(f"a name is 1 to {longest} characters, found {name!r}")
            self.seats[seat].name = name
        elif kind == "game":
            mission, seed, campaign = event.get("mission"), event.get("seed"), event.get("campaign")
            if not (mission is None or isinstance(mission, str)) or not isinstance(seed, str):
                raise ValueError(f"a game event names its mission and seed, found {mission!r} and {seed!r}")
            if not (campaign is None or (isinstance(campaign, dict)
                                         and all(isinstance(v, str) for v in campaign.values()))):
                raise ValueError(f"a game event's campaign is an object of texts, found {campaign!r}")
            self._open_next(mission, seed, campaign)
        else:
            raise ValueError(f"unknown event {kind!r}")

    # ------------------------------------------------------------------ the end
    @property
    def logbook_path(self) -> Path:
        """The host's campaign logbook: ``logbook.sqlite3`` in the table folder's parent (``crewkit host
        --dir``), the same format as ``crewkit play``'s (``crewkit campaign status --logbook`` reads it)."""
        return self.folder.parent / LOGBOOK_FILENAME

    def settle(self) -> None:
        """A finished game's record (``record.json``) and, at a campaign's table, its attempt in the host's
        logbook, each written once: a host killed between the last action and these finishes them when it
        resumes the folder, and the attempt is found by its record's path, so it is never counted twice."""
        if not self.game.is_over():
            return
        record = self.record_path
        if not record.exists():
            write_text_atomic(record, json.dumps(self.game.record(), indent=1) + "\n")
        campaign = self.config.campaign
        attempt = None if campaign is None else logbook_attempt(self.game)
        if campaign is None or attempt is None:
            return
        try:
            with Logbook.open(self.logbook_path) as book:
                mission = campaign["mission"]
                if any(a.record_path == str(record) for a in book.attempts(campaign["identity"], mission)):
                    return
                book.record_attempt(campaign=campaign["identity"], mission=mission, players=self.config.players,
                                    ruleset=self.config.ruleset, seed=self.config.seed, result=attempt.result,
                                    reason=attempt.reason, distress_used=attempt.distress_used,
                                    record_path=str(record), mission_version=campaign.get("version") or None)
        except (LogbookError, OSError, sqlite3.Error) as exc:  # the game stays played; the host says why
            self.logbook_error = f"the attempt could not be written to {self.logbook_path}: {exc}"

    @property
    def record_path(self) -> Path:
        """The record of the table's game now: ``record.json`` for its first, ``record-N.json`` for its N-th."""
        return self.folder / (RECORD_FILE if self.game_number == 1 else f"record-{self.game_number}.json")

    def _reviews(self) -> tuple[asyncio.Future[dict[str, Any] | None], asyncio.Future[dict[str, Any]]]:
        """The finished game's first answer and final review, started once for every seat (refused before the
        end). The first is None when there is none to send (the final one says why)."""
        from crewkit.net.review import NOT_OVER, table_review_answer

        if not self.game.is_over():
            raise Refusal("not-over", NOT_OVER)
        if self._review is None or self._review[0] != self.game_number:
            names = [s.name for s in self.seats]
            game = self.game.clone()
            earlier: list[Any] = []  # the first answer's review: the final one does not search its positions again

            async def first() -> dict[str, Any] | None:
                try:
                    out, rv = await asyncio.to_thread(table_review_answer, game, names, first=True)
                except Exception:  # no first answer: the seats wait for the final one, which says why
                    return None
                earlier.append(rv)
                return out if out["review"] is not None else None

            async def final(first_done: asyncio.Future[dict[str, Any] | None]) -> dict[str, Any]:
                await asyncio.wait({first_done})  # the first answer is sent first and uses the cores alone
                out, _ = await asyncio.to_thread(table_review_answer, game, names,
                                                 earlier=earlier[0] if earlier else None)
                return out

            started = asyncio.ensure_future(first())
            self._review = (self.game_number, started, asyncio.ensure_future(final(started)))
        return self._review[1], self._review[2]

    async def first_review(self) -> dict[str, Any] | None:
        """The finished game's first answer on a small budget (``final: false``), computed once in a thread for
        every seat, or None once the final review is ready (or when there is no first answer)."""
        first, final = self._reviews()
        got = await asyncio.shield(first)
        return None if got is None or final.done() else dict(got)

    async def review(self) -> dict[str, Any]:
        """The finished game's review (:func:`crewkit.net.review.table_review`: its record with every hand, and
        the solver's review), computed once in a thread for every seat that asks; refused before the end."""
        return dict(await asyncio.shield(self._reviews()[1]))

    # ------------------------------------------------------------------ the next game at the same table
    async def next_game(self, mission: str | None, campaign: dict[str, str] | None,
                        seed: str | None = None) -> list[Outbox]:
        """Open the table's next game (its game now is over): ``mission`` with the same seats, codes, names and
        bots, a new deal; written as a ``game`` event of the journal (its chain goes on), so a host restarted on
        the folder resumes the new game. Refusal when the game is not over or the mission cannot be opened.
        Returns the connections of the game before, let go: each is told to join again (the new game's welcome)."""
        async with self.lock:
            if not self.game.is_over():
                raise Refusal("not-over", f"the game is not over ({self.status()})")
            seed = seed or secrets.token_hex(4)
            previous = (self.config, self.game, self.game_number)
            try:
                self._open_next(mission, seed, campaign)
            except (CrewkitError, ValueError) as exc:
                self.config, self.game, self.game_number = previous
                raise Refusal("bad-mission", f"cannot open {mission}: {getattr(exc, 'message', None) or exc}") from None
            await self._write({"event": "game", "mission": mission, "seed": seed, "campaign": campaign})
            gone = [s.outbox for s in self.seats if s.outbox is not None]
            for seat in self.seats:
                seat.outbox = None  # its client joins again, to the new game
            self._broadcast()
            self.changed.set()
            return gone

    def _open_next(self, mission: str | None, seed: str, campaign: dict[str, str] | None) -> None:
        """The next game opened at these seats (in their order now: JARVIS may have renumbered them)."""
        if not self.game.is_over():
            raise ValueError("a next game is opened once the game is over")
        self.settle()  # the game's record and logbook attempt, if a host killed at its end had not written them
        names = [s.name for s in self.seats]
        kinds = ["human" if s.human else s.bot_spec for s in self.seats]
        old = self.config
        config = TableConfig(old.ruleset, mission, old.players, seed, kinds, dict(old.readings), names, campaign)
        game = open_game(config.ruleset, config.mission, config.players, config.seed, config.readings, names)
        if game.seats != len(self.seats) or (game.dummy_seat is not None and self.seats[game.dummy_seat].human):
            raise ValueError(f"{mission} is not played at these seats ({game.seats} seats)")
        self.config, self.game = config, game
        self.game_number += 1
        self.applied = 0
        self.answered.clear()
        self.offered_at = -1
        self.bot_faults = []
        self.logbook_error = None
        self._players = {}
        self._control = [game.controller(s) for s in range(game.seats)]
        self._views.clear()
        self._pending = None

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._head is not None:
            self._head.close()

    # ------------------------------------------------------------------ seats and codes
    def seat_of_code(self, code: str) -> int | None:
        """The seat whose invite code is ``code``: every seat's code compared, in constant time."""
        given = code.encode()
        found = None
        for seat in self.seats:
            if seat.code is not None and hmac.compare_digest(given, seat.code.encode()):
                found = seat.index
        return found

    def name_taken(self, name: str, seat: int) -> Seat | None:
        """The other seat already called ``name`` (normalised, ignoring case), if any."""
        key = normal_name(name).casefold()
        return next((s for s in self.seats if s.index != seat and normal_name(s.name).casefold() == key), None)

    def _check_rename(self, s: Seat, name: str, limit: tuple[int, float]) -> str:
        """The name ``s``'s person asks for, normalised; Refusal ``bad-name`` when it is empty, too long, another
        seat's, or one rename too many (at most ``limit[0]`` within ``limit[1]`` seconds a seat)."""
        wanted = normal_name(name)
        if not wanted:
            raise Refusal("bad-name", f"the name {name!r} has no visible letter: choose another name")
        if len(wanted) > MAX_NAME:
            raise Refusal("bad-name", f"the name {wanted!r} is longer than {MAX_NAME} characters once normalised")
        other = self.name_taken(wanted, s.index)
        if other is not None:
            raise Refusal("bad-name", f"the name {wanted!r} is taken: another seat is called {other.name!r} "
                                      "(names are compared ignoring case and invisible characters); choose another")
        count, window = limit
        now = time.monotonic()
        while s.renamed and now - s.renamed[0] > window:
            s.renamed.popleft()
        if len(s.renamed) >= count:
            raise Refusal("bad-name", f"{s.name}'s seat was renamed {count} times in the last {window / 60:g} "
                                      f"minutes: join under its name ({s.name!r}, or without a name) or try later")
        return wanted

    @staticmethod
    def _at(seat: Seat | int) -> int:
        """A seat's index now: a connection holds its :class:`Seat`, whose index follows a renumbering."""
        return seat.index if isinstance(seat, Seat) else seat

    async def join(self, seat: Seat | int, outbox: Outbox, name: str | None,
                   greeting: Callable[[str, int], dict[str, Any]] | None = None,
                   renames: tuple[int, float] = RENAMES) -> None:
        """A person takes their seat (refused while another connection holds it), renaming it to ``name`` if
        given (normalised; refused when empty, another seat's, or past ``renames``: at most that many renames
        within that many seconds a seat); ``greeting(name, seat)`` is the first message they are sent, before
        the table's state."""
        async with self.lock:
            seat = self._at(seat)
            s = self.seats[seat]
            if s.outbox is not None:
                raise Refusal("seat-taken", f"{s.name}'s seat is already connected (its link is in use)")
            if name is not None and normal_name(name) != s.name:
                name = self._check_rename(s, name, renames)
                await self._write({"event": "name", "seat": seat, "name": name})
                s.name = name
                s.renamed.append(time.monotonic())
            if greeting is not None:
                outbox.post(greeting(s.name, seat))
            s.outbox = outbox
            self._broadcast()

    async def leave(self, seat: Seat | int, outbox: Outbox) -> None:
        async with self.lock:
            s = self.seats[self._at(seat)]
            if s.outbox is outbox:
                s.outbox = None
                self._broadcast()

    async def set_bot(self, seat: Seat | int, by_bot: bool) -> None:
        """Hand a human seat to its bot (``by_bot``) or back to its person."""
        async with self.lock:
            seat = self._at(seat)
            s = self.seats[seat]
            if not s.human:
                raise Refusal("not-human", f"{s.name}'s seat is a bot's")
            if s.by_bot != by_bot:
                await self._write({"event": "control", "seat": seat, "bot": by_bot})
                s.by_bot = by_bot
                self._broadcast()
                self.changed.set()

    # ------------------------------------------------------------------ actions
    def _controller(self, seat: int) -> int:
        """:meth:`GameInPlay.controller`, kept per seat (it changes only when an action is applied)."""
        return self._control[seat]

    def controlled(self, seat: int) -> list[int]:
        """The seats ``seat``'s player decides for: its own, and JARVIS's for the commander."""
        return [s for s in range(len(self.seats)) if self._controller(s) == seat]

    def _legal(self, seat: int, action_json: Any) -> Action:
        """The action the game offers now, to a seat ``seat`` decides for, whose record form is ``action_json``."""
        want = _normal(action_json)
        acting = want.get("seat") if isinstance(want, dict) else None
        if not isinstance(acting, int) or not 0 <= acting < len(self.seats) or self._controller(acting) != seat:
            raise Refusal("not-your-seat", "an action names its own seat, or one its player decides for "
                                           "(the commander's JARVIS)")
        for action in self.game.legal_actions(acting):
            if _normal(action.to_json()) == want:
                return action
        if self.game.is_over():
            raise Refusal("game-over", "the game is over")
        return self._no_such_action(acting, want)

    def _no_such_action(self, seat: int, want: dict[str, Any]) -> Action:
        kind = want.get("type")
        legal = self.game.legal_actions(seat)
        if not legal:
            raise Refusal("not-your-turn", f"it is not {self.seats[seat].name}'s turn: {self.status()}")
        kinds = sorted({a.type for a in legal})
        if kind not in kinds:
            raise Refusal("illegal", f"a {kind} action is not possible now; possible: {', '.join(kinds)}")
        raise Refusal("illegal", f"that {kind} action is not possible now (the game offers {len(legal)} actions)")

    def window_pending(self) -> list[int]:
        """Human seats the open communication window still waits for (every human answers: acts or passes;
        the commander answers once, for its own seat and JARVIS's)."""
        # asked several times per change (the status, every seat's state, the bots' runner): kept until an
        # action, an answer or a seat handed over changes it
        key = (self.applied, frozenset(self.answered), tuple(s.by_bot for s in self.seats))
        if self._pending is not None and self._pending[0] == key:
            return list(self._pending[1])
        order = self.game.window()
        pending: list[int] = []
        for s in order:
            person = self._controller(s)
            if (self._by_person(s) and person not in self.answered and person not in pending
                    and self.game.may_act_out_of_turn(s)):
                pending.append(person)
        self._pending = (key, tuple(pending))
        return pending

    def _by_person(self, seat: int) -> bool:
        """A person decides for ``seat`` now (for JARVIS: the commander's person)."""
        return not self.seats[self._controller(seat)].by_bot

    def _apply(self, action: Action) -> None:
        """Carry ``action`` out (IllegalAction: nothing changed); the seats follow the engine's renumbering
        when it seats JARVIS elsewhere."""
        game = self.game
        before = game.dummy_seat
        game.apply(action)
        self.applied += 1
        after = game.dummy_seat
        if before is not None and after is not None and after != before:
            order = dummy_moved(len(self.seats), before, after)  # order[new seat] = old seat
            new_of = {old: new for new, old in enumerate(order)}
            self.seats = [self.seats[old] for old in order]
            for index, seat in enumerate(self.seats):
                seat.index = index
            self.answered = {new_of[s] for s in self.answered}
            self._players = {}  # the bots sit where their seats are now
        self._control = [game.controller(s) for s in range(game.seats)]
        self._views.clear()
        if not game.window():
            self.answered.clear()

    async def act(self, seat: Seat | int, action_json: dict[str, Any]) -> int:
        """A person's action (of their seat, or of JARVIS's for the commander): checked by the engine, written
        durably, then shown; returns the action count."""
        async with self.lock:
            seat = self._at(seat)
            self._check_open(seat)
            action = self._legal(seat, action_json)
            others = [s for s in self.window_pending() if s != seat]
            if others:
                probe = self.game.clone()
                probe.apply(action)
                if not probe.window():  # this action would close the window before every human answered
                    raise Refusal("window-open", f"waiting for {self._names(others)} to communicate or pass first")
            await self._commit(action)
            return self.applied

    async def pass_window(self, seat: Seat | int) -> int:
        """A person has nothing to say in the open communication window."""
        async with self.lock:
            seat = self._at(seat)
            self._check_open(seat)
            if seat not in self.window_pending():
                raise Refusal("no-window", "no communication window is waiting for you")
            await self._write({"event": "pass", "seat": seat})
            self.answered.add(seat)
            self._broadcast()
            self.changed.set()
            return self.applied

    def _check_open(self, seat: int) -> None:
        if self.broken:
            raise Refusal("table-broken", f"the table has stopped: {self.broken}")
        if self.seats[seat].by_bot:
            raise Refusal("seat-by-bot", "a bot plays your seat now; the host can hand it back to you")

    async def _commit(self, action: Action) -> None:
        """Apply (the engine refuses an illegal action: nothing changes), write durably, then show it."""
        try:
            self._apply(action)
        except IllegalAction as exc:
            raise Refusal(getattr(exc, "code", "illegal") or "illegal", str(exc)) from None
        await self._write({"event": "act", "action": action.to_json()})
        if self.game.is_over():
            await asyncio.to_thread(self.settle)
        self._broadcast()
        self.changed.set()

    async def _write(self, event: dict[str, Any]) -> None:
        """Append one event, durable before anyone is told: the host's group commit syncs it together with the
        other tables' appends of the same moment (:mod:`crewkit.net.journal`), and returns once it is on disk."""
        if self._log is None:
            raise Refusal("table-broken", "the table is closed")
        if self.broken:  # a line may be half written: nothing more goes after it
            raise Refusal("table-broken", f"the table has stopped: {self.broken}")
        seq = self._seq + 1
        line, digest = chained_line(self._hash, seq, event)
        head = self._head
        assert head is not None, "a table's journal has its head once created or resumed"
        try:
            await group_commit().append(self._log, line, lambda: head.write(seq, digest))
        except OSError as exc:
            self.broken = f"cannot write {self.folder / LOG_FILE}: {exc}"
            raise Refusal("table-broken", self.broken) from None
        self._seq, self._hash = seq, digest

    # ------------------------------------------------------------------ bots
    def _player(self, seat: int) -> SeatPlayer:
        """The bot that decides for ``seat`` now (JARVIS's: the bot of the commander's seat)."""
        spec = self.seats[self._controller(seat)].bot_spec
        players = self._players.get(spec)
        if players is None:
            family = self.game.family
            players = family.seat_players(self.game, family.bot_spec(spec), f"{self.config.seed}/{spec}")
            self._players[spec] = players
        return players[seat]

    async def bot_step(self) -> bool:
        """Let one bot act if the table waits for one (its thinking in a thread); False when none is due."""
        async with self.lock:
            game = self.game
            if game.is_over() or self.broken:
                return False
            order = game.window()
            if order and not self.window_pending() and self.offered_at != len(game.actions):
                acted = False
                for seat in order:
                    if not self._by_person(seat) and game.may_act_out_of_turn(seat):
                        action = await asyncio.to_thread(self._player(seat).offer, game)
                        if action is not None:
                            await self._bot_commit(seat, action)
                            acted = True
                            if game.is_over() or not game.window():
                                break
                self.offered_at = len(game.actions)
                return acted or self._due_bot() is not None
            due = self._due_bot()
            if due is None:
                return False
            action = await asyncio.to_thread(self._player(due).act, game)
            await self._bot_commit(due, action)
            return True

    def _due_bot(self) -> int | None:
        if self.window_pending():
            return None
        return next((s for s in self.game.waiting() if not self._by_person(s)), None)

    async def _bot_commit(self, seat: int, action: Action) -> None:
        legal = self.game.legal_actions(seat)
        if getattr(action, "seat", None) != seat or action not in legal:
            # a bug of the bot: the table goes on with the first action the game offers (and says so)
            if not legal:
                raise BotError(f"the bot of seat {seat} chose {action!r} and the game offers that seat nothing")
            self.bot_faults.append(f"the bot of seat {seat} chose {action!r}, which is not legal now")
            action = legal[0]
        await self._commit(action)

    # ------------------------------------------------------------------ what each seat is sent
    def waiting_seats(self) -> list[int]:
        """The seats whose players the table waits for (the commander when it waits for JARVIS)."""
        if self.game.is_over():
            return []
        pending = self.window_pending()
        if pending:
            return pending
        return list(dict.fromkeys(self._controller(s) for s in self.game.waiting()))

    def _names(self, seats: Sequence[int]) -> str:
        names = [self.seats[s].name for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def status(self, viewer: int | None = None) -> str:
        """Who the table waits for, and for what, in words (``waiting for Ann (disconnected)``): the host's
        console says it, and every seat's state carries it for that seat (``viewer``: that seat's own person
        is "you", ``waiting for you and Bob to communicate or pass``). One function for both, so a seat's
        status line never says other than the host's."""
        if self.broken:
            return f"the table has stopped: {self.broken}"
        if self.game.is_over():  # the outcome's words name seats: the people's names here
            return _SEAT_WORD.sub(lambda m: self.seats[int(m.group(1))].name if int(m.group(1)) < len(self.seats)
                                  else m.group(0), self.game.outcome().words())

        def named(seat: Seat) -> str:
            return "you" if seat.index == viewer else seat.name

        parts = []
        pending = self.window_pending()
        for s in pending or list(self.game.waiting()):
            seat = self.seats[self._controller(s)]
            part = named(seat) + ("" if seat.by_bot or seat.connected or seat.index == viewer else " (disconnected)")
            parts.append(part if seat.index == s else f"{part} (for {named(self.seats[s])})")
        why = " to communicate or pass" if pending else ""
        return ("waiting for " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])
                + why) if parts else "waiting"

    def state_for(self, seat: int, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for ``seat``: its observation and log (what it may know), and the table
        (``shared``: :meth:`_shared`, computed once for every seat of a broadcast)."""
        table = shared if shared is not None else self._shared()
        view = self._views.get(seat)
        if view is None:  # what the seat may know changes only with an action: kept until the next one
            game = self.game
            view = self._views[seat] = (game.observation(seat), game.seat_log(seat),
                                        [a.to_json() for s in self.controlled(seat) for a in game.legal_actions(s)])
        observation, log, legal = view
        return {
            "type": "state",
            "seq": self.applied,
            "seat": seat,
            "observation": observation,
            "log": log,
            "players": table["players"],
            "waiting": table["waiting"],
            "status": self.status(seat),  # the host's status, this seat's person "you"
            # the actions of every seat this one decides for (the commander's include JARVIS's, each naming
            # its seat); JARVIS's cards are face up, in every seat's observation
            "legal": [] if self.seats[seat].by_bot else legal,
            "turn": seat in table["waiting_seats"],
            "window": seat in table["pending"],
            "over": table["over"],
            "outcome": table["outcome"],
        }

    def _shared(self) -> dict[str, Any]:
        """What every seat's state says alike: the players, who the table waits for, the outcome."""
        outcome = self.game.outcome()
        waiting = self.waiting_seats()
        return {"players": [self._player_json(s) for s in self.seats],
                "waiting_seats": waiting, "waiting": [self.seats[s].name for s in waiting],
                "pending": self.window_pending(), "over": self.game.is_over(),
                "outcome": {"result": outcome.result, "words": outcome.words()}}

    def _player_json(self, s: Seat) -> dict[str, Any]:
        """One seat as the ``players`` list shows it; JARVIS's ``bot`` only while a bot decides for it."""
        by_bot = not self._by_person(s.index)
        spec = self.seats[self._controller(s.index)].bot_spec
        return {"name": s.name, "kind": "human" if s.human else "bot", "connected": s.connected,
                **({"bot": spec} if by_bot else {})}

    def _broadcast(self) -> None:
        shared = self._shared()
        for s in self.seats:
            if s.outbox is not None:
                s.outbox.post(self.state_for(s.index, shared))
        if self.on_change is not None:
            self.on_change(self)

    async def run_bots(self, delay: float = 0.0) -> None:
        """The table's bot runner: after every change, let the bots due act (one at a time, ``delay`` apart)."""
        while True:
            await self.changed.wait()
            self.changed.clear()
            while await self.bot_step():
                if delay:
                    await asyncio.sleep(delay)
                else:
                    await asyncio.sleep(0)  # let other tables and clients in between two bot actions
