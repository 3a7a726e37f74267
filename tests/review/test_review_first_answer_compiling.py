"""The table's first answer never waits for the C search to be compiled (issue 44, item 4: a first answer within
1 s, on a fresh install too): the compilation runs in the background, the first answer comes from the Python
search meanwhile, and the final answer uses the C search once it is ready.

The compilation is held on an event (no timing): a fresh copy of the solver's library with an empty cache
folder, whose compile step waits for the test's word, then copies the library this process already loaded."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from crewkit import nativelib
from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.solve import native
from crewkit.nativelib import NativeLibrary
from tests.review.lost_games import lost_game

SAFETY = 60.0  # seconds: only reached when something is broken


def _held_library(monkeypatch: pytest.MonkeyPatch, cache: Path) -> tuple[NativeLibrary, threading.Event,
                                                                          threading.Event]:
    """The solver's library as on a fresh install (no library built with the package, ``cache`` empty), put in
    place of the loaded one; its compilation starts (first event) and waits for the second."""
    real = native.LIBRARY.load()
    if real is None:
        pytest.skip(f"no C search here ({native.status()})")
    built = Path(real._name)
    fresh = NativeLibrary(native.LIBRARY.folder, "_native", "crewkit-native", "ck_abi", native.ABI, native._declare)
    started, release = threading.Event(), threading.Event()

    def held_compile(target: Path) -> None:
        started.set()
        assert release.wait(2 * SAFETY), "the test never released the compilation"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        target.chmod(0o700)

    monkeypatch.setattr(fresh, "compile", held_compile)
    monkeypatch.setattr(fresh, "_packaged", list, raising=False)  # no library built with the package
    cache.mkdir(mode=0o700)
    # only the C library's cache folder is fresh (the grammar's tables stay cached: a cheap test)
    monkeypatch.setattr(nativelib, "private_cache_dir", lambda: cache)
    monkeypatch.setattr(native, "LIBRARY", fresh)
    return fresh, started, release


def test_first_answer_comes_from_python_while_the_c_search_compiles(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    fresh, started, release = _held_library(monkeypatch, tmp_path / "cache")
    final = lost_game()
    start, seed = reviews.start_of(final)
    actions = list(final.actions)
    answer: dict[str, Any] = {}
    came = threading.Event()

    def first() -> None:
        try:
            answer["review"] = reviews.quick_review(start, actions, None, seed)
        finally:
            came.set()

    worker = threading.Thread(target=first, daemon=True)
    worker.start()
    try:
        assert started.wait(SAFETY), "the compilation was not started by the first answer"
        # the compilation is held: the first answer must come all the same
        assert came.wait(SAFETY), "the first answer waited for the C search to be compiled"
        assert not fresh.ready
    finally:
        release.set()
    worker.join(SAFETY)
    first_rv = answer["review"]
    assert first_rv.searches and "core-c" not in first_rv.searches, first_rv.searches
    assert first_rv.searches.get("core", 0) >= 1
    builder = fresh.build_in_background()
    if builder is not None:
        builder.join(SAFETY)
    assert fresh.ready and fresh.load() is not None, fresh.status()
    final_rv = reviews.final_review(start, actions, None, seed)
    assert final_rv.searches.get("core-c", 0) >= 1, final_rv.searches
    assert final_rv.status == reviews.LOST
    # the first answer, where it decided, says what the final one says
    decided = {p["action_index"]: p["winnable"] for p in final_rv.positions}
    for p in first_rv.positions:
        if p["winnable"] is not None and p["action_index"] in decided and decided[p["action_index"]] is not None:
            assert p["winnable"] == decided[p["action_index"]]


def test_final_answer_waits_for_the_compilation(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Outside the first answer, loading the library waits for it (the final answer uses C)."""
    fresh, started, release = _held_library(monkeypatch, tmp_path / "cache")
    loaded: dict[str, Any] = {}
    done = threading.Event()

    def load() -> None:
        loaded["lib"] = native.load()
        done.set()

    threading.Thread(target=load, daemon=True).start()
    assert started.wait(SAFETY)
    assert not done.is_set()
    release.set()
    assert done.wait(SAFETY)
    assert loaded["lib"] is not None and "compiled now" in fresh.status()
