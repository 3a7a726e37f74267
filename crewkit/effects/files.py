"""A card set or an effect rule set (Not Alone's files) checked in full, as ``crewkit validate`` does."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from crewkit.effects.cardsets import load_card_set
from crewkit.effects.ruleset import card_name_issues, ruleset_issues
from crewkit.spec import bundled, overlay
from crewkit.spec.bundled import confined
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.files import check_file
from crewkit.spec.loader import effect_file_kind, load_doc, source_lines


def file_issues(path: Path, action_types: Collection[str] = ()) -> list[SpecIssue]:
    """Every issue ``crewkit validate`` reports for one file, by the file's kind: a rule set, mission or
    campaign, a card set or a rule set of another family, a game record (``action_types``: the action types of
    installed packages' blocks it may hold). ``crewkit validate`` and the language server both report these;
    the server's are read from the editor's text (:mod:`crewkit.spec.overlay`)."""
    unsaved = overlay.text_of(path)
    lines = unsaved.splitlines() if unsaved is not None else source_lines(path)
    effect_kind = effect_file_kind(lines[0]) if lines else None
    if effect_kind is None and path.suffix in (".yaml", ".yml"):  # a rule set of another family
        schema = bundled.FAMILY_SCHEMAS.get(bundled.family_in(lines or []), "ruleset")
        effect_kind = schema if schema != "ruleset" else None
    if effect_kind is not None:
        return effect_file_issues(path, effect_kind)
    if path.suffix == ".json":  # a game record: it may hold the actions of installed packages' blocks
        return check_file(path, action_types=action_types)
    return check_file(path)


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
            try:
                data = load_doc(candidate).data  # cached: validate reads these files for each card set
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
