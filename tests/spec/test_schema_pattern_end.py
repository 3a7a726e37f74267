"""A schema's ``$`` ends the string, as JSON Schema (ECMA-262) means it: Python's ``$`` alone also matched
before a last newline, so a name ending in a newline passed the bundled schemas."""

from __future__ import annotations

import json

import pytest

from crewkit.spec.schema import ecma_pattern, validate_document
from crewkit.spec.yamlio import load_json_text


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    ("^[a-z]+$", "pink", True),
    ("^[a-z]+$", "pink\n", False),
    ("\\.ya?ml$", "a.yaml\n", False),
    ("^[^$]+$", "a$", False),      # "$" inside a class is a character
    ("^a\\$$", "a$", True),         # an escaped "$" is a character
    ("^[]$]+$", "$]$", True),       # a first "]" in a class is a character
])
def test_dollar_ends_the_string(pattern: str, text: str, matches: bool) -> None:
    assert bool(ecma_pattern(pattern).search(text)) is matches


def test_a_record_whose_family_name_ends_in_a_newline_is_refused() -> None:
    record = {"format": "crewkit-record/1", "ruleset": "crew", "mission": "planet-nine/03", "players": 4,
              "seed": "abc", "deal": {"hands": [["pink 9"], ["green 1"]], "tasks": []}, "actions": []}
    assert validate_document(load_json_text(json.dumps(record), "ok.json"), "record") == []
    record["family"] = "not-alone\n"
    found = validate_document(load_json_text(json.dumps(record), "bad.json"), "record")
    assert found and found[0].path == ("family",)
