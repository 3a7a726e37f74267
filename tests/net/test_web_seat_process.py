"""The browser seat's process (:mod:`crewkit.net.web_seat`) and the web server's pages, without a browser.

The process is the host user's but the seat is a guest's: it takes its join link out of its environment before
anything else runs (another process it starts would inherit it), and it lives in a private, throw-away home
(crewkit's data and cache folders, HOME, the XDG folders and its working folder in a new temporary folder,
deleted at its end), so nothing lands in the host's own folders. The server's pages are never cached (they are
a table's, and the table's link holds a code)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from net_helpers import LOOPBACK, new_table, running_host

from crewkit.net import web_seat
from crewkit.net.web import WebSeats

pytestmark = pytest.mark.timeout(60)

LINK = "ws://127.0.0.1:9/0123abcd#the-seat-s-code"


def test_the_seat_process_takes_its_link_out_of_its_environment_and_lives_in_a_private_home(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host_home, host_cwd, temp = tmp_path / "host-home", tmp_path / "host-cwd", tmp_path / "tmp"
    for folder in (host_home, host_cwd, temp):
        folder.mkdir()
    for name in web_seat.PRIVATE_FOLDERS:  # the host's own folders (restored after the test)
        monkeypatch.setenv(name, str(host_home / name.lower()))
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr("tempfile.tempdir", None)  # TMPDIR read again
    monkeypatch.chdir(host_cwd)
    monkeypatch.setenv(web_seat.LINK_ENV, LINK)
    monkeypatch.delenv(web_seat.NOTE_ENV, raising=False)
    seen: dict[str, Any] = {}

    async def seat(link: str, context: Any) -> tuple[int, str | None]:
        """What the seat's app would see: its environment, its folders; it writes a file where crewkit would."""
        from crewkit.campaign.home import crewkit_home

        seen["link"] = link
        seen["env link"] = os.environ.get(web_seat.LINK_ENV)
        seen["folders"] = {name: os.environ[name] for name in web_seat.PRIVATE_FOLDERS}
        seen["cwd"] = os.getcwd()
        (crewkit_home() / "saves").mkdir(parents=True)
        (crewkit_home() / "saves" / "a-game.json").write_text("{}")
        Path("in-the-working-folder.txt").write_text("x")
        return 0, None

    monkeypatch.setattr(web_seat, "_seat", seat)
    assert web_seat.main() == 0
    assert seen["link"] == LINK
    assert seen["env link"] is None and web_seat.LINK_ENV not in os.environ  # popped, not only read
    private = Path(seen["cwd"])
    assert private.parent == temp and private.name.startswith("crewkit-seat-")
    for name, value in seen["folders"].items():
        assert Path(value) == private or private in Path(value).parents, (name, value)
    assert not private.exists()  # deleted at the end, with what the seat wrote
    assert list(host_home.rglob("*")) == [] and list(host_cwd.rglob("*")) == []
    assert list(temp.iterdir()) == []


async def test_the_web_server_s_pages_are_never_cached(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host, aiohttp.ClientSession() as http:
        web = WebSeats(host, "ws", None, LOOPBACK)
        await web.start(LOOPBACK, 0)
        try:
            table = new_table(host, "crew", "planet-nine/01", ["human", "fast", "fast"], seed="w")
            base = f"http://{LOOPBACK}:{web.port}"
            for path in ("/", f"/{table.id}", "/crewkit-seat.js"):
                async with http.get(base + path) as page:
                    assert page.status == 200, path
                    assert page.headers.get("Cache-Control") == "no-store", (path, dict(page.headers))
        finally:
            await web.stop()
