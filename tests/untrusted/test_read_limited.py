"""``read_limited``: the one way crewkit reads a file it was handed (regular files only, bounded while reading)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crewkit.spec import yamlio
from crewkit.spec.yamlio import UnsafeFile, read_limited, read_source_lines


def test_reads_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"x" * 100)
    assert read_limited(path, 100) == b"x" * 100


def test_the_limit_holds_even_when_the_size_announced_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    class _Small:
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 0  # a file that grew after the check, say

    monkeypatch.setattr(yamlio.os, "fstat", lambda fd: _Small(real_fstat(fd)))
    with pytest.raises(UnsafeFile, match="too large"):
        read_limited(path, 1000)


def test_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(UnsafeFile, match="a character device"):
        read_limited("/dev/zero")
    with pytest.raises(OSError, match="folder|Is a directory"):
        read_limited(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_without_a_writer_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.yaml")
    with pytest.raises(UnsafeFile, match="a FIFO"):
        read_limited(tmp_path / "x.yaml")


def test_source_lines_for_a_caret_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as fh:
        fh.write(b"{\n")
        fh.truncate(50 * 1024 * 1024)
    assert read_source_lines(path) is None
    small = tmp_path / "small.yaml"
    small.write_text("a: 1\nb: 2\n", encoding="utf-8")
    assert read_source_lines(small) == ["a: 1", "b: 2"]
