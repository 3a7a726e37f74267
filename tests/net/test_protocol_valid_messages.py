"""The protocol's two checks (the compiled schemas that decide, jsonschema that words a refusal) on valid messages
of every kind, generated from the schemas themselves, and on those messages changed in one place: both accept
the valid ones (each kind counted), and both agree on the changed ones (each kind sees some accepted and some
refused). The generated messages of test_protocol_checks.py are almost never valid."""

from __future__ import annotations

import json
from typing import Any

import fastjsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.net import protocol
from crewkit.net.protocol import VERSION, ProtocolError, decode

KINDS = [(side, kind) for side, schemas in (("client", protocol.CLIENT_SCHEMAS), ("host", protocol.HOST_SCHEMAS))
         for kind in sorted(schemas)]
EXAMPLES = 40

_ANY_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)


def valid(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values ``schema`` accepts, for the keywords the protocol's schemas use (an unknown one fails loudly)."""
    known = {"type", "properties", "required", "additionalProperties", "const", "enum", "pattern", "minLength",
             "maxLength", "minimum", "maximum", "items", "maxItems", "maxProperties", "anyOf"}
    assert set(schema) <= known, set(schema) - known
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([valid(s) for s in schema["anyOf"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([valid({**schema, "type": k}) for k in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(schema.get("minimum", -2**53), schema.get("maximum", 2**53))
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength", 60)
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True).filter(lambda s: low <= len(s) <= high)
        return st.text(min_size=low, max_size=min(high, 60))
    if kind == "array":
        return st.lists(valid(schema["items"]) if "items" in schema else _ANY_JSON,
                        max_size=min(schema.get("maxItems", 4), 4))
    if kind == "object":
        return _object(schema)
    assert kind is None, kind
    return _ANY_JSON


@st.composite
def _object(draw: st.DrawFn, schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    room = schema.get("maxProperties", 64)
    out: dict[str, Any] = {}
    for name, sub in properties.items():
        if name in required or (len(out) < room - len(required - set(out)) and draw(st.booleans())):
            out[name] = draw(valid(sub))
    extra = schema.get("additionalProperties", True)
    if extra is not False and len(out) < room:
        for name in draw(st.lists(st.text(min_size=1, max_size=6), max_size=min(2, room - len(out)))):
            if name not in properties:
                out[name] = draw(_ANY_JSON if extra is True else valid(extra))
    return out


def _checks(side: str, kind: str, message: Any) -> tuple[bool, bool]:
    """(the compiled check accepts, jsonschema accepts)."""
    try:
        protocol._COMPILED[side][kind](message)
        compiled = True
    except fastjsonschema.JsonSchemaValueException:
        compiled = False
    return compiled, protocol._VALIDATORS[side][kind].is_valid(message)


@st.composite
def _changed(draw: st.DrawFn, side: str, kind: str) -> Any:
    """A valid message of ``kind`` changed in one place: a key dropped or added, a value replaced (by any JSON
    value, a number off by one, a string with a character more or a newline)."""
    schemas = protocol.CLIENT_SCHEMAS if side == "client" else protocol.HOST_SCHEMAS
    message = json.loads(json.dumps(draw(valid(schemas[kind]))))
    path: list[Any] = []
    node: Any = message
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):  # somewhere inside, or at the top
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    parent: Any = message
    for key in path[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["drop", "add", "replace", "nudge"]))
    if not path or how == "add":
        if isinstance(node, dict):
            node[draw(st.sampled_from(["type", "id", "seat", "extra", "name", ""]))] = draw(_ANY_JSON)
        return message
    if how == "drop":
        del parent[path[-1]]
    elif how == "replace":
        parent[path[-1]] = draw(_ANY_JSON)
    elif isinstance(node, bool):
        parent[path[-1]] = int(node)
    elif isinstance(node, int):
        parent[path[-1]] = node + draw(st.sampled_from([-1, 1, 2**53]))
    elif isinstance(node, str):
        parent[path[-1]] = node + draw(st.sampled_from(["x", "\n", "\u202e", "a" * 2000, " "]))
    return message


@pytest.mark.parametrize(("side", "kind"), KINDS)
def test_valid_messages_of_every_kind_pass_both_checks(side: str, kind: str) -> None:
    schemas = protocol.CLIENT_SCHEMAS if side == "client" else protocol.HOST_SCHEMAS
    accepted = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(valid(schemas[kind]))
    def check(message: dict[str, Any]) -> None:
        assert message["type"] == kind
        assert _checks(side, kind, message) == (True, True), message
        accepted.append(message)

    check()
    assert len(accepted) >= EXAMPLES // 2, len(accepted)  # valid messages of this kind, each checked by both


@pytest.mark.parametrize(("side", "kind"), KINDS)
def test_both_checks_agree_on_valid_messages_changed_in_one_place(side: str, kind: str) -> None:
    seen = {True: 0, False: 0}

    @settings(max_examples=2 * EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(_changed(side, kind))
    def check(message: Any) -> None:
        compiled, worded = _checks(side, kind, message)
        assert compiled == worded, message
        seen[compiled] += 1

    check()
    assert seen[True] >= 1 and seen[False] >= EXAMPLES // 4, seen  # both answers exercised, for this kind


@pytest.mark.parametrize(("field", "value"), [("table", "abc\n"), ("code", "x\n"), ("name", "Ann\n")])
def test_a_last_newline_does_not_pass_a_pattern(field: str, value: str) -> None:
    """Python's ``$`` matches before a last newline; the protocol's patterns must not (``Ann\\n`` passed)."""
    hello = {"type": "hello", "version": VERSION, "table": "abc", "code": "x", "name": "Ann", field: value}
    with pytest.raises(ProtocolError):
        decode(json.dumps(hello))
