"""The app shell finds a family's terminal face by the family's ``tui`` answer (``module:attribute``), never by
importing the family (crewkit.tui.family)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from crewkit.errors import CrewkitError, UsageError
from crewkit.tui.family import family_tui, terminal_of
from crewkit.tui.services import default_services


@dataclass
class _Family:
    name: str
    tui: str | None


def test_a_family_without_a_table_is_refused_in_words() -> None:
    with pytest.raises(UsageError, match="the cards family, which offers no table at the terminal"):
        terminal_of(_Family("cards", None))


def test_a_family_whose_table_cannot_be_loaded_says_what_it_named() -> None:
    with pytest.raises(CrewkitError, match=r"the cards family's table \(no_such_module:TERMINAL\) cannot be loaded"):
        terminal_of(_Family("cards", "no_such_module:TERMINAL"))


def test_the_bundled_families_answer_and_the_missions_bots_come_through_their_face() -> None:
    assert hasattr(family_tui("crew"), "mission_session") and hasattr(family_tui("not-alone"), "session")
    factory = default_services().bot_factory
    assert factory is not None
    bot = factory("rules", 1, "s")
    assert callable(bot.act) and callable(bot.optional)
