"""Which rule set a mission is played under when none is named: the first its ``rulesets:`` lists.

One helper for every command (``simulate``, ``solve``, ``compare``, ``winnability``, ``check``, ``host``,
``play``, ``show --words``), so that none of them falls back to ``crew`` for a mission written for another rule
set (Mission Deep Sea's task cards need ``crew-deep-sea``). A mission that cannot be read is left to its loader,
which says why; the default is then ``crew`` (the rule set a mission without ``rulesets:`` names).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crewkit.spec import bundled

#: the rule set a mission that lists none is played under (as the loader reads a missing ``rulesets:``)
BASE_RULESET = "crew"


def listed_rulesets(mission: str) -> list[str]:
    """The rule sets ``mission`` (a bundled id or a file) lists, in its order: bundled names as they are, a
    path relative to the mission's folder made usable from anywhere. A rule set's own set of mission cards
    (``hammer``, ``persian/level-2``) gives the rule set that deals them. ``[]`` when the mission cannot be
    read (its loader reports it where it is loaded)."""
    owner = _set_owner(mission)
    if owner is not None:
        return [owner]
    try:
        path = bundled.mission_path(mission)
        from crewkit.spec.loader import load_doc

        data: Any = load_doc(path).data
    except Exception:  # noqa: BLE001 - unreadable or invalid: the mission's loader says what is wrong
        return []
    refs = data.get("rulesets") if isinstance(data, dict) else None
    if not isinstance(refs, list) or not refs:
        return [BASE_RULESET]
    return [_usable(str(ref), path.parent) for ref in refs if isinstance(ref, str)]


def default_ruleset(mission: str | None, fallback: str = BASE_RULESET) -> str:
    """The rule set to play ``mission`` under when the command line names none: the first it lists
    (``fallback`` without a mission, or when the mission cannot be read)."""
    if not mission:
        return fallback
    listed = listed_rulesets(mission)
    return listed[0] if listed else fallback


def choose_ruleset(ruleset: str | None, mission: str | None, fallback: str = BASE_RULESET) -> str:
    """``ruleset`` when given, else the mission's first listed rule set (:func:`default_ruleset`)."""
    return ruleset if ruleset else default_ruleset(mission, fallback)


def listed_text(mission: str) -> str:
    """``"mission X lists rule sets a, b"`` for a refusal, or ``""`` when the mission cannot be read."""
    listed = listed_rulesets(mission)
    if not listed:
        return ""
    names = ", ".join(listed)
    return f"mission {mission} lists rule set{'s' if len(listed) > 1 else ''} {names}"


def _usable(ref: str, folder: Path) -> str:
    """A bundled name stays a name (records and reports keep it short); a file is made a path from here."""
    if not bundled.looks_like_path(ref) and "/" not in ref and (bundled.rulesets_dir() / f"{ref}.yaml").is_file():
        return ref
    try:
        return str(bundled.ruleset_path(ref, relative_to=folder))
    except bundled.NotFound:
        return ref  # the loader refuses it with the reason


def _set_owner(mission: str) -> str | None:
    """The bundled rule set that deals the mission cards named by ``mission`` as a set (``hammer``,
    ``persian/level-2``); a single card (``hammer/04``) is a file that lists its rule set itself."""
    if bundled.looks_like_path(mission):
        return None
    folder, _, rest = mission.partition("/")
    if rest and not rest.startswith("level-"):
        return None
    from crewkit.spec.loader import load_doc

    for path in bundled.bundled_rulesets():
        try:
            data: Any = load_doc(path).data
        except Exception:  # noqa: BLE001 - a bundled file is checked by its own tests
            continue
        if not isinstance(data, dict):
            continue
        scoring: dict[str, Any] = data["scoring"] if isinstance(data.get("scoring"), dict) else {}
        tasks: dict[str, Any] = data["tasks"] if isinstance(data.get("tasks"), dict) else {}
        secret: dict[str, Any] = tasks["secret"] if isinstance(tasks.get("secret"), dict) else {}
        if folder in (scoring.get("missions"), secret.get("missions")):
            return path.stem
    return None
