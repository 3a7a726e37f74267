"""What the hosted table's chained journal adds to an append: a line with its sequence number and chained hash
against a plain JSON line, and one head write (per table per batch), beside the fsync every batch pays anyway.

    python benchmarks/journal_cost.py [--lines 200000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson  # noqa: E402

from crewkit.net.journal import Head, chained_line, genesis  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=200_000)
    n = parser.parse_args().lines
    event = {"event": "act", "action": {"seat": 2, "type": "play", "card": {"suit": "pink", "value": 7}}}
    digest = genesis("bench")
    plain = timeit.timeit(lambda: orjson.dumps(event) + b"\n", number=n) / n
    chained = timeit.timeit(lambda: chained_line(digest, 17, event), number=n) / n
    with tempfile.TemporaryDirectory() as folder:
        head = Head(Path(folder) / "log.head", (0, digest), create=True)
        head_write = timeit.timeit(lambda: head.write(17, digest), number=n) / n
        head.close()
        fd = os.open(Path(folder) / "log", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        started = time.perf_counter()
        for _ in range(200):
            os.write(fd, b"x" * 100)
            os.fsync(fd)
        fsync = (time.perf_counter() - started) / 200
        os.close(fd)
    print(f"plain line {plain * 1e6:.2f} us, chained line {chained * 1e6:.2f} us, head write {head_write * 1e6:.2f} us;"
          f" one fsync of a line {fsync * 1e6:.0f} us")


if __name__ == "__main__":
    main()
