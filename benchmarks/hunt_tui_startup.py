"""How long the Not Alone table takes to open: import, load the rule set, deal, first dialog (target < 3 s).

    python benchmarks/hunt_tui_startup.py [--runs N]

Each run is a fresh interpreter (cold imports, no rule set cached in memory), measured from process start
until the first choice of a Hunted (the place-card dialog) is on a headless 80x24 screen, the bots having made
their moves. ``CREWKIT_HOME`` points at a temporary directory (the game's save goes there).
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

TARGET_S = 3.0

CHILD = r"""
import asyncio, json, time
t0 = time.perf_counter()
from crewkit.tui.app import CrewApp
from crewkit.tui.options import PlayOptions
from crewkit.families.not_alone.tui.dialogs import HuntActionDialog
t_import = time.perf_counter()

async def main() -> None:
    options = PlayOptions(ruleset="not-alone", players=4, seed="bench", fast=True, campaign=None, side="hunted")
    app = CrewApp(options)  # the one app, opened as `crewkit play --ruleset not-alone` opens it
    t_loaded = time.perf_counter()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(1000):
            await pilot.pause()
            if isinstance(app.screen, HuntActionDialog):
                break
        assert isinstance(app.screen, HuntActionDialog), type(app.screen).__name__
        t_ready = time.perf_counter()
        print(json.dumps({"import": t_import - t0, "loaded": t_loaded - t0, "ready": t_ready - t0}))

asyncio.run(main())
"""


def one_run(home: str) -> dict[str, float]:
    env = dict(os.environ, CREWKIT_HOME=home)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    data["process"] = time.perf_counter() - start
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        runs = [one_run(home) for _ in range(args.runs)]
    for key in ("import", "loaded", "ready", "process"):
        values = [r[key] for r in runs]
        print(f"{key:>8}: median {statistics.median(values):.3f} s   max {max(values):.3f} s")
    worst = max(r["process"] for r in runs)
    ok = worst < TARGET_S
    print(f"target < {TARGET_S:.1f} s from process start to the first dialog: {'OK' if ok else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
