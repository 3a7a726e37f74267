"""How fast ``crewkit lsp`` answers: start-up (until the initialize response), then the first diagnostics of
a mission (the checks load lazily), then diagnostics after each change (the debounce included).

    python benchmarks/lsp_latency.py [--changes 20]

Speaks raw JSON-RPC over the server's stdin/stdout, so nothing but the server is measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    assert proc.stdin is not None
    proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    proc.stdin.flush()


def receive(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return dict(json.loads(proc.stdout.read(length)))


def wait_for(proc: subprocess.Popen[bytes], test: Any) -> dict[str, Any]:
    while True:
        message = receive(proc)
        if test(message):
            return message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=20)
    args = parser.parse_args()
    text = (ROOT / "missions/planet-nine/44-countdown-rockets.yaml").read_text()
    uri = (ROOT / "missions/planet-nine/44-countdown-rockets.yaml").as_uri()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "crewkit", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": None, "rootUri": ROOT.as_uri(), "capabilities": {}}})
    wait_for(proc, lambda m: m.get("id") == 1)
    started = time.perf_counter() - start
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    t0 = time.perf_counter()
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    wait_for(proc, lambda m: m.get("method") == "textDocument/publishDiagnostics")
    first = time.perf_counter() - t0
    latencies = []
    for version in range(2, args.changes + 2):
        changed = text.replace("c.rank <", "c.rank <" + " " * (version % 3))
        t0 = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]}})
        wait_for(proc, lambda m, v=version: m.get("method") == "textDocument/publishDiagnostics"
                 and m["params"].get("version") == v)
        latencies.append(time.perf_counter() - t0)
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    wait_for(proc, lambda m: m.get("id") == 2)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait(10)
    print(f"start-up (initialize answered): {started * 1000:.0f} ms")
    print(f"first diagnostics of mission 44: {first * 1000:.0f} ms")
    print(f"diagnostics after a change ({args.changes} changes, 150 ms pause included): median "
          f"{statistics.median(latencies) * 1000:.0f} ms, slowest {max(latencies) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
