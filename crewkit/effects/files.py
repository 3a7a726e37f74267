"""A card set or an effect rule set (Not Alone's files) checked in full, as ``crewkit validate`` does."""

from __future__ import annotations

from pathlib import Path

from crewkit.effects.cardsets import load_card_set
from crewkit.effects.ruleset import card_name_issues, ruleset_issues
from crewkit.spec.bundled import confined
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.loader import load_doc
from crewkit.spec.yamlio import real_path_within


def effect_file_issues(path: Path, schema: str) -> list[SpecIssue]:
    """Every issue of ``path``, a ``card-set`` or ``not-alone-ruleset`` file, sorted by position. A card set
    is also checked against the tracks and tokens of the rule set beside it that names it (its folder's
    parent or its own folder), as the rule set's own check would."""
    if schema == "card-set":
        try:
            card_set = load_card_set(path)
        except SpecError as exc:
            return sort_issues(exc.issues)
        names = _owner_names(path)
        return sort_issues(card_name_issues({"": card_set}, *names)) if names else []
    return sort_issues(ruleset_issues(path, schema)[1])


def _owner_names(path: Path) -> tuple[list[str], list[str]] | None:
    """The tracks and tokens of the rule set that lists ``path`` under ``cards:`` (None if none does)."""
    target = path.resolve()
    for folder in (path.parent.parent, path.parent):
        for candidate in sorted(folder.glob("*.yaml")):
            if real_path_within(candidate, [folder]) is None:
                continue  # a link out of the folder: never read
            try:
                data = load_doc(candidate).data  # cached: validate asks this for every card set
            except SpecError:
                continue
            if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
                continue
            for rel in data["cards"].values():
                ref = candidate.parent / str(rel)
                if confined(ref, candidate.parent) and ref.resolve() == target:
                    tracks, tokens = data.get("tracks", {}), data.get("tokens", {})
                    if isinstance(tracks, dict) and isinstance(tokens, dict):
                        return list(tracks), list(tokens)
    return None
