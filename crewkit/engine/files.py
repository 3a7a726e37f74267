"""Every issue ``crewkit validate`` reports for one file, by the file's kind; the language server reports the
same ones (from the editor's text: :mod:`crewkit.spec.overlay`).

Here, in the engine's layer, because a game record is read by the engine's one record reader
(:func:`crewkit.engine.record_file.read_record`: every action applied as ``crewkit replay`` applies it), so
``validate`` cannot call a record fine that ``replay`` refuses, whatever the file is named.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from crewkit.effects.files import effect_file_issues
from crewkit.engine.record_file import read_record
from crewkit.spec import bundled, overlay
from crewkit.spec.errors import SpecIssue
from crewkit.spec.files import check_file
from crewkit.spec.loader import effect_file_kind, source_lines


def file_issues(path: Path, action_types: Collection[str] = ()) -> list[SpecIssue]:
    """Every issue of one file: a rule set, mission or campaign, a card set or a rule set of another family, a
    game record (``action_types``: the action types of installed packages' blocks it may hold)."""
    unsaved = overlay.text_of(path)
    lines = unsaved.splitlines() if unsaved is not None else source_lines(path)
    effect_kind = effect_file_kind(lines[0]) if lines else None
    if effect_kind is None and path.suffix in (".yaml", ".yml") and any(map(_FAMILY_LINE.match, lines or [])):
        return _family_ruleset_issues(path, lines or [])  # a rule set that names its family: that family checks it
    if effect_kind is not None:
        return effect_file_issues(path, effect_kind)
    return check_file(path, action_types=action_types, read_record=lambda p: read_record(p, action_types).issues)


_FAMILY_LINE = re.compile(r"^family:")


def _family_ruleset_issues(path: Path, lines: list[str]) -> list[SpecIssue]:
    from crewkit.games import UnknownFamily, family_named

    name = bundled.family_in(lines)
    try:
        family = family_named(name)
    except UnknownFamily as exc:
        line = next(i for i, text in enumerate(lines, 1) if _FAMILY_LINE.match(text))
        return [SpecIssue(str(path), line, 1, ("family",), str(exc))]
    return family.ruleset_issues(path)


__all__ = ["file_issues"]
