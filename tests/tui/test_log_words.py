"""The table's log says players, never the engine's ``seat N``: the outcome and round lines carry the engine's
reasons, which name seats."""

from __future__ import annotations

from crewkit.families.trick_taking.engine.state import Event
from crewkit.families.trick_taking.tui.log import event_text


def test_the_outcome_line_names_the_player_not_the_seat() -> None:
    line = event_text(Event("outcome", None, None, "failure: the sick crew member (seat 2) won trick 6"),
                      ["human", "bot", "bot"], 0)
    assert line is not None
    assert "seat" not in line.plain and "Bot 2" in line.plain, line.plain


def test_the_viewer_is_you_in_a_reason() -> None:
    line = event_text(Event("outcome", None, None, "failure: seat 0 won trick 3"), ["human", "bot", "bot"], 0)
    assert line is not None and line.plain == "failure: You won trick 3", line.plain
