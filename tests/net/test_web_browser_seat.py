"""A browser seat stays a seat after its game ends (issue 41, item 1), in a real headless browser: ``crewkit host
--web`` on free loopback ports, Debian's Chromium driven by Playwright opens Ann's web link, the host hands her
seat to its bot (its ``bot Ann`` command) and the game ends; then the keys that opened a local planet-nine/01
in the seat's process (Esc, c, Enter, Enter: the campaign, the briefing, the game) and the shell's others are
typed into the page. Nothing is written in the host user's data folder, home or working folder (each a folder
of the test), no local game starts (``q`` leaves at once: a local game would ask first), and the seat
process's private folder is gone after it.

Skipped, saying so, where Chromium is missing (test_web_browser.py says how to get it)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import launched_chromium

from crewkit.net.table import HostedTable

pytestmark = pytest.mark.timeout(180)

# after the end: the end screen, the table (Esc), the campaign and a mission's briefing and game (c, Enter,
# Enter) in the old app; then the shell's other keys, at the table and at the end screen again
KEYS = ["Escape", "c", "Enter", "Enter", "n", "r", "l", "v", "o", "Escape", "c", "Enter", "Enter", "s", "u",
        "l", "v", "Escape", "Escape"]


@pytest.fixture
def chromium() -> Iterator[Any]:
    yield from launched_chromium("a browser seat's keys after "
                                 "its game are tested here in a browser only (tests/tui/test_tui_seat_app.py tests its app)")


def _wait(test: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait until ``test()`` holds (``timeout`` is a safety net); else fail saying ``what``."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _still(page: Any, drawn: list[float], quiet: float = 0.5, timeout: float = 10.0) -> None:
    """Wait until the page's terminal has received nothing for ``quiet`` seconds from now on (what the last key
    or message changed is drawn; a lone Esc is told from the start of a sequence by a pause)."""
    start = time.monotonic()
    while time.monotonic() < start + timeout:
        page.wait_for_timeout(50)  # Playwright delivers the page's events while it waits
        if time.monotonic() - max([start, *drawn[-1:]]) >= quiet:
            return


def _over(folder: Path, scratch: Path) -> bool:
    """Whether the game is over, from a copy of the host's table folder (the host's own replay of its log)."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(folder, scratch)
    table = HostedTable.resume(scratch)
    try:
        return bool(table.game.is_over())
    finally:
        table.close()


def _written(*folders: Path) -> list[Path]:
    return [p for folder in folders for p in sorted(folder.rglob("*"))]


def test_after_its_game_a_browser_seat_starts_nothing_and_writes_nothing_of_the_host_s(
        tmp_path: Path, chromium: Any) -> None:
    tables = tmp_path / "tables"
    user, data, cwd, temp = (tmp_path / name for name in ("host-user", "host-data", "host-cwd", "tmp"))
    for folder in (user, data, cwd, temp):
        folder.mkdir()
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "HOME": str(user), "CREWKIT_HOME": str(data),
                   "XDG_DATA_HOME": str(user / ".local/share"), "XDG_CONFIG_HOME": str(user / ".config"),
                   "XDG_CACHE_HOME": str(user / ".cache"), "XDG_STATE_HOME": str(user / ".local/state"),
                   "CREWKIT_CACHE": str(user / ".cache/crewkit"), "TMPDIR": str(temp)}
    errors = tmp_path / "host-errors.txt"
    process = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(tables), "--port", "0", "--web", "--web-port", "0",
         "--bind", "127.0.0.1", "--delay", "0", "--mission", "planet-nine/01", "--seats", "human,fast,fast",
         "--names", "Ann,Cat,Dan", "--seed", "web-end"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors.open("w"), text=True, env=environment, cwd=cwd)
    assert process.stdin is not None and process.stdout is not None
    try:
        table = link = ""
        for _ in range(50):
            line = process.stdout.readline()
            if not line or line.startswith("listening on"):
                break
            if line.startswith("table "):
                table = line.split()[1]
            found = re.search(r"or in a browser: (http://127\.0\.0\.1:\d+/\S+)", line)
            if found and not link:
                link = found.group(1)
        assert table and link, f"the host printed no web link: {errors.read_text()}"

        page = chromium.new_page(viewport={"width": 1000, "height": 600})
        drawn: list[float] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda _: drawn.append(time.monotonic())))
        page.goto(link)
        page.wait_for_selector("body.-first-byte", timeout=30_000)  # Ann's table is drawn in the page
        process.stdin.write("bot Ann\n")  # the host hands her seat to its bot: it plays to the end
        process.stdin.flush()
        _wait(lambda: _over(tables / table, tmp_path / "view"), 90, "the game's end")
        _still(page, drawn)  # the end screen is drawn in the page
        host_wrote = set(_written(user, data, cwd))  # the host's own (its bots' compiled search in its cache)
        assert not [p for p in host_wrote if data in p.parents or cwd in p.parents], host_wrote
        page.focus(".xterm-helper-textarea")
        for key in KEYS:  # one at a time, as a person types: Esc and a key at once would be alt+key
            page.keyboard.press(key)
            _still(page, drawn, quiet=0.3)
        page.keyboard.press("q")  # at the table or its end screen: leave (a local game would ask first)

        def settled() -> bool:
            return set(_written(user, data, cwd)) != host_wrote or page.query_selector("body.-closed") is not None

        try:
            _wait(settled, 60, "the seat's page to close")
        except AssertionError:
            page.screenshot(path=str(tmp_path / "page.png"))  # what the page shows, to look at
            raise AssertionError(f"the seat's page did not close: see {tmp_path / 'page.png'}") from None
        assert set(_written(user, data, cwd)) == host_wrote, sorted(set(_written(user, data, cwd)) - host_wrote)
        assert page.query_selector("body.-closed") is not None
        assert "left the table" in page.inner_text("#closed-text")
        assert not list(temp.glob("crewkit-seat-*"))  # the seat's private home went with its process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        with contextlib.suppress(OSError):
            process.stdin.close()
    assert not (data / "saves").exists() and not list(cwd.iterdir())
