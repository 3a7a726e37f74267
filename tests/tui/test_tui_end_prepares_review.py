"""The end of a mission starts loading the solver's C search for the review (`w`): on a fresh install it is
compiled in the background while the end is read, so the review's first answer rarely has to use the Python
search (it never waits for the compilation either way). The compilation is held on an event: no timing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.session import Session
from crewkit.tui.services import Services
from tests.review.test_review_first_answer_compiling import SAFETY, _held_library


async def test_the_end_screen_starts_compiling_the_c_search(services: Services, monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    fresh, started, release = _held_library(monkeypatch, tmp_path / "cache")
    session = Session(services, mission="planet-nine/01", ruleset="crew", players=3, kinds=["human"] + ["bot"] * 2,
                      campaign="planet-nine")
    game = session.new_attempt("end-prepare")
    while not game.is_over():  # any legal play to the end (the bots would take longer)
        seat = game.to_act
        assert seat is not None
        game.apply(game.legal_actions(seat)[0])
    end = EndScreen("planet-nine/01", "Training", session.finish(), False, kinds=session.kinds)
    try:
        async with App[None]().run_test() as pilot:
            await pilot.app.push_screen(end)
            await pilot.pause()
            assert started.wait(SAFETY), "the end screen did not start loading the C search"
            assert not fresh.ready  # held: the screen did not wait for it
    finally:
        release.set()
    builder = fresh.build_in_background()
    if builder is not None:
        builder.join(SAFETY)
    assert fresh.load() is not None, fresh.status()
