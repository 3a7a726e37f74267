"""Run crewkit on a hostile input the way a user would, with a wall-clock and a memory bound.

Every test of ``tests/untrusted/`` goes through :func:`run_bounded`: a separate process (so a hang or a
runaway allocation cannot take the test session down), an address-space limit set in the child before it
starts, and a timeout. The result says how long it took, so a test can state its own time bound.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: generous for an interpreter with crewkit, jsonschema and lark loaded; far below what a runaway needs
DEFAULT_MEMORY_MB = 1024
DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class BoundedRun:
    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _limit_memory(megabytes: int) -> None:
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_bounded(
    *args: str,
    cwd: Path | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> BoundedRun:
    """``python -m crewkit ARGS`` in a child process bounded in time and memory."""
    child_env = dict(os.environ)
    # the checkout under test, whatever is installed
    child_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), child_env.get("PYTHONPATH", "")]))
    child_env.setdefault("COLUMNS", "120")
    if env:
        child_env.update(env)
    start = time.monotonic()
    # its own session, so that a timeout ends the child's worker processes too (killpg), not only the child
    proc = subprocess.Popen(
        [sys.executable, "-m", "crewkit", *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        cwd=cwd or ROOT,
        env=child_env,
        start_new_session=True,
        preexec_fn=lambda: _limit_memory(memory_mb),
    )
    try:
        out, err = proc.communicate(input=stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return BoundedRun(tuple(args), -1, out or "", err or "", time.monotonic() - start, True)
    finally:
        _kill_group(proc)  # leftovers of a child that exited (its workers), if any
    return BoundedRun(tuple(args), proc.returncode, out, err, time.monotonic() - start, False)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def assert_refused(run: BoundedRun, fragment: str, *, max_seconds: float = 10.0, code: int = 1) -> None:
    """The input ended within the bound, with the expected exit code, a message and no traceback."""
    assert not run.timed_out, f"{run.args} did not end within its timeout ({run.seconds:.1f} s)"
    assert run.seconds <= max_seconds, f"{run.args} took {run.seconds:.1f} s (bound {max_seconds} s)"
    assert run.returncode == code, f"{run.args}: exit {run.returncode}, expected {code}\n{run.output}"
    assert "Traceback" not in run.output, run.output
    assert "This is a bug in crewkit" not in run.output, run.output
    assert fragment in run.output, f"{fragment!r} not in the output of {run.args}:\n{run.output}"
