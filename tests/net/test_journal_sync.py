"""The group commit's sync: an append returns only after a sync that covers its line (the file's size at the
sync reaches past it): ``syncfs`` of the file's file system, or ``fsync`` of the file. Without the sync call
(or with the sync before the write) no such sync is seen and these fail; ``synced == []`` alone could not tell."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from crewkit.net import journal
from crewkit.net.journal import GroupCommit


@pytest.mark.parametrize("use_syncfs", [True, False], ids=["syncfs", "fsync-per-file"])
async def test_an_append_returns_after_a_sync_that_covers_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_syncfs: bool) -> None:
    syncs: list[tuple[str, int, int]] = []  # (how, the device or inode synced, the file's size then)
    real_fsync = journal.os.fsync
    real_syncfs = journal._SYNCFS

    def fsync(fd: int) -> None:
        syncs.append(("fsync", os.fstat(fd).st_ino, os.fstat(fd).st_size))
        real_fsync(fd)

    def syncfs(fd: int) -> int:
        syncs.append(("syncfs", os.fstat(fd).st_dev, -1))
        sizes.update({p: p.stat().st_size for p in paths})  # what the sync of this file system covers
        return real_syncfs(fd) if real_syncfs is not None else 0

    monkeypatch.setattr(journal.os, "fsync", fsync)
    monkeypatch.setattr(journal, "_SYNCFS", syncfs)
    committer = GroupCommit(use_syncfs=use_syncfs)
    paths = [tmp_path / f"log{i}" for i in range(6)]
    sizes: dict[Path, int] = {}
    logs = [open(p, "ab") for p in paths]  # noqa: SIM115 - closed below
    checked = 0

    async def writer(i: int) -> None:
        nonlocal checked
        for n in range(4):
            line = f"{i}:{n}\n".encode()
            await committer.append(logs[i], line)
            end = paths[i].stat().st_size
            covered = [s for s in syncs if s[0] == "fsync" and s[1] == paths[i].stat().st_ino and s[2] >= end]
            if use_syncfs:
                covered += [s for s in syncs if s[0] == "syncfs" and s[1] == paths[i].stat().st_dev
                            and sizes.get(paths[i], 0) >= end]
            assert covered, f"log{i}: line {n} acknowledged before any sync covered it ({syncs})"
            checked += 1

    try:
        await asyncio.gather(*(writer(i) for i in range(len(paths))))
    finally:
        for log in logs:
            log.close()
    assert checked == 24
    if use_syncfs:  # several files in a batch: one syncfs, not an fsync each
        assert any(s[0] == "syncfs" for s in syncs)
    else:
        assert syncs and all(s[0] == "fsync" for s in syncs)


async def test_the_head_is_written_after_the_sync_and_before_the_append_returns(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    real_fsync = journal.os.fsync

    def fsync(fd: int) -> None:
        order.append("sync")
        real_fsync(fd)

    monkeypatch.setattr(journal.os, "fsync", fsync)
    committer = GroupCommit(use_syncfs=False)
    with open(tmp_path / "log", "ab") as log:
        await committer.append(log, b"a\n", lambda: order.append("head"))
        order.append("returned")
    assert order == ["sync", "head", "returned"]
