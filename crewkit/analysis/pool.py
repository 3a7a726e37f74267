"""Worker processes for the analysis tools: how many, and feeding them without queueing every game at once.

``--workers N`` is capped at the CPUs this process may use (more processes than CPUs only add memory and
switching) and at the number of jobs, unless the user asks for more with ``--oversubscribe``; the command
says so when it lowers the number. Jobs are submitted lazily: at most a few chunks per worker are in flight,
so ``--games 1000000000`` costs no more memory up front than ``--games 1000``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from itertools import islice
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: chunks in flight per worker: enough to keep every worker busy, few enough to bound memory
IN_FLIGHT_PER_WORKER = 4


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_count(requested: int, jobs: int, *, oversubscribe: bool = False) -> tuple[int, str | None]:
    """The number of processes to start for ``jobs`` jobs, and a note for the user when it is not ``requested``."""
    count = max(1, int(requested))
    note = None
    cpus = available_cpus()
    if count > cpus and not oversubscribe:
        note = (f"--workers {count} lowered to {cpus}, the number of CPUs available "
                "(add --oversubscribe to start more processes than CPUs)")
        count = cpus
    return max(1, min(count, jobs)), note


def _run_chunk(fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    return [fn(item) for item in items]


def lazy_map(pool: Executor, fn: Callable[[T], R], items: Iterable[T], *, workers: int,
             chunksize: int = 1) -> Iterator[tuple[T, R]]:
    """``(item, fn(item))`` in the order of ``items``, run on ``pool`` with a bounded number of chunks in flight.

    ``Executor.map`` submits every item before yielding the first result; this submits the next chunk only
    when one has been consumed. ``fn`` must be picklable (a module-level function).
    """
    source = iter(items)
    pending: deque[tuple[list[T], Future[list[R]]]] = deque()

    def submit() -> bool:
        chunk = list(islice(source, max(1, chunksize)))
        if not chunk:
            return False
        pending.append((chunk, pool.submit(_run_chunk, fn, chunk)))
        return True

    for _ in range(max(1, workers) * IN_FLIGHT_PER_WORKER):
        if not submit():
            break
    try:
        while pending:
            chunk, future = pending.popleft()
            results = future.result()
            submit()
            yield from zip(chunk, results, strict=True)
    finally:
        for _, future in pending:
            future.cancel()
