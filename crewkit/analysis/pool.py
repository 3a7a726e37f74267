"""Worker processes for the analysis tools (simulate, compare, winnability): how many, and feeding them
without queueing every game at once (:func:`run_jobs`, the one entry point).

``--workers N`` is capped at the CPUs this process may use (more processes than CPUs only add memory and
switching) and at the number of jobs, unless the user asks for more with ``--oversubscribe``; the command
says so when it lowers the number. Jobs are submitted lazily: at most a few chunks per worker are in flight,
so ``--games 1000000000`` costs no more memory up front than ``--games 1000``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import Executor, Future, ProcessPoolExecutor
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


ProgressCallback = Callable[[int, int], None]  # (jobs done, jobs in all)


def run_jobs(
    fn: Callable[[T], R],
    jobs: Iterable[T],
    *,
    total: int | None = None,
    workers: int = 1,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    progress: ProgressCallback | None = None,
    max_chunk: int = 16,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
) -> tuple[list[R], int]:
    """``fn`` over ``jobs``: (results in job order, the number of processes used). The one pool of the
    analysis tools (simulate, compare, winnability): the same results for any ``workers``.

    ``jobs`` may be a generator (then give ``total``); it is consumed as workers free up (:func:`lazy_map`).
    ``workers`` is capped by :func:`worker_count` (``on_note`` hears why). One process runs everything here
    (no pool) when ``workers`` is 1 or there is a single job; ``initializer(*initargs)`` runs once per
    process (and once here) to load what every job needs. Chunks of up to ``max_chunk`` jobs go to a worker
    at a time (1 for jobs of very uneven length, such as solving). ``progress(done, total)`` follows each job.
    ``fn`` and its arguments must be top-level and picklable.
    """
    if total is None:
        if not isinstance(jobs, Sized):
            raise TypeError("run_jobs: give total= for jobs without a length")
        total = len(jobs)
    workers, note = worker_count(workers, total, oversubscribe=oversubscribe)
    if note is not None and on_note is not None:
        on_note(note)
    out: list[R] = []
    if workers == 1 or total <= 1:
        if initializer is not None:
            initializer(*initargs)
        for n, job in enumerate(jobs, start=1):
            out.append(fn(job))
            if progress is not None:
                progress(n, total)
        return out, 1
    chunksize = max(1, min(max_chunk, total // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers, initializer=initializer, initargs=initargs) as pool:
        for n, (_, res) in enumerate(lazy_map(pool, fn, jobs, workers=workers, chunksize=chunksize), start=1):
            out.append(res)
            if progress is not None:
                progress(n, total)
    return out, workers
