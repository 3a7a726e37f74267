"""The end of an attempt names its logbook reference (``@N``), the one ``crewkit campaign status`` lists and
``crewkit review @N`` takes; its record is written under the data folder."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.session import Session
from crewkit.tui.services import Services


async def test_a_finished_attempt_names_its_reference(services: Services, home: Path) -> None:
    session = Session(services, mission="planet-nine/10", ruleset="crew", players=4, kinds=["human"] + ["bot"] * 3,
                      campaign="planet-nine")
    game = session.new_attempt("ref")
    bots = [make_bot("fast", s, "ref") for s in range(4)]
    while not game.is_over():
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.observation(seat)))
    finished = session.finish()
    (attempt,) = services.logbook.attempts("planet-nine", "planet-nine/10")  # type: ignore[attr-defined]
    assert finished.attempt == f"@{attempt.id}" and attempt.record_path == str(finished.record_path)
    assert finished.record_path is not None and finished.record_path.parent == home / "records"
    end = EndScreen("planet-nine/10", "Four corners", finished, False, kinds=session.kinds)
    async with App[None]().run_test():  # the end screen reads its app
        text = end.body().plain
    assert f"This attempt in the logbook: @{attempt.id} (crewkit review @{attempt.id})" in text
