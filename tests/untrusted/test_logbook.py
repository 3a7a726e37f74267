"""The logbook under hostile conditions: a concurrent reset, a read-only home, corrupt values."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.campaign.store import Logbook
from tests.untrusted.harness import ROOT, assert_refused, run_bounded


def _record(book: Logbook, seed: str, players: int = 4) -> None:
    book.record_attempt(campaign="planet-nine", mission="planet-nine/01", players=players, ruleset="crew",
                        seed=seed, result="failure", reason="r", distress_used=False)


def _seeds(path: Path) -> list[str]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT seed FROM attempts ORDER BY id")]
    finally:
        conn.close()


_WRITER = """
import pathlib, sys, time
from crewkit.campaign.store import Logbook
path, n, chunks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
folder = pathlib.Path(path).parent
with Logbook.open(path) as book:
    for i in range(n):
        book.record_attempt(campaign="planet-nine", mission="planet-nine/01", players=4, ruleset="crew",
                            seed=f"w{i}", result="failure", reason="r", distress_used=False)
        time.sleep(0.004)  # leave the resetting process room to take the lock
        if (i + 1) % (n // chunks) == 0:  # interleaved whatever the machine's speed: a reset per chunk first
            start = time.monotonic()
            while len(list(folder.glob("logbook-*.sqlite3.bak"))) < min((i + 1) // (n // chunks), chunks - 1):
                assert time.monotonic() - start < 120, "no reset came"
                time.sleep(0.002)
(folder / "writer-done").touch()
"""

_RESETTER = """
import pathlib, sqlite3, sys, time
from crewkit.campaign.store import Logbook
path, n = sys.argv[1], int(sys.argv[2])
folder = pathlib.Path(path).parent

def attempts():
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
    finally:
        conn.close()

for _ in range(n):
    while not attempts() and not (folder / "writer-done").exists():  # a reset with attempts to back up
        time.sleep(0.002)
    with Logbook.open(path) as book:
        book.reset()
"""


def test_reset_while_another_process_records_loses_no_attempt(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    Logbook.open(path).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    attempts, resets = 600, 25
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(attempts), str(resets)], env=env)
    resetter = subprocess.Popen([sys.executable, "-c", _RESETTER, str(path), str(resets)], env=env)
    try:
        assert writer.wait(timeout=120) == 0
        assert resetter.wait(timeout=120) == 0
    finally:
        for proc in (writer, resetter):
            if proc.poll() is None:
                proc.kill()
    backups = sorted(tmp_path.glob("logbook-*.sqlite3.bak"))
    assert len(backups) == resets
    kept = [seed for backup in backups for seed in _seeds(backup)] + _seeds(path)
    assert sum(1 for b in backups if _seeds(b)) >= 3, "the resets did not interleave with the recording"
    # every committed attempt is in exactly one place: a backup or the logbook
    assert sorted(kept) == sorted(f"w{i}" for i in range(attempts))


def test_backup_is_a_logbook_itself(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    with Logbook.open(path) as book:
        _record(book, "a")
        _record(book, "b")
        backup = book.reset()
        assert book.attempts() == []
    with Logbook.open(backup) as old:
        assert [a.seed for a in old.attempts()] == ["a", "b"]


def _corrupt_players(path: Path) -> bytes:
    with Logbook.open(path) as book:
        _record(book, "s")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")  # a file SQLite would switch back to WAL on opening
    conn.execute("UPDATE attempts SET players = 'many'")
    conn.close()
    return path.read_bytes()


def test_corrupt_players_value_is_a_message_and_the_file_is_untouched(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = home / "logbook.sqlite3"
    before = _corrupt_players(path)
    run = run_bounded("campaign", "status", env={"CREWKIT_HOME": str(home)})
    assert_refused(run, "is damaged", max_seconds=10)
    assert "player count" in run.output
    assert path.read_bytes() == before, "status must not modify a file it refuses"
    assert sorted(p.name for p in home.iterdir()) == ["logbook.sqlite3"]
    # opening it for writing refuses it the same way, before any write
    run = run_bounded("campaign", "reset", "--yes", env={"CREWKIT_HOME": str(home)})
    assert_refused(run, "is damaged", max_seconds=10)
    assert path.read_bytes() == before


def _without_write_permission() -> list[str]:
    """A command prefix under which file permissions apply (root ignores them unless it drops the capability)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a folder read-only for this process")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]


def test_read_only_home_reads_a_healthy_logbook(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = home / "logbook.sqlite3"
    with Logbook.open(path) as book:
        book.record_attempt(campaign="planet-nine", mission="planet-nine/01", players=4, ruleset="crew",
                            seed="s", result="success", reason="", distress_used=False)
    before = path.read_bytes()
    home.chmod(0o555)
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CREWKIT_HOME": str(home)}
        proc = subprocess.run([*_without_write_permission(), sys.executable, "-m", "crewkit", "campaign", "status"],
                              capture_output=True, text=True, env=env, timeout=60)
    finally:
        home.chmod(0o755)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "damaged" not in proc.stderr
    assert "missions done: 1/" in proc.stdout
    assert path.read_bytes() == before


def test_status_without_a_logbook_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run = run_bounded("campaign", "status", env={"CREWKIT_HOME": str(home)})
    assert run.returncode == 0, run.output
    assert "missions done: 0/" in run.stdout
    assert not (home / "logbook.sqlite3").exists()


def test_read_only_logbook_refuses_writes_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    Logbook.open(path).close()
    with Logbook.open(path, read_only=True) as book:
        with pytest.raises(Exception, match="read-only"):
            _record(book, "x")


