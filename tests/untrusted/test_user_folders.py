"""The user cache folder: ``$CREWKIT_CACHE`` first, else platformdirs' user cache folder; 0700 and own."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from crewkit import usercache


def test_override_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "c"))
    assert usercache.cache_dir() == tmp_path / "c"


def test_default_is_the_platform_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CREWKIT_CACHE", raising=False)
    assert usercache.cache_dir() == platformdirs.user_cache_path("crewkit", appauthor=False)
    assert usercache.cache_dir() != platformdirs.user_data_path("crewkit", appauthor=False, roaming=True)
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        assert usercache.cache_dir() == tmp_path / "crewkit"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX modes")
def test_created_private_and_refused_when_shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "c"))
    folder = usercache.private_cache_dir()
    assert folder == tmp_path / "c"
    assert (folder.stat().st_mode & 0o777) == 0o700
    folder.chmod(0o777)
    assert usercache.private_cache_dir() is None  # writable by others: not used


def test_zipped_campaigns_unpack_into_the_user_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.spec.campaigns import zip_cache_dir

    monkeypatch.delenv("CREWKIT_HOME", raising=False)
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "c"))
    assert zip_cache_dir() == tmp_path / "c" / "campaigns"
    monkeypatch.delenv("CREWKIT_CACHE")
    assert zip_cache_dir() == platformdirs.user_cache_path("crewkit", appauthor=False) / "campaigns"
    monkeypatch.setenv("CREWKIT_HOME", str(tmp_path / "home"))  # tests keep everything under CREWKIT_HOME
    assert zip_cache_dir() == tmp_path / "home" / "cache" / "campaigns"
