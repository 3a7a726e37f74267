"""Ctrl-C stops ``crewkit host`` and ``crewkit join`` at once also while their standard input is a pipe left open
(a script, ``tail -f``): the line reader must not keep them waiting for a line. Real processes on a free
loopback port."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)

EXIT_INTERRUPTED = 130
SAFETY = 90  # seconds: a process that has not ended by then never will


async def _until(stream: asyncio.StreamReader, pattern: str, seconds: float = 30) -> list[str]:
    """Lines of ``stream`` up to the first that matches ``pattern`` (included)."""
    lines: list[str] = []
    while True:
        line = (await asyncio.wait_for(stream.readline(), seconds)).decode()
        assert line, f"the stream ended before {pattern!r}: {lines}"
        lines.append(line)
        if re.search(pattern, line):
            return lines


async def _interrupt(proc: asyncio.subprocess.Process) -> bytes:
    """SIGINT as Ctrl-C sends it, once: the process must end by itself (its standard input still open). A line
    reader that waits for a line never ends it; the bound is only a safety net against that, not a speed."""
    proc.send_signal(signal.SIGINT)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), SAFETY)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        pytest.fail(f"still running {SAFETY} s after Ctrl-C")
    return err


async def test_ctrl_c_stops_the_host_and_a_joined_client_whose_input_pipes_stay_open(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "crewkit", "host", "--dir", str(tmp_path / "tables"), "--port", "0", "--bind",
        "127.0.0.1", "--mission", "planet-nine/01", "--seats", "human,bot,bot", "--seed", "ctrl-c",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
    assert host.stdout is not None and host.stdin is not None
    try:
        printed = await _until(host.stdout, r"^listening on")
        (link,) = re.findall(r"'(ws://127\.0\.0\.1:\d+/[^']+)'", "".join(printed))
        host.stdin.write(b"status\n")  # the console reads its commands from the pipe
        await host.stdin.drain()
        assert "table " in "".join(await _until(host.stdout, r"^table "))

        client = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "crewkit", "join", link, "--name", "Ann", "--plain",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
        assert client.stdout is not None
        await _until(client.stdout, "You are Ann")
        err = await _interrupt(client)
        assert client.returncode == EXIT_INTERRUPTED, err
        assert b"Fatal Python error" not in err and b"Traceback" not in err, err
    finally:
        if host.returncode is None:
            err = await _interrupt(host)
    assert host.returncode == EXIT_INTERRUPTED, err
    assert b"interrupted" in err and b"Fatal Python error" not in err and b"Traceback" not in err, err


def test_the_line_reader_splits_what_the_pipe_brings_into_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines as they come (a character split between two reads, a last line without its newline), then ""."""
    from crewkit.net.lines import read_stdin_lines

    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        read_line = read_stdin_lines()
        data = "bot Ann\nback Zoë\nstatus".encode()
        cut = data.index("ë".encode()) + 1  # inside the two bytes of ë
        os.write(write_fd, data[:cut])
        assert read_line() == "bot Ann\n"
        os.write(write_fd, data[cut:])
        assert read_line() == "back Zoë\n"
        os.close(write_fd)
        assert [read_line(), read_line(), read_line()] == ["status", "", ""]


async def test_the_line_reader_hands_lines_to_the_loop_and_then_the_end_again_and_again() -> None:
    from crewkit.net.lines import LineReader

    lines = iter(["status\n", ""])
    reader = LineReader(lambda: next(lines))
    assert [await reader.next(), await reader.next(), await reader.next()] == ["status\n", "", ""]


def test_a_line_without_end_is_kept_to_its_first_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.net.lines import MAX_LINE, read_stdin_lines

    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        read_line = read_stdin_lines()
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(b"x" * (3 * MAX_LINE) + b"\nstatus\n")
        assert read_line() == "x" * MAX_LINE + "\n"
        assert [read_line(), read_line()] == ["status\n", ""]
