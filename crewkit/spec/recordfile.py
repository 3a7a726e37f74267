"""A game record file read for replay: bounded JSON, the record schema, and references kept to safe places."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from crewkit.spec import bundled
from crewkit.spec.errors import SpecError, SpecIssue
from crewkit.spec.schema import load_json_file, validate_document
from crewkit.spec.yamlio import LoadedDoc


def load_record_file(path: Path, action_types: Collection[str] = ()) -> tuple[dict[str, Any], list[Any]]:
    """The record at ``path`` and what is wrong with it (positioned issues). ``action_types``: the action types
    of installed packages' blocks (crewkit's own are always known); an action of another type is an issue at
    its ``type``. (:func:`crewkit.engine.record_file.read_record` goes on to read every action as the game
    does.)"""
    _, data, issues = load_record_doc(path, action_types)
    return data, issues


def load_record_doc(path: Path, action_types: Collection[str] = ()) -> tuple[LoadedDoc | None, dict[str, Any],
                                                                               list[Any]]:
    """:func:`load_record_file` with the loaded document (for positions), None when the file cannot be read."""
    try:
        doc = load_json_file(path)
    except SpecError as exc:
        return None, {}, list(exc.issues)
    issues = list(validate_document(doc, "record", action_types=action_types or ()))
    data = doc.data if isinstance(doc.data, dict) else {}
    if not issues:
        issues = _record_reference_issues(doc, path)
    return doc, data, issues


def _record_reference_issues(doc: Any, path: Path) -> list[Any]:
    """A record names its rule set and mission as the command line does (bundled names, or paths from the
    working folder); a path must lead into the working folder or the record's own folder (or below them),
    so that a record from someone else cannot make crewkit read any file of yours (docs/trust.md)."""
    out = []
    carried = set()
    for key in ("ruleset", "mission"):
        source = doc.data.get(f"{key}_source")
        if not isinstance(source, dict) or not isinstance(source.get("text"), str):
            continue
        # the record carries the file's text: it stands for the file, so the path is not refused; the text must
        # be the one its hash names (a record edited by hand, or cut short)
        carried.add(key)
        found = hashlib.sha256(source["text"].encode("utf-8", errors="surrogatepass")).hexdigest()
        if found != source.get("sha256"):
            line, column = doc.position_of((f"{key}_source", "sha256"))
            out.append(SpecIssue(doc.filename, line, column, (f"{key}_source", "sha256"),
                                 f"the {'rule set' if key == 'ruleset' else key} text the record carries does not "
                                 "match its sha256 (the record was changed after it was written)",
                                 expected=str(source.get("sha256")), found=found))
    for key in ("ruleset", "mission"):
        ref = doc.data.get(key)
        if not isinstance(ref, str) or key in carried:
            continue
        is_path = bundled.looks_like_path(ref) or (key == "ruleset" and "/" in ref)
        if not is_path:
            continue
        target = Path(ref).expanduser()
        if "\x00" not in ref and (bundled.confined(target, Path.cwd()) or bundled.confined(target, path.parent)):
            continue
        line, column = doc.position_of((key,))
        out.append(SpecIssue(doc.filename, line, column, (key,),
                             f"the record's {key} file {ref!r} is outside the working folder and the record's "
                             "folder; a record may name bundled specs or files there"))
    return out
