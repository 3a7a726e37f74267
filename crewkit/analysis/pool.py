"""One worker pool for the analysis tools (simulate, compare, winnability): jobs in order, any number of
processes, the same results for any ``workers``.

Worker functions and their arguments must be top-level and picklable; ``initializer(*initargs)`` runs once
per process (and once here when ``workers`` is 1) to load what every job needs, such as compiled rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

J = TypeVar("J")
R = TypeVar("R")

ProgressCallback = Callable[[int, int], None]


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int = 1,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    progress: ProgressCallback | None = None,
    max_chunk: int = 16,
) -> tuple[list[R], int]:
    """``fn`` over ``jobs``: (results in job order, the number of processes used).

    One process runs everything here (no pool) when ``workers`` is 1 or there is a single job. Chunks of
    up to ``max_chunk`` jobs go to a worker at a time (1 for jobs of very uneven length, such as solving).
    ``progress(done, total)`` is called after each job.
    """
    workers = max(1, int(workers))
    total = len(jobs)
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
        for n, res in enumerate(pool.map(fn, jobs, chunksize=chunksize), start=1):
            out.append(res)
            if progress is not None:
                progress(n, total)
    return out, workers


__all__ = ["ProgressCallback", "run_jobs"]
