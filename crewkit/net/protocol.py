"""The hosted table's wire protocol: JSON messages over a WebSocket, one JSON Schema per message kind.

Every message is one JSON object with a ``type``. A client's first message is ``hello`` (with the protocol
``version``, the table, its seat's invite code and a name); the host answers ``welcome`` (or ``refused`` and
closes), then a ``state`` after every change of the game. Every incoming message is size-limited by the
transport and checked here against its kind's schema (unknown kinds and unknown fields are refused), so the
host's code only ever sees well-formed messages. docs/online.md describes the protocol for other clients.
"""

from __future__ import annotations

from typing import Any

import fastjsonschema
import orjson
from jsonschema import Draft202012Validator

from crewkit.errors import CrewkitError

VERSION = 2
"""The protocol's version: a client and a host of different versions refuse each other, naming both. 2: a
``review`` message may be the host's provisional first answer (``final: false``), which version 1 refused."""

MAX_CLIENT_MESSAGE = 16 * 1024  # bytes of one message a client sends (a hello or an action is far smaller)
MAX_HOST_MESSAGE = 4 * 1024 * 1024  # bytes of one message the host sends (a state of the biggest game)
MAX_NAME = 32  # characters of a player's name

__all__ = [
    "CLIENT_SCHEMAS",
    "HOST_SCHEMAS",
    "MAX_CLIENT_MESSAGE",
    "MAX_HOST_MESSAGE",
    "MAX_NAME",
    "VERSION",
    "ProtocolError",
    "decode",
    "encode",
    "join_link",
    "parse_link",
]


class ProtocolError(CrewkitError, ValueError):
    """A message that is not valid JSON, not an object, of an unknown kind or not of its kind's schema."""

    def __init__(self, message: str, code: str = "bad-message") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _message(kind: str, properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **properties},
        "required": ["type", *required],
        "additionalProperties": False,
    }


_ID = {"type": "integer", "minimum": 0, "maximum": 2**53}
_SEQ = {"type": "integer", "minimum": 0}
_TEXT = {"type": "string", "maxLength": 2000}
# Every pattern ends in (?![\s\S]): Python's $ also matches before a last newline ("Ann\n" passed), ECMA's not.
# A name a person reads: printable, no control characters, bidirectional overrides or separators.
_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
         "pattern": "^[^\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]+$(?![\\s\\S])"}
# An action in its record form (``{seat, type, ...}``): small, scalars or short lists of scalars.
_SCALAR = {"anyOf": [{"type": "string", "maxLength": 200}, {"type": "integer"}, {"type": "boolean"},
                     {"type": "null"}]}
_ACTION = {
    "type": "object",
    "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 63},
                   "type": {"type": "string", "maxLength": 40}},
    "required": ["seat", "type"],
    "maxProperties": 8,
    "additionalProperties": {"anyOf": [_SCALAR, {"type": "array", "items": _SCALAR, "maxItems": 16}]},
}

CLIENT_SCHEMAS: dict[str, dict[str, Any]] = {
    "hello": _message("hello", {
        "version": {"type": "integer"},
        "table": {"type": "string", "pattern": "^[0-9a-z-]{1,40}$(?![\\s\\S])"},
        "code": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,100}$(?![\\s\\S])"},
        "name": _NAME,
    }, ("version", "table", "code")),
    # an action in its record form, of the client's seat or of one it decides for (the commander's JARVIS);
    # ``id`` comes back in the ack or error
    "act": _message("act", {"id": _ID, "action": _ACTION}, ("action",)),
    # the seat has nothing to say in the open communication window (every human seat answers)
    "pass": _message("pass", {"id": _ID}),
    "ping": _message("ping", {"id": _ID}),
    # the review of the game (where it went wrong), once the game is over; answered by a ``review`` (or an error)
    "review": _message("review", {"id": _ID}),
}
"""What a client may send, by ``type``."""

_PLAYER = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "kind": {"enum": ["human", "bot"]}, "connected": {"type": "boolean"},
                   "bot": {"type": "string"}},
    "required": ["name", "kind", "connected"],
    "additionalProperties": False,
}
_REFUSAL_CODES = ["version", "bad-message", "unknown-table", "bad-code", "seat-taken", "rate-limited",
                  "timeout", "flood", "closed", "bad-name"]

HOST_SCHEMAS: dict[str, dict[str, Any]] = {
    "welcome": _message("welcome", {
        "version": {"const": VERSION}, "table": {"type": "string"}, "seat": _SEQ, "name": {"type": "string"},
        "family": {"type": "string"}, "title": {"type": "string"}, "game": {"type": "string"},
        # how the game was opened, its public part (no seed): a client compiles the same rules to draw the table
        "setup": {"type": "object", "properties": {
            "ruleset": {"type": "string"}, "mission": {"type": ["string", "null"]}, "players": _SEQ,
            "readings": {"type": "object", "additionalProperties": {"type": "string"}}},
            "required": ["ruleset", "mission", "players", "readings"], "additionalProperties": False},
    }, ("version", "table", "seat", "name", "family", "title", "game")),
    "state": _message("state", {
        "seq": _SEQ,  # actions applied so far
        "seat": _SEQ,  # the seat's number now (JARVIS seated elsewhere at the setup renumbers the seats)
        "observation": {"type": "object"},  # the family's observation of this seat: what it may know, no more
        "log": {"type": "array", "items": {"type": "string"}},  # the game's log as this seat may read it
        "players": {"type": "array", "items": _PLAYER},  # by seat
        "waiting": {"type": "array", "items": {"type": "string"}},  # names of the seats the table waits for
        "status": {"type": "string"},  # one sentence: who the table waits for and why
        # the actions now of every seat this one decides for (the commander's include JARVIS's), record form,
        # each naming its seat
        "legal": {"type": "array", "items": {"type": "object"}},
        "turn": {"type": "boolean"},  # the table waits for this seat's player (for JARVIS too: the commander)
        "window": {"type": "boolean"},  # a communication window is open and this seat has still to answer
        "over": {"type": "boolean"},
        "outcome": {"type": "object", "properties": {"result": {"type": "string"}, "words": {"type": "string"}},
                    "required": ["result", "words"], "additionalProperties": False},
    }, ("seq", "seat", "observation", "log", "players", "waiting", "status", "legal", "turn", "window", "over",
        "outcome")),
    "ack": _message("ack", {"id": _ID, "seq": _SEQ}, ("seq",)),
    "error": _message("error", {"id": _ID, "code": {"type": "string"}, "message": _TEXT}, ("code", "message")),
    "refused": _message("refused", {"code": {"enum": _REFUSAL_CODES}, "message": _TEXT}, ("code", "message")),
    "pong": _message("pong", {"id": _ID}),
    # the game's review, computed once by the host for every seat and sent only once the game is over: the
    # record (every hand: the game is over), the players' names by seat, and the review as `crewkit review
    # --format json` gives it (null with ``error`` saying why there is none); ``final`` false: the host's first
    # answer on a small budget (provisional), its final one follows (a message without ``final`` is final)
    "review": _message("review", {
        "id": _ID, "record": {"type": "object"}, "names": {"type": "array", "items": {"type": "string"}},
        "review": {"type": ["object", "null"]}, "error": {"type": ["string", "null"]}, "final": {"type": "boolean"},
    }, ("record", "names", "review", "error")),
}
"""What the host sends, by ``type`` (a client checks these; the tests check every message against them)."""

_VALIDATORS = {side: {kind: Draft202012Validator(schema) for kind, schema in schemas.items()}
               for side, schemas in (("client", CLIENT_SCHEMAS), ("host", HOST_SCHEMAS))}
# The same schemas compiled to Python (every message of a busy host is checked: jsonschema takes ~100 µs for an
# ``act``, the compiled check a few); jsonschema still words the error of a message the compiled check refuses.
# The schemas use nothing beyond draft 7, which both read alike (a test compares them on generated messages).
_COMPILED = {side: {kind: fastjsonschema.compile(schema) for kind, schema in schemas.items()}
             for side, schemas in (("client", CLIENT_SCHEMAS), ("host", HOST_SCHEMAS))}


def decode(raw: str | bytes, sender: str = "client") -> dict[str, Any]:
    """One incoming message from ``sender`` (``client`` or ``host``), checked against its kind's schema."""
    if isinstance(raw, bytes):
        raise ProtocolError("messages are JSON text frames, not binary frames")
    try:
        message = orjson.loads(raw)
    except (ValueError, RecursionError) as exc:  # orjson.JSONDecodeError is a ValueError
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object, found {type(message).__name__}")
    kind = message.get("type")
    validators = _VALIDATORS[sender]
    validator = validators.get(kind) if isinstance(kind, str) else None
    if validator is None:
        raise ProtocolError(f"unknown message type {kind!r}; expected one of {', '.join(sorted(validators))}",
                            "unknown-type")
    try:
        _COMPILED[sender][str(kind)](message)
    except fastjsonschema.JsonSchemaValueException as refused:
        error = next(iter(sorted(validator.iter_errors(message), key=lambda e: list(e.path))), None)
        if error is None:  # the two checks disagree: the message is still refused, in the compiled check's words
            raise ProtocolError(f"{kind} message: {str(refused)[:300]}") from None
        where = "/".join(str(p) for p in error.absolute_path) or "the message"
        raise ProtocolError(f"{kind} message: {where}: {error.message[:300]}") from None
    return message


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text sent (compact, UTF-8; the receiver checks it against its kind's schema).

    orjson, not the standard library's json: a busy host encodes a state for every seat after every action, and
    orjson takes ~2 µs for a state the standard library takes ~40 µs for."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def join_link(scheme: str, host: str, port: int, table: str, code: str) -> str:
    """The link a person joins a seat with: ``ws://host:port/TABLE#CODE`` (the code never leaves the client
    in a URL: it travels in the hello message)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}/{table}#{code}"


def parse_link(link: str) -> tuple[str, str, str]:
    """(the WebSocket URL, the table, the code) of a join link; ValueError saying what is wrong."""
    from urllib.parse import urlsplit

    parts = urlsplit(link.strip())
    if parts.scheme not in ("ws", "wss"):
        raise ValueError(f"a join link starts with ws:// or wss://, found {link!r}")
    table = parts.path.strip("/")
    if not table or "/" in table or not parts.fragment or not parts.netloc:
        raise ValueError(f"a join link looks like ws://HOST:PORT/TABLE#CODE, found {link!r}")
    return f"{parts.scheme}://{parts.netloc}/", table, parts.fragment
