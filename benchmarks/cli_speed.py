"""Start-up speed of the everyday commands, as whole processes (interpreter start, imports, work): a row per
command with its median, min and max wall time over several runs after one warm-up run (the warm-up fills the
OS file cache and the user cache: the condition grammar's tables, the compiled C search, the schema verdicts of
bundled files), and its target on a quiet machine.

    python benchmarks/cli_speed.py [--runs 7]

The load average is printed first: on a busy machine wall times grow with it; the min is the figure nearest to
a quiet machine's, and the median CPU time (user + system of the process) is what the load inflates least.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    ("crewkit --help", ["--help"], 0.15),
    ("crewkit solve --mission planet-nine/10 --players 4 --seed 1",
     ["solve", "--mission", "planet-nine/10", "--players", "4", "--seed", "1"], 0.5),
    ("crewkit validate", ["validate"], 1.5),
]


def timed(args: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one ``crewkit ARGS`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "crewkit", *args], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"crewkit {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if hasattr(os, "getloadavg"):
        print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} CPUs)")
    width = max(len(name) for name, _, _ in CASES)
    print(f"{'command':<{width}} {'median':>8} {'min':>8} {'max':>8} {'CPU med':>8}  target (wall median)")
    for name, argv, target in CASES:
        timed(argv)  # warm-up
        runs = [timed(argv) for _ in range(args.runs)]
        times = [wall for wall, _ in runs]
        med = statistics.median(times)
        cpu = statistics.median(c for _, c in runs)
        verdict = "ok" if med <= target else "MISSED"
        print(f"{name:<{width}} {med:8.3f} {min(times):8.3f} {max(times):8.3f} {cpu:8.3f}  ≤ {target} s {verdict}")


if __name__ == "__main__":
    main()
