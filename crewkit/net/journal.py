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
import os
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import BinaryIO

__all__ = ["GroupCommit", "group_commit"]


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

_Entry = tuple[BinaryIO, bytes, "asyncio.Future[None]"]


class GroupCommit:
    """Appends to many files, synced in batches by one writer task (see the module's docstring).

    ``batches`` and ``appends`` count what was done (the tests check that appends share syncs)."""

    def __init__(self, use_syncfs: bool = True) -> None:
        self._pending: list[_Entry] = []
        self._task: asyncio.Task[None] | None = None
        self._syncfs = _SYNCFS if use_syncfs else None
        self.batches = 0
        self.appends = 0

    async def append(self, log: BinaryIO, line: bytes) -> None:
        """Append ``line`` to ``log``; returns once it is on disk (OSError when it could not be written)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((log, line, future))
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
                for _, _, future in batch:
                    if not future.done():
                        future.set_exception(OSError(f"the log writer stopped: {exc!r}"))
                raise
            self.batches += 1
            self.appends += len(batch)
            for log, _, future in batch:
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
        for log, line, _ in batch:
            if id(log) in failed:
                continue
            try:
                log.write(line)
                files[id(log)] = log
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
