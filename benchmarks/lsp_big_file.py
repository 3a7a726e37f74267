"""``crewkit lsp`` while a big mission is edited: a mission of about 0.85 MB is opened and changed (whole text)
``--changes`` times, ``--gap`` seconds apart, then another file is hovered ``--hovers`` times; prints each
hover's answer time, how many checks of the big file ran (from the server's log messages) and when its
diagnostics of the last version came.

    python benchmarks/lsp_big_file.py [--changes 8] [--gap 0.3] [--hovers 5] [--conditions 7000]

Raw JSON-RPC over the server's stdin/stdout (the helpers of lsp_latency.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_latency import ROOT, receive, send  # noqa: E402

SMALL = """\
number: 1
title: Quiet skies
rulesets: [crew]
tasks: {count: 2, tokens: ["1", "2"], fixed: [pink 1]}
conditions:
  - id: quiet-start
    fail_if: "tricks_won(commander) > 2"
"""


def big(version: int, conditions: int) -> str:
    return SMALL.replace("Quiet skies", f"Quiet skies {version}") + "".join(
        f"  - id: c{i}\n    fail_if: \"any(t in tricks: t.number <= {i % 9 + 1} and is_trump(t.winning_card)) "
        f"or tricks_won(commander) > {i}\"\n" for i in range(conditions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=8)
    parser.add_argument("--gap", type=float, default=0.3)
    parser.add_argument("--hovers", type=int, default=5)
    parser.add_argument("--conditions", type=int, default=7000)
    args = parser.parse_args()
    import subprocess

    proc = subprocess.Popen([sys.executable, "-m", "crewkit", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    logs: list[str] = []

    def until(test: Any) -> dict[str, Any]:
        while True:
            message = receive(proc)
            if message.get("method") == "window/logMessage":
                logs.append(message["params"]["message"])
            if test(message):
                return message

    def published(uri: str, version: int) -> Any:
        return lambda m: (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                          and m["params"].get("version") == version)

    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": None, "rootUri": ROOT.as_uri(), "capabilities": {}}})
    until(lambda m: m.get("id") == 1)
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    small, big_uri = Path("/tmp/bench/small.yaml").as_uri(), Path("/tmp/bench/big.yaml").as_uri()
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": small, "languageId": "yaml", "version": 1, "text": SMALL}}})
    until(published(small, 1))
    text = big(1, args.conditions)
    start = time.perf_counter()
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": big_uri, "languageId": "yaml", "version": 1, "text": text}}})
    last = args.changes + 1
    for version in range(2, last + 1):
        time.sleep(args.gap)
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": big_uri, "version": version},
            "contentChanges": [{"text": big(version, args.conditions)}]}})
    answers = []
    for i in range(args.hovers):
        t0 = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "id": 100 + i, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": small}, "position": {"line": 6, "character": 15}}})
        until(lambda m, i=i: m.get("id") == 100 + i)
        answers.append(time.perf_counter() - t0)
        time.sleep(args.gap)
    until(published(big_uri, last))
    done = time.perf_counter() - start
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    until(lambda m: m.get("id") == 2)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait(10)
    checks = [line for line in logs if line.startswith("crewkit: checking big.yaml")]
    print(f"big mission: {len(text)} characters, {args.changes} changes {args.gap} s apart")
    print(f"hover on another file while it was checked: {', '.join(f'{a * 1000:.0f}' for a in answers)} ms")
    print(f"checks of the big file: {len(checks)} for {last} versions; diagnostics of version {last} "
          f"{done:.1f} s after it was opened")


if __name__ == "__main__":
    main()
