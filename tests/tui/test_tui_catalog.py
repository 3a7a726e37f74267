"""The terminal app reads spec files with the spec layer's loader (YAML 1.2), never a YAML 1.1 reader of its own."""

from __future__ import annotations

from pathlib import Path

from crewkit.spec import bundled
from crewkit.spec.loader import load_doc
from crewkit.tui import catalog

MISSION = """\
number: 93
title: Yes or no
rulesets: [crew]
tasks: {count: 1}
setup:
  - ask:
      id: q
      question: Will you win the first trick?
      answers: [yes, no, on, off]
"""


def test_answers_stay_strings_as_the_engine_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "yes-no.yaml"
    path.write_text(MISSION, encoding="utf-8")
    data = catalog.quick_mission_data(str(path))
    assert data["setup"][0]["ask"]["answers"] == ["yes", "no", "on", "off"]
    assert data == load_doc(path).data


def test_every_bundled_mission_reads_the_same_in_the_app_and_the_engine() -> None:
    for path in bundled.bundled_missions():
        mission = bundled.mission_id_for(path)
        assert catalog.quick_mission_data(mission) == load_doc(path).data, mission
