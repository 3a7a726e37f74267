"""Zipped campaigns and the user folders (issue 26): damaged zips are a message, the unpacked cache is
verified against the zip (and refused in a folder others can write), ``campaign status`` writes nothing."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import zipfile
from pathlib import Path

import pytest

from crewkit.campaign.store import Logbook
from tests.untrusted.harness import assert_refused, run_bounded

CAMPAIGN = "name: zipped\ntitle: Zipped Campaign\nruleset: crew\nmissions: [m.yaml]\n"
MISSION = """\
number: 1
title: Zipped mission
rulesets: [crew]
tasks: {count: 1, tokens: []}
symbols: {}
"""


def _zip(path: Path, members: dict[str, str], method: int = zipfile.ZIP_DEFLATED) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    path.write_bytes(buffer.getvalue())
    return path


def _campaign_zip(path: Path, method: int = zipfile.ZIP_DEFLATED) -> Path:
    return _zip(path, {"campaign.yaml": CAMPAIGN + "#" * 4000 + "\n", "m.yaml": MISSION}, method)


def _damage_first_member(path: Path) -> None:
    """Flip bytes inside the first member's compressed data (its local header is 30 bytes plus its name)."""
    raw = bytearray(path.read_bytes())
    start = 30 + len("campaign.yaml")
    for i in range(start + 5, start + 60):
        raw[i] ^= 0xA5
    path.write_bytes(bytes(raw))


def _env(tmp_path: Path) -> dict[str, str]:
    return {"CREWKIT_HOME": str(tmp_path / "home")}


# ---------------------------------------------------------------------------- damaged zips
@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])
def test_a_damaged_compressed_stream_is_a_message(tmp_path: Path, method: int) -> None:
    path = _campaign_zip(tmp_path / "bad.zip", method)
    _damage_first_member(path)
    for args in (("campaign", "status", "--campaign", str(path)), ("validate", str(path)),
                 ("check", "--campaign", str(path), "--games", "1"), ("play", "--campaign", str(path))):
        run = run_bounded(*args, env=_env(tmp_path), timeout=30)
        assert_refused(run, "is damaged or not a zip file", max_seconds=10)


def test_lzma_is_refused_before_it_is_unpacked(tmp_path: Path) -> None:
    """A damaged LZMA header names a dictionary of up to 4 GB, which the decompressor allocates (MemoryError)."""
    path = _campaign_zip(tmp_path / "lzma.zip", zipfile.ZIP_LZMA)
    _damage_first_member(path)
    run = run_bounded("campaign", "status", "--campaign", str(path), env=_env(tmp_path), timeout=30, memory_mb=600)
    assert_refused(run, "is compressed in a way crewkit does not unpack", max_seconds=10)


def test_a_truncated_zip_is_a_message(tmp_path: Path) -> None:
    path = _campaign_zip(tmp_path / "cut.zip")
    path.write_bytes(path.read_bytes()[:-40])
    run = run_bounded("campaign", "status", "--campaign", str(path), env=_env(tmp_path), timeout=30)
    assert_refused(run, "is damaged or not a zip file", max_seconds=10)


@pytest.mark.parametrize(("members", "fragment"), [
    ({"campaign.yaml": CAMPAIGN, "sub//m.yaml": MISSION}, "would leave the folder"),
    ({"campaign.yaml": CAMPAIGN, "sub\\m.yaml": MISSION}, "would leave the folder"),
    ({"campaign.yaml": CAMPAIGN, "./m.yaml": MISSION}, "would leave the folder"),
    ({"campaign.yaml": CAMPAIGN, "m.yaml": MISSION, "m.yaml/x.yaml": "x: 1\n"}, "is both a file and a folder"),
    ({"readme.txt": "no campaign here"}, "holds no campaign.yaml"),
    ({"campaign.yaml": CAMPAIGN, "/".join(["d" * 200] * 40) + "/x.yaml": "x: 1\n"}, "has too long a name"),
])
def test_odd_members_are_refused_before_anything_is_written(tmp_path: Path, members: dict[str, str],
                                                             fragment: str) -> None:
    path = _zip(tmp_path / "odd.zip", members)
    run = run_bounded("campaign", "status", "--campaign", str(path), env=_env(tmp_path), timeout=30)
    assert_refused(run, fragment, max_seconds=10)
    assert not (tmp_path / "home").exists()


def test_a_member_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.zip"
    with zipfile.ZipFile(path, "w") as zf, pytest.warns(UserWarning, match="Duplicate name"):
        zf.writestr("campaign.yaml", CAMPAIGN)
        zf.writestr("m.yaml", MISSION)
        zf.writestr("m.yaml", MISSION.replace("Zipped mission", "The other one"))
    run = run_bounded("campaign", "status", "--campaign", str(path), env=_env(tmp_path), timeout=30)
    assert_refused(run, "is in it twice", max_seconds=10)


def test_a_text_file_named_zip(tmp_path: Path) -> None:
    path = tmp_path / "fake.zip"
    path.write_text("not a zip\n", encoding="utf-8")
    run = run_bounded("validate", str(path), env=_env(tmp_path), timeout=30)
    assert_refused(run, "is damaged or not a zip file", max_seconds=10)


# ---------------------------------------------------------------------------- the unpacked cache
def _cached_folder(tmp_path: Path, zip_path: Path) -> Path:
    digest = hashlib.sha256(zip_path.read_bytes()).hexdigest()[:20]
    return tmp_path / "home" / "cache" / "campaigns" / digest


def _plant(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(CAMPAIGN.replace("Zipped Campaign", "PLANTED"), encoding="utf-8")
    (folder / "m.yaml").write_text(MISSION, encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX modes")
def test_a_cache_others_can_write_is_not_used(tmp_path: Path) -> None:
    path = _campaign_zip(tmp_path / "c.zip")
    home = tmp_path / "home"
    home.mkdir(mode=0o777)
    home.chmod(0o777)  # another user of the machine could plant a folder under cache/campaigns/<hash>
    _plant(_cached_folder(tmp_path, path))
    for folder in (home / "cache", home / "cache" / "campaigns"):
        folder.chmod(0o777)
    run = run_bounded("campaign", "status", "--campaign", str(path), env=_env(tmp_path), timeout=30)
    assert run.returncode == 0, run.output
    assert "Zipped Campaign" in run.stdout and "PLANTED" not in run.stdout
    run = run_bounded("show", "campaign", str(path), env=_env(tmp_path), timeout=30)
    assert run.returncode == 0, run.output
    assert "Zipped Campaign" in run.stdout and "PLANTED" not in run.stdout
    # nothing is written into a folder others can write to: this run unpacked into a private folder of its own
    assert "PLANTED" in (_cached_folder(tmp_path, path) / "campaign.yaml").read_text(encoding="utf-8")


def test_a_cached_copy_that_differs_from_the_zip_is_replaced(tmp_path: Path) -> None:
    path = _campaign_zip(tmp_path / "c.zip")
    run = run_bounded("validate", str(path), env=_env(tmp_path), timeout=30)
    assert run.returncode == 0, run.output
    cached = _cached_folder(tmp_path, path)
    assert (cached / "m.yaml").read_text(encoding="utf-8") == MISSION
    (cached / "campaign.yaml").write_text(CAMPAIGN.replace("Zipped Campaign", "EDITED"), encoding="utf-8")
    (cached / "extra.yaml").write_text("name: extra\nextends: crew\n", encoding="utf-8")
    run = run_bounded("campaign", "status", "--campaign", str(path), env=_env(tmp_path), timeout=30)
    assert run.returncode == 0, run.output
    assert "Zipped Campaign" in run.stdout and "EDITED" not in run.stdout
    run = run_bounded("validate", str(path), env=_env(tmp_path), timeout=30)
    assert run.returncode == 0 and "extra.yaml" not in run.output, run.output
    assert sorted(p.name for p in cached.iterdir()) == ["campaign.yaml", "m.yaml"]  # replaced by the zip's own


# ---------------------------------------------------------------------------- status writes nothing
def test_status_creates_no_home(tmp_path: Path) -> None:
    for campaign in ("planet-nine", str(_campaign_zip(tmp_path / "c.zip"))):
        run = run_bounded("campaign", "status", "--campaign", campaign, env=_env(tmp_path), timeout=30)
        assert run.returncode == 0, run.output
        assert not (tmp_path / "home").exists()


def test_status_leaves_no_wal_side_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with Logbook.open(home / "logbook.sqlite3") as book:
        book.record_attempt(campaign="planet-nine", mission="planet-nine/01", players=4, ruleset="crew", seed="s",
                            result="success", reason="", distress_used=False)
    conn = sqlite3.connect(home / "logbook.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    before = sorted(p.name for p in home.iterdir())
    assert before == ["logbook.sqlite3"]
    run = run_bounded("campaign", "status", env=_env(tmp_path), timeout=30)
    assert run.returncode == 0, run.output
    assert "missions done: 1/" in run.stdout
    assert sorted(p.name for p in home.iterdir()) == before


def test_a_campaign_of_nine_thousand_missions_is_refused_quickly(tmp_path: Path) -> None:
    """``campaign status`` checked every listed mission, once per entry: 9,000 entries ran for minutes."""
    folder = tmp_path / "many"
    folder.mkdir()
    entries = "".join(f"  - planet-nine/{1 + i % 50:02d}\n" for i in range(9000))
    (folder / "campaign.yaml").write_text(f"name: many\ntitle: Many\nruleset: crew\nmissions:\n{entries}",
                                          encoding="utf-8")
    for args in (("campaign", "status", "--campaign", str(folder)), ("validate", str(folder))):
        run = run_bounded(*args, env=_env(tmp_path), timeout=60)
        assert_refused(run, "expected a list of at most 200 items", max_seconds=15)


def test_a_campaign_listing_one_mission_often_checks_it_once(tmp_path: Path) -> None:
    folder = tmp_path / "often"
    folder.mkdir()
    entries = "".join(f"  - planet-nine/{1 + i % 50:02d}\n" for i in range(200))
    (folder / "campaign.yaml").write_text(f"name: often\ntitle: Often\nruleset: crew\nmissions:\n{entries}",
                                          encoding="utf-8")
    run = run_bounded("campaign", "status", "--campaign", str(folder), env=_env(tmp_path), timeout=60)
    assert run.returncode == 0 and run.seconds < 20, run.output
