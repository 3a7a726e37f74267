"""Logbook: attempt arithmetic (RULES.md §1 "Distress signal", "Logbook"), persistence, refusal, reset."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from crewkit.campaign.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Logbook,
    LogbookError,
    MissionProgress,
)

Recorder = Callable[..., list[int]]
CAMPAIGN = "planet-nine"
MISSIONS = [f"planet-nine/{n:02d}" for n in range(1, 51)]
M1, M2, M3, M4 = MISSIONS[:4]


# -- arithmetic ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "distress", "expected", "done"),
    [
        (["failure", "failure", "success"], [False, False, False], 3, True),
        (["failure", "success"], [True, True], 3, True),  # signal used in attempt 1, stays active
        (["failure", "success"], [True, False], 3, True),  # "used in any of them" even if not flagged later
        (["failure", "success"], [False, True], 3, True),
        (["success"], [True], 2, True),  # success on the first try with the signal
        (["success"], [False], 1, True),
        (["failure", "failure"], [False, False], 2, False),  # not yet done: attempts so far
        (["failure", "failure"], [True, True], 2, False),  # no distress extra until the mission is won
        (["abandoned", "failure", "success"], [False, False, False], 3, True),  # abandoned counts
        ([], [], 0, False),
    ],
)
def test_logbook_count(
    logbook: Logbook,
    record: Recorder,
    results: list[str],
    distress: list[bool],
    expected: int,
    done: bool,
) -> None:
    record(logbook, M1, results, distress=distress)
    [line] = logbook.progress(CAMPAIGN, [M1])
    assert line.attempts == expected
    assert line.done is done
    assert line.distress_used is any(distress)
    assert line.last_result == (results[-1] if results else None)


def test_attempts_after_first_success_do_not_count(logbook: Logbook, record: Recorder) -> None:
    record(logbook, M1, ["failure", "success", "failure", "success"], distress=[False, False, True, True])
    [line] = logbook.progress(CAMPAIGN, [M1])
    assert line == MissionProgress(
        mission=M1, attempts=2, done=True, distress_used=False, last_result="success"
    )


def test_progress_in_campaign_order_and_current_mission(logbook: Logbook, record: Recorder) -> None:
    record(logbook, M2, ["failure", "success"])  # recorded out of order on purpose
    record(logbook, M1, ["success"], distress=[True])
    record(logbook, M3, ["failure"])
    lines = logbook.progress(CAMPAIGN, MISSIONS)
    assert [line.mission for line in lines] == MISSIONS
    assert [line.attempts for line in lines[:4]] == [2, 2, 1, 0]
    assert [line.done for line in lines[:4]] == [True, True, False, False]
    assert logbook.current_mission(CAMPAIGN, MISSIONS) == M3
    assert logbook.total_attempts(CAMPAIGN, MISSIONS) == 5


def test_current_mission_is_first_unfinished_even_with_later_successes(
    logbook: Logbook, record: Recorder
) -> None:
    assert logbook.current_mission(CAMPAIGN, MISSIONS) == M1
    record(logbook, M1, ["success"])
    record(logbook, M3, ["success"])  # played ahead; M2 is still the current one
    assert logbook.current_mission(CAMPAIGN, MISSIONS) == M2


def test_campaign_complete_has_no_current_mission(logbook: Logbook, record: Recorder) -> None:
    for mission in MISSIONS[:3]:
        record(logbook, mission, ["success"])
    assert logbook.current_mission(CAMPAIGN, MISSIONS[:3]) is None
    assert logbook.total_attempts(CAMPAIGN, MISSIONS[:3]) == 3


def test_campaigns_are_separate(logbook: Logbook, record: Recorder) -> None:
    record(logbook, M1, ["success"], campaign="alpha")
    record(logbook, M1, ["failure"], campaign="beta")
    assert logbook.current_mission("alpha", MISSIONS) == M2
    assert logbook.current_mission("beta", MISSIONS) == M1
    assert [a.campaign for a in logbook.attempts()] == ["alpha", "beta"]
    assert [a.result for a in logbook.attempts("beta")] == ["failure"]
    assert logbook.attempts("beta", M2) == []
    assert len(logbook.attempts(mission=M1)) == 2


# -- recording ------------------------------------------------------------------------------------------


def test_record_and_read_back_all_fields(logbook: Logbook) -> None:
    when = datetime(2024, 5, 1, 20, 30, tzinfo=timezone(timedelta(hours=2)))
    attempt_id = logbook.record_attempt(
        campaign=CAMPAIGN,
        mission=M4,
        players=3,
        ruleset="crew-3p",
        seed="12345",
        result="failure",
        reason="task 3 won by the wrong player",
        distress_used=True,
        record_path="records/p9-04.json",
        when=when,
    )
    [attempt] = logbook.attempts()
    assert attempt.id == attempt_id
    assert (attempt.campaign, attempt.mission, attempt.players) == (CAMPAIGN, M4, 3)
    assert (attempt.ruleset, attempt.seed, attempt.result) == ("crew-3p", "12345", "failure")
    assert attempt.reason == "task 3 won by the wrong player"
    assert attempt.distress_used is True
    assert attempt.record_path == "records/p9-04.json"
    assert attempt.when == when and attempt.when.tzinfo is not None


def test_default_time_is_now_utc(logbook: Logbook, record: Recorder) -> None:
    before = datetime.now(UTC)
    record(logbook, M1, ["failure"])
    [attempt] = logbook.attempts()
    assert before - timedelta(seconds=1) <= attempt.when <= datetime.now(UTC) + timedelta(seconds=1)
    assert attempt.record_path is None


@pytest.mark.parametrize(
    "bad",
    [{"result": "won"}, {"players": 0}, {"mission": ""}, {"campaign": ""}],
)
def test_invalid_attempt_is_rejected_and_nothing_written(logbook: Logbook, bad: dict[str, object]) -> None:
    fields: dict[str, object] = {
        "campaign": CAMPAIGN,
        "mission": M1,
        "players": 4,
        "ruleset": "crew",
        "seed": "1",
        "result": "success",
        "reason": "",
        "distress_used": False,
    }
    fields.update(bad)
    with pytest.raises(ValueError):
        logbook.record_attempt(**fields)  # type: ignore[arg-type]
    assert logbook.attempts() == []


def test_persists_across_reopen(crewkit_home_dir: Path, record: Recorder) -> None:
    with Logbook.open() as book:
        record(book, M1, ["failure", "success"])
    assert (crewkit_home_dir / "logbook.sqlite3").is_file()
    with Logbook.open(crewkit_home_dir / "logbook.sqlite3") as book:
        assert book.progress(CAMPAIGN, [M1])[0].attempts == 2
        assert [a.id for a in book.attempts()] == [1, 2]


def test_new_file_has_identity_wal_and_schema(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "book.sqlite3"
    Logbook.open(path).close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "attempts" in tables
    finally:
        conn.close()
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []  # no temp left over


def test_closed_logbook_raises_logbook_error(logbook: Logbook) -> None:
    logbook.close()
    logbook.close()  # idempotent
    assert logbook.closed
    with pytest.raises(LogbookError, match="closed"):
        logbook.attempts()


# -- refusing damaged or foreign files --------------------------------------------------------------


def _assert_refused(path: Path, pattern: str) -> LogbookError:
    before = path.read_bytes()
    siblings = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(LogbookError) as info:
        Logbook.open(path)
    message = str(info.value)
    assert str(path) in message
    assert pattern in message
    assert "Traceback" not in message
    assert path.read_bytes() == before, "a refused file must be byte-for-byte unchanged"
    assert sorted(p.name for p in path.parent.iterdir()) == siblings, "no -wal/-shm/backup files created"
    return info.value


def test_random_bytes_are_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    path.write_bytes(random.Random(9).randbytes(8192))
    _assert_refused(path, "file is not a database")


def test_empty_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    path.touch()
    _assert_refused(path, "empty")


def test_foreign_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    conn.execute("INSERT INTO recipes VALUES ('soup', 20)")
    conn.commit()
    conn.close()
    error = _assert_refused(path, "is not a crewkit logbook")
    assert "no 'attempts' table" in str(error) and "'recipes'" in str(error)
    assert "application_id" in str(error)


def test_foreign_database_with_an_attempts_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE attempts (x)")
    conn.commit()
    conn.close()
    _assert_refused(path, "wrong application_id")


def test_crewkit_id_without_attempts_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE other (x)")
    conn.commit()
    conn.close()
    _assert_refused(path, "no 'attempts' table")


def test_damaged_pages_are_refused_untouched(tmp_path: Path, record: Recorder) -> None:
    path = tmp_path / "logbook.sqlite3"
    with Logbook.open(path) as book:
        for mission in MISSIONS:
            record(book, mission, ["failure"] * 6)
    data = bytearray(path.read_bytes())
    assert len(data) >= 4 * 4096
    rng = random.Random(3)
    data[4096:] = rng.randbytes(len(data) - 4096)  # keep the header (page 1), scramble every other page
    path.write_bytes(bytes(data))
    _assert_refused(path, "is damaged")


def test_truncated_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    Logbook.open(path).close()
    path.write_bytes(path.read_bytes()[:50])
    _assert_refused(path, "is damaged")


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    Logbook.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    _assert_refused(path, "newer crewkit")


def test_directory_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logbook.sqlite3"
    path.mkdir()
    with pytest.raises(LogbookError, match="directory"):
        Logbook.open(path)


# -- reset ----------------------------------------------------------------------------------------------


def test_reset_backs_up_then_empties(logbook: Logbook, record: Recorder) -> None:
    record(logbook, M1, ["failure", "success"], distress=[True, True])
    record(logbook, M2, ["failure"])
    backup = logbook.reset()
    assert backup.parent == logbook.path.parent
    assert backup.name.startswith("logbook-") and backup.name.endswith(".sqlite3.bak")
    stamp = backup.name.removeprefix("logbook-").removesuffix(".sqlite3.bak")
    datetime.strptime(stamp, "%Y%m%d-%H%M%S")

    assert logbook.attempts() == []
    assert logbook.current_mission(CAMPAIGN, MISSIONS) == M1
    assert record(logbook, M1, ["success"]) == [1]  # ids start again

    with Logbook.open(backup) as old:
        assert [a.mission for a in old.attempts()] == [M1, M1, M2]
        assert old.progress(CAMPAIGN, [M1])[0].attempts == 3


def test_reset_keeps_the_hint_marks_in_the_backup(logbook: Logbook, record: Recorder) -> None:
    """An attempt played with hints is marked so in the backup too (the mark is its own column)."""
    record(logbook, M1, ["failure"])
    hinted = logbook.record_attempt(campaign=CAMPAIGN, mission=M2, players=4, ruleset="crew", seed="h",
                                    result="success", reason="test", distress_used=False, hints_used=True)
    assert logbook.hinted_attempts(CAMPAIGN) == {hinted}
    backup = logbook.reset()
    with Logbook.open(backup) as old:
        assert old.hinted_attempts(CAMPAIGN) == {hinted}
        assert old.hinted_missions(CAMPAIGN) == {M2}


def test_two_resets_in_the_same_second_keep_both_backups(logbook: Logbook, record: Recorder) -> None:
    record(logbook, M1, ["failure"])
    first = logbook.reset()
    record(logbook, M2, ["failure"])
    second = logbook.reset()
    assert first != second and first.exists() and second.exists()
    with Logbook.open(second) as old:
        assert [a.mission for a in old.attempts()] == [M2]
