"""Group commit: the hosted tables' log appends made durable together, one sync for a whole batch.

Every event of a table is appended to its ``log.jsonl`` and must be on disk before anyone is told of it. One
fsync per event per table (each in a worker thread) made the thread pool the bottleneck under load; here a
single writer task takes every append queued since its last sync (of every table), writes them, syncs once
and only then wakes each waiting appender. While one batch is being synced the next one gathers, so the
batch grows with the load and the cost of a sync is shared by everyone in it: an event is acknowledged only
after the sync that covers it, and nothing acknowledged is lost when the host is killed.

The sync is ``syncfs(2)`` on the file system holding the batch's logs (Linux; one call covers every file of
that file system), else an ``fsync`` per file written, in a thread of its own.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import hashlib
import json
import os
import re
import stat
import threading
import weakref
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

__all__ = ["GroupCommit", "group_commit", "Head", "Journal", "JournalError", "chained_line", "check_head",
           "genesis", "read_head", "read_journal", "read_regular"]


def _find_syncfs() -> Callable[[int], int] | None:
    if not hasattr(os, "fsync") or os.name != "posix":
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        syncfs = libc.syncfs
    except (OSError, AttributeError):
        return None
    syncfs.argtypes = [ctypes.c_int]
    syncfs.restype = ctypes.c_int
    found: Callable[[int], int] = syncfs
    return found


_SYNCFS = _find_syncfs()
_WRITER: list[ThreadPoolExecutor] = []


def _writer_thread() -> ThreadPoolExecutor:
    """The process's log-writing thread: a sync never waits in the shared worker pool behind the bots' thinking."""
    if not _WRITER:
        _WRITER.append(ThreadPoolExecutor(1, thread_name_prefix="crewkit-log-writer"))
    return _WRITER[0]

# a file, a line, its appender's future, and what to do once the line is synced (the table's head write)
_Entry = tuple[BinaryIO, bytes, "asyncio.Future[None]", "Callable[[], None] | None"]


class GroupCommit:
    """Appends to many files, synced in batches by one writer task (see the module's docstring).

    ``batches`` and ``appends`` count what was done (the tests check that appends share syncs)."""

    def __init__(self, use_syncfs: bool = True) -> None:
        self._pending: list[_Entry] = []
        self._task: asyncio.Task[None] | None = None
        self._syncfs = _SYNCFS if use_syncfs else None
        self.batches = 0
        self.appends = 0

    async def append(self, log: BinaryIO, line: bytes, synced: Callable[[], None] | None = None) -> None:
        """Append ``line`` to ``log``; returns once it is on disk (OSError when it could not be written).
        ``synced`` runs in the writer thread after the sync that covers the line and before the appender is
        woken (of a file's appends in one batch, only the last one's)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((log, line, future, synced))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        await future

    async def _run(self) -> None:
        """Batch after batch while appends wait; then the task ends (the next append starts another)."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                failed = await asyncio.get_running_loop().run_in_executor(_writer_thread(), self._write, batch)
            except BaseException as exc:  # the writer itself was cancelled or broke: tell every appender
                for _, _, future, _ in batch:
                    if not future.done():
                        future.set_exception(OSError(f"the log writer stopped: {exc!r}"))
                raise
            self.batches += 1
            self.appends += len(batch)
            for log, _, future, _ in batch:
                if future.done():  # its appender was cancelled meanwhile
                    continue
                error = failed.get(id(log))
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)

    def _write(self, batch: list[_Entry]) -> dict[int, OSError]:
        """Write every line (each file's in order), then sync them all; the files that failed, by id."""
        failed: dict[int, OSError] = {}
        files: dict[int, BinaryIO] = {}
        then: dict[int, Callable[[], None] | None] = {}
        for log, line, _, synced in batch:
            if id(log) in failed:
                continue
            try:
                log.write(line)
                files[id(log)] = log
                then[id(log)] = synced
            except (OSError, ValueError) as exc:  # ValueError: the file was closed
                failed[id(log)] = exc if isinstance(exc, OSError) else OSError(str(exc))
        for key, log in list(files.items()):
            try:
                log.flush()
            except (OSError, ValueError) as exc:
                failed[key] = exc if isinstance(exc, OSError) else OSError(str(exc))
                del files[key]
        for key, error in self._sync(list(files.values())).items():
            failed[key] = error
        for key, synced in then.items():
            if synced is not None and key not in failed:
                try:
                    synced()
                except OSError as exc:
                    failed[key] = exc
        return failed

    def _sync(self, files: list[BinaryIO]) -> dict[int, OSError]:
        failed: dict[int, OSError] = {}
        by_device: dict[int, list[BinaryIO]] = {}
        for log in files:
            try:
                by_device.setdefault(os.fstat(log.fileno()).st_dev, []).append(log)
            except OSError as exc:
                failed[id(log)] = exc
        for group in by_device.values():
            if self._syncfs is not None and len(group) > 1:
                if self._syncfs(group[0].fileno()) == 0:
                    continue
                error = OSError(ctypes.get_errno(), f"syncfs: {os.strerror(ctypes.get_errno())}")
                failed.update((id(log), error) for log in group)
                continue
            for log in group:
                try:
                    os.fsync(log.fileno())
                except OSError as exc:
                    failed[id(log)] = exc
        return failed


_COMMITTERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, GroupCommit] = weakref.WeakKeyDictionary()


def group_commit() -> GroupCommit:
    """The running event loop's group commit (every table of a host process shares it)."""
    loop = asyncio.get_running_loop()
    committer = _COMMITTERS.get(loop)
    if committer is None:
        committer = _COMMITTERS[loop] = GroupCommit()
    return committer


# ---------------------------------------------------------------------------- the chained journal
# Each line of a table's journal carries its sequence number and a hash chained to the line before it (the
# first one's to the table's id); the head file keeps the last committed sequence number and hash, written
# after the sync that covers them. Lines cut from the end, a journal deleted or replaced, a line changed: the
# chain or the head says so, and the table is not resumed (see HostedTable.resume).

JOURNAL_FORMAT = "chained/1"  # table.json's "journal"; a table without it predates the chain
HEAD_FILE = "log.head"
_HASH_CHARS = 32  # hex digits of a line's hash (128 bits of SHA-256)
_HASH_TAIL = re.compile(rb',"hash":"([0-9a-f]{%d})"\}$' % _HASH_CHARS)
_SLOT = 64  # the head file: two slots, written in turn (a write torn by a power cut leaves the other whole)
_SLOT_TEXT = re.compile(rb"^(\d{20}) ([0-9a-f]{%d}) ([0-9a-f]{8}) *\n$" % _HASH_CHARS)


class JournalError(ValueError):
    """A journal or head file that does not read whole (the message names the file, the line and what is wrong)."""


def genesis(table_id: str) -> str:
    """The hash the first line of table ``table_id``'s journal is chained to."""
    return hashlib.sha256(b"crewkit-journal/1\0" + table_id.encode()).hexdigest()[:_HASH_CHARS]


def _digest(previous: str, body: bytes) -> str:
    return hashlib.sha256(previous.encode() + b"\n" + body).hexdigest()[:_HASH_CHARS]


def chained_line(previous: str, seq: int, event: dict[str, Any]) -> tuple[bytes, str]:
    """Line ``seq`` of a journal (``event`` with its sequence number and hash, the hash last) and its hash."""
    body = orjson.dumps({"seq": seq, **event})
    digest = _digest(previous, body)
    return body[:-1] + b',"hash":"' + digest.encode() + b'"}\n', digest


MAX_JOURNAL = 256 * 1024 * 1024  # bytes: a game's journal is a few hundred kilobytes at most


def read_regular(path: Path, limit: int = MAX_JOURNAL) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes (a FIFO, device or folder raises
    ValueError: never waits on one)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            mode = info.st_mode
            kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a folder" if stat.S_ISDIR(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket")
            raise ValueError(f"{path}: not a regular file ({kind}): only regular files are read")
        if info.st_size > limit:
            raise ValueError(f"{path}: {info.st_size} bytes, over the limit of {limit}")
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            data = fh.read(limit + 1)
        if len(data) > limit:
            raise ValueError(f"{path}: over the limit of {limit} bytes")
        return data
    finally:
        if fd >= 0:
            os.close(fd)


@dataclass
class Journal:
    """A journal as read: its events (each with its line number, without ``seq`` and ``hash``), the hash after
    each line (``hashes[0]``: the genesis), and the length of its whole lines (a torn last line after them)."""

    events: list[tuple[int, dict[str, Any]]]
    hashes: list[str]
    whole: int


def read_journal(raw: bytes, path: Path, first: str | None) -> Journal:
    """The events of a journal's whole lines, each checked: UTF-8, a JSON object, and (``first``: the genesis
    hash; None for a journal written before the chain) its sequence number and chained hash."""
    whole = raw.rfind(b"\n") + 1  # a torn last line (no newline) is left out
    events: list[tuple[int, dict[str, Any]]] = []
    hashes = [first or ""]
    for number, line in enumerate(raw[:whole].split(b"\n")[:-1], 1):
        where = f"{path}:{number}"
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JournalError(f"{where}: not UTF-8 text (byte {exc.start + 1} of the line)") from None
        try:
            event = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise JournalError(f"{where}: not a JSON line: {exc}") from None
        if not isinstance(event, dict):
            raise JournalError(f"{where}: an event is a JSON object, found {type(event).__name__}")
        if first is not None:
            seq = event.pop("seq", None)
            if seq != number or isinstance(seq, bool):
                raise JournalError(f"{where}: sequence number {seq!r} where {number} was expected: lines are "
                                   "missing, repeated or out of order")
            tail = _HASH_TAIL.search(line)
            if tail is None or "hash" not in event:
                raise JournalError(f"{where}: the line ends without its hash (\"hash\": {_HASH_CHARS} hex digits)")
            event.pop("hash")
            digest = _digest(hashes[-1], line[: tail.start()] + b"}")
            if digest != tail.group(1).decode():
                raise JournalError(f"{where}: the line's hash does not follow from the lines before it: this line "
                                   "or one before it was changed, or lines were removed or put in")
            hashes.append(digest)
        events.append((number, event))
    return Journal(events, hashes, whole)


def _slot(seq: int, digest: str) -> bytes:
    text = f"{seq:020d} {digest}".encode()
    return (text + b" %08x" % zlib.crc32(text)).ljust(_SLOT - 1) + b"\n"


def read_head(path: Path) -> tuple[int, str]:
    """The last committed sequence number and hash a head file holds (the greater of its whole slots)."""
    raw = read_regular(path, 4096)
    found = []
    for start in range(0, min(len(raw), 2 * _SLOT), _SLOT):
        match = _SLOT_TEXT.match(raw[start: start + _SLOT])
        if match and int(match.group(3), 16) == zlib.crc32(match.group(1) + b" " + match.group(2)):
            found.append((int(match.group(1)), match.group(2).decode()))
    if not found:
        raise JournalError(f"{path}: not a journal head (neither of its two slots reads whole)")
    return max(found)


def check_head(journal: Journal, log: Path, head: Path, committed: tuple[int, str]) -> None:
    """The journal holds every line the head says was committed, and the same line there."""
    seq, digest = committed
    have = len(journal.hashes) - 1
    if have < seq:
        raise JournalError(f"{log}: the journal ends at line {have}, but {head} says {seq} lines were committed: "
                           f"its last {seq - have} lines are missing (cut off, or an older copy put back)")
    if journal.hashes[seq] != digest:
        raise JournalError(f"{log}:{seq}: not the line that was committed there ({head} holds another hash): "
                           "the journal was replaced or rewritten")


class Head:
    """A table's head file, open while the table is hosted: each write goes to the other slot (a small write
    in place, no sync of its own: the next batch's ``syncfs`` carries it; it is written after the sync of the
    lines it names, so it never names a line that is not on disk)."""

    def __init__(self, path: Path, committed: tuple[int, str], create: bool = False) -> None:
        self.path = path
        self._lock = threading.Lock()  # written by the writer thread, closed by the loop's: never a reused fd
        flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | (os.O_CREAT | os.O_TRUNC if create else 0)
        self._fd = os.open(path, flags, 0o600)
        self._next = 0
        if create:
            os.pwrite(self._fd, _slot(*committed) * 2, 0)
            os.fsync(self._fd)

    def write(self, seq: int, digest: str) -> None:
        with self._lock:
            if self._fd < 0:
                raise OSError(f"{self.path}: closed")
            os.pwrite(self._fd, _slot(seq, digest), self._next * _SLOT)
            self._next ^= 1

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
