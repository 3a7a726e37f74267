"""The condition grammar's parse-table cache is never loaded from a place someone else can write (item 3).

Lark's ``cache=True`` unpickles ``$TMPDIR/.lark_cache_<user>_<hash>_3_11.tmp``: a file anyone on the machine
could plant to run code as whoever next runs ``crewkit validate``. crewkit keeps the cache in the user's own
0700 cache folder and loads it only when it is a regular file of the user's that nobody else may write.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import pickle
import stat
import sys
from pathlib import Path

import lark

from crewkit.dsl.parser import grammar_text
from tests.untrusted.harness import ROOT, run_bounded

MISSION = ROOT / "missions" / "planet-nine" / "05-sick-bay.yaml"  # has conditions: the parser is built


class _Payload:
    """Unpickling this creates ``marker``: proof that a planted pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.marker, "w"))


def _plant(path: Path, marker: Path, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"0" * 64 + b"\n" + pickle.dumps(_Payload(marker)))
    path.chmod(mode)


def _lark_temp_name(tmpdir: Path) -> Path:
    """The file lark's ``cache=True`` reads for the options crewkit used to pass (lark 1.x naming)."""
    options = {"parser": "lalr", "lexer": "basic", "keep_all_tokens": True, "propagate_positions": True,
               "maybe_placeholders": False, "cache": True}
    options_str = "".join(k + str(v) for k, v in options.items())
    digest = hashlib.sha256((grammar_text() + options_str + lark.__version__ + str(sys.version_info[:2]))
                            .encode("utf8")).hexdigest()
    return tmpdir / f".lark_cache_{getpass.getuser()}_{digest}_{sys.version_info[0]}_{sys.version_info[1]}.tmp"


def test_a_pickle_planted_in_the_temp_folder_is_never_loaded(tmp_path: Path) -> None:
    tmpdir, marker = tmp_path / "tmp", tmp_path / "PWNED"
    _plant(_lark_temp_name(tmpdir), marker)
    run = run_bounded("validate", str(MISSION), env={"TMPDIR": str(tmpdir), "CREWKIT_CACHE": str(tmp_path / "c")})
    assert run.returncode == 0, run.output
    assert not marker.exists(), "crewkit loaded a pickle from the shared temp folder"


def _cache_file(cache: Path) -> Path:
    from crewkit.dsl import parser

    old = os.environ.get("CREWKIT_CACHE")
    os.environ["CREWKIT_CACHE"] = str(cache)
    try:
        path = parser._cache_path(grammar_text())
    finally:
        if old is None:
            del os.environ["CREWKIT_CACHE"]
        else:
            os.environ["CREWKIT_CACHE"] = old
    assert path is not None
    return path


def test_the_cache_is_private_and_reused(tmp_path: Path) -> None:
    cache = tmp_path / "cache" / "crewkit"
    run = run_bounded("validate", str(MISSION), env={"CREWKIT_CACHE": str(cache)})
    assert run.returncode == 0, run.output
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    files = [f for f in cache.iterdir() if f.is_file()]
    assert [f.name for f in files] == [_cache_file(cache).name]
    assert files[0].stat().st_uid == os.getuid()
    assert not files[0].stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    # beside it only the schema verdicts of bundled files (crewkit.spec.validcache): a private folder of
    # empty, private markers (the mission here is bundled and valid)
    assert sorted(f.name for f in cache.iterdir() if not f.is_file()) == ["valid-specs"]
    verdicts = cache / "valid-specs"
    assert stat.S_IMODE(verdicts.stat().st_mode) == 0o700
    markers = list(verdicts.iterdir())
    assert markers and all(m.stat().st_size == 0 and stat.S_IMODE(m.stat().st_mode) == 0o600 for m in markers)


def test_a_cache_file_others_may_write_is_not_loaded_but_replaced(tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "PWNED"
    cache.mkdir(mode=0o700)
    target = _cache_file(cache)
    _plant(target, marker, mode=0o666)
    run = run_bounded("validate", str(MISSION), env={"CREWKIT_CACHE": str(cache)})
    assert run.returncode == 0, run.output
    assert not marker.exists(), "crewkit loaded a cache file that others may write"
    assert not target.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)  # replaced by a private one


def test_a_cache_folder_others_may_write_is_not_used(tmp_path: Path) -> None:
    cache, marker = tmp_path / "shared", tmp_path / "PWNED"
    cache.mkdir()
    cache.chmod(0o777)
    _plant(cache / _cache_file(tmp_path / "private").name, marker)
    run = run_bounded("validate", str(MISSION), env={"CREWKIT_CACHE": str(cache)})
    assert run.returncode == 0, run.output
    assert not marker.exists(), "crewkit loaded a cache file from a folder others may write"


def test_a_link_in_the_cache_is_not_followed(tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "PWNED"
    cache.mkdir(mode=0o700)
    elsewhere = tmp_path / "elsewhere.pickle"
    _plant(elsewhere, marker)
    _cache_file(cache).symlink_to(elsewhere)
    run = run_bounded("validate", str(MISSION), env={"CREWKIT_CACHE": str(cache)})
    assert run.returncode == 0, run.output
    assert not marker.exists(), "crewkit followed a link out of its cache"
