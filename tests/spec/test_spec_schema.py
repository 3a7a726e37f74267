"""JSON Schema checks: the schemas themselves, friendly positioned messages, the record example."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from crewkit.spec.errors import SpecError, SpecIssue, render_issue
from crewkit.spec.resources import data_path
from crewkit.spec.schema import KINDS, Kind, check_document, get_validator, load_schema, validate_document
from crewkit.spec.yamlio import load_json_text, load_yaml_file, load_yaml_text

ROOT = Path(__file__).resolve().parents[2]

RECORD_EXAMPLE: dict[str, Any] = {
    "format": "crewkit-record/1",
    "ruleset": "crew",
    "mission": "planet-nine/03",
    "players": 4,
    "seed": "abc",
    "deal": {"hands": [["pink 9", "blue 3"], ["green 1"]], "tasks": ["pink 1", "green 7"]},
    "actions": [
        {"seat": 0, "type": "take-task", "card": "pink 1"},
        {"seat": 1, "type": "communicate", "card": "blue 9", "position": "top"},
        {"seat": 0, "type": "distress", "direction": "left"},
        {"seat": 2, "type": "pass-card", "card": "pink 2"},
        {"seat": 0, "type": "play", "card": "pink 9"},
    ],
}


def issues(text: str, kind: Kind = "ruleset") -> list[SpecIssue]:
    return validate_document(load_yaml_text(text, "bad.yaml"), kind)


def crew_text() -> str:
    return (ROOT / "rulesets" / "crew.yaml").read_text(encoding="utf-8")


def at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of needle in text."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


# ------------------------------------------------------------------------------------------- schemas


@pytest.mark.parametrize("name", sorted(p.name for p in data_path("schemas").glob("*.schema.json")))
def test_every_bundled_schema_is_valid_draft_2020_12(name: str) -> None:
    """crewkit does not check its schemas against the metaschema at run time (each costs about 0.1 s at start-up):
    this test does, for every schema it ships."""
    schema = json.loads(data_path(f"schemas/{name}").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12(kind: Kind) -> None:
    schema = load_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://crewkit.dev/schemas/{kind}.schema.json"
    assert get_validator(kind) is get_validator(kind)  # compiled once


def _walk(node: Any, where: str) -> list[str]:
    problems: list[str] = []
    if isinstance(node, dict):
        types = node.get("type")
        is_object = types == "object" or (isinstance(types, list) and "object" in types)
        # an open object says why (``x-open``): a plug-in action's fields are its package's
        if is_object and node.get("additionalProperties") is not False and not node.get("x-open"):
            problems.append(f"{where}: object without additionalProperties: false")
        for name, sub in node.get("properties", {}).items():
            if not isinstance(sub, dict) or not sub.get("description"):
                problems.append(f"{where}.properties.{name}: no description")
        for key, value in node.items():
            if key in ("enum", "const", "required", "examples"):
                continue
            problems.extend(_walk(value, f"{where}.{key}"))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            problems.extend(_walk(item, f"{where}[{i}]"))
    return problems


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_described_and_every_object_closed(kind: Kind) -> None:
    assert _walk(load_schema(kind), kind) == []


@pytest.mark.parametrize("kind", KINDS)
def test_defs_are_all_used(kind: Kind) -> None:
    text = json.dumps(load_schema(kind))
    for name in load_schema(kind).get("$defs", {}):
        assert f'"#/$defs/{name}"' in text, f"{kind}: $defs/{name} is never referenced"


# ------------------------------------------------------------------------------------------- records


def test_record_example_validates() -> None:
    assert list(get_validator("record").iter_errors(RECORD_EXAMPLE)) == []
    doc = load_json_text(json.dumps(RECORD_EXAMPLE, indent=2), "r.json")
    assert validate_document(doc, "record") == []


def test_record_needs_deal_or_seed() -> None:
    rec = copy.deepcopy(RECORD_EXAMPLE)
    del rec["seed"]
    assert validate_document(load_json_text(json.dumps(rec), "r.json"), "record") == []
    del rec["deal"]
    found = validate_document(load_json_text(json.dumps(rec), "r.json"), "record")
    assert [i.message for i in found] == ["missing required key: one of 'deal', 'seed'"]


@pytest.mark.parametrize(
    "action,fragment",
    [
        ({"seat": 0, "type": "play"}, "missing required key 'card'"),
        ({"seat": 0, "type": "distress", "direction": "up"}, "expected one of left, right; found 'up'"),
        (
            {"seat": 0, "type": "communicate", "card": "blue 9", "position": "middle"},
            "expected one of top, bottom, only",
        ),
        ({"seat": 0, "type": "plya", "card": "pink 9"}, "did you mean 'play'?"),
        ({"seat": 0, "type": "play", "card": "pink nine"}, "expected a card such as 'pink 9'"),
        ({"seat": 0, "type": "choose-mission", "mission": "hammer/01"}, "missing required key 'mode'"),
        ({"seat": "0", "type": "play", "card": "pink 9"}, "expected an integer, found string '0'"),
    ],
)
def test_record_action_errors(action: dict[str, Any], fragment: str) -> None:
    rec = copy.deepcopy(RECORD_EXAMPLE)
    rec["actions"].append(action)
    text = json.dumps(rec, indent=2)
    found = validate_document(load_json_text(text, "r.json"), "record")
    assert any(fragment in i.message for i in found), [i.message for i in found]
    assert all(i.line > 1 for i in found)


def test_record_planned_actions_and_extras() -> None:
    rec = copy.deepcopy(RECORD_EXAMPLE)
    rec.update(
        dealer=1,
        readings={"challenge-rocket-1": "remove-rocket-1"},
        outcome="failure",
        reason="pink 1 was won by seat 2",
        result={"tricks_won": [1, 0, 0, 0], "distress_used": True},
    )
    rec["deal"]["dummy"] = {"face_down": [["blue 1"]], "face_up": [["blue 2"]]}
    rec["deal"]["secret_tasks"] = [["persian/01"], ["persian/03"]]
    rec["actions"] += [
        {"seat": 1, "type": "answer", "answer": "good"},
        {"seat": 0, "type": "choose-player", "player": 2, "role": "sick"},
        {"seat": 0, "type": "swap-tokens", "cards": ["pink 1", "green 7"]},
        {"seat": 0, "type": "move-token", "token": "2", "card": "pink 1"},
        {"seat": 0, "type": "give-task", "card": "pink 1", "to": 3},
        {"seat": 0, "type": "choose-mission", "mission": "hammer/01", "mode": "challenge"},
        {"seat": 0, "type": "signal", "card": "blue 3"},
        {"seat": 0, "type": "choose-dummy-seat", "dummy_seat": 1},
        {"seat": 0, "type": "hand-task", "card": "green 7", "to": 4},
        {"seat": 0, "type": "communicate", "card": "blue 9"},
        {"seat": 3, "type": "play", "card": "10"},
    ]
    assert list(get_validator("record").iter_errors(rec)) == []


# ------------------------------------------------------------------------------------------- messages


def test_hand_size_type_error_position() -> None:
    text = crew_text().replace('"4": 10', '"4": ten')
    (issue,) = issues(text)
    assert (issue.file, (issue.line, issue.column)) == ("bad.yaml", at(text, "ten"))
    assert issue.path == ("deal", "hands", "4")
    assert issue.message == "expected an integer or a list of integers, found string 'ten'"
    rendered = render_issue(issue, text.splitlines())
    assert rendered.startswith(f"bad.yaml:{issue.line}:{issue.column}: error: at deal.hands.4: expected")
    assert rendered.splitlines()[-1].endswith("^")


def test_unknown_key_points_at_key_with_suggestion() -> None:
    text = crew_text().replace("players: [3, 4, 5]", "playrs: [3, 4, 5]")
    found = issues(text)
    unknown = [i for i in found if "unknown key" in i.message]
    assert [(i.line, i.column, i.message) for i in unknown] == [
        (*at(text, "playrs"), "unknown key 'playrs'; did you mean 'players'?")
    ]
    missing = [i for i in found if "missing" in i.message]
    assert [i.message for i in missing] == ["missing required key 'players'"]


def test_missing_nested_key_points_at_parent_key() -> None:
    text = crew_text().replace("  must_follow: true\n", "")
    (issue,) = issues(text)
    assert issue.message == "missing required key 'must_follow'"
    assert (issue.line, issue.column) == at(text, "play:")


def test_enum_message() -> None:
    text = crew_text().replace("assignment: draft", "assignment: drift")
    (issue,) = issues(text)
    assert issue.message.startswith(
        "expected one of draft, commander-decision, commander-distribution, secret-deal, none; found 'drift'"
    )
    assert (issue.line, issue.column) == at(text, "drift")


def test_card_pattern_message() -> None:
    text = crew_text().replace("holder_of: rocket 4", "holder_of: rocket four")
    (issue,) = issues(text)
    assert "expected a card such as 'pink 9'" in issue.message
    assert (issue.line, issue.column) == at(text, "rocket four")


def test_type_message_for_player_counts() -> None:
    text = crew_text().replace("players: [3, 4, 5]", "players: [3, four, 5]")
    (issue,) = issues(text)
    assert issue.message == "expected an integer, found string 'four'"
    assert (issue.line, issue.column) == at(text, "four")


def test_all_errors_reported_sorted() -> None:
    text = (
        crew_text()
        .replace("assignment: draft", "assignment: drift")
        .replace("per_player: 1", "per_player: one")
        .replace('"5": 8', '"5": eight')
    )
    found = issues(text)
    assert len(found) == 3
    assert [(i.line, i.column) for i in found] == sorted((i.line, i.column) for i in found)


def test_variant_is_partial_but_keys_still_checked() -> None:
    assert issues("name: v\nextends: crew\ndeck: {remove: [green 1]}\n") == []
    found = issues("name: v\nextends: crew\ndeck: {remuve: [green 1]}\n")
    assert [i.message for i in found] == ["unknown key 'remuve'; did you mean 'remove'?"]
    # Without extends, the same file is incomplete.
    found = issues("name: v\ndeck: {remove: [green 1]}\n")
    assert "missing required key 'suits'" in [i.message for i in found]


def test_null_deletes_only_where_allowed() -> None:
    assert (
        issues("name: v\nextends: crew\ncommander: {holder_of: null, dealer: true}\ndistress: null\n") == []
    )
    (issue,) = issues("name: v\nextends: crew\nplay: {must_follow: null}\n")
    assert issue.message == "expected true or false, found an empty value (null)"


def test_mission_setup_steps_are_one_key_objects() -> None:
    base = "number: 5\ntitle: Sick bay\nrulesets: [crew]\ntasks: {count: 0}\nsetup:\n"
    assert issues(base + "  - ask: {question: 'How?', answers: [good, bad]}\n", "mission") == []
    (issue,) = issues(base + "  - asks: {question: 'How?', answers: [good, bad]}\n", "mission")
    assert issue.message == "unknown key 'asks'; did you mean 'ask'?"
    assert (issue.line, issue.column) == (6, 5)
    (issue,) = issues(base + "  - ask: {question: 'How?', answers: [good]}\n", "mission")
    assert issue.message == "expected a list of at least 2 items, found 1"
    (issue,) = issues(base + "  - role_from_holder: {role: r, card: pink 9, offset: up}\n", "mission")
    assert issue.message.startswith("expected one of left, right, self; found 'up'")


def test_check_document_raises() -> None:
    doc = load_yaml_text("name: x\n", "x.yaml")
    with pytest.raises(SpecError) as info:
        check_document(doc, "ruleset")
    assert "missing required key 'players'" in info.value.render()


def test_bundled_ruleset_passes_check_document() -> None:
    check_document(load_yaml_file(ROOT / "rulesets" / "crew.yaml"), "ruleset")


def test_record_actions_of_plug_in_types_are_admitted_when_their_package_is_known() -> None:
    rec = copy.deepcopy(RECORD_EXAMPLE)
    rec["actions"].append({"seat": 0, "type": "bid", "tricks": 2})
    doc = load_json_text(json.dumps(rec, indent=2), "r.json")
    assert validate_document(doc, "record", action_types={"bid"}) == []
    found = validate_document(doc, "record")
    assert len(found) == 1 and found[0].message.startswith("unknown action type 'bid'; ")
    assert "needs the package that adds it installed" in found[0].message
    assert found[0].path == ("actions", len(rec["actions"]) - 1, "type") and found[0].line > 1
