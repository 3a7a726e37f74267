"""Loading a rule set whose cards are card set files of effects (Not Alone's, for now), before the engine runs it.

:func:`load_effect_ruleset` resolves ``extends`` (a file beside it), merges with the variant merge rules of
:mod:`crewkit.spec.merge`, checks the result against the draft schema (``schemas/<schema>.schema.json``),
checks every reading (its choice is one of its options; every option's ``overrides`` gives a valid rule set)
and loads the card sets it names, with cross-checks (players and roles, tables per number of Hunted, the
planet's places). Every problem is a positioned :class:`~crewkit.spec.errors.SpecIssue`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewkit.spec.bundled import confined
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.merge import merge
from crewkit.spec.resources import data_path
from crewkit.spec.schema import validate_against
from crewkit.spec.yamlio import LoadedDoc, load_yaml_file

from .cardsets import CardSet, load_card_set

MAX_EXTENDS = 8


@dataclass(frozen=True)
class EffectRuleSet:
    name: str
    path: Path
    data: Mapping[str, Any]
    cards: Mapping[str, CardSet]  # places, hunt, survival


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    with open(data_path(f"schemas/{name}.schema.json"), encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


def _issue(doc: LoadedDoc, path: tuple[str | int, ...], message: str, key: bool = False) -> SpecIssue:
    line, col = doc.position_of(path, key=key)
    return SpecIssue(doc.filename, line, col, path, message)


def _resolved(path: Path, depth: int = 0) -> tuple[dict[str, Any], LoadedDoc]:
    doc = load_yaml_file(path)
    data = doc.data
    parent = data.get("extends")
    if parent is None:
        return dict(data), doc
    if not isinstance(parent, str) or depth >= MAX_EXTENDS:
        raise SpecError([_issue(doc, ("extends",), "expected the file name of the rule set this one extends, "
                                                   f"at most {MAX_EXTENDS} deep")], doc.lines)
    base_path = path.parent / parent
    if not base_path.is_file() or not confined(base_path, path.parent):
        raise SpecError([_issue(doc, ("extends",), f"rule set file {parent!r} is not a file beside this one")],
                        doc.lines)
    base, _ = _resolved(base_path, depth + 1)
    return merge(base, data, top=True), doc


def ruleset_issues(path: Path, schema: str = "not-alone-ruleset") -> tuple[EffectRuleSet | None, list[SpecIssue]]:
    """The rule set at ``path`` and every problem found (positions are in ``path``'s own file)."""
    try:
        data, doc = _resolved(path)
    except SpecError as exc:
        return None, list(exc.issues)
    own = validate_against(doc, _schema(schema))
    if own:
        return None, own
    merged = LoadedDoc(data, doc.filename, doc.lines, doc.positions)
    issues = validate_against(merged, _schema(schema))
    if issues:
        return None, issues
    issues += _reading_issues(merged, schema)
    cards: dict[str, CardSet] = {}
    for kind, rel in data["cards"].items():
        card_path = path.parent / rel
        if not card_path.is_file() or not confined(card_path, path.parent):
            issues.append(_issue(doc, ("cards", kind), f"card set file {rel!r} is not a file beside this rule set"))
            continue
        try:
            cards[kind] = load_card_set(card_path, cards["places"].place_ids() if "places" in cards else None)
        except SpecError as exc:
            issues += exc.issues
            continue
        if cards[kind].kind != kind:
            issues.append(_issue(doc, ("cards", kind), f"{rel} is a {cards[kind].kind} card set, not {kind}"))
    if not issues:
        issues += _cross_issues(merged, cards)
    if issues:
        return None, sort_issues(issues)
    return EffectRuleSet(data["name"], path, data, cards), []


def load_effect_ruleset(path: str | Path, schema: str = "not-alone-ruleset") -> EffectRuleSet:
    ruleset, issues = ruleset_issues(Path(path), schema)
    if ruleset is None:
        raise SpecError(issues)
    return ruleset


def _reading_issues(doc: LoadedDoc, schema: str) -> list[SpecIssue]:
    out: list[SpecIssue] = []
    seen: set[str] = set()
    for i, reading in enumerate(doc.data.get("readings", [])):
        where = ("readings", i)
        if reading["id"] in seen:
            out.append(_issue(doc, (*where, "id"), f"duplicate reading id {reading['id']!r}"))
        seen.add(reading["id"])
        if reading["choice"] not in reading["options"]:
            out.append(_issue(doc, (*where, "choice"), f"the choice {reading['choice']!r} is not one of the "
                                                       f"options ({', '.join(reading['options'])})"))
        for name, option in reading["options"].items():
            patch = option.get("overrides")
            if not patch:
                continue
            patched = LoadedDoc(merge(doc.data, patch, top=False), doc.filename, doc.lines, doc.positions)
            for problem in validate_against(patched, _schema(schema)):
                out.append(_issue(doc, (*where, "options", name, "overrides"),
                                  f"option {name!r} would give an invalid rule set: {problem.message} "
                                  f"(at {problem.dotted_path})"))
            if _unknown_keys(doc.data, patch):
                out.append(_issue(doc, (*where, "options", name, "overrides"),
                                  f"option {name!r} overrides a key the rule set does not have: "
                                  f"{_unknown_keys(doc.data, patch)}"))
    return out


def _unknown_keys(base: Any, patch: Any, prefix: str = "") -> str:
    if not isinstance(base, dict) or not isinstance(patch, dict):
        return ""
    for key, value in patch.items():
        if key not in base:
            return prefix + key
        deeper = _unknown_keys(base[key], value, f"{prefix}{key}.")
        if deeper:
            return deeper
    return ""


def _cross_issues(doc: LoadedDoc, cards: Mapping[str, CardSet]) -> list[SpecIssue]:
    data = doc.data
    out: list[SpecIssue] = []
    low, high = data["roles"]["hunted"]["min"], data["roles"]["hunted"]["max"]
    wanted_players = list(range(low + 1, high + 2))
    if sorted(data["players"]) != wanted_players:
        out.append(_issue(doc, ("players",), f"players should be {wanted_players}: one Creature and "
                                             f"{low} to {high} Hunted"))
    hunted_counts = {str(n) for n in range(low, high + 1)}
    for table in (("setup", "reserve"), ("tracks", "rescue"), ("tracks", "assimilation")):
        keys = set(data[table[0]][table[1]])
        if keys != hunted_counts:
            missing = sorted(hunted_counts - keys)
            extra = sorted(keys - hunted_counts)
            out.append(_issue(doc, table, f"{'.'.join(table)} needs one value per number of Hunted, {low} to {high}"
                                          + (f"; missing {', '.join(missing)}" if missing else "")
                                          + (f"; not a number of Hunted: {', '.join(extra)}" if extra else "")))
    places = cards.get("places")
    if places is None:
        return out
    numbers = sorted(places.place_ids().values())
    grid = sorted(n for row in data["planet"]["rows"] for n in row)
    if grid != numbers:
        out.append(_issue(doc, ("planet", "rows"), f"the planet's rows should hold each place once ({numbers}), "
                                                   f"found {grid}"))
    for i, n in enumerate(data["setup"]["hunted_places"]):
        if n not in numbers:
            out.append(_issue(doc, ("setup", "hunted_places", i), f"no place has the number {n}"))
    if data["planet"]["marker"]["place"] not in places.place_ids():
        out.append(_issue(doc, ("planet", "marker", "place"), f"unknown place {data['planet']['marker']['place']!r}"))
    for side, spec in data["tracks"]["board_sides"].items():
        for j, space in enumerate(spec["artemia_spaces"]):
            longest = max(data["tracks"]["rescue"].values())
            if space >= longest:
                out.append(_issue(doc, ("tracks", "board_sides", side, "artemia_spaces", j),
                                  f"space {space} is beyond the longest Rescue track ({longest})"))
    return out
