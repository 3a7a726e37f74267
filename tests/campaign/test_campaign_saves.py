"""In-progress saves: atomic round trip, listing, damaged files reported with line and column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit.campaign.saves import (
    SaveError,
    clear_in_progress,
    list_in_progress,
    load_in_progress,
    save_in_progress,
    save_path,
)

RECORD = {
    "mission": "planet-nine/03",
    "seed": 42,
    "tricks": [["B3", "B9", "R1"], ["G2"]],
    "distress": {"used": True, "direction": "left"},
    "note": "déjà vu ✓",
}


def test_round_trip(crewkit_home_dir: Path) -> None:
    path = save_in_progress("planet-nine/03", RECORD)
    assert path.parent == crewkit_home_dir / "saves"
    assert load_in_progress("planet-nine/03") == RECORD
    assert list_in_progress() == ["planet-nine/03"]
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left behind


def test_overwrite_replaces(crewkit_home_dir: Path) -> None:
    save_in_progress("k", {"v": 1})
    save_in_progress("k", {"v": 2})
    assert load_in_progress("k") == {"v": 2}
    assert list_in_progress() == ["k"]


def test_missing_is_none_and_clear() -> None:
    assert load_in_progress("nothing") is None
    assert list_in_progress() == []
    save_in_progress("a/b", {"x": 1})
    save_in_progress("a", {"x": 2})
    assert list_in_progress() == ["a", "a/b"]
    assert clear_in_progress("a/b") is True
    assert clear_in_progress("a/b") is False
    assert load_in_progress("a/b") is None
    assert list_in_progress() == ["a"]


@pytest.mark.parametrize("key", ["../escape", "..", ".hidden", "a\\b", "with space", "C:/x", "ünï"])
def test_awkward_keys_stay_inside_saves_dir(crewkit_home_dir: Path, key: str) -> None:
    path = save_in_progress(key, {"k": key})
    assert path.parent == crewkit_home_dir / "saves"
    assert not path.name.startswith(".")
    assert load_in_progress(key) == {"k": key}
    assert list_in_progress() == [key]


def test_empty_key_rejected() -> None:
    with pytest.raises(ValueError):
        save_in_progress("", {})


def test_unserialisable_record_is_a_save_error_and_writes_nothing() -> None:
    with pytest.raises(SaveError, match="cannot be saved as JSON"):
        save_in_progress("k", {"bad": object()})
    assert load_in_progress("k") is None
    path = save_path("k")
    assert not path.parent.exists() or list(path.parent.iterdir()) == []


def test_damaged_json_reports_file_line_column_and_is_left_untouched() -> None:
    path = save_in_progress("planet-nine/07", RECORD)
    text = path.read_text(encoding="utf-8")
    damaged = text.replace('"seed": 42,', '"seed": 42,,', 1)
    path.write_text(damaged, encoding="utf-8")
    expected = json.JSONDecodeError("", damaged, damaged.index(",,") + 1)

    with pytest.raises(SaveError) as info:
        load_in_progress("planet-nine/07")
    error = info.value
    assert (error.line, error.column) == (expected.lineno, expected.colno)
    assert error.path == path
    assert f"{path}:{expected.lineno}:{expected.colno}" in str(error)
    assert path.read_text(encoding="utf-8") == damaged
    assert list_in_progress() == ["planet-nine/07"]


def test_truncated_save_reports_position() -> None:
    path = save_in_progress("k", RECORD)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(SaveError) as info:
        load_in_progress("k")
    assert info.value.line is not None and info.value.column is not None


def test_not_utf8_reports_position() -> None:
    path = save_in_progress("k", {"a": 1})
    path.write_bytes(b'{\n  "a": "\xff"\n}\n')
    with pytest.raises(SaveError, match="not UTF-8") as info:
        load_in_progress("k")
    assert (info.value.line, info.value.column) == (2, 9)


def test_valid_json_but_not_a_save() -> None:
    path = save_in_progress("k", {"a": 1})
    path.write_text("[1, 2, 3]\n", encoding="utf-8")
    with pytest.raises(SaveError, match="not a crewkit save"):
        load_in_progress("k")


def test_set_aside_moves_damaged_file_only_when_asked() -> None:
    path = save_in_progress("k", RECORD)
    path.write_text("{oops", encoding="utf-8")
    with pytest.raises(SaveError):
        load_in_progress("k")
    assert path.exists()

    with pytest.raises(SaveError) as info:
        load_in_progress("k", set_aside=True)
    moved = info.value.damaged_path
    assert moved is not None and moved.name == path.name + ".damaged"
    assert moved.read_text(encoding="utf-8") == "{oops"
    assert not path.exists()
    assert str(moved) in str(info.value)
    assert load_in_progress("k") is None
    assert list_in_progress() == []  # *.damaged files are not listed


def test_saved_missions_of_a_campaign_by_identity() -> None:
    """A folder campaign's identity holds a path (``name@/abs/path``): its save keys stay short file names, and the
    campaign list finds its saved missions by the same identity (not another campaign's of the same name)."""
    from crewkit.campaign.saves import attempt_key, saved_missions

    here = "training@/home/someone/campaigns/with:colon and spaces"
    other = "training@/elsewhere"
    keys = [attempt_key(here, "missions/01-one.yaml", "crew", 3), attempt_key(other, "missions/02-two.yaml", "crew", 3),
            attempt_key("planet-nine", "planet-nine/03", "crew", 4), attempt_key(None, "planet-nine/04", "crew", 4)]
    assert all(len(k) < 120 and "/home/" not in k for k in keys)
    assert saved_missions(here, keys) == {"missions/01-one.yaml"}
    assert saved_missions(other, keys) == {"missions/02-two.yaml"}
    assert saved_missions("planet-nine", keys) == {"planet-nine/03"}
