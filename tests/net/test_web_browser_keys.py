"""A browser seat's keys and its coming back, in a real headless browser (Debian's Chromium driven by Playwright):
``crewkit host --web`` on free loopback ports, Ann's web link opened and never clicked.

* Keys work as the page opens: ↓ and Enter take the task draft's second task with no click on the page.
* The host stops (SIGTERM) and starts again on the same folder and ports: the page says "Reconnecting (attempt
  N)…" meanwhile and comes back by itself (no key, no click), and Ann's seat is joined again.

A click on a panel leaving the keys with the list is the table's own behaviour: tests/tui/test_tui_seat_clicks.py.

Skipped, saying so, where Chromium is missing (test_web_browser.py says how to get it)."""

from __future__ import annotations

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

from crewkit.net.table import HostedTable

pytestmark = pytest.mark.timeout(120)

# planet-nine/04 (three tasks) with this seed: Ann, the commander, chooses first among three tasks
HOST_GAME = ["--mission", "planet-nine/04", "--seats", "human,fast,fast", "--names", "Ann,Cat,Dan", "--seed", "web-f0"]


@pytest.fixture
def chromium() -> Iterator[Any]:
    yield from launched_chromium("the browser seat's keys and its coming back are tested in a browser only")


def _host(folder: Path, errors: Path, *options: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """``crewkit host --web`` on loopback: the process, and what it printed (``web``: Ann's web link, ``port`` and
    ``web_port``: where it listens)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(folder), "--web", "--bind", "127.0.0.1", "--delay", "0",
         *options], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors.open("a"), text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    said: dict[str, str] = {}
    for _ in range(50):
        line = process.stdout.readline()
        if found := re.search(r"or in a browser: (http://127\.0\.0\.1:\d+/\S+)", line):
            said.setdefault("web", found.group(1))
        if found := re.search(r"web pages on http://127\.0\.0\.1:(\d+)/", line):
            said["web_port"] = found.group(1)
        if found := re.search(r"listening on ws://127\.0\.0\.1:(\d+)/", line):
            said["port"] = found.group(1)
        if not line or line.startswith("listening on"):
            break
    assert {"web", "port", "web_port"} <= set(said), f"the host said no links: {errors.read_text()}"
    return process, said


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def _wait(test: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait until ``test()`` holds (``timeout`` is a safety net); else fail saying ``what``."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _still(page: Any, drawn: list[float], quiet: float = 0.3, timeout: float = 10.0) -> None:
    """Wait until the page's terminal has received nothing for ``quiet`` seconds (what changed is drawn)."""
    start = time.monotonic()
    while time.monotonic() < start + timeout:
        page.wait_for_timeout(50)  # Playwright delivers the page's events while it waits
        if time.monotonic() - max([start, *drawn[-1:]]) >= quiet:
            return


def _events(folder: Path) -> list[dict[str, Any]]:
    path = folder / "log.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.endswith("}")]


def _taken_by_ann(folder: Path) -> list[str]:
    return [e["action"]["card"] for e in _events(folder)
            if e.get("event") == "act" and e["action"] == {**e["action"], "seat": 0, "type": "take-task"}]


def test_keys_work_without_a_click_and_the_page_comes_back_after_the_host_restarts(
        tmp_path: Path, chromium: Any) -> None:
    tables, errors = tmp_path / "tables", tmp_path / "host-errors.txt"
    process, said = _host(tables, errors, "--port", "0", "--web-port", "0", *HOST_GAME)
    folder = next(tables.iterdir())
    try:
        scratch = tmp_path / "view"
        shutil.copytree(folder, scratch)
        table = HostedTable.resume(scratch)
        try:
            offered = [a["card"] for a in table.state_for(0)["legal"]]
        finally:
            table.close()
        assert len(offered) == 3  # the draft's list: three tasks, the first highlighted

        page = chromium.new_page(viewport={"width": 1000, "height": 600})
        drawn: list[float] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda _: drawn.append(time.monotonic())))
        page.goto(said["web"])
        page.wait_for_selector("body.-first-byte", timeout=30_000)
        _still(page, drawn)
        page.keyboard.press("ArrowDown")  # no click on the page before: the list moves to the second task
        _still(page, drawn)
        page.keyboard.press("Enter")
        _wait(lambda: bool(_taken_by_ann(folder)), 30, "Ann's task, chosen by keys")
        assert _taken_by_ann(folder) == [offered[1]]

        # the host stops and starts again on the same folder and ports: the page comes back by itself
        _stop(process)
        page.wait_for_function("document.getElementById('closed-text').textContent.includes('Reconnecting (attempt')",
                               timeout=30_000)
        assert "Ann opened their web page" in errors.read_text()
        process, _ = _host(tables, errors, "--port", said["port"], "--web-port", said["web_port"])
        _wait(lambda: errors.read_text().count("Ann joined from") >= 2, 60, "Ann's seat joined again by the page")
        page.wait_for_selector("body.-first-byte:not(.-closed)", timeout=30_000)
    finally:
        _stop(process)
