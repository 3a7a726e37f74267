"""The campaign logbook: every mission attempt, in one SQLite file (standard library ``sqlite3`` only).

The logbook follows the rule book (RULES.md §1, "Distress signal" and "Logbook"): per mission it counts the
attempts until the first success, plus one if the distress signal was used in any of them. Raw attempts are
stored; the logbook numbers are derived from them (:meth:`Logbook.progress`).

Durability: the file is in WAL journal mode with ``synchronous=FULL`` and every write is a single
transaction, so killing the process mid-write loses at most the attempt in flight, never earlier ones.

Safety: a file that is not a crewkit logbook (another SQLite database, random bytes, an empty file) or a
damaged logbook is refused with a :class:`LogbookError` naming the file; such a file is never modified. The
check reads the 100-byte SQLite header itself (magic string, ``application_id``) before SQLite is allowed to
open the file for writing, and a foreign database is only ever inspected with ``immutable=1``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Self

from crewkit.atomic import fsync_dir
from crewkit.campaign.home import crewkit_home
from crewkit.errors import CrewkitError

LOGBOOK_FILENAME = "logbook.sqlite3"
#: ``PRAGMA application_id`` of a crewkit logbook: the ASCII bytes "CREW".
APPLICATION_ID = 0x43524557
#: ``PRAGMA user_version``: the schema version written by this code.
SCHEMA_VERSION = 1

RESULTS = ("success", "failure", "abandoned")

_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100

_SCHEMA = f"""
CREATE TABLE attempts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign      TEXT    NOT NULL CHECK (campaign <> ''),
    mission       TEXT    NOT NULL CHECK (mission <> ''),
    players       INTEGER NOT NULL CHECK (players >= 1),
    ruleset       TEXT    NOT NULL,
    seed          TEXT    NOT NULL,
    result        TEXT    NOT NULL CHECK (result IN ({", ".join(repr(r) for r in RESULTS)})),
    reason        TEXT    NOT NULL,
    distress_used INTEGER NOT NULL CHECK (distress_used IN (0, 1)),
    recorded_at   TEXT    NOT NULL,
    record_path   TEXT
);
CREATE INDEX attempts_by_mission ON attempts (campaign, mission, id);
"""
_COLUMNS = (
    "id",
    "campaign",
    "mission",
    "players",
    "ruleset",
    "seed",
    "result",
    "reason",
    "distress_used",
    "recorded_at",
    "record_path",
)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM attempts"


class LogbookError(CrewkitError):
    """A logbook problem meant for the user: the message names the file and says what is wrong."""

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class Attempt:
    """One recorded mission attempt. ``when`` is timezone-aware (UTC)."""

    id: int
    campaign: str
    mission: str
    players: int
    ruleset: str
    seed: str
    result: str  # success | failure | abandoned
    reason: str
    distress_used: bool
    when: datetime
    record_path: str | None


@dataclass(frozen=True)
class MissionProgress:
    """The logbook line of one mission.

    ``attempts`` is the logbook count: attempts until (and including) the first success, plus one if the
    distress signal was used in any of them; for a mission not yet done, the attempts so far (no distress
    extra until the mission is won). An abandoned attempt counts as an attempt. Attempts recorded after the
    first success (replays) do not change the count.
    """

    mission: str
    attempts: int
    done: bool
    distress_used: bool
    last_result: str | None


def mission_progress(mission: str, attempts: Sequence[Attempt],
                     extra_attempts: Callable[[str], int] | None = None) -> MissionProgress:
    """The logbook line for ``mission`` from its attempts in recording order (pure function).

    ``extra_attempts(ruleset)`` is what a success with the distress signal used adds under the rule set of
    the winning attempt (its ``distress.extra_attempts``); without it, the rule book's 1."""
    count = 0
    done = False
    distress = False
    won: Attempt | None = None
    for attempt in attempts:
        count += 1
        distress = distress or attempt.distress_used
        if attempt.result == "success":
            done, won = True, attempt
            break
    if won is not None and distress:
        count += extra_attempts(won.ruleset) if extra_attempts is not None else 1
    last = attempts[-1].result if attempts else None
    return MissionProgress(
        mission=mission, attempts=count, done=done, distress_used=distress, last_result=last
    )


def _describe(path: Path) -> str:
    """How a file is named in messages: its full path, so the user can find it."""
    return str(path)


def _read_header(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(_HEADER_SIZE)
    except IsADirectoryError:
        raise LogbookError(f"{_describe(path)} is a directory, not a crewkit logbook", path) from None
    except OSError as exc:
        raise LogbookError(f"{_describe(path)} cannot be read: {exc.strerror or exc}", path) from None


def _foreign_tables(path: Path) -> list[str] | None:
    """Table names of a foreign SQLite file, read with ``immutable=1`` so SQLite never writes or locks it."""
    uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return None
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
        return [str(name) for (name,) in rows]
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _check_header(path: Path) -> int:
    """Refuse anything whose header is not a crewkit logbook's. Returns the header's ``user_version``."""
    header = _read_header(path)
    where = _describe(path)
    if not header:
        raise LogbookError(
            f"{where} is not a crewkit logbook: the file is empty (0 bytes); move it aside or delete it", path
        )
    if not header.startswith(_SQLITE_MAGIC):
        raise LogbookError(f"{where} is damaged or not a crewkit logbook: file is not a database", path)
    if len(header) < _HEADER_SIZE:
        raise LogbookError(
            f"{where} is damaged: the database header is truncated ({len(header)} bytes)", path
        )
    user_version = int.from_bytes(header[60:64], "big", signed=True)
    application_id = int.from_bytes(header[68:72], "big", signed=True)
    if application_id != APPLICATION_ID:
        tables = _foreign_tables(path)
        if tables is None:
            detail = "unreadable tables"
        elif "attempts" not in tables:
            shown = ", ".join(repr(t) for t in tables[:8]) + (", ..." if len(tables) > 8 else "")
            detail = (
                f"no 'attempts' table; it has {shown}" if tables else "no 'attempts' table; it has no tables"
            )
        else:
            detail = "it has an 'attempts' table but was not written by crewkit"
        raise LogbookError(
            f"{where} is not a crewkit logbook (wrong application_id {application_id:#x}, "
            f"expected {APPLICATION_ID:#x}; {detail}); it was left untouched",
            path,
        )
    return user_version


def _remove_temporary(path: Path) -> None:
    """Remove a temporary logbook copy and the journal files SQLite may have left beside it."""
    for leftover in (path, Path(f"{path}-journal"), Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()


def _link_no_clobber(src: Path, dst: Path) -> bool:
    """Give ``src`` the name ``dst`` unless ``dst`` exists (then False). ``src`` is removed in any case."""
    try:
        try:
            os.link(src, dst)
        except FileExistsError:
            return False
        except OSError:  # hard links unsupported (some file systems): fall back, racy but best effort
            if dst.exists():
                return False
            os.replace(src, dst)
        fsync_dir(dst.parent)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            src.unlink()


def _build_empty(target: Path, journal_mode: str, rows: Sequence[tuple[object, ...]] = (),
                 versions: Sequence[tuple[str, int]] = (), hinted: Sequence[int] = ()) -> None:
    """A new logbook file at ``target`` (schema, ids, pragmas), holding ``rows`` (with their ids), the
    mission versions of those attempts that have one (``(version, id)`` pairs) and the marks of the attempts
    played with hints (``hinted``: their ids), synced."""
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        if rows:
            conn.executemany(
                f"INSERT INTO attempts ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})", rows
            )
        if versions:
            conn.execute("ALTER TABLE attempts ADD COLUMN mission_version TEXT")
            conn.executemany("UPDATE attempts SET mission_version = ? WHERE id = ?", versions)
        for attempt_id in hinted:
            _set_hints_used(conn, attempt_id)
        conn.execute("COMMIT")
        conn.execute(f"PRAGMA journal_mode = {journal_mode}")
    finally:
        conn.close()  # last connection: a WAL is checkpointed into the file and removed


def _create(path: Path) -> None:
    """Create a new empty logbook at ``path`` atomically: built under a temporary name, then linked into place.

    A crash during creation therefore never leaves a half-made file under the logbook's name. If another
    process created the logbook meanwhile, theirs is kept.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    for stale in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    try:
        _build_empty(tmp, journal_mode="WAL")
    except sqlite3.Error as exc:
        _remove_temporary(tmp)
        raise LogbookError(f"{_describe(path)} could not be created: {exc}", path) from None
    except OSError as exc:
        _remove_temporary(tmp)
        raise LogbookError(f"{_describe(path)} could not be created: {exc.strerror or exc}", path) from None
    except BaseException:  # Ctrl-C: nothing half-made is left behind
        _remove_temporary(tmp)
        raise
    _link_no_clobber(tmp, path)


def _empty(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except OSError:
        return False


def _empty_in_memory() -> sqlite3.Connection:
    """An empty logbook in memory: what a logbook that does not exist yet reads as."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.executescript(_SCHEMA)
    return conn


def _connect_read_only(path: Path, *, snapshot: bool = False) -> sqlite3.Connection:
    """A connection that opens the file read-only (``mode=ro``): SQLite cannot write a byte of it.

    In a read-only folder a WAL logbook whose shared-memory file does not exist cannot be opened that way;
    then it is read as it is on disk (``immutable=1``): no process can be writing to it there. ``snapshot``:
    read it as it is on disk at once (no WAL side file is open: nothing is in a write-ahead log, and a
    read-only connection would create the ``-wal`` and ``-shm`` files and leave them behind).
    """
    where = _describe(path)
    uri = path.resolve().as_uri()
    for query in (("?mode=ro&immutable=1",) if snapshot else ("?mode=ro", "?mode=ro&immutable=1")):
        try:
            conn = sqlite3.connect(uri + query, uri=True, timeout=10.0, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as exc:
            raise LogbookError(f"{where} cannot be opened: {exc}", path) from None
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError as exc:
            conn.close()
            if ("unable to open" in str(exc) or "readonly" in str(exc)) and "immutable" not in query:
                continue
            raise LogbookError(f"{where} cannot be read: {exc}", path) from None
        except sqlite3.Error as exc:
            conn.close()
            raise LogbookError(f"{where} is damaged: {exc}", path) from None
    raise LogbookError(f"{where} cannot be read", path)  # pragma: no cover - the loop returns or raises


def _row_attempt(row: tuple[object, ...], path: Path) -> Attempt:
    """One stored row as an :class:`Attempt`; a value no crewkit wrote is a :class:`LogbookError`."""
    (id_, campaign, mission, players, ruleset, seed, result, reason, distress, recorded_at, record_path) = row
    where = _describe(path)

    def damaged(what: str, value: object) -> LogbookError:
        return LogbookError(f"{where} is damaged: attempt {id_!r} has an unreadable {what} {str(value)[:40]!r}; "
                            "it was left untouched: move it aside or restore a logbook-*.bak backup", path)

    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise damaged("player count", players)
    if not isinstance(id_, int):
        raise damaged("id", id_)
    if result not in RESULTS:
        raise damaged("result", result)
    if distress not in (0, 1):
        raise damaged("distress flag", distress)
    try:
        when = datetime.fromisoformat(str(recorded_at))
    except ValueError:
        raise damaged("time", recorded_at) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return Attempt(
        id=id_,
        campaign=str(campaign),
        mission=str(mission),
        players=players,
        ruleset=str(ruleset),
        seed=str(seed),
        result=str(result),
        reason=str(reason),
        distress_used=bool(distress),
        when=when,
        record_path=None if record_path is None else str(record_path),
    )


def _has_version_column(table_info: Sequence[tuple[object, ...]]) -> bool:
    return any(str(row[1]) == "mission_version" for row in table_info)


def _set_mission_version(conn: sqlite3.Connection, attempt_id: int, version: str) -> None:
    """Tag an attempt with its mission file's version, adding the column on first use (an additive migration:
    older logbooks and older crewkits keep working; attempts without a version count for every version)."""
    if not _has_version_column(conn.execute("PRAGMA table_info(attempts)").fetchall()):
        conn.execute("ALTER TABLE attempts ADD COLUMN mission_version TEXT")
    conn.execute("UPDATE attempts SET mission_version = ? WHERE id = ?", (version, attempt_id))


def _has_column(table_info: Sequence[tuple[object, ...]], name: str) -> bool:
    return any(str(row[1]) == name for row in table_info)


def _set_hints_used(conn: sqlite3.Connection, attempt_id: int) -> None:
    """Mark an attempt as played with hints, adding the column on first use (additive, as the mission
    version: older logbooks and older crewkits keep working; attempts without the mark had no hints)."""
    if not _has_column(conn.execute("PRAGMA table_info(attempts)").fetchall(), "hints_used"):
        conn.execute("ALTER TABLE attempts ADD COLUMN hints_used INTEGER")
    conn.execute("UPDATE attempts SET hints_used = 1 WHERE id = ?", (attempt_id,))


class Logbook:
    """An open campaign logbook. Use :meth:`open`; close it with :meth:`close` or a ``with`` block."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, read_only: bool = False) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = conn
        self._lock = threading.RLock()
        self._read_only = read_only

    # -- opening -----------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | None = None, *, read_only: bool = False) -> Logbook:
        """Open (creating if missing) the logbook at ``path``, default ``crewkit_home()/logbook.sqlite3``.

        Raises :class:`LogbookError` for a damaged file or one that is not a crewkit logbook; such a file is
        left byte-for-byte unchanged: every check (header, integrity, every row) runs through a connection
        that opens the file read-only, before anything may write to it. ``read_only`` (``campaign status``)
        never writes at all: a missing logbook reads as empty, and a read-only folder or file is fine.
        """
        path = Path(path) if path is not None else crewkit_home(create=not read_only) / LOGBOOK_FILENAME
        path = path.expanduser()
        if not path.exists() and not path.is_symlink():
            if read_only:
                return cls(path, _empty_in_memory(), read_only=True)
            _create(path)
        user_version = _check_header(path)
        where = _describe(path)
        if user_version > SCHEMA_VERSION:
            raise LogbookError(
                f"{where} was written by a newer crewkit (logbook schema version {user_version}, this crewkit "
                f"reads up to {SCHEMA_VERSION}); upgrade crewkit to use it",
                path,
            )
        side_files = [Path(f"{path}-wal"), Path(f"{path}-shm")]
        existed = [p.exists() for p in side_files]
        if read_only and not any(existed):
            # no process has it open: read the file as it is, creating no side file; should a writer come and
            # go meanwhile (a snapshot that no longer reads right), read it the usual way below
            with contextlib.suppress(LogbookError):
                return cls(path, cls._checked(_connect_read_only(path, snapshot=True), path), read_only=True)
        try:
            probe = cls._checked(_connect_read_only(path), path)
        except LogbookError:
            # refused: take away the (empty) WAL side files the read-only probe made, so nothing is left behind
            for side, was_there in zip(side_files, existed, strict=True):
                if not was_there and (side.name.endswith("-shm") or _empty(side)):
                    with contextlib.suppress(OSError):
                        side.unlink()
            raise
        if read_only:
            return cls(path, probe, read_only=True)
        probe.close()
        try:
            conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise LogbookError(f"{where} cannot be opened: {exc}", path) from None
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":  # only ever written to a file that passed
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise LogbookError(
                    f"{where} cannot be opened: WAL journal mode is unavailable ({mode})", path
                )
            conn.execute("PRAGMA synchronous = FULL")
        except LogbookError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            raise LogbookError(
                f"{where} cannot be opened for writing: {exc} (is the file or its folder read-only? "
                "`crewkit campaign status` can still read it)",
                path,
            ) from None
        return cls(path, conn)

    @classmethod
    def _checked(cls, probe: sqlite3.Connection, path: Path) -> sqlite3.Connection:
        """``probe`` once the file passed :meth:`_verify` and every row reads as an attempt (closed if not)."""
        try:
            cls._verify(probe, path)
            for row in probe.execute(_SELECT + " ORDER BY id"):
                _row_attempt(row, path)
        except BaseException as exc:
            probe.close()
            if isinstance(exc, sqlite3.Error):
                raise LogbookError(f"{_describe(path)} is damaged: {exc}", path) from None
            raise
        return probe

    @staticmethod
    def _verify(conn: sqlite3.Connection, path: Path) -> None:
        """Integrity and schema checks; read-only, so a refused file is not modified."""
        where = _describe(path)
        try:
            rows = conn.execute("PRAGMA quick_check(5)").fetchall()
        except sqlite3.DatabaseError as exc:
            raise LogbookError(f"{where} is damaged: {exc}", path) from None
        problems = [" ".join(str(r[0]).split()) for r in rows]
        if problems != ["ok"]:
            raise LogbookError(
                f"{where} is damaged (integrity check: {'; '.join(problems)}); it was left untouched: "
                "move it aside or restore a logbook-*.bak backup",
                path,
            )
        try:
            application_id = conn.execute("PRAGMA application_id").fetchone()[0]
            columns = [str(r[1]) for r in conn.execute("PRAGMA table_info(attempts)").fetchall()]
        except sqlite3.DatabaseError as exc:
            raise LogbookError(f"{where} is damaged: {exc}", path) from None
        if application_id != APPLICATION_ID:
            raise LogbookError(f"{where} is not a crewkit logbook (wrong application_id)", path)
        if not columns:
            raise LogbookError(f"{where} is not a crewkit logbook (no 'attempts' table)", path)
        missing = [c for c in _COLUMNS if c not in columns]
        if missing:
            raise LogbookError(
                f"{where} is not a usable crewkit logbook ('attempts' lacks column(s) {', '.join(missing)})",
                path,
            )

    # -- plumbing ----------------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def closed(self) -> bool:
        return self._conn is None

    @property
    def read_only(self) -> bool:
        return self._read_only

    def _writable(self) -> None:
        if self._read_only:
            raise LogbookError(f"{_describe(self._path)}: the logbook was opened read-only", self._path)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise LogbookError(f"{_describe(self._path)}: the logbook is closed", self._path)
        return self._conn

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), rolled back on any error."""
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise LogbookError(f"{_describe(self._path)}: cannot write: {exc}", self._path) from None
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise LogbookError(f"{_describe(self._path)}: write failed: {exc}", self._path) from None
                raise

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            conn = self._connection()
            try:
                return conn.execute(sql, tuple(params)).fetchall()
            except sqlite3.Error as exc:
                raise LogbookError(f"{_describe(self._path)}: read failed: {exc}", self._path) from None

    # -- writing -----------------------------------------------------------------------------------

    def record_attempt(
        self,
        *,
        campaign: str,
        mission: str,
        players: int,
        ruleset: str,
        seed: str,
        result: str,
        reason: str,
        distress_used: bool,
        record_path: str | None = None,
        when: datetime | None = None,
        mission_version: str | None = None,
        hints_used: bool = False,
    ) -> int:
        """Record one finished attempt in its own transaction; returns its id. A naive ``when`` is local time.
        ``hints_used``: the player asked for hints (the table's ``h``): the attempt is marked "with hints"."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        if not campaign or not mission:
            raise ValueError("campaign and mission must be non-empty")
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError(f"players must be a positive integer, not {players!r}")
        self._writable()
        stamp = (when or datetime.now(UTC)).astimezone(UTC).isoformat()
        values = (
            campaign,
            mission,
            players,
            ruleset,
            str(seed),
            result,
            reason,
            1 if distress_used else 0,
            stamp,
            None if record_path is None else str(record_path),
        )
        with self._transaction() as conn:
            cursor = conn.execute(
                f"INSERT INTO attempts ({', '.join(_COLUMNS[1:])}) VALUES ({', '.join('?' * len(values))})",
                values,
            )
            row_id = cursor.lastrowid
            if mission_version is not None:
                _set_mission_version(conn, int(row_id or 0), mission_version)
            if hints_used:
                _set_hints_used(conn, int(row_id or 0))
        assert row_id is not None
        return int(row_id)

    def reset(self) -> Path:
        """Back the logbook up next to itself (``<stem>-YYYYmmdd-HHMMSS<suffix>.bak``), then empty it.

        Both happen inside one write transaction: no other process can record an attempt between the copy
        and the delete (it waits for the lock, then records into the emptied logbook), so every committed
        attempt is either in the backup or in the logbook. The backup, itself a logbook, is complete and
        synced before the delete commits. Returns the backup's path.
        """
        return self._reset(None)[0]

    def _reset(self, campaign: str | None) -> tuple[Path, int]:
        """The backup and the delete of :meth:`reset` (every attempt, or those of ``campaign``)."""
        self._writable()
        with self._transaction() as tx:
            rows = tx.execute(f"SELECT {', '.join(_COLUMNS)} FROM attempts ORDER BY id").fetchall()
            versions: list[tuple[str, int]] = []
            if _has_version_column(tx.execute("PRAGMA table_info(attempts)").fetchall()):
                versions = [(str(v), int(i)) for i, v in
                            tx.execute("SELECT id, mission_version FROM attempts WHERE mission_version IS NOT NULL")]
            hinted: list[int] = []
            if _has_column(tx.execute("PRAGMA table_info(attempts)").fetchall(), "hints_used"):
                hinted = [int(i) for (i,) in tx.execute("SELECT id FROM attempts WHERE hints_used = 1")]
            backup = self._backup_path()
            tmp = backup.with_name(f".{backup.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            _remove_temporary(tmp)
            try:
                _build_empty(tmp, journal_mode="DELETE", rows=rows, versions=versions, hinted=hinted)
                if not _link_no_clobber(tmp, backup):  # pragma: no cover - name race with another process
                    raise LogbookError(f"{_describe(backup)} appeared while backing up; try again", self._path)
            except sqlite3.Error as exc:
                _remove_temporary(tmp)
                raise LogbookError(f"{_describe(self._path)}: backup failed: {exc}", self._path) from None
            except OSError as exc:
                _remove_temporary(tmp)
                raise LogbookError(
                    f"{_describe(self._path)}: backup to {backup} failed: {exc.strerror or exc}", self._path
                ) from None
            except BaseException:  # Ctrl-C while copying: no half-written copy is left behind
                _remove_temporary(tmp)
                raise
            if campaign is None:
                removed = tx.execute("DELETE FROM attempts").rowcount
                tx.execute("DELETE FROM sqlite_sequence WHERE name = 'attempts'")
            else:
                removed = tx.execute("DELETE FROM attempts WHERE campaign = ?", (campaign,)).rowcount
        return backup, int(removed)

    def _backup_path(self) -> Path:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        stem, suffix = self._path.stem, self._path.suffix
        candidate = self._path.with_name(f"{stem}-{stamp}{suffix}.bak")
        n = 2
        while candidate.exists():
            candidate = self._path.with_name(f"{stem}-{stamp}-{n}{suffix}.bak")
            n += 1
        return candidate

    # -- reading -----------------------------------------------------------------------------------

    def attempts(self, campaign: str | None = None, mission: str | None = None) -> list[Attempt]:
        """Recorded attempts in recording order, optionally only those of ``campaign`` and/or ``mission``."""
        where: list[str] = []
        params: list[object] = []
        if campaign is not None:
            where.append("campaign = ?")
            params.append(campaign)
        if mission is not None:
            where.append("mission = ?")
            params.append(mission)
        sql = _SELECT + (f" WHERE {' AND '.join(where)}" if where else "") + " ORDER BY id"
        return [self._attempt(row) for row in self._query(sql, params)]

    def _attempt(self, row: tuple[object, ...]) -> Attempt:
        return _row_attempt(row, self._path)

    def progress(self, campaign: str, mission_ids: Sequence[str],
                 extra_attempts: Callable[[str], int] | None = None) -> list[MissionProgress]:
        """One logbook line per mission of ``mission_ids``, in that (campaign) order (``extra_attempts``: see
        :func:`mission_progress`)."""
        by_mission: dict[str, list[Attempt]] = {}
        for attempt in self.attempts(campaign):
            by_mission.setdefault(attempt.mission, []).append(attempt)
        return [mission_progress(m, by_mission.get(m, []), extra_attempts) for m in mission_ids]

    def current_mission(self, campaign: str, mission_ids: Sequence[str]) -> str | None:
        """The first mission of ``mission_ids`` not yet done, or None when the campaign is complete."""
        for line in self.progress(campaign, mission_ids):
            if not line.done:
                return line.mission
        return None

    def total_attempts(self, campaign: str, mission_ids: Sequence[str]) -> int:
        """The sum of the logbook counts of ``mission_ids`` (distress extras included)."""
        return sum(line.attempts for line in self.progress(campaign, mission_ids))

    def hinted_attempts(self, campaign: str) -> set[int]:
        """The ids of ``campaign``'s attempts played with hints."""
        if not _has_column(self._query("PRAGMA table_info(attempts)"), "hints_used"):
            return set()
        rows = self._query("SELECT id FROM attempts WHERE campaign = ? AND hints_used = 1", (campaign,))
        return {int(str(row[0])) for row in rows}

    def hinted_missions(self, campaign: str) -> set[str]:
        """The missions of ``campaign`` with an attempt played with hints (shown "with hints")."""
        ids = self.hinted_attempts(campaign)
        return {a.mission for a in self.attempts(campaign) if a.id in ids}

    # -- mission versions (attempts are kept per version of the mission file) ------------------------

    def attempt_versions(self, campaign: str) -> dict[int, str | None]:
        """Attempt id -> the mission file's version recorded with it (``None`` when none was recorded)."""
        if not _has_version_column(self._query("PRAGMA table_info(attempts)")):
            return {}
        rows = self._query("SELECT id, mission_version FROM attempts WHERE campaign = ?", (campaign,))
        return {int(str(i)): (None if v is None else str(v)) for i, v in rows}

    def progress_for_versions(self, campaign: str, versions: Mapping[str, str],
                              extra_attempts: Callable[[str], int] | None = None
                              ) -> tuple[list[MissionProgress], dict[str, int]]:
        """Like :meth:`progress` for the missions of ``versions`` (key -> current version), counting only the
        attempts of each mission's current version (and those recorded without one); also, per mission, how
        many attempts were recorded for an earlier version of its file (not counted)."""
        tagged = self.attempt_versions(campaign)
        by_mission: dict[str, list[Attempt]] = {}
        older: dict[str, int] = {}
        for attempt in self.attempts(campaign):
            current = versions.get(attempt.mission)
            version = tagged.get(attempt.id)
            if current and version is not None and version != current:
                older[attempt.mission] = older.get(attempt.mission, 0) + 1
                continue
            by_mission.setdefault(attempt.mission, []).append(attempt)
        lines = [mission_progress(m, by_mission.get(m, []), extra_attempts) for m in versions]
        return lines, older

    def reset_campaign(self, campaign: str) -> tuple[Path, int]:
        """Back the whole logbook up, then forget the attempts of ``campaign`` only, in one transaction (as
        :meth:`reset`). Returns the backup's path and the number of attempts removed."""
        return self._reset(campaign)

    # -- closing -----------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the logbook (idempotent). Further calls raise :class:`LogbookError`."""
        with self._lock:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"<Logbook {self._path} ({state})>"
