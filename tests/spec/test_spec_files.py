"""Every bundled rule set and mission validates against its schema and points editors at it."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.effects.files import effect_file_issues
from crewkit.spec.bundled import FAMILY_SCHEMAS, TRICK_TAKING, ruleset_family
from crewkit.spec.errors import render_issue
from crewkit.spec.schema import Kind, validate_document
from crewkit.spec.yamlio import load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [p for p in sorted((ROOT / "rulesets").glob("*.yaml")) if ruleset_family(p) == TRICK_TAKING]
OTHER_FAMILIES = [p for p in sorted((ROOT / "rulesets").glob("*.yaml")) if ruleset_family(p) != TRICK_TAKING]
MISSION_FILES = sorted((ROOT / "missions").glob("*/*.yaml"))


def kind_of(path: Path) -> Kind:
    if path.parent.name == "rulesets":
        return "ruleset"
    if path.name == "tasks.yaml":
        return "task-cards"
    return "campaign" if path.name == "campaign.yaml" else "mission"


def schema_comment(kind: Kind) -> str:
    rel = "../schemas" if kind == "ruleset" else "../../schemas"
    return f"# yaml-language-server: $schema={rel}/{kind}.schema.json"


def ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def test_the_example_files_exist() -> None:
    names = {p.stem for p in RULESETS}
    assert {"crew", "crew-jarvis", "crew-3p-challenge", "crew-persian", "hammer"} <= names
    assert len(list((ROOT / "missions" / "hammer").glob("*.yaml"))) == 5
    assert list((ROOT / "missions" / "persian").glob("*.yaml"))


@pytest.mark.parametrize("path", RULESETS + MISSION_FILES, ids=ids(RULESETS + MISSION_FILES))
def test_bundled_file_validates(path: Path) -> None:
    kind = kind_of(path)
    doc = load_yaml_file(path, str(path.relative_to(ROOT)))
    found = validate_document(doc, kind)
    assert not found, "\n".join(render_issue(i, doc.lines) for i in found)
    assert doc.lines[0] == schema_comment(kind)


@pytest.mark.parametrize("path", OTHER_FAMILIES, ids=ids(OTHER_FAMILIES))
def test_a_rule_set_of_another_family_validates_against_its_family_schema(path: Path) -> None:
    schema = FAMILY_SCHEMAS[ruleset_family(path)]
    assert effect_file_issues(path, schema) == []
    assert load_yaml_file(path).lines[0] == f"# yaml-language-server: $schema=../schemas/{schema}.schema.json"


def test_not_alone_is_a_bundled_rule_set_of_its_own_family() -> None:
    assert {p.stem for p in OTHER_FAMILIES} >= {"not-alone", "not-alone-advanced"}


@pytest.mark.parametrize("path", RULESETS, ids=ids(RULESETS))
def test_ruleset_name_matches_file_and_variants_are_partial(path: Path) -> None:
    data = load_yaml_file(path).data
    assert data["name"] == path.stem
    if "extends" in data:
        assert data["extends"] in ("crew", "crew-deep-sea")  # The Crew, or Mission Deep Sea's own variants
        # A variant lists only differences: never the whole deck or the play block again (a deck only when its
        # suits differ from the base's: Mission Deep Sea's submarines are Planet Nine's rockets renamed).
        base = load_yaml_file(ROOT / "rulesets" / f"{data['extends']}.yaml").data
        assert data.get("deck", {}).get("suits", None) != base["deck"]["suits"]
        assert "play" not in data


@pytest.mark.parametrize("path", RULESETS, ids=ids(RULESETS))
def test_readings_are_well_formed(path: Path) -> None:
    data = load_yaml_file(path).data
    seen: set[str] = set()
    for reading in data.get("readings", []):
        assert reading["id"] not in seen
        seen.add(reading["id"])
        assert reading["choice"] in reading["options"], reading["id"]
        # A selectable alternative that changes the rule set says how.
        assert "overrides" not in reading["options"][reading["choice"]]


def test_variants_cover_the_unclear_points_they_touch() -> None:
    readings = {p.stem: {r["id"] for r in load_yaml_file(p).data.get("readings", [])} for p in RULESETS}
    assert {"challenge-rocket-1"} <= readings["crew-3p-challenge"]
    assert {"signal-who", "signal-must-win", "set-aside-needed", "commander-without-1"} <= readings[
        "crew-persian"
    ]
    assert {"hidden-payment", "challenge-others-score", "automatic-90", "cannot-pay"} <= readings["hammer"]
    assert {"jarvis-seat"} <= readings["crew-jarvis"]
