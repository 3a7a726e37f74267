"""Every key a schema accepts changes what the engine runs: no key is accepted and then ignored.

For every property of every schema (``schemas/*.schema.json``), the test finds the places where bundled files
(and a few fixtures below, for keys no bundled file uses) set it, changes the value there (deletes it, flips
it, picks another enum value, another card, another number, a shorter list, another expression) and compiles
the game again through the engine's own pipeline (``crewkit.families.trick_taking.engine.setup``, which also
reads the logbook's distress bonus). A property is *read* when some change gives different compiled rules (or
a different refusal). A property no change can affect fails the test: implement it, or take it out of the
schema. A second test checks that every field of the compiled rules is read somewhere in crewkit, so a key
cannot hide in a compiled field nobody uses (as ``distress.extra_attempts`` once did).

Keys that are not rules at all (text for people, the loader's own ``extends``/``readings`` machinery) are
listed in ``NOT_RULES`` with the reason; that list is checked against the schemas too.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from crewkit.campaign.store import Attempt, mission_progress
from crewkit.dsl import DslError
from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.engine import rules as rules_mod
from crewkit.families.trick_taking.engine import scoring as scoring_mod
from crewkit.families.trick_taking.engine import setup as setup_mod
from crewkit.spec import bundled
from crewkit.spec.errors import SpecError
from crewkit.spec.loader import load_doc, mission_model, resolve_ruleset_data, ruleset_model
from crewkit.spec.model import Mission, RuleSet

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas"

# Keys that are not rules: what reads them instead, and why no compiled rule can depend on them.
NOT_RULES: dict[tuple[str, str], str] = {
    ("ruleset", "title"): "shown to people (lists, briefing)",
    ("ruleset", "description"): "shown to people",
    ("ruleset", "family"): "picks the family that checks and runs it (crewkit.games.family_named); a trick-taking "
                           "rule set can only say trick-taking",
    ("ruleset", "commander.called"): "the role's word shown to people (crewkit.families.trick_taking.tui.mission_words.commander_word: captain)",
    ("ruleset", "extends"): "resolved by the loader before anything is compiled (crewkit.spec.loader)",
    ("ruleset", "readings[].question"): "shown to people (docs/variants.md, the app's variants screen)",
    ("ruleset", "readings[].source"): "shown to people",
    ("ruleset", "readings[].options.*.text"): "shown to people",
    ("ruleset", "readings[].options.*.overrides"): "applied by the loader on --reading; every option is "
                                                    "checked by crewkit validate (check_reading_options)",
    ("ruleset", "readings[].options"): "the options' texts and patches (see above)",
    ("mission", "title"): "shown to people",
    ("mission", "description"): "shown to people",
    ("mission", "rulesets"): "which rule sets may play the mission: read by the loader and the front ends",
    ("mission", "readings[].question"): "shown to people",
    ("mission", "readings[].source"): "shown to people",
    ("mission", "readings[].options.*.text"): "shown to people",
    ("mission", "readings[].options.*.overrides"): "applied by the loader on --reading; every option is "
                                                    "checked by crewkit validate",
    ("mission", "readings[].options"): "the options' texts and patches (see above)",
    **{("mission", f"setup[].{step}.text"): "words for players: the briefing and `show mission --words` "
       "(crewkit.families.trick_taking.tui.mission_words.setup_step_words; tests/docs/test_words_everywhere.py)"
       for step in ("ask", "choose_player", "choose_roles", "role_from_holder", "swap_tokens", "move_token",
                    "draw_from_neighbour")},
    **{("mission", f"scoring.{mode}.text"): "words for players: the mission card as the table shows it "
       "(crewkit.families.trick_taking.tui.mission_words.scoring_words)" for mode in ("penalty", "hidden", "challenge")},
    ("campaign", "name"): "a campaign is a list of missions for the front ends, not rules",
    ("campaign", "title"): "shown to people",
    ("campaign", "description"): "shown to people",
    ("campaign", "ruleset"): "the front ends' default rule set for the campaign",
    ("campaign", "missions"): "the front ends' mission order",
    ("campaign", "players"): "the player counts the front ends offer; checked by crewkit validate",
    ("campaign", "unlock"): "which missions the app opens",
    ("campaign", "readings"): "applied by the front ends and the analysis as --reading would be",
}

# Keys no bundled file sets: (kind, the bundled file, a patch merged into it). A rule set with `rounds` is
# compiled with the hammer cards.
FIXTURES: list[tuple[str, str, dict[str, Any]]] = [
    ("ruleset", "crew", {"first_leader": {"holder_of": "blue 1"}}),
    ("ruleset", "crew", {"tasks": {"draft_start": "first-leader"}, "first_leader": {"holder_of": "blue 1"}}),
    ("ruleset", "crew", {"tasks": {"cards": {"include": ["rocket 1"]}}}),
    ("ruleset", "crew", {"play": {"free_cards": [{"card": "rocket 1", "not_in_tricks": ["first"]}],
                                  "special_lead": "no-suit"}}),
    ("ruleset", "crew", {"deal": {"set_aside": {"4": 2}}}),
    ("ruleset", "crew", {"deck": {"specials": [{"name": "ten", "label": "10", "code": "X", "rank": 3}]}}),
    ("ruleset", "crew", {"communication": {"per_trick": 2, "must_win_same_trick": True, "singleton": "any-true"}}),
    ("ruleset", "crew", {"commander": {"dealer": True, "holder_of": None}}),
    ("ruleset", "crew-persian", {"commander": {"secret_task_number": None, "else": None, "lowest_secret_task": True}}),
    ("ruleset", "crew-persian", {"commander": {"secret_task_number": None, "else": None, "highest_secret_task": True}}),
    ("mission", "planet-nine/02", {"unsupported": {"crew-jarvis": "a test"}}),
    ("ruleset", "crew-deep-sea", {"communication": {"modes": {"currents": {"enabled": False}}}}),
    ("ruleset", "crew", {"rounds": {"count": 2, "dealer_start": "seat-0", "dealer_rotation": "right",
                                    "chips": {"start": 5}}, "scoring": {"modes": ["penalty"], "missions": "hammer"}}),
]

# A mission each rule set is compiled with when one of its keys changes (others: planet-nine/03, with tokens).
MISSION_FOR = {"crew": "planet-nine/03", "crew-3p-challenge": "planet-nine/13", "crew-jarvis": "planet-nine/13",
               "crew-persian": "persian", "hammer": "hammer",
               "crew-deep-sea": "deep-sea/20", "crew-deep-sea-tonoja": "deep-sea/20"}


# ---------------------------------------------------------------------------- the schemas' properties
def schema_properties(kind: str) -> dict[str, dict[str, Any]]:
    """Every property path of a schema (``a.b``, ``x[]`` for list items, ``m.*`` for free map keys) with
    the subschemas that may describe it (``$ref``, ``anyOf`` and ``then`` followed)."""
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    out: dict[str, dict[str, Any]] = {}

    def walk(node: Any, path: str, depth: int) -> None:
        if not isinstance(node, dict) or depth > 12:
            return
        if "$ref" in node:
            walk(defs[node["$ref"].rsplit("/", 1)[-1]], path, depth + 1)
        for key, sub in (node.get("properties") or {}).items():
            child = f"{path}.{key}" if path else key
            out.setdefault(child, {"schemas": []})["schemas"].append(sub)
            walk(sub, child, depth + 1)
        for sub in (node.get("patternProperties") or {}).values():
            walk(sub, f"{path}.*", depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]", depth + 1)
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(key, []):
                walk(sub, path, depth + 1)
        if isinstance(node.get("then"), dict):
            walk(node["then"], path, depth + 1)

    walk(schema, "", 0)
    # a reading's overrides repeat the document's own keys: those are checked where the document sets them
    return {p: v for p, v in out.items() if ".overrides." not in p and kind != "record"}


def pattern_of(path: tuple[str | int, ...], data: Any, kind: str, props: Mapping[str, Any]) -> str:
    """The schema property path of a concrete data path."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += "[]"
            continue
        candidate = f"{out}.{part}" if out else part
        out = candidate if candidate in props else f"{out}.*"
    return out


def leaves(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every value of a document with its path (containers included, before their children)."""
    if path:
        yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, (*path, i))


# ---------------------------------------------------------------------------- mutations
CARDS = ("blue 1", "pink 9", "green 5", "yellow 3", "rocket 1", "rocket 3")
EXPRESSIONS = ("true", "false", "tricks_played > 99", "1", "7")


def alternatives(value: Any, schemas: list[dict[str, Any]]) -> Iterator[Any]:
    """Other values of the same shape (``_DELETE`` removes the key)."""
    yield _DELETE
    enums = [e for s in schemas for e in _enums(s)]
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
        if value > 1:
            yield value - 1
    elif isinstance(value, str):
        for e in enums:
            if e != value:
                yield e
        if not enums:
            yield from (c for c in CARDS if c != value)
            yield from (e for e in EXPRESSIONS if e != value)
            yield value + "x"
    elif isinstance(value, list):
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            yield [v + 1 for v in value]
        if value:
            yield value[1:]
            yield value[:-1]
            yield list(reversed(value))
    elif isinstance(value, dict):
        for key in list(value)[:1]:
            yield {k: v for k, v in value.items() if k != key}


def _enums(schema: Any) -> list[Any]:
    if not isinstance(schema, dict):
        return []
    out = list(schema.get("enum", []))
    for key in ("anyOf", "oneOf"):
        for sub in schema.get(key, []):
            out += _enums(sub)
    return out


_DELETE = object()
CRASH = "crashed-not-refused"


def mutated(data: Any, path: tuple[str | int, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    node = out
    for part in path[:-1]:
        node = node[part]
    if value is _DELETE:
        if isinstance(node, dict):
            del node[path[-1]]
        else:
            del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


# ---------------------------------------------------------------------------- what the engine compiles
def snapshot(value: Any) -> Any:
    """A comparable picture of compiled rules: dataclass fields, cards by name, DSL closures by text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__name__ == "Deck":  # its cards and every string that names one
            return ("deck", tuple((c.name, c.is_trump, c.rank) for c in value.cards),
                    tuple(sorted((k, c.name) for k, c in value._by_name.items())))
        if type(value).__name__ == "TaskCardDeck":  # its cards by id and difficulty (their DSL is the deck file's)
            return ("task-deck", value.name, value.seats, tuple((c.id, c.difficulty) for c in value.cards))
        return (type(value).__name__, tuple((f.name, snapshot(getattr(value, f.name)))
                                            for f in dataclasses.fields(value)
                                            if f.name != "raw_ruleset"))
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), snapshot(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(snapshot(v) for v in value)
    if callable(value):
        return ("dsl", getattr(value, "dsl_text", value.__qualname__))
    return value


@functools.cache
def _real_ruleset(ref: str, readings: tuple[tuple[str, str], ...]) -> RuleSet:
    return REAL_LOAD_RULESET(ref, dict(readings))


_REAL_MISSIONS: dict[tuple[str, tuple[tuple[str, str], ...], str], Mission] = {}


def _real_mission(ref: str, readings: tuple[tuple[str, str], ...], ruleset: RuleSet | None) -> Mission:
    """The loader's mission, kept per rule set deck and players (its DSL is checked against them)."""
    key = (ref, readings, repr((ruleset.data.get("deck"), ruleset.data.get("players"))) if ruleset else "")
    if key not in _REAL_MISSIONS:
        _REAL_MISSIONS[key] = REAL_LOAD_MISSION(ref, dict(readings), ruleset)
    return _REAL_MISSIONS[key]


REAL_LOAD_RULESET, REAL_LOAD_MISSION = setup_mod.load_ruleset, setup_mod.load_mission


@contextmanager
def patched_specs(ruleset: tuple[str, Any] | None, missions: dict[Path, Any]) -> Iterator[None]:
    """The engine's loaders return ``ruleset``'s data for that name and ``missions``' data for those files
    (the bundled files themselves are loaded once, as the engine would load them)."""

    def load_ruleset(ref: str, readings: Mapping[str, str] | None = None) -> RuleSet:
        rs = _real_ruleset(ref, tuple(sorted((readings or {}).items())))
        if ruleset is not None and ref == ruleset[0]:
            return ruleset_model(rs.path, ruleset[1], rs.readings)
        return rs

    def load_mission(ref: str, readings: Mapping[str, str] | None = None, ruleset: RuleSet | None = None) -> Mission:
        path = bundled.mission_path(ref)
        if path in missions:  # the spec layer's typed model of the changed document, as the loader builds it
            return mission_model(bundled.mission_id_for(path), path, missions[path],
                                 ruleset.data if ruleset is not None else {})
        return _real_mission(ref, tuple(sorted((readings or {}).items())), ruleset)

    setup_mod.load_ruleset, setup_mod.load_mission = load_ruleset, load_mission  # type: ignore[assignment]
    try:
        yield
    finally:
        setup_mod.load_ruleset, setup_mod.load_mission = REAL_LOAD_RULESET, REAL_LOAD_MISSION  # type: ignore[assignment]


def compiled_mission(path: Path, data: Any) -> Any:
    """A mission compiled under every bundled rule set it names (``rulesets``, ``unsupported``)."""
    folder = path.parent.name
    if folder in ("hammer", "persian"):
        target = folder if folder == "hammer" else f"persian/level-{data.get('level', 1)}"
        return compiled({"hammer": "hammer", "persian": "crew-persian"}[folder], target, None, (path, data))
    names = [*(data.get("rulesets") or ["crew"]), *(data.get("unsupported") or {})]
    known = {p.stem for p in bundled.bundled_rulesets()}
    mid = str(path)
    return tuple(compiled(name, mid, None, (path, data)) for name in dict.fromkeys(names) if name in known)


def compiled(ruleset: str, mission: str, rs_data: Any | None, ms: tuple[Path, Any] | None) -> Any:
    """Compiled rules (per player count) plus the logbook's distress bonus, or the refusal."""
    out: list[Any] = []
    with patched_specs((ruleset, rs_data) if rs_data is not None else None, dict([ms]) if ms else {}):
        data = rs_data if rs_data is not None else setup_mod.load_ruleset(ruleset).data
        players = (ms[1].get("players") if ms and isinstance(ms[1].get("players"), list) else None) \
            or data.get("players") or [4]
        for n in players:
            try:
                rules, _, _ = setup_mod._compile_named(ruleset, mission, n, ())
                out.append(snapshot(rules))
            except (SetupError, DslError, SpecError, bundled.NotFound) as exc:  # a deliberate refusal is a reaction
                out.append(("refused", type(exc).__name__, str(exc)))
            except Exception as exc:  # a crash (a required key deleted, a card of another deck) proves nothing
                out.append((CRASH, type(exc).__name__, str(exc)))
        out.append(("logbook", logbook_count(ruleset)))
    return tuple(out)


def logbook_count(ruleset: str) -> int | str:
    """The logbook count of a mission won at the first attempt with the distress signal, under ``ruleset``."""
    won = Attempt(1, "c", "m", 4, ruleset, "s", "success", "", True, datetime.now(UTC), None)
    extra = setup_mod.logbook_extra_attempts.__wrapped__  # uncached: the rule set's data is patched
    try:
        return mission_progress("m", [won], extra).attempts
    except Exception:  # the patched document cannot even be typed (a required key deleted): proves nothing
        return CRASH


# ---------------------------------------------------------------------------- the cases
Case = tuple[str, str, Any, Callable[[Any], Any]]  # kind, label, data, observe


def cases() -> Iterator[Case]:
    for path in bundled.bundled_rulesets():
        name = path.stem
        data, _, _ = resolve_ruleset_data(path)
        yield "ruleset", name, data, lambda d, name=name: compiled(name, MISSION_FOR.get(name, "planet-nine/03"), d, None)
    for base, patch in [(b, p) for k, b, p in FIXTURES if k == "ruleset"]:
        from crewkit.spec.merge import merge

        data, _, _ = resolve_ruleset_data(bundled.ruleset_path(base))
        data = merge(data, patch)
        mission = "hammer" if "rounds" in patch else MISSION_FOR.get(base, "planet-nine/03")
        yield "ruleset", f"{base}+{sorted(patch)}", data, \
            lambda d, base=base, mission=mission: compiled(base, mission, d, None)
    for path in bundled.bundled_missions():
        yield "mission", bundled.mission_id_for(path), load_doc(path).data, \
            lambda d, path=path: compiled_mission(path, d)
    for base, patch in [(b, p) for k, b, p in FIXTURES if k == "mission"]:
        from crewkit.spec.merge import merge

        path = bundled.mission_path(base)
        yield "mission", f"{base}+{sorted(patch)}", merge(load_doc(path).data, patch), \
            lambda d, path=path: compiled_mission(path, d)


@pytest.fixture(scope="module")
def reactions() -> dict[tuple[str, str], list[str]]:
    """For each (kind, property): the places where a change was observed (empty: never observed)."""
    seen: dict[tuple[str, str], list[str]] = {}
    props = {k: schema_properties(k) for k in ("ruleset", "mission")}
    for kind, label, data, observe in cases():
        base = observe(data)
        for path, value in leaves(data):
            prop = pattern_of(path, data, kind, props[kind])
            if prop not in props[kind] or seen.get((kind, prop)) or (kind, prop) in NOT_RULES:
                continue
            seen.setdefault((kind, prop), [])
            for alt in alternatives(value, props[kind][prop]["schemas"]):
                after = observe(mutated(data, path, alt))
                if after != base and CRASH not in repr(after):
                    seen[(kind, prop)].append(f"{label}: {'.'.join(map(str, path))}")
                    break
    return seen


@pytest.mark.parametrize("kind", ["ruleset", "mission"])
def test_every_schema_property_changes_the_compiled_game(kind: str, reactions: dict[tuple[str, str], list[str]]) -> None:
    props = schema_properties(kind)
    never_set = sorted(p for p in props if (kind, p) not in reactions and (kind, p) not in NOT_RULES)
    # a block (``setup[].swap_tokens``) is read when a key inside it is
    ignored = sorted(p for p in props if reactions.get((kind, p)) == [] and not single_value(props[p]["schemas"])
                     and not any(reactions.get((kind, q)) for q in props if q.startswith((f"{p}.", f"{p}[]"))))
    assert not ignored, f"{kind} keys the schema accepts but no change of which alters the compiled game: {ignored}"
    assert not never_set, f"{kind} keys no bundled file or fixture sets (add a fixture): {never_set}"


def single_value(schemas: list[dict[str, Any]]) -> bool:
    """A key whose only allowed value is what the engine does (``dummy.played_by: [commander]``): it documents
    the rule in the file, and no other value exists that the engine could ignore."""
    values = {json.dumps(e) for s in schemas for e in _enums(s)}
    return len(values) == 1 and all(set(s) <= {"description", "enum"} for s in schemas)


def test_not_rules_list_names_schema_properties() -> None:
    for kind, prop in NOT_RULES:
        if kind == "campaign":
            continue
        assert prop in schema_properties(kind), (kind, prop)


def test_every_compiled_field_is_read_by_crewkit() -> None:
    """A key compiled into a field nobody reads is ignored all the same: each field is read somewhere."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "crewkit").rglob("*.py"))
    classes = [rules_mod.Rules, rules_mod.DummySpec, rules_mod.SecretSpec, rules_mod.FreeCard, rules_mod.Condition,
               scoring_mod.ScoringRules, scoring_mod.RoundMission]
    unread = [f"{cls.__name__}.{f.name}" for cls in classes for f in dataclasses.fields(cls)
              if f.name != "raw_ruleset" and not re.search(rf"\.{f.name}\b", source)]
    assert not unread, f"compiled fields nobody reads: {unread}"
