"""JSON Schema checks of spec documents, with friendly, positioned messages.

The four schemas (``schemas/*.schema.json``, Draft 2020-12) are read once from the bundled data root and
compiled once. :func:`validate_document` returns every problem as a :class:`SpecIssue` pointing at the
offending YAML (or JSON) node: an unknown key points at the key, a missing key at its parent's key.

Schemas may carry two annotation keywords of their own, ignored by other validators (editors included):
``x-expected`` (how to describe a value that fails the subschema, e.g. "a card such as 'pink 9'") and
``x-key`` (how to describe the keys of a map whose keys are free, e.g. player counts).
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any, Literal

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from crewkit.spec.errors import Path, SpecError, SpecIssue, sort_issues
from crewkit.spec.resources import data_path
from crewkit.spec.yamlio import LoadedDoc, load_json_file, load_yaml_file

Kind = Literal["ruleset", "mission", "campaign", "record", "task-cards"]
KINDS: tuple[Kind, ...] = ("ruleset", "mission", "campaign", "record", "task-cards")

_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}
_PLURALS = {"integer": "integers", "number": "numbers", "string": "strings", "boolean": "booleans"}


def schema_path(kind: Kind) -> os.PathLike[str]:
    """Where the schema of ``kind`` lives (``schemas/KIND.schema.json`` under the data root)."""
    return data_path(f"schemas/{kind}.schema.json")


@functools.cache
def load_schema(kind: Kind) -> dict[str, Any]:
    """The JSON Schema for ``kind``, read once."""
    if kind not in KINDS:
        raise ValueError(f"unknown document kind {kind!r}; expected one of {', '.join(KINDS)}")
    with open(schema_path(kind), encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


@functools.cache
def get_validator(kind: Kind) -> Draft202012Validator:
    """A compiled validator for ``kind``, built once. The schema itself is not checked against the metaschema
    here: every schema ships with crewkit (no user supplies one), and the test suite checks them all
    (``tests/spec/test_spec_schema.py``), which spares each command about 0.1 s per schema."""
    return _Validator(load_schema(kind))


def _unique_key(value: Any) -> Any:
    """A hashable key equal for values JSON Schema calls equal (``1 == 1.0``, ``true != 1``, key order ignored)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, (int, float)):
        return ("number", value)  # 1 and 1.0 hash and compare equal
    if isinstance(value, list):
        return ("array", tuple(_unique_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, _unique_key(v)) for k, v in value.items()))
    return ("other", repr(value))


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``uniqueItems`` in linear time: jsonschema's own falls back to comparing every pair on a list of mixed
    types (an 85 KB file took 110 s)."""
    if unique and validator.is_type(instance, "array") and _first_duplicate(instance) is not _NO_DUPLICATE:
        yield ValidationError(f"{instance!r} has non-unique elements")


def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` as JSON Schema means it (ECMA-262, no multiline flag): ``$`` matches only at the very end.

    Python's ``$`` also matches before a last newline, so ``^[a-z]+$`` would let ``"pink\\n"`` through as a
    name. Every ``$`` outside a character class and not escaped becomes ``\\Z``; the schema files stay
    standard for every other validator (editors included)."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "]":  # "[]...]": a first "]" is a literal in Python's syntax
                out.append("[]")
                i += 2
                continue
        elif ch == "$":
            ch = "\\Z"
        out.append(ch)
        i += 1
    return _compiled_pattern("".join(out))


@functools.lru_cache(maxsize=512)
def _compiled_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``pattern`` with ECMA-262's end of input (:func:`ecma_pattern`)."""
    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_Validator = validators.extend(Draft202012Validator, {"uniqueItems": _unique_items, "pattern": _pattern})
_NO_DUPLICATE = object()


def validate_document(doc: LoadedDoc, kind: Kind, *, action_types: Collection[str] = ()) -> list[SpecIssue]:
    """Check ``doc`` against the schema of ``kind``; every problem, sorted by position.

    A rule set with ``extends`` is checked as a partial document (the schema requires the inherited keys only
    when ``extends`` is absent). A record's actions must be of crewkit's own types or of ``action_types`` (the
    plug-in blocks' types the caller knows): the schema admits any type name, since it cannot know which
    packages are installed.
    """
    issues = _validate(doc, get_validator(kind), load_schema(kind))
    if kind == "record" and not issues:
        issues = _unknown_action_types(doc, action_types)
    return issues


def _unknown_action_types(doc: LoadedDoc, extra: Collection[str]) -> list[SpecIssue]:
    own = load_schema("record")["$defs"]["builtin-action"]["properties"]["type"]["enum"]
    known = sorted({*own, *extra})
    actions = doc.data.get("actions") if isinstance(doc.data, dict) else None
    out: list[SpecIssue] = []
    for i, action in enumerate(actions if isinstance(actions, list) else []):
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str) or kind in known:
            continue
        path = ("actions", i, "type")
        line, column = doc.position_of(path)
        msg = f"unknown action type {kind!r}"
        close = difflib.get_close_matches(kind, known, n=1, cutoff=0.6)
        msg += f"; did you mean {close[0]!r}?" if close else f"; expected one of {', '.join(known)}"
        out.append(SpecIssue(doc.filename, line, column, path,
                             msg + " (a plug-in block's action needs the package that adds it installed)"))
    return out


def validate_against(doc: LoadedDoc, schema: dict[str, Any]) -> list[SpecIssue]:
    """Check ``doc`` against a schema that is not one of the four document kinds (a card set, say), with the
    same positioned, friendly messages as :func:`validate_document`. The schema is checked, and its
    validator built, once per schema object (a rule set's readings validate many patched copies); as for
    :func:`get_validator`, the schema is one of crewkit's own, checked by the test suite."""
    hit = _VALIDATORS.get(id(schema))
    if hit is None or hit[0] is not schema:
        hit = (schema, _Validator(schema))
        if len(_VALIDATORS) > 64:
            _VALIDATORS.clear()
        _VALIDATORS[id(schema)] = hit
    return _validate(doc, hit[1], schema)


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def _validate(doc: LoadedDoc, validator: Any, schema: dict[str, Any]) -> list[SpecIssue]:
    converter = _Converter(doc, schema)
    issues: list[SpecIssue] = []
    seen: set[tuple[int, int, str]] = set()
    for error in validator.iter_errors(doc.data):
        for issue in converter.convert(error):
            key = (issue.line, issue.column, issue.message)
            if key not in seen:
                seen.add(key)
                issues.append(issue)
    return sort_issues(issues)


def check_document(doc: LoadedDoc, kind: Kind) -> LoadedDoc:
    """Like :func:`validate_document` but raises :class:`SpecError` when there is any error."""
    issues = [i for i in validate_document(doc, kind) if i.severity == "error"]
    if issues:
        raise SpecError(issues, doc.lines)
    return doc


def load_and_check(path: str | os.PathLike[str], kind: Kind, filename: str | None = None) -> LoadedDoc:
    """Load a YAML file (or a JSON record when ``kind`` is ``record`` and the name ends in ``.json``) and
    check it against its schema; raises :class:`SpecError`."""
    if kind == "record" and str(path).endswith(".json"):
        doc = load_json_file(path, filename)
    else:
        doc = load_yaml_file(path, filename)
    return check_document(doc, kind)


# --------------------------------------------------------------------------------------------- messages


def describe_value(value: Any) -> str:
    """How a found value is named in messages: ``string 'ten'``, ``integer 3``, ``a list``."""
    if value is None:
        return "an empty value (null)"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value:g}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"string {shown!r}"
    if isinstance(value, list):
        return "a list" if value else "an empty list"
    if isinstance(value, dict):
        return "a mapping" if value else "an empty mapping"
    return type(value).__name__


def _short(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _enum_text(values: Sequence[Any]) -> str:
    shown = [("null" if v is None else str(v)) for v in values if v is not None] or ["null"]
    return "one of " + ", ".join(shown)


def _join_or(parts: list[str]) -> str:
    unique: list[str] = []
    for p in parts:
        if p not in unique:
            unique.append(p)
    if len(unique) > 1 and "null" in unique:
        unique.remove("null")  # null only deletes inherited keys; do not advertise it
    if len(unique) <= 2:
        return " or ".join(unique)
    return ", ".join(unique[:-1]) + " or " + unique[-1]


class _Converter:
    def __init__(self, doc: LoadedDoc, root: dict[str, Any]) -> None:
        self.doc = doc
        self.root = root

    # -- schema helpers

    def resolve(self, schema: Any) -> Any:
        seen = 0
        while isinstance(schema, dict) and "$ref" in schema and seen < 20:
            ref = schema["$ref"]
            if not isinstance(ref, str) or not ref.startswith("#"):
                break
            target: Any = self.root
            for part in ref[1:].split("/"):
                if part:
                    target = target.get(part, {}) if isinstance(target, dict) else {}
            schema = target
            seen += 1
        return schema

    def describe(self, schema: Any) -> str:
        """A noun phrase for what ``schema`` accepts."""
        if not isinstance(schema, dict):
            return "a value"
        if "x-expected" in schema:
            return str(schema["x-expected"])
        if "$ref" in schema:
            return self.describe(self.resolve(schema))
        if "const" in schema:
            return _short(schema["const"])
        if "enum" in schema:
            return _enum_text(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return _join_or([self.describe(s) for s in schema[key]])
        t = schema.get("type")
        if isinstance(t, list):
            return _join_or([self._describe_type(x, schema) for x in t])
        if isinstance(t, str):
            return self._describe_type(t, schema)
        return "a value"

    def _describe_type(self, t: str, schema: dict[str, Any]) -> str:
        if t == "array" and isinstance(schema.get("items"), dict):
            items = self.resolve(schema["items"])
            it = items.get("type") if isinstance(items, dict) else None
            if isinstance(it, str) and it in _PLURALS:
                return f"a list of {_PLURALS[it]}"
            if isinstance(items, dict) and items.get("x-expected", "").startswith("a card"):
                return "a list of cards"
        return _TYPE_NAMES.get(t, t)

    def _known_keys(self, schema: dict[str, Any]) -> list[str]:
        return list(schema.get("properties", {}))

    # -- issue helpers

    def issue(
        self,
        path: Path,
        message: str,
        *,
        key: bool = False,
        expected: str | None = None,
        found: str | None = None,
    ) -> SpecIssue:
        line, column = self.doc.position_of(path, key=key)
        return SpecIssue(self.doc.filename, line, column, path, message, expected, found)

    def convert(self, error: ValidationError) -> list[SpecIssue]:
        path: Path = tuple(error.absolute_path)
        v = error.validator
        inst = error.instance
        schema = error.schema if isinstance(error.schema, dict) else {}
        found = describe_value(inst)

        if v in ("anyOf", "oneOf"):
            return self._alternatives(error, path)

        if v == "additionalProperties" and isinstance(inst, dict):
            props = schema.get("properties", {})
            patterns = list(schema.get("patternProperties", {}))
            extras = [k for k in inst if k not in props and not any(re.search(p, str(k)) for p in patterns)]
            out = []
            for k in extras:
                msg = f"unknown key {k!r}"
                known = self._known_keys(schema)
                close = difflib.get_close_matches(str(k), known, n=1, cutoff=0.6)
                if close:
                    msg += f"; did you mean {close[0]!r}?"
                elif known:
                    msg += f"; expected one of {', '.join(known)}"
                elif "x-key" in schema:
                    msg += f"; expected {schema['x-key']}"
                out.append(self.issue((*path, k), msg, key=True, expected=None, found=repr(k)))
            return out

        if v == "required" and isinstance(inst, dict) and isinstance(error.validator_value, list):
            missing = [k for k in error.validator_value if k not in inst]
            return [
                self.issue(path, f"missing required key {k!r}", key=True, expected=k, found=None)
                for k in missing
            ]

        if v == "type":
            expected = self.describe(
                {"type": error.validator_value, **{k: schema[k] for k in ("items",) if k in schema}}
            )
            if "x-expected" in schema:
                expected = str(schema["x-expected"])
            return [self.issue(path, f"expected {expected}, found {found}", expected=expected, found=found)]

        if v == "enum" and isinstance(error.validator_value, list):
            values = list(error.validator_value)
            expected = _enum_text(values)
            msg = f"expected {expected}; found {_short(inst) if isinstance(inst, str) else found}"
            if isinstance(inst, str):
                close = difflib.get_close_matches(
                    inst, [str(x) for x in values if x is not None], n=1, cutoff=0.6
                )
                if close:
                    msg += f"; did you mean {close[0]!r}?"
            return [self.issue(path, msg, expected=expected, found=_short(inst))]

        if v == "const":
            expected = _short(error.validator_value)
            return [self.issue(path, f"expected {expected}, found {found}", expected=expected, found=found)]

        if v == "pattern":
            expected = str(schema.get("x-expected") or f"a string matching {error.validator_value}")
            return [
                self.issue(
                    path, f"expected {expected}, found {_short(inst)}", expected=expected, found=_short(inst)
                )
            ]

        if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            words = {
                "minimum": "at least",
                "maximum": "at most",
                "exclusiveMinimum": "more than",
                "exclusiveMaximum": "less than",
            }[v]
            expected = f"a number {words} {error.validator_value}"
            return [
                self.issue(
                    path, f"expected {expected}, found {_short(inst)}", expected=expected, found=_short(inst)
                )
            ]

        if v in ("minItems", "maxItems"):
            n = error.validator_value
            words = "at least" if v == "minItems" else "at most"
            count = len(inst) if isinstance(inst, list) else 0
            expected = f"a list of {words} {n} item{'s' if n != 1 else ''}"
            return [
                self.issue(path, f"expected {expected}, found {count}", expected=expected, found=str(count))
            ]

        if v == "uniqueItems" and isinstance(inst, list):
            dupes = _first_duplicate(inst)
            if dupes is _NO_DUPLICATE:
                dupes = None
            msg = "expected no repeated items" + (
                f"; {_short(dupes)} appears more than once" if dupes is not None else ""
            )
            return [self.issue(path, msg, expected="no repeated items", found=_short(dupes))]

        if v in ("minLength", "maxLength"):
            if v == "minLength" and error.validator_value == 1:
                expected = "a non-empty string"
            else:
                words = "at least" if v == "minLength" else "at most"
                expected = f"a string of {words} {error.validator_value} characters"
            return [self.issue(path, f"expected {expected}, found {found}", expected=expected, found=found)]

        if v in ("minProperties", "maxProperties") and isinstance(inst, dict):
            if "x-expected" in schema:
                expected = str(schema["x-expected"])
            else:
                words = "at least" if v == "minProperties" else "at most"
                n = error.validator_value
                expected = f"a mapping with {words} {n} key{'s' if n != 1 else ''}"
            keys = ", ".join(str(k) for k in inst)
            found_keys = f"{len(inst)} key{'s' if len(inst) != 1 else ''}" + (f" ({keys})" if keys else "")
            return [
                self.issue(
                    path, f"expected {expected}, found {found_keys}", expected=expected, found=found_keys
                )
            ]

        # Anything else: jsonschema's own message.
        return [self.issue(path, error.message)]

    def _alternatives(self, error: ValidationError, path: Path) -> list[SpecIssue]:
        """anyOf/oneOf: report the branch that came closest, or list what would have been accepted."""
        branches: dict[int, list[ValidationError]] = {}
        for sub in error.context or ():
            index = sub.relative_schema_path[0] if sub.relative_schema_path else 0
            branches.setdefault(int(index), []).append(sub)
        depth = len(path)
        options = error.validator_value if isinstance(error.validator_value, list) else []

        # Branches whose shape matched: all their errors are deeper than this node (or about its keys).
        shape_kinds = {"type", "enum", "const", "pattern", "anyOf", "oneOf"}
        matched: list[list[ValidationError]] = []
        for subs in branches.values():
            if all(len(s.absolute_path) > depth or s.validator not in shape_kinds for s in subs):
                matched.append(subs)
        if matched and not all(all(s.validator == "required" for s in subs) for subs in matched):
            best = min(matched, key=len)
            out: list[SpecIssue] = []
            for sub in best:
                out.extend(self.convert(sub))
            return out

        if branches and all(s.validator == "required" for subs in branches.values() for s in subs):
            keys: list[str] = []
            for subs in branches.values():
                for s in subs:
                    if isinstance(s.validator_value, list):
                        keys.extend(k for k in s.validator_value if k not in keys)
            wanted = ", ".join(repr(k) for k in keys)
            return [self.issue(path, f"missing required key: one of {wanted}", key=True, expected=wanted)]

        expected = _join_or([self.describe(o) for o in options]) if options else "a valid value"
        found = describe_value(error.instance)
        msg = f"expected {expected}, found {found}"
        if isinstance(error.instance, str):
            words = [str(x) for o in options for x in self.resolve(o).get("enum", []) if x is not None]
            close = difflib.get_close_matches(error.instance, words, n=1, cutoff=0.6)
            if close:
                msg += f"; did you mean {close[0]!r}?"
        return [self.issue(path, msg, expected=expected, found=found)]


def _first_duplicate(items: Iterable[Any]) -> Any:
    """The first item that repeats an earlier one (linear time), else ``_NO_DUPLICATE``."""
    seen: set[Any] = set()
    for item in items:
        key = _unique_key(item)
        if key in seen:
            return item
        seen.add(key)
    return _NO_DUPLICATE
