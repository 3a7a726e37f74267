"""Any spec file checked in full: rule sets and missions (:mod:`crewkit.spec.loader`), campaigns
(:mod:`crewkit.spec.campaigns`, which builds on the loader)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

from crewkit.spec.campaigns import check_campaign_semantics, load_campaign
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.loader import check_spec_file, guess_kind, load_doc
from crewkit.spec.recordfile import load_record_file
from crewkit.spec.schema import Kind

__all__ = ["check_file", "load_campaign"]


def check_file(path: Path, kind: Kind | None = None, *, action_types: Collection[str] = (),
               read_record: Callable[[Path], list[SpecIssue]] | None = None) -> list[SpecIssue]:
    """Every issue of one file, sorted by position (empty when valid). ``action_types``: the action types of
    installed packages' blocks, which a game record may hold (crewkit's own are always known). ``read_record``:
    what a game record is read with (:func:`crewkit.engine.files.file_issues` passes the engine's reader, which
    applies every action as ``crewkit replay`` does); without it, a record's file, schema and references."""
    try:
        doc = load_doc(path)
    except SpecError as exc:
        return sort_issues(exc.issues)
    kind = kind or guess_kind(path, doc.data, doc.lines[0] if doc.lines else "")
    if kind == "record":  # read as replay reads it: the schema, the action types, the references
        return sort_issues(read_record(path) if read_record is not None else load_record_file(path, action_types)[1])
    if kind == "task-cards":
        from crewkit.spec.taskcards import check_task_deck_file

        return check_task_deck_file(path)
    issues = check_spec_file(path, kind)
    if kind == "campaign" and not issues:
        issues = sort_issues(check_campaign_semantics(doc.data, doc, path))
    return issues
