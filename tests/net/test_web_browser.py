"""A browser seat in a real headless browser: ``crewkit host --web`` on a free loopback port, Debian's Chromium
driven by Playwright opens the seat's web link, and the seat plays the first trick of planet-nine/01 with keys
typed into the page; the host's own table log shows the card chosen by those keys played by that seat. A link
with a wrong code is refused in the page, and the invite code is in no request the browser makes and in nothing
the host writes to its log.

Chromium is Debian's (``apt-get install chromium``: Playwright's own download is not used). Where it is missing
the browser test is skipped, saying so; the web server's checks are tested without a browser in
``test_web_seats.py``."""

from __future__ import annotations

import contextlib
import json
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

from crewkit.families.trick_taking.tui.hand import CARD_KEYS
from crewkit.net.table import HostedTable

pytestmark = pytest.mark.timeout(90)

# Playwright's key names for the hand's card keys (the digits under the cards)
PAGE_KEYS = {"-": "Minus", "=": "Equal", "[": "BracketLeft", "]": "BracketRight"}


@pytest.fixture
def chromium() -> Iterator[Any]:
    yield from launched_chromium("the browser seat is not "
                                 "tested in a browser on this machine (tests/net/test_web_seats.py tests its server)")


def _start_host(folder: Path, errors: Path, *options: str) -> tuple[subprocess.Popen[str], str, str]:
    """``crewkit host --web`` on free loopback ports: the process, its table and the first seat's web link."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(folder), "--port", "0", "--web", "--web-port", "0",
         "--bind", "127.0.0.1", "--delay", "0", *options],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors.open("w"), text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    table = web = ""
    for _ in range(50):
        line = process.stdout.readline()
        if not line or line.startswith("listening on"):
            break
        if line.startswith("table "):
            table = line.split()[1]
        found = re.search(r"or in a browser: (http://127\.0\.0\.1:\d+/\S+)", line)
        if found and not web:
            web = found.group(1)
    assert table and web, f"the host printed no web link: {errors.read_text()}"
    return process, table, web


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _stop(process: subprocess.Popen[str]) -> int | None:
    """Stop the host as a service manager does (SIGTERM); its exit code (None: it had to be killed)."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
        return None


def _events(folder: Path) -> list[dict[str, Any]]:
    path = folder / "log.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.endswith("}")]


def _seat_view(folder: Path, scratch: Path) -> dict[str, Any]:
    """What the host sends seat 0 now, from a copy of its table folder (the host's own replay of its log)."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(folder, scratch)
    table = HostedTable.resume(scratch)
    try:
        return table.state_for(0)
    finally:
        table.close()


def _by_seat_0(event: dict[str, Any]) -> bool:
    return event.get("seat") == 0 or event.get("action", {}).get("seat") == 0


def _wait(test: Callable[[], bool], timeout: float, what: str | None) -> bool:
    """Wait until ``test()`` holds; after ``timeout`` seconds fail saying ``what`` (or, without it, say False)."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            if what is None:
                return False
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
    return True


def _still(page: Any, drawn: list[float], quiet: float = 0.25, timeout: float = 5.0) -> None:
    """Wait until the page's terminal has received nothing for ``quiet`` seconds (the table is drawn)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(50)  # Playwright delivers the page's events while it waits
        if not drawn or time.monotonic() - drawn[-1] >= quiet:
            return


def _plays(folder: Path) -> list[dict[str, Any]]:
    return [e["action"] for e in _events(folder) if e["event"] == "act" and e["action"]["type"] == "play"]


def test_a_browser_seat_plays_a_trick_and_a_wrong_code_is_refused(tmp_path: Path, chromium: Any) -> None:
    tables, errors = tmp_path / "tables", tmp_path / "host-errors.txt"
    process, table_id, link = _start_host(tables, errors, "--mission", "planet-nine/01",
                                          "--seats", "human,fast,fast", "--names", "Ann,Cat,Dan", "--seed", "web-1")
    code = link.split("#", 1)[1]
    folder = tables / table_id
    requests: list[str] = []
    try:
        # a wrong code: refused in the page, by the host's own check
        stranger = chromium.new_page()
        stranger.on("request", lambda r: requests.append(r.url))
        stranger.goto(link.split("#")[0] + "#" + "x" * len(code))
        stranger.wait_for_selector("body.-closed", timeout=10_000)
        assert "no seat has this link" in stranger.inner_text("#closed-text")
        stranger.close()

        page = chromium.new_page(viewport={"width": 1000, "height": 600})
        page.on("request", lambda r: requests.append(r.url))
        drawn: list[float] = []  # when the page's terminal received each piece of the table's screen
        page.on("websocket", lambda ws: (requests.append(ws.url),
                                         ws.on("framereceived", lambda _: drawn.append(time.monotonic()))))
        page.goto(link)
        page.wait_for_selector("body.-first-byte", timeout=15_000)  # the table is drawn in the page
        page.focus(".xterm-helper-textarea")

        chosen = None
        deadline = time.monotonic() + 60
        while not any(p["seat"] == 0 for p in _plays(folder)):  # the draft, the window, the card: by keys
            assert time.monotonic() < deadline, "the seat's first card was not played"
            state = _seat_view(folder, tmp_path / "view")
            assert state["seat"] == 0 and not state["over"]
            if not (state["turn"] or state["window"]):
                time.sleep(0.05)  # the bots are playing
                continue
            _still(page, drawn)  # the seat's table has drawn what the host sent it
            before = sum(map(_by_seat_0, _events(folder)))
            plays = [a for a in state["legal"] if a["type"] == "play"]
            if state["window"]:
                page.keyboard.press("Space")  # nothing to say
            elif plays:  # the last legal card: Enter alone would play the first (the cursor starts there)
                chosen = plays[-1]["card"]
                key = CARD_KEYS[state["observation"]["hand"].index(chosen)]
                page.keyboard.press(PAGE_KEYS.get(key, key))
                page.keyboard.press("Enter")
            else:  # the task draft: the first task of the list
                page.keyboard.press("Home")
                page.keyboard.press("Enter")
            # keys that reach the seat's table before the host's latest state does are ignored there (the table
            # says why): on a busy machine they are pressed again once that state is drawn
            _wait(lambda n=before: sum(map(_by_seat_0, _events(folder))) > n, 3, None)
        # the host applied the card the keys chose, by the browser's seat; the bots complete the trick
        assert chosen is not None and {"seat": 0, "type": "play", "card": chosen} in _plays(folder)
        _wait(lambda: len(_plays(folder)) >= 3, 20, f"the first trick to be complete: {_events(folder)}")
        assert 0 in [p["seat"] for p in _plays(folder)[:3]]
        seat_processes = _children(process.pid)  # the open page's crewkit join
        assert seat_processes
    finally:
        stopped = _stop(process)
    assert stopped == 0  # stopped with the page still open: the host ended its seat's process first
    assert not [pid for pid in seat_processes if Path(f"/proc/{pid}").exists()]
    assert not any(code in url for url in requests), requests  # the code stays in the link's fragment
    log = errors.read_text(encoding="utf-8")
    assert "Ann opened their web page from 127.0.0.1" in log
    assert code not in log
