"""A card set or an effect rule set (Not Alone's files) checked in full, as ``crewkit validate`` does."""

from __future__ import annotations

from pathlib import Path

from crewkit.effects.cardsets import load_card_set
from crewkit.effects.ruleset import ruleset_issues
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues


def effect_file_issues(path: Path, schema: str) -> list[SpecIssue]:
    """Every issue of ``path``, a ``card-set`` or ``not-alone-ruleset`` file, sorted by position."""
    if schema == "card-set":
        try:
            load_card_set(path)
        except SpecError as exc:
            return sort_issues(exc.issues)
        return []
    return sort_issues(ruleset_issues(path, schema)[1])
