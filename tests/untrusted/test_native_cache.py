"""The compiled C libraries are loaded from the cache only when the file is the user's own (issue 12, 3).

A shared library runs code the moment it is loaded (its constructors), so a library that someone else could
have written or swapped (writable by others, a link, a folder that is not private) is rebuilt, never loaded.
Both libraries, the solver's search and the fast bot's look-ahead, go through one loader
(:mod:`crewkit.nativelib`); each is tested here.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.solve import native
from crewkit.nativelib import NativeLibrary
from tests.untrusted.harness import ROOT

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

# (module path, its library): the solver's C search and the fast bot's C look-ahead
LIBRARIES = [("crewkit.families.trick_taking.solve.native", native.LIBRARY),
             ("crewkit.families.trick_taking.bots.fastnative", fastnative.LIBRARY)]

PLANTED = r"""
#include <stdio.h>
__attribute__((constructor)) static void planted(void) {
    FILE *f = fopen(MARKER, "w");
    if (f) fclose(f);
}
int ck_abi(void) { return -1; }
int fs_abi(void) { return -1; }
"""


def _plant_library(target: Path, marker: Path, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    src = target.parent / "planted.c"
    src.write_text(PLANTED, encoding="utf-8")
    subprocess.run(["cc", "-shared", "-fPIC", f'-DMARKER="{marker}"', "-o", str(target), str(src)], check=True)
    src.unlink()
    target.chmod(mode)


def _status(module: str, cache: Path) -> str:
    """``module.status()`` in a fresh process whose cache is ``cache`` (a C library is loaded once per process)."""
    code = f"import {module} as m; print(m.status())"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CREWKIT_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    return out.stdout + out.stderr


@pytest.mark.parametrize(("module", "library"), LIBRARIES, ids=["solver", "fast-bot"])
def test_a_library_writable_by_others_is_rebuilt_not_loaded(module: str, library: NativeLibrary,
                                                             tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "PWNED"
    cache.mkdir(mode=0o700)
    target = cache / library.library_name(library.source())
    _plant_library(target, marker, 0o666)
    status = _status(module, cache)
    assert not marker.exists(), "a library writable by others was loaded"
    assert "C (compiled now" in status or "built with the package" in status, status


@pytest.mark.parametrize(("module", "library"), LIBRARIES, ids=["solver", "fast-bot"])
def test_a_cache_folder_writable_by_others_is_not_used(module: str, library: NativeLibrary, tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "PWNED"
    cache.mkdir()
    target = cache / library.library_name(library.source())
    _plant_library(target, marker, 0o755)
    cache.chmod(0o777)
    status = _status(module, cache)
    assert not marker.exists(), "a library in a folder others may write was loaded"
    assert "Python" in status or "built with the package" in status, status


@pytest.mark.parametrize(("module", "library"), LIBRARIES, ids=["solver", "fast-bot"])
def test_a_private_cached_library_of_another_version_is_compiled_again(module: str, library: NativeLibrary,
                                                                        tmp_path: Path) -> None:
    """The user's own library of another ABI (an older crewkit's, say) is loaded, refused, and rebuilt once."""
    cache, marker = tmp_path / "cache", tmp_path / "loaded"
    cache.mkdir(mode=0o700)
    _plant_library(cache / library.library_name(library.source()), marker, 0o755)
    status = _status(module, cache)
    assert "C (compiled again" in status or "built with the package" in status, status


TOY = r"""
int toy_abi(void) { return ABI; }
int toy_add(int a, int b) { return a + b; }
"""


def _toy(folder: Path, abi: int = 7, expected: int = 7) -> NativeLibrary:
    def declare(lib: ctypes.CDLL) -> None:
        lib.toy_add.restype = ctypes.c_int
        lib.toy_add.argtypes = [ctypes.c_int, ctypes.c_int]

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "_toy.c").write_text(TOY.replace("ABI", str(abi)), encoding="utf-8")
    return NativeLibrary(folder, "_toy", "crewkit-toy", "toy_abi", expected, declare)


def test_the_shared_loader_compiles_once_then_loads_from_the_cache(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CREWKIT_NATIVE", raising=False)
    first = _toy(tmp_path / "pkg")
    lib = first.load()
    assert lib is not None and lib.toy_add(2, 3) == 5
    assert first.status().startswith("C (compiled now: "), first.status()
    cached = tmp_path / "cache" / first.library_name(first.source())
    assert cached.is_file() and not cached.stat().st_mode & 0o022
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [cached.name]  # no temporary left behind
    again = _toy(tmp_path / "pkg")
    assert again.load() is not None and again.status() == f"C (cached: {cached})"
    (tmp_path / "pkg" / "_toy.c").write_text(TOY.replace("ABI", "7") + "int toy_more(void) { return 1; }\n")
    edited = NativeLibrary(tmp_path / "pkg", "_toy", "crewkit-toy", "toy_abi", 7, lambda lib: None)
    assert edited.library_name(edited.source()) != cached.name  # an edited source is compiled anew


def test_the_shared_loader_refuses_another_abi_and_can_be_switched_off(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CREWKIT_NATIVE", raising=False)
    wrong = _toy(tmp_path / "pkg", abi=6, expected=7)
    assert wrong.load() is None
    assert wrong.status().startswith("Python (no C library: ") and "another version" in wrong.status()
    monkeypatch.setenv("CREWKIT_NATIVE", "0")
    monkeypatch.setenv("CREWKIT_CACHE", str(tmp_path / "cache2"))
    off = _toy(tmp_path / "pkg2")
    assert off.load() is None and off.status() == "off (CREWKIT_NATIVE=0)"
    assert not (tmp_path / "cache2").exists()  # nothing compiled
