"""``next`` typed on a real host process's console (its standard input) switches a real ``crewkit join --plain``
client to the table's next game by itself: the host hands Ann's seat to its bot (``bot Ann``), the game ends, the
client says it waits for the host's next game; ``next`` opens it at the same table and link, the client says so
and shows the new game's table (its log starts again); ``back Ann`` gives her seat back and the client is offered
her actions in the new game. Then Ann quits (``q``, exit 0) and the host is stopped."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)


class Lines:
    """A process's standard output, line by line, read in a thread (the test waits on the lines it expects)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        assert process.stdout is not None
        stream = process.stdout

        def read() -> None:
            for line in stream:
                self._queue.put(line.rstrip("\n"))
            self._queue.put(None)

        threading.Thread(target=read, daemon=True).start()

    def until(self, test: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
        """The first line from now on for which ``test`` holds (``timeout``: a safety net); else fail."""
        while True:
            try:
                line = self._queue.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no line {what} within {timeout} s; seen: {self.seen[-20:]}") from None
            if line is None:
                raise AssertionError(f"the output ended before a line {what}; seen: {self.seen[-20:]}")
            self.seen.append(line)
            if test(line):
                return line


def _type(process: subprocess.Popen[str], text: str) -> None:
    assert process.stdin is not None
    process.stdin.write(text + "\n")
    process.stdin.flush()


def test_next_on_the_hosts_console_switches_a_joined_client_to_the_next_game(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    errors = (tmp_path / "host-errors.txt").open("w")
    host = subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(tmp_path / "tables"), "--port", "0",
         "--bind", "127.0.0.1", "--delay", "0", "--mission", "planet-nine/01", "--seats", "human,random,random",
         "--bot", "random", "--names", "Ann,Cat,Dan", "--seed", "next-proc"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
    client: subprocess.Popen[str] | None = None
    try:
        said = Lines(host)
        link = said.until(lambda line: "crewkit join '" in line, "with Ann's link").split("'")[1]
        said.until(lambda line: line.startswith("listening on"), "saying the host listens")
        client = subprocess.Popen([sys.executable, "-m", "crewkit", "join", "--plain", link],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  env=env)
        ann = Lines(client)
        ann.until(lambda line: "You are Ann" in line, "welcoming Ann")
        _type(host, "bot Ann")  # her seat's bot plays the game to its end
        said.until(lambda line: line.startswith("Ann: a bot plays"), "handing Ann's seat to the bot")
        ann.until(lambda line: line.startswith("Game over."), "saying the game is over")
        ann.until(lambda line: "Waiting for the host's next game" in line, "saying what happens next")

        _type(host, "next")
        opened = said.until(lambda line: line.startswith("table ") and ": game 2" in line, "opening game 2")
        assert "planet-nine/01" in opened and "every seat joins it by itself" in opened
        ann.until(lambda line: line.startswith("The host opened the next game: planet-nine/01"),
                  "switching Ann's client to the next game")
        _type(host, "back Ann")  # her seat is hers again: the client is offered her actions in game 2
        said.until(lambda line: line.startswith("Ann: back to its person"), "giving Ann's seat back")
        _type(host, "status")
        status = said.until(lambda line: line.startswith("table ") and "game" not in line, "with the table's status")
        assert "Ann (disconnected)" not in status  # her client sits at the new game
        ann.until(lambda line: re.match(r"\s+1\. ", line) is not None, "offering Ann an action in game 2")
        _type(client, "q")
        assert client.wait(30) == 0
    finally:
        for process in (client, host):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)
        errors.close()
