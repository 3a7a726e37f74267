"""The solver's compiled C search is loaded from the cache only when the file is the user's own (issue 12, 3).

A shared library runs code the moment it is loaded (its constructors), so a library that someone else could
have written or swapped (writable by others, a link, a folder that is not private) is rebuilt, never loaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.solve import native
from tests.untrusted.harness import ROOT

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

PLANTED = r"""
#include <stdio.h>
__attribute__((constructor)) static void planted(void) {
    FILE *f = fopen(MARKER, "w");
    if (f) fclose(f);
}
int ck_abi(void) { return -1; }
"""


def _plant_library(target: Path, marker: Path, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    src = target.parent / "planted.c"
    src.write_text(PLANTED, encoding="utf-8")
    subprocess.run(["cc", "-shared", "-fPIC", f'-DMARKER="{marker}"', "-o", str(target), str(src)], check=True)
    src.unlink()
    target.chmod(mode)


def _solver_status(cache: Path) -> str:
    """``native.status()`` in a fresh process whose cache is ``cache`` (the C library is loaded once per process)."""
    code = "from crewkit.solve import native; print(native.status())"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CREWKIT_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    return out.stdout + out.stderr


def test_a_library_writable_by_others_is_rebuilt_not_loaded(tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "PWNED"
    cache.mkdir(mode=0o700)
    target = cache / native.library_name(native._source())
    _plant_library(target, marker, 0o666)
    status = _solver_status(cache)
    assert not marker.exists(), "a library writable by others was loaded"
    assert "C (compiled now" in status or "built with the package" in status, status


def test_a_cache_folder_writable_by_others_is_not_used(tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "PWNED"
    cache.mkdir()
    target = cache / native.library_name(native._source())
    _plant_library(target, marker, 0o755)
    cache.chmod(0o777)
    status = _solver_status(cache)
    assert not marker.exists(), "a library in a folder others may write was loaded"
    assert "Python" in status or "built with the package" in status, status
