"""A process killed (SIGKILL) in the middle of writing loses at most the attempt in flight."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import crewkit
from crewkit.campaign.store import Logbook

REPO_ROOT = Path(crewkit.__file__).resolve().parents[1]

WRITER = """
import sys
from pathlib import Path
from crewkit.campaign.store import Logbook

book = Logbook.open(Path(sys.argv[1]))
for i in range(1, 1_000_000):
    book.record_attempt(
        campaign="planet-nine", mission=f"planet-nine/{i % 50 + 1:02d}", players=4, ruleset="crew",
        seed=str(i), result="failure", reason="x" * 200, distress_used=i % 7 == 0,
    )
    print(i, flush=True)  # the marker: attempt i is committed
"""

IN_FLIGHT = """
import sys, time
from pathlib import Path
from crewkit.campaign.store import Logbook

book = Logbook.open(Path(sys.argv[1]))
for i in range(1, 4):
    book.record_attempt(
        campaign="planet-nine", mission="planet-nine/01", players=4, ruleset="crew",
        seed=str(i), result="failure", reason="committed", distress_used=False,
    )
with book._transaction() as conn:  # a write that is never committed
    for i in range(500):
        conn.execute(
            "INSERT INTO attempts (campaign, mission, players, ruleset, seed, result, reason, distress_used,"
            " recorded_at, record_path) VALUES ('planet-nine', 'planet-nine/02', 4, 'crew', ?, 'success',"
            " 'in flight', 0, '2024-01-01T00:00:00+00:00', NULL)",
            (str(i),),
        )
    print("in-flight", flush=True)
    time.sleep(120)
"""


def _spawn(script: str, path: Path) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _kill_after(proc: subprocess.Popen[str], marker: str) -> list[str]:
    """Read stdout lines until ``marker``, then SIGKILL the process (TerminateProcess on Windows)."""
    assert proc.stdout is not None
    seen: list[str] = []
    try:
        for line in proc.stdout:
            seen.append(line.strip())
            if line.strip() == marker:
                proc.kill()
                break
        else:  # pragma: no cover - the writer died on its own
            _, err = proc.communicate(timeout=10)
            pytest.fail(f"writer exited early:\n{err}")
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    return seen


def _assert_healthy(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()


@pytest.mark.parametrize("k", [1, 17, 120])
def test_sigkill_mid_write_keeps_committed_attempts(tmp_path: Path, k: int) -> None:
    path = tmp_path / "logbook.sqlite3"
    proc = _spawn(WRITER, path)
    _kill_after(proc, str(k))
    assert proc.returncode != 0  # it really was killed
    assert Path(f"{path}-wal").exists()  # ... with its write-ahead log still to be recovered

    with Logbook.open(path) as book:  # opens: not corrupt, not refused
        attempts = book.attempts()
        assert len(attempts) >= k
        assert [a.seed for a in attempts] == [str(i) for i in range(1, len(attempts) + 1)]  # no gaps
        assert all(a.reason == "x" * 200 for a in attempts)
        new_id = book.record_attempt(
            campaign="planet-nine",
            mission="planet-nine/01",
            players=4,
            ruleset="crew",
            seed="after",
            result="success",
            reason="",
            distress_used=False,
        )
        assert new_id == attempts[-1].id + 1
    _assert_healthy(path)


def test_sigkill_with_a_transaction_in_flight_loses_only_that_write(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    proc = _spawn(IN_FLIGHT, path)
    _kill_after(proc, "in-flight")

    with Logbook.open(path) as book:
        attempts = book.attempts()
        assert [a.reason for a in attempts] == ["committed"] * 3
        assert book.progress("planet-nine", ["planet-nine/01", "planet-nine/02"])[1].attempts == 0
    _assert_healthy(path)
