"""``crewkit lsp`` under a hostile or broken editor: a ``Content-Length`` over the limit (or an endless header
line) is refused with a message (on stderr and as window/showMessage) and the server reads on, answering the
next request. Raw JSON-RPC over a real server's stdin/stdout (pytest-lsp's client frames every message itself)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(180)
ROOT = Path(__file__).resolve().parents[2]


class RawClient:
    """A ``crewkit lsp`` process and the messages it sends (read by a thread into a queue)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "crewkit", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line == b"\r\n":
                    break
            assert length is not None
            self.messages.put(json.loads(out.read(length)))

    def send_bytes(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def until(self, want: Any, timeout: float = 60) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The first message ``want`` accepts, and every message before it."""
        seen: list[dict[str, Any]] = []
        while True:
            message = self.messages.get(timeout=timeout)
            assert message is not None, f"the server ended (exit {self.process.wait(10)}): " \
                                        f"{self.process.stderr.read().decode() if self.process.stderr else ''}"
            if want(message):
                return message, seen
            seen.append(message)

    def initialize(self) -> None:
        self.send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": ROOT.as_uri(),
                                                              "capabilities": {}}})
        self.until(lambda m: m.get("id") == 1)
        self.send({"method": "initialized", "params": {}})

    def close(self) -> str:
        """Shut down and exit; the server's stderr."""
        if self.process.poll() is None:
            self.send({"id": 999, "method": "shutdown"})
            self.send({"method": "exit"})
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return err.decode()


def _hover_answered(client: RawClient, request: int, tmp_path: Path) -> list[dict[str, Any]]:
    """Open a small mission and hover a word of it: answered (with the word's documentation)."""
    uri = (tmp_path / f"m{request}.yaml").as_uri()
    text = 'number: 1\nrulesets: [crew]\nconditions:\n  - id: a\n    fail_if: "tricks_won(commander) > 2"\n'
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    client.send({"id": request, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 4, "character": 15}}})
    answer, before = client.until(lambda m: m.get("id") == request)
    assert "tricks_won" in json.dumps(answer["result"])
    return before


@pytest.mark.parametrize("length", [b"100000000000000", b"9" * 5000, b"67108865"], ids=["1e14", "5000-digits",
                                                                                            "limit+1"])
def test_a_content_length_over_the_limit_is_refused_and_the_server_goes_on(tmp_path: Path, length: bytes) -> None:
    client = RawClient()
    try:
        client.initialize()
        # the announced body never comes whole: a short one, then the next message right after it
        client.send_bytes(b"Content-Length: " + length + b"\r\n\r\n" + b'{"jsonrpc": "2.0", "method": "x"}')
        before = _hover_answered(client, 7, tmp_path)
        shown = [m for m in before if m.get("method") == "window/showMessage"]
        assert shown and "refused unread: the limit is 67108864 bytes" in shown[0]["params"]["message"]
        _hover_answered(client, 8, tmp_path)  # and again: the input is in step
    finally:
        err = client.close()
    assert client.process.returncode == 0, err
    assert "refused unread" in err
    assert "internal error" not in err and "MemoryError" not in err and "Traceback" not in err


def test_an_endless_header_line_is_refused_and_the_server_goes_on(tmp_path: Path) -> None:
    client = RawClient()
    try:
        client.initialize()
        client.send_bytes(b"X-Junk: " + b"a" * 200_000)
        client.send_bytes(b"\r\n\r\n")
        before = _hover_answered(client, 5, tmp_path)
        assert any("header line over" in m["params"]["message"] for m in before
                   if m.get("method") == "window/showMessage")
    finally:
        err = client.close()
    assert client.process.returncode == 0, err
