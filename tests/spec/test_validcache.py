"""The schema verdicts remembered for bundled files (:mod:`crewkit.spec.validcache`): only passes, only of the
very text that passed, only for bundled files, never for an editor's unsaved text or an unsafe marker."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from crewkit.spec import bundled, loader, overlay, validcache
from crewkit.spec.resources import data_path

VALID = bundled.mission_path("planet-nine/10").read_text(encoding="utf-8")


@pytest.fixture
def bundled_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data root of our own (its schemas copied) and a private cache folder."""
    root = tmp_path / "data"
    shutil.copytree(data_path("schemas"), root / "schemas")
    (root / "missions").mkdir()
    monkeypatch.setattr(validcache, "data_root", lambda: root)
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "cache"))
    return root


def schema_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the real schema checks made from now on."""
    from crewkit.spec import schema

    calls: list[str] = []
    real = schema.validate_document

    def counting(doc, kind, **kw):  # type: ignore[no-untyped-def]
        calls.append(kind)
        return real(doc, kind, **kw)

    monkeypatch.setattr(schema, "validate_document", counting)
    return calls


def lines(text: str) -> list[str]:
    return text.splitlines()


def test_a_bundled_text_that_passed_is_known_valid_and_nothing_else_is(bundled_root: Path) -> None:
    path = bundled_root / "missions" / "m.yaml"
    assert not validcache.known_valid(path, lines(VALID), "mission")
    validcache.remember_valid(path, lines(VALID), "mission")
    assert validcache.known_valid(path, lines(VALID), "mission")
    assert not validcache.known_valid(path, lines(VALID + "title: changed\n"), "mission")  # another text
    assert not validcache.known_valid(path, lines(VALID), "ruleset")  # another schema
    assert not validcache.known_valid(bundled_root / "missions" / "other.yaml", lines(VALID), "mission")


def test_a_users_file_is_never_remembered(bundled_root: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine" / "m.yaml"
    validcache.remember_valid(mine, lines(VALID), "mission")
    assert not validcache.known_valid(mine, lines(VALID), "mission")
    assert not (tmp_path / "cache" / validcache.FOLDER).exists()


def test_an_editors_unsaved_text_is_never_remembered(bundled_root: Path) -> None:
    path = bundled_root / "missions" / "m.yaml"
    with overlay.texts({path: VALID}):
        validcache.remember_valid(path, lines(VALID), "mission")
        assert not validcache.known_valid(path, lines(VALID), "mission")


def test_a_marker_others_may_write_is_not_trusted(bundled_root: Path) -> None:
    path = bundled_root / "missions" / "m.yaml"
    validcache.remember_valid(path, lines(VALID), "mission")
    (marker,) = (bundled_root.parent / "cache" / validcache.FOLDER).iterdir()
    os.chmod(marker, 0o666)
    assert not validcache.known_valid(path, lines(VALID), "mission")


def test_another_schema_is_another_verdict(bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = validcache._verdict_stamp.__wrapped__()
    schema = bundled_root / "schemas" / "mission.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8") + " ", encoding="utf-8")
    monkeypatch.setattr(validcache, "data_path", lambda rel: bundled_root / rel)
    assert validcache._verdict_stamp.__wrapped__() != before


def test_the_loader_checks_a_bundled_file_once_and_a_users_file_every_time(
        bundled_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = schema_checks(monkeypatch)
    bundled = bundled_root / "missions" / "m.yaml"
    mine = tmp_path / "m.yaml"
    for path in (bundled, mine):
        path.write_text(VALID, encoding="utf-8")
        for _ in range(2):
            assert loader._schema_issues(loader.load_doc(path), "mission", path) == []
    assert calls == ["mission"] + ["mission", "mission"]


def test_a_failing_bundled_file_is_checked_every_time_with_its_messages(
        bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = schema_checks(monkeypatch)
    bad = bundled_root / "missions" / "bad.yaml"
    bad.write_text("number: 1\ntitle: x\ntasks: {count: two}\n", encoding="utf-8")
    for _ in range(2):
        issues = loader._schema_issues(loader.load_doc(bad), "mission", bad)
        assert "expected an integer, found string 'two'" in [i.message for i in issues]
    assert len(calls) == 2 and not (bundled_root.parent / "cache" / validcache.FOLDER).exists()
