"""Every attempt's record kept and listed: ``crewkit campaign status`` lists each attempt of a mission (its
reference, date, outcome, record) and ``crewkit review @N`` reviews it; bad references get a message."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from crewkit import cli
from crewkit.campaign.store import Logbook
from tests.review.lost_games import lost_record

WHEN = datetime(2026, 12, 5, 3, 10, tzinfo=UTC)


def attempt(book: Logbook, result: str, record: Path | None, minute: int) -> int:
    return book.record_attempt(campaign="planet-nine", mission="planet-nine/10", players=4, ruleset="crew",
                               seed="s", result=result, reason="why", distress_used=False,
                               record_path=None if record is None else str(record),
                               when=WHEN.replace(minute=minute))


@pytest.fixture
def logbook() -> dict[str, int]:
    home = Path(os.environ["CREWKIT_HOME"])
    lost = lost_record(home / "records")
    gone = home / "records" / "gone.json"
    with Logbook.open() as book:
        return {"lost": attempt(book, "failure", lost, 10), "abandoned": attempt(book, "abandoned", None, 20),
                "gone": attempt(book, "failure", gone, 30)}


def test_status_lists_every_attempt(logbook: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["campaign", "status"]) == 0
    out = capsys.readouterr().out
    listing = out[out.index("attempts (review one"):]
    assert "10. Four corners (planet-nine/10)" in listing
    lost = next(r for r in listing.splitlines() if r.strip().startswith(f"@{logbook['lost']} "))
    assert "2026-12-05 03:10 UTC" in lost and "failure" in lost and "lost-line.json" in lost
    abandoned = next(r for r in listing.splitlines() if r.strip().startswith(f"@{logbook['abandoned']} "))
    assert "abandoned" in abandoned and "no record" in abandoned
    assert cli.main(["campaign", "status", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["attempts"]["planet-nine/10"]
    assert [r["ref"] for r in rows] == [f"@{logbook[k]}" for k in ("lost", "abandoned", "gone")]
    assert rows[0]["when"].startswith("2026-12-05T03:10") and rows[0]["result"] == "failure"
    assert rows[0]["record"].endswith("lost-line.json") and rows[1]["record"] is None


def test_review_by_reference_and_by_the_listed_path(logbook: dict[str, int],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["review", f"@{logbook['lost']}", "--format", "json", "--no-blame", "--nodes", "20000"]) == 0
    by_ref = json.loads(capsys.readouterr().out)
    assert by_ref["status"] in ("lost", "never-winnable", "unknown") and by_ref["positions"]
    assert cli.main(["campaign", "status", "--format", "json"]) == 0
    path = json.loads(capsys.readouterr().out)["attempts"]["planet-nine/10"][0]["record"]
    assert cli.main(["review", path, "--format", "json", "--no-blame", "--nodes", "20000"]) == 0
    by_path = json.loads(capsys.readouterr().out)
    assert by_path["turning_point"] == by_ref["turning_point"]


@pytest.mark.parametrize(("which", "words"), [
    ("abandoned", "no game record was kept for this attempt (it was abandoned before its end)"),
    ("gone", "gone.json is no longer there"),
    ("missing", "has no attempt 99; `crewkit campaign status` lists the attempts"),
])
def test_bad_references_get_a_message(logbook: dict[str, int], capsys: pytest.CaptureFixture[str], which: str,
                                      words: str) -> None:
    ref = f"@{logbook.get(which, 99)}"
    assert cli.main(["review", ref]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"crewkit review: {ref}") and words in err and "Traceback" not in err


def test_a_logbook_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["review", "@1", "--logbook", str(tmp_path / "nope.sqlite3")]) == 1
    assert "nope.sqlite3: no such file" in capsys.readouterr().err


def test_a_hosts_logbook_and_its_relative_record_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A host run as `crewkit host --dir crewkit-tables` keeps each record by a path relative to where it ran."""
    tables = tmp_path / "crewkit-tables"
    lost_record(tables / "t1").rename(tables / "t1" / "record.json")
    with Logbook.open(tables / "logbook.sqlite3") as book:
        number = attempt(book, "failure", Path("crewkit-tables/t1/record.json"), 40)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    book_arg = ["--logbook", str(tables / "logbook.sqlite3")]
    assert cli.main(["campaign", "status", *book_arg]) == 0
    assert str(tables / "t1" / "record.json") in capsys.readouterr().out
    assert cli.main(["review", f"@{number}", *book_arg, "--format", "json", "--no-blame", "--nodes", "20000"]) == 0
    assert json.loads(capsys.readouterr().out)["positions"]
