"""The shell's words for a family whose terminal face gives none of its optional words (an installed family's
package written before them): the briefing says the mission's title and description, the help the keys every
table has; crewkit's own families give their own (issue 46)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import crewkit.tui.family as family_face
from crewkit.games import family_for, family_named
from crewkit.tui.briefings import mission_words, table_for


def test_a_face_without_briefing_words_gets_the_title_and_description(monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_for("planet-nine/05")
    rs, spec = family_for(table.ruleset).mission_specs(table.ruleset, table.ref, len(table.kinds), table.readings)
    own = family_face.family_briefing(table.ruleset, rs, spec, table.kinds, shown_id=table.shown_id,
                                      mission_set=False, entry=None, fixed_readings={})
    monkeypatch.setattr(family_face, "family_tui", lambda ruleset: SimpleNamespace())
    monkeypatch.setattr(family_face, "terminal_of", lambda family, what="": SimpleNamespace())
    bare = family_face.family_briefing(table.ruleset, rs, spec, table.kinds, shown_id=table.shown_id,
                                       mission_set=False, entry=None, fixed_readings={})
    title = str(spec.data["title"])
    assert bare[0] == f"[b]{title}[/]" and len(bare) == 3 and bare[2].startswith(str(spec.data["description"])[:20])
    assert len(own) > len(bare) and any("Task" in line for line in own)
    words = mission_words(table)
    assert words[0] == f"{title}   planet-nine/05" and words[2].startswith(str(spec.data["description"])[:20])


def test_the_help_is_the_familys_or_the_keys_every_table_has(monkeypatch: pytest.MonkeyPatch) -> None:
    crew = family_face.help_of(family_named("trick-taking"), remote=False)
    seat = family_face.help_of(family_named("trick-taking"), remote=True)
    hunt = family_face.help_of(family_named("not-alone"), remote=False)
    assert "The Crew in short" in crew and "Variants" in crew and "logbook" in crew
    assert "The Crew in short" in seat and "Variants" not in seat and "leave (join again with your link)" in seat
    assert "Not Alone" in hunt and "Crew" not in hunt
    monkeypatch.setattr(family_face, "terminal_of", lambda family, what="": SimpleNamespace())
    assert family_face.help_of(family_named("trick-taking"), remote=False) == family_face.NO_HELP
