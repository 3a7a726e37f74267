"""A game record file read once, the same way for ``crewkit replay`` and ``crewkit validate``.

:func:`read_record` is the one reader: the file (size, nesting, the record schema, where its references
lead: :mod:`crewkit.spec.recordfile`), then every action read and applied as the record's family and rule set
take them (:func:`crewkit.engine.record.replay_record`, :func:`crewkit.engine.board_record.replay_board`). So
``validate`` cannot call a record fine that ``replay`` refuses: a record of a board-family game holding a trick-taking
action (``play``, ``swap-tokens``, a plug-in's card action) is refused by both, at the action, with a message.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.errors import CrewkitError
from crewkit.spec.errors import SpecError, SpecIssue
from crewkit.spec.recordfile import load_record_doc
from crewkit.spec.yamlio import LoadedDoc

#: where a replay that stops before its first action points in the file, by the error's code
_HEADER_KEYS = {"setup": "ruleset", "spec": "ruleset", "deal": "deal", "dealer": "dealer"}


@dataclass
class RecordRead:
    """A record file as read: its data, what is wrong with it (positioned), and the replay (None when the file
    itself was refused: then nothing of the game was built)."""

    record: dict[str, Any]
    issues: list[SpecIssue] = field(default_factory=list)
    replay: Any = None  # Replay (trick-taking) or BoardReplay (another family)

    @property
    def board(self) -> bool:
        """Whether the record is of a game run by the machine (another family than trick-taking)."""
        return self.record.get("family", "trick-taking") != "trick-taking"


def read_record(path: Path, action_types: Collection[str] = ()) -> RecordRead:
    """Read the record at ``path`` and replay it; ``action_types``: those of installed packages' blocks."""
    doc, record, issues = load_record_doc(path, action_types)
    if issues or doc is None:
        return RecordRead(record, list(issues))
    try:
        if record.get("family", "trick-taking") != "trick-taking":
            from crewkit.engine.board_record import replay_board

            replay: Any = replay_board(record)
        else:
            from crewkit.engine.record import replay_record

            replay = replay_record(record)
    except SpecError as exc:  # a spec the record names, refused while the game runs
        return RecordRead(record, list(exc.issues))
    except CrewkitError as exc:  # a mission's condition that fails while the actions are applied, ...
        return RecordRead(record, [_issue(doc, ("actions",), str(exc))])
    error = replay.error
    if error is None:
        return RecordRead(record, [], replay)
    if error.index is not None:
        return RecordRead(record, [_issue(doc, ("actions", error.index), str(error))], replay)
    return RecordRead(record, [_issue(doc, (_HEADER_KEYS.get(error.code, "ruleset"),), str(error))], replay)


def _issue(doc: LoadedDoc, path: tuple[str | int, ...], message: str) -> SpecIssue:
    line, column = doc.position_of(path)
    return SpecIssue(doc.filename, line, column, path, message)


__all__ = ["RecordRead", "read_record"]
