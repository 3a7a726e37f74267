"""Time bounds that scale with the machine's speed now (its load included): a cost test bounds the work it
guards against (an alias bomb, a runaway condition) by a multiple of what a fixed piece of work takes on this
machine at this moment, not by seconds measured on a developer's machine."""

from __future__ import annotations

import json
import time

#: seconds :func:`reference_work` took on the machine the bounds were written on (an idle core)
REFERENCE = 0.02


def reference_work() -> float:
    """Seconds a fixed piece of pure-Python work (arithmetic, dicts, JSON) takes now; the best of three."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        data = {str(i): [i, i * i, str(i)] for i in range(20_000)}
        json.loads(json.dumps(data))
        sum(v[1] for v in data.values())
        best = min(best, time.perf_counter() - start)
    return best


def scaled(seconds: float) -> float:
    """``seconds`` (a bound written for the reference machine) for this machine now: never less than
    ``seconds``, more when the fixed work is slower here."""
    return seconds * max(1.0, reference_work() / REFERENCE)
