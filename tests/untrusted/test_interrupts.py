"""Ctrl-C is quiet everywhere and leaves no temporary file (issue 26).

A terminal sends Ctrl-C (SIGINT) to the whole foreground process group: the command and its worker processes.
The command stops with ``interrupted`` and exit 130; no worker prints a traceback.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crewkit.analysis.pool import available_cpus
from crewkit.campaign.store import Logbook
from tests.untrusted.harness import ROOT

#: CPU seconds a worker process has used when it counts as working: its start-up takes a few hundredths, the
#: first jobs of these commands a few tenths. (A Ctrl-C in the first second of the jobs, under a load of 7, met
#: a race of Python 3.11's process pool at exit, "Bad file descriptor" printed; crewkit.analysis.pool.stop_pool
#: now waits for the pool's manager thread, which that race needs)
WORKING_CPU = 1.0


def _per_thread(pid: int, name: str) -> list[str]:
    """``/proc/PID/task/TID/NAME`` of every thread of process ``pid`` that still has it."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/{name}") as f:
                found.append(f.read())
        except OSError:
            continue
    return found


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads."""
    return [int(child) for text in _per_thread(pid, "children") for child in text.split()]


def _working(pid: int, cpu: float = WORKING_CPU) -> bool:
    """Process ``pid`` has used ``cpu`` seconds (a worker past its start-up, at its jobs)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= cpu  # utime + stime


def _wait_for_workers(proc: subprocess.Popen[str], count: int, cpu: float = WORKING_CPU,
                      limit: float = 120.0) -> None:
    """Until ``count`` worker processes of ``proc`` are working (instead of a fixed wait long enough for them;
    a first run compiles the C search in the workers, in processes of their own, first)."""
    start = time.monotonic()
    while sum(_working(child, cpu) for child in _children(proc.pid)) < count:
        assert proc.poll() is None, f"the command ended before its workers worked: {proc.communicate()}"
        assert time.monotonic() - start < limit, f"no {count} working worker processes after {limit} s"
        time.sleep(0.05)


def _reading_a_pipe(pid: int) -> bool:
    """A thread of process ``pid`` waits in the kernel for data on a pipe (its stdin)."""
    return any("pipe_read" in wchan for wchan in _per_thread(pid, "wchan"))  # or anon_pipe_read, newer kernels


def _interrupted(args: list[str], after: float, env: dict[str, str] | None = None,
                 limit: float = 90.0, stdin: int | None = None, workers: int = 0, worker_cpu: float = WORKING_CPU,
                 reading: bool = False) -> tuple[int, str, str, float]:
    """Run ``crewkit ARGS``, wait for ``workers`` of its worker processes to be working, press Ctrl-C ``after``
    seconds later and again every 2 s (an impatient user) until it ends; (exit code, stdout, stderr, seconds
    from the first Ctrl-C to the end). ``reading``: ``after`` is at most that; Ctrl-C as soon as the command
    reads its stdin pipe."""
    child_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "crewkit", *args], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=child_env, start_new_session=True)
    try:
        _wait_for_workers(proc, workers, worker_cpu)
        start = time.monotonic()
        while reading and not _reading_a_pipe(proc.pid) and time.monotonic() - start < after:
            time.sleep(0.02)
        if not reading:
            time.sleep(after)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    first = time.monotonic()
    try:
        while proc.poll() is None and time.monotonic() - first < limit:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                continue
        out, err = proc.communicate(timeout=10)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return proc.returncode, out, err, time.monotonic() - first


def _quiet(code: int, err: str) -> None:
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1] == "interrupted", err


@pytest.mark.parametrize("args", [
    ["simulate", "--mission", "planet-nine/10", "--games", "1000000", "--workers", "2", "--bot", "expert"],
    ["simulate", "--ruleset", "not-alone", "--games", "1000000", "--workers", "2"],
    ["winnability", "--tasks", "1-10", "--deals", "1000", "--workers", "2"],
    ["check", "planet-nine/10", "--games", "100000", "--workers", "2", "--bot", "expert"],
    ["solve", "--mission", "planet-nine/44", "--players", "5", "--seed", "s"],
])
def test_ctrl_c_with_worker_processes_is_quiet(args: list[str]) -> None:
    """Ctrl-C while the workers are at their jobs (``--workers 2``: as many as there are CPUs, up to 2); the
    solver, which has none, is interrupted in its search (it starts searching within about a second)."""
    if "--workers" in args:
        code, _, err, seconds = _interrupted(args, after=0.2, workers=min(2, available_cpus()))
    else:
        code, _, err, seconds = _interrupted(args, after=3)
    _quiet(code, err)
    assert seconds < 15


def test_ctrl_c_with_a_local_dask_cluster_is_quiet() -> None:
    pytest.importorskip("distributed")
    # the cluster's two worker processes (spawned: their imports take about a second of CPU) at their jobs
    code, _, err, _ = _interrupted(["simulate", "--mission", "planet-nine/01", "--games", "10000000", "--cluster",
                                    "local", "--workers", "2", "--bot", "random"], after=0.2,
                                   workers=min(2, available_cpus()), worker_cpu=2.0)
    _quiet(code, err)


def test_ctrl_c_in_the_language_server_is_exit_130() -> None:
    """pygls swallows the KeyboardInterrupt: the server stopped with exit 0, as if the editor had said exit."""
    pytest.importorskip("pygls")
    # the editor's pipe, open; Ctrl-C once the server reads it (within 3 s)
    code, out, err, seconds = _interrupted(["lsp"], after=3, stdin=subprocess.PIPE, reading=True)
    _quiet(code, err)
    assert out == ""
    assert seconds < 10


def _big_logbook(path: Path, rows: int) -> None:
    Logbook.open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO attempts (campaign, mission, players, ruleset, seed, result, reason, distress_used, "
        "recorded_at, record_path) VALUES ('planet-nine', 'planet-nine/01', 4, 'crew', ?, 'failure', ?, 0, "
        "'2024-01-01T00:00:00+00:00', NULL)",
        ((f"s{i}", "r" * 400) for i in range(rows)))
    conn.execute("COMMIT")
    conn.close()


@pytest.mark.parametrize("after", [1.0, 1.6, 2.2])
def test_ctrl_c_during_campaign_reset_leaves_no_temporary_file(tmp_path: Path, after: float) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = home / "logbook.sqlite3"
    _big_logbook(path, 60_000)  # about 30 MB: the copy takes a while
    code, _, err, _ = _interrupted(["campaign", "reset", "--yes"], after=after, env={"CREWKIT_HOME": str(home)})
    assert code in (0, 130), err
    assert "Traceback" not in err
    left = sorted(p.name for p in home.iterdir() if p.name.endswith((".tmp", "-journal")))
    assert left == [], left
    kept = sum(sqlite3.connect(p).execute("SELECT count(*) FROM attempts").fetchone()[0]
               for p in home.glob("logbook*.sqlite3*") if not p.name.endswith(("-wal", "-shm")))
    assert kept in (60_000, 120_000)  # interrupted: all still in the logbook; done: all in the backup too


def test_ctrl_c_while_crewkit_starts_is_quiet() -> None:
    """Ctrl-C a few milliseconds into loading the command line (its imports take about 0.1 s)."""
    code = ("import os, signal\n"
            "signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.SIGINT))\n"
            "signal.setitimer(signal.ITIMER_REAL, 0.005)\n"
            "from crewkit.cli import main\n"
            "print('not interrupted')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if "not interrupted" in proc.stdout:
        pytest.skip("the imports finished within 5 ms")
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "interrupted", proc.stderr


def test_ctrl_c_while_crewkit_exits_is_ignored() -> None:
    """Once the command's work is done, Python's shutdown would put back the default action of Ctrl-C (death by
    the signal, exit -2: a reset interrupted just as it finished); the `crewkit` command ignores it from then."""
    code = ("import signal, sys\n"
            "sys.argv = ['crewkit', 'list']\n"
            "from crewkit.cli import main\n"
            "main()\n"
            "print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "True", proc.stdout
