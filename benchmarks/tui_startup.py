"""How long the TUI takes to start: import, build the app, mount the campaign screen (target < 2 s).

    python benchmarks/tui_startup.py [--runs N]

Each run is a fresh interpreter (cold imports), measured from process start until the campaign screen has
been mounted and rendered once in a headless 120x40 terminal. ``CREWKIT_HOME`` points at a temporary
directory so the user's logbook is never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_S = 2.0

CHILD = r"""
import asyncio, json, sys, time
t0 = time.perf_counter()
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
t_import = time.perf_counter()

async def main() -> None:
    app = CrewApp(PlayOptions(fast=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        t_ready = time.perf_counter()
        assert type(app.screen).__name__ == "CampaignScreen", type(app.screen).__name__
        print(json.dumps({"import": t_import - t0, "ready": t_ready - t0}))

asyncio.run(main())
"""


def one_run(home: str) -> dict[str, float]:
    env = dict(os.environ, CREWKIT_HOME=home)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    total = time.perf_counter() - start
    data = json.loads(out.stdout.strip().splitlines()[-1])
    data["process"] = total
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        runs = [one_run(home) for _ in range(args.runs)]
    for key in ("import", "ready", "process"):
        values = [r[key] for r in runs]
        print(f"{key:>8}: median {statistics.median(values):.3f} s   max {max(values):.3f} s")
    worst = max(r["process"] for r in runs)
    ok = worst < TARGET_S
    print(f"target < {TARGET_S:.1f} s from process start to the campaign screen: {'OK' if ok else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
