"""A game record file read once, the same way for ``crewkit replay`` and ``crewkit validate``.

:func:`read_record` is the one reader: the file (size, nesting, the record schema, where its references
lead: :mod:`crewkit.spec.recordfile`), then every action read and applied as the record's family and rule set
take them (:func:`crewkit.games.replay`: the record's family replays it). So
``validate`` cannot call a record fine that ``replay`` refuses: a record of a board-family game holding a trick-taking
action (``play``, ``swap-tokens``, a plug-in's card action) is refused by both, at the action, with a message.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkit.errors import CrewkitError
from crewkit.spec.errors import SpecError, SpecIssue
from crewkit.spec.recordfile import load_record_doc
from crewkit.spec.yamlio import LoadedDoc

if TYPE_CHECKING:
    from crewkit.games.protocol import Family, Replayed

#: where a replay that stops before its first action points in the file, by the error's code
_HEADER_KEYS = {"setup": "ruleset", "spec": "ruleset", "spec-mission": "mission", "deal": "deal", "dealer": "dealer"}


@dataclass
class RecordRead:
    """A record file as read: its data, what is wrong with it (positioned), and the replay (None when the file
    itself was refused: then nothing of the game was built)."""

    record: dict[str, Any]
    issues: list[SpecIssue] = field(default_factory=list)
    replay: Replayed | None = None  # the game as far as its actions were applied, and the first refused
    family: Family | None = None  # the record's family, which tells the replay in its words
    notes: list[str] = field(default_factory=list)  # what the reader should know (not errors): a carried mission
    # text that differs from the file of the same name here


def read_record(path: Path, action_types: Collection[str] = ()) -> RecordRead:
    """Read the record at ``path`` and replay it; ``action_types``: those of installed packages' blocks."""
    doc, record, issues = load_record_doc(path, action_types)
    if issues or doc is None:
        return RecordRead(record, list(issues))
    read = _replayed(doc, record)
    read.notes = source_notes(record, path)
    return read


def _replayed(doc: LoadedDoc, record: dict[str, Any]) -> RecordRead:
    from crewkit.games import record_family

    try:
        family = record_family(record)
        replay = family.replay(record)
    except SpecError as exc:  # a spec the record names, refused while the game runs
        return RecordRead(record, list(exc.issues))
    except CrewkitError as exc:  # a mission's condition that fails while the actions are applied, ...
        return RecordRead(record, [_issue(doc, ("actions",), str(exc))])
    error = replay.error
    if error is None:
        return RecordRead(record, [], replay, family)
    if error.index is not None:
        return RecordRead(record, [_issue(doc, ("actions", error.index), str(error))], replay, family)
    return RecordRead(record, [_issue(doc, (_HEADER_KEYS.get(error.code, "ruleset"),), str(error))], replay, family)


def source_notes(record: dict[str, Any], path: Path) -> list[str]:
    """When a record carries its mission's or rule set's text (``mission_source``, ``ruleset_source``) and the file
    it names is here too (from the working folder, or beside the record) with other contents: say so, and which
    one is replayed. A file outside those folders is never read for this (docs/trust.md)."""
    import hashlib

    from crewkit.spec.yamlio import read_limited, real_path_within

    notes = []
    for key, what in (("mission", "mission"), ("ruleset", "rule set")):
        source, ref = record.get(f"{key}_source"), record.get(key)
        if not isinstance(source, dict) or not isinstance(ref, str) or "\x00" in ref:
            continue
        carried = str(source.get("sha256", ""))
        named = Path(ref).expanduser()
        for candidate in dict.fromkeys([named, path.parent / named]):
            if real_path_within(candidate, [Path.cwd(), path.parent]) is None:
                continue
            try:
                found = hashlib.sha256(read_limited(candidate)).hexdigest()
            except OSError:
                continue
            if found != carried:
                notes.append(f"{candidate}: this file differs from the {what} the record carries (sha256 "
                             f"{found[:12]}… here, {carried[:12]}… in the record); the record's copy is replayed: it "
                             f"is the {what} the game was played under (play the file to record a game of the "
                             f"changed {what})")
            break
    return notes


def _issue(doc: LoadedDoc, path: tuple[str | int, ...], message: str) -> SpecIssue:
    line, column = doc.position_of(path)
    return SpecIssue(doc.filename, line, column, path, message)


__all__ = ["RecordRead", "read_record"]
