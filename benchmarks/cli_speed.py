"""Speed of the everyday commands: `crewkit --help` (target < 0.3 s) and `crewkit validate` of every bundled
file (target < 1.5 s), as whole processes, median of several runs after one warm-up run.

    python benchmarks/cli_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = [("crewkit --help", ["--help"], 0.3), ("crewkit validate", ["validate"], 1.5)]


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "crewkit", *args], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"crewkit {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"{'command':<20} {'median':>8} {'min':>8} {'max':>8}  target")
    for name, argv, target in CASES:
        timed(argv)  # warm-up: the grammar analysis cache and the OS file cache
        times = [timed(argv) for _ in range(args.runs)]
        med = statistics.median(times)
        verdict = "ok" if med < target else "MISSED"
        print(f"{name:<20} {med:8.3f} {min(times):8.3f} {max(times):8.3f}  < {target} s {verdict}")


if __name__ == "__main__":
    main()
