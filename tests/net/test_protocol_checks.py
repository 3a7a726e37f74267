"""The protocol's two checks of a message (the compiled schemas that decide, jsonschema that words a refusal)
read the schemas alike: on generated messages of every kind, shaped like the real ones and slightly off, both
accept or both refuse."""

from __future__ import annotations

from typing import Any

import fastjsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.net import protocol

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**60, 2**60), st.floats(), st.sampled_from([1.0, -0.0]),
                     st.text(max_size=40), st.sampled_from(["", "a" * 201, "Ann\u202e", "blue 4", "x\x00"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=20),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=9)),
                       max_leaves=30)


@st.composite
def _messages(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    side = draw(st.sampled_from(["client", "host"]))
    schemas = protocol.CLIENT_SCHEMAS if side == "client" else protocol.HOST_SCHEMAS
    kind = draw(st.sampled_from(sorted(schemas)))
    fields = schemas[kind]["properties"]
    message: dict[str, Any] = {"type": kind}
    for name in fields:
        if name != "type" and draw(st.booleans()):
            if name == "action":
                message[name] = draw(st.fixed_dictionaries(
                    {"seat": st.one_of(st.integers(-1, 70), _SCALARS), "type": st.one_of(st.text(max_size=45), _SCALARS)},
                    optional={"card": _VALUES, "to": _VALUES, "extra": _VALUES}))
            else:
                message[name] = draw(_VALUES)
    if draw(st.integers(0, 9)) == 0:
        message[draw(st.text(max_size=6))] = draw(_SCALARS)
    return side, kind, message


@settings(max_examples=200, deadline=None)  # valid messages of each kind: test_protocol_valid_messages.py
@given(_messages())
def test_the_compiled_check_and_jsonschema_agree(drawn: tuple[str, str, dict[str, Any]]) -> None:
    side, kind, message = drawn
    try:
        protocol._COMPILED[side][kind](message)
        compiled = True
    except fastjsonschema.JsonSchemaValueException:
        compiled = False
    assert compiled == protocol._VALIDATORS[side][kind].is_valid(message), message


def test_a_refused_message_is_worded_by_jsonschema() -> None:
    try:
        protocol.decode('{"type": "act", "action": {"seat": 0}}')
    except protocol.ProtocolError as exc:
        assert exc.message == "act message: action: 'type' is a required property"
    else:
        raise AssertionError("an action without a type was accepted")

