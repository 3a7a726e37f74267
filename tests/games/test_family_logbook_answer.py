"""A campaign's logbook asks the family of a won attempt's rule set what a distress signal used adds
(``crewkit.games.logbook_extra_attempts``): the shell and ``crewkit campaign status`` import no family for it."""

from __future__ import annotations

from pathlib import Path

from crewkit.games import logbook_extra_attempts


def test_each_family_answers_what_the_distress_signal_adds(tmp_path: Path) -> None:
    two = tmp_path / "two.yaml"
    two.write_text("name: two\nextends: crew\ntitle: t\ndistress: {extra_attempts: 2}\n", encoding="utf-8")
    assert logbook_extra_attempts("crew") == 1  # the rule book's
    assert logbook_extra_attempts(str(two)) == 2  # the trick-taking family reads its rule set
    assert logbook_extra_attempts("not-alone") == 0  # a family with no distress signal adds none
    other = tmp_path / "other.yaml"
    other.write_text("name: other\nfamily: no-such-family\n", encoding="utf-8")
    assert logbook_extra_attempts(str(other)) == 1  # a family that cannot be loaded: the rule book's
