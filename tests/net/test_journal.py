"""Group commit: appends of many tables share one sync, each is on disk before its append returns, and a failed
write is reported to its own appender only."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from crewkit.net import journal
from crewkit.net.journal import GroupCommit


@pytest.mark.parametrize("use_syncfs", [True, False], ids=["syncfs", "fsync-per-file"])
async def test_appends_of_many_files_share_syncs_and_are_written_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_syncfs: bool) -> None:
    synced: list[int] = []
    real_fsync = journal.os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(journal.os, "fsync", counting_fsync)
    committer = GroupCommit(use_syncfs=use_syncfs)
    logs = [open(tmp_path / f"log{i}", "ab") for i in range(40)]  # noqa: SIM115 - closed below

    async def writer(i: int) -> None:
        for n in range(5):
            await committer.append(logs[i], f"{i}:{n}\n".encode())
            # once append returns, the line is in the file (not only in a buffer)
            assert (tmp_path / f"log{i}").read_bytes().endswith(f"{i}:{n}\n".encode())

    await asyncio.gather(*(writer(i) for i in range(40)))
    for log in logs:
        log.close()
    assert committer.appends == 200
    assert committer.batches < 50  # 200 appends of 40 files shared a handful of syncs
    for i in range(40):
        assert (tmp_path / f"log{i}").read_text().splitlines() == [f"{i}:{n}" for n in range(5)]
    if use_syncfs and journal._SYNCFS is not None:
        assert synced == []  # one syncfs per batch covered every file
    else:  # one fsync per file written in a batch (a file has one append waiting at a time here)
        assert len(synced) == 200


async def test_a_file_that_cannot_be_written_fails_its_own_appender_only(tmp_path: Path) -> None:
    committer = GroupCommit()
    good = open(tmp_path / "good", "ab")  # noqa: SIM115 - closed below
    bad = open(tmp_path / "bad", "ab")  # noqa: SIM115
    bad.close()  # a write to it fails
    results = await asyncio.gather(committer.append(good, b"a\n"), committer.append(bad, b"b\n"),
                                   return_exceptions=True)
    good.close()
    assert results[0] is None
    assert isinstance(results[1], OSError)
    assert (tmp_path / "good").read_bytes() == b"a\n"
