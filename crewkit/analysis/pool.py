"""Worker processes for the analysis tools (simulate, compare, winnability): how many, and feeding them
without queueing every game at once (:func:`run_jobs`, the one entry point).

``--workers N`` is capped at the CPUs this process may use (more processes than CPUs only add memory and
switching) and at the number of jobs, unless the user asks for more with ``--oversubscribe``; the command
says so when it lowers the number. Jobs are submitted lazily: at most a few chunks per worker are in flight,
so ``--games 1000000000`` costs no more memory up front than ``--games 1000``.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar

from crewkit.analysis.stats import wilson_interval
from crewkit.errors import CrewkitError

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
    ``fn`` and its arguments must be top-level and picklable. :func:`iter_jobs` hands the results over one by
    one instead (for many jobs whose results are counted, not kept).
    """
    stream = iter_jobs(fn, jobs, total=total, workers=workers, initializer=initializer, initargs=initargs,
                       progress=progress, max_chunk=max_chunk, oversubscribe=oversubscribe, on_note=on_note)
    out = [result for _, result in stream]
    return out, stream.workers


class JobStream(Generic[T, R]):
    """The ``(job, result)`` pairs of :func:`iter_jobs`, in job order; ``workers``: the processes used."""

    def __init__(self, pairs: Iterator[tuple[T, R]], workers: int) -> None:
        self._pairs = pairs
        self.workers = workers

    def __iter__(self) -> Iterator[tuple[T, R]]:
        return self._pairs


def iter_jobs(
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
) -> JobStream[T, R]:
    """:func:`run_jobs`, handing over ``(job, result)`` in job order as results come: neither the jobs nor the
    results are ever all in memory (``--deals 100000000`` costs what ``--deals 100`` does up front)."""
    if total is None:
        if not isinstance(jobs, Sized):
            raise TypeError("run_jobs: give total= for jobs without a length")
        total = len(jobs)
    count, note = worker_count(workers, total, oversubscribe=oversubscribe)
    if note is not None and on_note is not None:
        on_note(note)
    return JobStream(_pairs(fn, jobs, total, count, initializer, initargs, progress, max_chunk),
                     1 if count == 1 or total <= 1 else count)


def _pairs(fn: Callable[[T], R], jobs: Iterable[T], total: int, workers: int,
           initializer: Callable[..., None] | None, initargs: tuple[Any, ...], progress: ProgressCallback | None,
           max_chunk: int) -> Iterator[tuple[T, R]]:
    if workers == 1 or total <= 1:
        if initializer is not None:
            initializer(*initargs)
        for n, job in enumerate(jobs, start=1):
            yield job, fn(job)
            if progress is not None:
                progress(n, total)
        return
    chunksize = max(1, min(max_chunk, total // (workers * 8)))
    pool = ProcessPoolExecutor(max_workers=workers, initializer=quiet_worker, initargs=(initializer, initargs))
    try:
        for n, pair in enumerate(lazy_map(pool, fn, jobs, workers=workers, chunksize=chunksize), start=1):
            yield pair
            if progress is not None:
                progress(n, total)
    except BaseException:  # Ctrl-C, an error, or the consumer stopped: the workers stop now
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def stop_pool(pool: Executor) -> None:
    """Stop ``pool`` at once: queued jobs cancelled, the worker processes ended in the middle of their jobs
    (they ignore Ctrl-C: :func:`quiet_worker`), nothing waited for."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
    manager = getattr(pool, "_executor_manager_thread", None)
    _quiet_broken_pool()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    # The pool's manager thread, finding its workers ended, closes its wake-up pipe. Python 3.11's exit wakes
    # every such thread without a lock: one still closing its pipe then raised "Bad file descriptor" at exit
    # (printed under load). It ends within moments of its workers; waited for, bounded, it is done first.
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(timeout=2.0)


def _quiet_broken_pool() -> None:
    """The pool's manager thread, finding its workers ended, marks every pending job failed, the cancelled ones
    too: Python 3.11 then raises ``InvalidStateError`` in that thread, whose traceback would be printed. A
    stopped pool's jobs are of no interest: that one error of that thread is not printed."""
    previous = threading.excepthook
    if getattr(previous, "_crewkit_quiet", False):
        return

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is not None and issubclass(args.exc_type, InvalidStateError):
            return
        previous(args)

    hook._crewkit_quiet = True  # type: ignore[attr-defined]
    threading.excepthook = hook


def quiet_worker(initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()) -> None:
    """A worker process's first step: Ctrl-C is for the command, which stops its workers itself (a worker that
    took it too would print its traceback), then the jobs' own ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


# ---------------------------------------------------------------------------- executors (local or Dask)
class ClusterUnavailable(CrewkitError, RuntimeError):
    """``--cluster`` cannot be used: Dask distributed is not installed, or no scheduler answers at the address
    (the message says which, and what to do): exit 1."""


_INIT_DONE: dict[str, Any] = {"key": None}


def _run_chunk_init(initializer: Callable[..., None] | None, initargs: tuple[Any, ...], key: str,
                    fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """A chunk on a worker that may not have run ``initializer`` yet (a Dask worker, perhaps a new one
    after another was lost): run it once per worker process and ``key``."""
    if initializer is not None and _INIT_DONE["key"] != key:
        initializer(*initargs)
        _INIT_DONE["key"] = key
    return [fn(item) for item in items]


class _Pool:
    """Where chunks of jobs run: a local process pool, or a Dask cluster (``--cluster``)."""

    def __init__(self, workers: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...],
                 cluster: str | None) -> None:
        self.initializer = initializer
        self.initargs = initargs
        self.cluster = cluster
        self.workers = workers
        self._client: Any = None
        self._local: Any = None
        self._pool: Executor | None = None
        self.key = f"{id(self)}:{os.getpid()}:{time.time_ns()}"

    def __enter__(self) -> _Pool:
        if self.cluster is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=quiet_worker,
                                             initargs=(self.initializer, self.initargs))
            return self
        client_cls, local_cls = require_distributed()
        if self.cluster == "local":
            with _sigint_ignored():  # the worker processes it starts inherit it: Ctrl-C is for this command
                # no dashboard; the scheduler's own HTTP endpoints on a free loopback port (its default, 8787,
                # taken by another cluster, made Dask warn on stderr)
                self._local = local_cls(n_workers=self.workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None, silence_logs=logging.CRITICAL,
                                        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})
            self._client = client_cls(self._local)
        else:
            _check_reachable(self.cluster)
            try:
                self._client = client_cls(self.cluster, timeout="20s")
            except OSError as exc:
                raise ClusterUnavailable(f"--cluster {self.cluster}: cannot reach a Dask scheduler there ({exc}); "
                                         "start one with `dask scheduler` and workers with "
                                         f"`dask worker {self.cluster}`") from None
            try:
                self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
            except Exception:  # scheduler_info is informative only
                self.workers = max(1, self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        # stopping on an error or Ctrl-C: a second Ctrl-C must not cut the clean-up short (a cluster left open
        # is closed again at exit, with a traceback when that is interrupted too)
        with _sigint_ignored() if exc[0] is not None else contextlib.nullcontext():
            if self._pool is not None:
                if exc[0] is not None:
                    stop_pool(self._pool)
                else:
                    self._pool.shutdown(wait=True)
            if self._client is not None:
                try:
                    self._client.close()
                finally:
                    if self._local is not None:
                        self._local.close()

    def submit(self, fn: Callable[[Any], Any], chunk: list[Any]) -> Any:
        if self._pool is not None:
            return self._pool.submit(_run_chunk, fn, chunk)
        return self._client.submit(_run_chunk_init, self.initializer, self.initargs, self.key, fn, chunk,
                                   pure=False, retries=3)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored while worker processes are started (they keep ignoring it: the command, which takes it,
    stops them; a worker that took it too would print its traceback)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _check_reachable(address: str, seconds: float = 5.0) -> None:
    """Raise :class:`ClusterUnavailable` at once when nothing listens at a ``tcp://`` address (Dask itself would
    retry for its whole timeout before saying so)."""
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    except ValueError:
        return  # left to Dask, which names what it cannot parse
    if parts.scheme != "tcp" or not host or not port:
        return
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except OSError as exc:
        raise ClusterUnavailable(f"--cluster {address}: nothing answers there ({exc.strerror or exc}); start a "
                                 f"scheduler with `dask scheduler` and workers with `dask worker {address}`") from None


def require_distributed() -> tuple[Any, Any]:
    """(``distributed.Client``, ``distributed.LocalCluster``), or :class:`ClusterUnavailable` saying how to
    install them."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterUnavailable('--cluster needs Dask distributed, which is not installed: '
                                 'pip install "crewkit[dask]" (or pip install distributed)') from None
    return Client, LocalCluster


# ---------------------------------------------------------------------------- precision
#: while a foreground stream is open, a background stream is fed one block every this many rounds
BACKGROUND_EVERY = 8


@dataclass(frozen=True)
class Target:
    """How many games a stream plays: up to ``max_games``; with ``precision`` H, it stops at the first
    checkpoint (every ``checkpoint`` games, from ``min_games`` on) where the 95% Wilson interval of its
    success rate is at most ±H. Checkpoints are fixed game counts, so where a stream stops depends only on
    the outcomes of its games (seeded by index), never on the number of workers or the order they finish."""

    max_games: int
    precision: float | None = None
    checkpoint: int = 25
    min_games: int = 0
    blocks: bool = False  # fed in blocks of ``checkpoint`` also without a precision (else all at once)
    # a stream behind the others: while a stream that is not in the background is open, it gets one block per
    # BACKGROUND_EVERY rounds (``crewkit check``'s solver, so that the bots' estimate is refined first)
    background: bool = False

    def reached(self, successes: int, games: int) -> bool:
        if games >= self.max_games:
            return True
        if self.precision is None or games < max(1, self.min_games):
            return False
        low, high = wilson_interval(successes, games)
        return (high - low) / 2 <= self.precision + 1e-12

    def estimate(self, successes: int, games: int) -> int:
        """Games this stream will probably need in all (a guess for the progress bar's ETA)."""
        if self.precision is None:
            return self.max_games
        p = (successes + 1) / (games + 2)
        need = p * (1 - p) * (1.96 / self.precision) ** 2
        step = max(1, self.checkpoint)
        need = max(games + (0 if self.reached(successes, games) else step), int(math.ceil(need / step)) * step)
        return min(self.max_games, max(need, self.min_games))


@dataclass
class Status:
    """Progress of :func:`run_streams`: games counted so far, the estimated total, and the widest ±
    half-width (None before the first game of every stream)."""

    done: int
    total: int
    half_width: float | None
    streams_open: int


StatusCallback = Callable[[Status], None]


def half_width(successes: int, games: int) -> float:
    low, high = wilson_interval(successes, games)
    return (high - low) / 2


def run_streams(
    fn: Callable[[tuple[Any, int]], R],
    streams: Sequence[Any],
    success: Callable[[R], bool],
    target: Target | Mapping[Any, Target],
    *,
    paired: bool = False,
    workers: int = 1,
    cluster: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    status: StatusCallback | None = None,
    max_chunk: int = 16,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    on_result: Callable[[Any, int, R], None] | None = None,
) -> tuple[dict[Any, list[R]], int]:
    """``fn((stream, i))`` for games ``i = 0, 1, ...`` of each stream until its target says stop: results
    per stream in index order, and the number of processes used.

    Games are fed in blocks of ``target.checkpoint`` per stream (round robin over the open streams). ``target``
    may be one per stream (a mapping; not with ``paired``): a stream with its own cap, precision and block size
    (``crewkit check`` runs its solver beside the bots in blocks of one). With ``paired`` every stream stops at
    the same checkpoint, when all of them have reached the target (so compared variants keep playing the
    same deals). Local processes (``workers``) or a Dask cluster (``cluster``: an address, or ``"local"``
    for a LocalCluster of ``workers`` processes) run the games; a few blocks may run past a stream's stop
    while earlier results come back: they are dropped, so results never depend on the workers. Results are
    keyed by index: a game rerun on another worker counts once. ``on_result(stream, i, result)`` hears each
    result as it is counted, in index order per stream (what a caller interrupted by Ctrl-C has so far).
    """
    streams = list(streams)
    if isinstance(target, Target):
        targets = dict.fromkeys(streams, target)
    else:
        if paired:
            raise ValueError("paired streams share one target")
        targets = {s: target[s] for s in streams}

    def step_of(s: Any) -> int:
        t = targets[s]
        return max(1, t.checkpoint) if t.precision is not None or t.blocks else max(1, t.max_games)

    steps = {s: step_of(s) for s in streams}
    results: dict[Any, list[R]] = {s: [] for s in streams}
    wins: dict[Any, int] = dict.fromkeys(streams, 0)
    stop: dict[Any, int | None] = dict.fromkeys(streams, None)  # games counted, once decided

    def total_estimate() -> int:
        return sum(len(results[s]) if stop[s] is not None else targets[s].estimate(wins[s], len(results[s]))
                   for s in streams)

    measured = [s for s in streams if targets[s].precision is not None] or streams

    def report() -> None:
        if status is None:
            return
        widths = [half_width(wins[s], len(results[s])) for s in measured if results[s]]
        open_ = sum(1 for s in streams if stop[s] is None)
        status(Status(sum(len(results[s]) for s in streams), total_estimate(),
                      max(widths) if widths and len(widths) == len(measured) else None, open_))

    def decide(live: list[Any], block_end: int) -> None:
        """Every stream of ``live`` has its results up to ``block_end`` games: which of them stop here?"""
        done = {s: targets[s].reached(wins[s], block_end) for s in live}
        if paired:
            if all(done.values()):
                for s in live:
                    stop[s] = block_end
        else:
            for s in live:
                if done[s]:
                    stop[s] = block_end

    def jobs() -> Iterator[tuple[Any, int]]:
        start = dict.fromkeys(streams, 0)
        rounds = 0
        while True:
            live = [s for s in streams if stop[s] is None and start[s] < targets[s].max_games]
            if not live:
                return
            ahead = any(not targets[s].background for s in live)
            for s in live:
                if targets[s].background and ahead and rounds % BACKGROUND_EVERY:
                    continue
                end = min(targets[s].max_games, start[s] + steps[s])
                for i in range(start[s], end):
                    yield (s, i)
                start[s] = end
            rounds += 1

    def consume(job: tuple[Any, int], res: R) -> None:
        s, i = job
        if stop[s] is not None or i != len(results[s]):
            return  # past the stream's stop (speculative) or already counted
        results[s].append(res)
        wins[s] += bool(success(res))
        if on_result is not None:
            on_result(s, i, res)
        n = len(results[s])
        if n % steps[s] == 0 or n == targets[s].max_games:
            if paired:
                # a block ends: decide once every open stream has reached the same count
                live = [x for x in streams if stop[x] is None]
                if all(len(results[x]) >= n for x in live):
                    decide(live, n)
            else:
                decide([s], n)
        report()

    est_jobs = max(1, sum(targets[s].max_games if targets[s].precision is None else steps[s] * 4 for s in streams))
    workers, note = (worker_count(workers, est_jobs, oversubscribe=oversubscribe) if cluster is None
                     else (max(1, workers), None))
    if note is not None and on_note is not None:
        on_note(note)
    if cluster is None and (workers == 1 or est_jobs <= 1):
        if initializer is not None:
            initializer(*initargs)
        for job in jobs():
            consume(job, fn(job))
        return results, 1
    chunksize = max(1, min([max_chunk, est_jobs // (workers * 8), *steps.values()]))
    with _Pool(workers, initializer, initargs, cluster) as pool:
        for job, res in _lazy_chunks(pool, fn, jobs(), workers=pool.workers, chunksize=chunksize):
            consume(job, res)
        used = pool.workers
    return results, used


def _lazy_chunks(pool: _Pool, fn: Callable[[T], R], items: Iterable[T], *, workers: int,
                 chunksize: int) -> Iterator[tuple[T, R]]:
    """:func:`lazy_map` over a :class:`_Pool` (local or Dask)."""
    source = iter(items)
    pending: deque[tuple[list[T], Any]] = deque()

    def submit() -> bool:
        chunk = list(islice(source, max(1, chunksize)))
        if not chunk:
            return False
        pending.append((chunk, pool.submit(fn, chunk)))
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
