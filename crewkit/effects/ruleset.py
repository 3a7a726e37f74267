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
from .model import Effect
from .words import TOKEN, TRACK, WORDS

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
    lone, others = list(data["roles"])[:2]  # the lone role first
    if data["roles"][lone] != 1 or not isinstance(data["roles"][others], dict):
        return [_issue(doc, ("roles",), f"roles: the lone role comes first with 1 seat ({lone}: 1), then the "
                                        f"others with their min and max ({others}: {{min: 1, max: 6}})")]
    low, high = data["roles"][others]["min"], data["roles"][others]["max"]
    wanted_players = list(range(low + 1, high + 2))
    if sorted(data["players"]) != wanted_players:
        out.append(_issue(doc, ("players",), f"players should be {wanted_players}: one {lone} and "
                                             f"{low} to {high} {others}"))
    hunted_counts = {str(n) for n in range(low, high + 1)}
    tables = [("setup", "reserve"), *(("tracks", t, "goal") for t in data["tracks"])]
    for table in tables:
        keys = set(_at(data, table))
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
    for i, n in enumerate(data["setup"]["places_in_hand"]):
        if n not in numbers:
            out.append(_issue(doc, ("setup", "places_in_hand", i), f"no place has the number {n}"))
    if data["planet"]["marker"]["place"] not in places.place_ids():
        out.append(_issue(doc, ("planet", "marker", "place"), f"unknown place {data['planet']['marker']['place']!r}"))
    track = data.get("rules", {}).get("extra_token_track")
    for side, spec in data.get("board_sides", {}).items():
        for j, space in enumerate(spec["token_spaces"]):
            longest = max(data["tracks"][track]["goal"].values()) if track in data["tracks"] else 0
            if space >= longest:
                out.append(_issue(doc, ("board_sides", side, "token_spaces", j),
                                  f"space {space} is beyond the longest {track} track ({longest})"))
    return out + _name_issues(doc, cards)


def _at(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _name_issues(doc: LoadedDoc, cards: Mapping[str, CardSet]) -> list[SpecIssue]:
    """Every role, track, deck and token a section names is one the rule set defines."""
    data = doc.data
    out: list[SpecIssue] = []
    roles, tracks, tokens = list(data["roles"]), list(data["tracks"]), list(data.get("tokens", {}))
    if "start" not in data.get("counter", {}):
        out.append(_issue(doc, ("counter",) if "counter" in data else (), "the rule set needs counter.start, "
                                                                          "the counter each seat starts with"))

    def check(path: tuple[str | int, ...], name: Any, known: list[str], what: str, key: bool = False) -> None:
        if name not in known:
            out.append(_issue(doc, path, f"unknown {what} {name!r}; the rule set's {what}s: {', '.join(known)}",
                              key=key))

    for deck, spec in data.get("decks", {}).items():
        check(("decks", deck), deck, [k for k in cards if k != "places"], "deck", key=True)
        check(("decks", deck, "role"), spec["role"], roles, "role")
    for track, spec in data["tracks"].items():
        check(("tracks", track, "wins"), spec["wins"], roles, "role")
    moves = [("counter", "at_zero"), ("round", "exploration", "give_up"), ("round", "end_of_round"),
             *(("tokens", t, "catch") for t in tokens)]
    for path in moves:
        try:
            table = _at(data, path)
        except KeyError:
            continue
        for track in table.get("move_track", {}):
            check((*path, "move_track", track), track, tracks, "track", key=True)
    for j, token in enumerate(data.get("round", {}).get("reckoning", {}).get("token_order", [])):
        check(("round", "reckoning", "token_order", j), token, tokens, "token")
    if "extra_token_track" in data.get("rules", {}):
        check(("rules", "extra_token_track"), data["rules"]["extra_token_track"], tracks, "track")
    for i, entry in enumerate(data.get("flow") or []):
        if not isinstance(entry, dict):
            continue
        for param in ("token", "extra_token"):
            if param in entry:
                check(("flow", i, param), entry[param], tokens, "token")
        for j, role in enumerate(entry.get("seats", [])):
            check(("flow", i, "seats", j), role, roles, "role")
        if "role" in entry:
            check(("flow", i, "role"), entry["role"], roles, "role")
        if "spaces_from" in entry:
            options = [e.get("option") for e in data.get("flow") or [] if isinstance(e, dict)
                       and e.get("block") == "option-choice"]
            check(("flow", i, "spaces_from"), entry["spaces_from"], [str(o) for o in options], "option")
    return out + card_name_issues(cards, tracks, tokens)


def card_name_issues(cards: Mapping[str, CardSet], tracks: list[str], tokens: list[str]) -> list[SpecIssue]:
    """Every track and token a card's effects name is one the rule set declares (at the card's line)."""
    out: list[SpecIssue] = []
    known = {"track": tracks, "token": tokens}

    def walk(effect: Effect) -> None:
        for param in WORDS[effect.word].params:
            value = effect.args.get(param.name)
            kind = "track" if param.type is TRACK else "token" if param.type is TOKEN else ""
            if kind and value not in known[kind]:
                out.append(SpecIssue(effect.file, effect.line, effect.column, effect.path,
                                     f"{effect.word}: the rule set has no {kind} {value!r}; its {kind}s: "
                                     f"{', '.join(known[kind])}"))
            if param.type.name == "options":
                for option in value or []:
                    for sub in option:
                        walk(sub)

    for card_set in cards.values():
        tokened = [(i, c) for i, c in enumerate(card_set.cards) if c.token and c.token not in tokens]
        doc = load_yaml_file(card_set.path) if tokened else None
        for i, card in tokened:
            assert doc is not None
            line, col = doc.position_of(("cards", i, "token"))
            out.append(SpecIssue(doc.filename, line, col, ("cards", i, "token"),
                                 f"{card.id}: the rule set has no token {card.token!r}; its tokens: "
                                 f"{', '.join(tokens)}"))
        for card in card_set.cards:
            for effect in (*card.effects, *card.passive):
                walk(effect)
    return out
