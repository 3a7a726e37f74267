"""Games of every family through one interface: open a game, replay a record, find a rule set's family.

This is the only code that reads which family a rule set (its ``family:``) or a record (its ``family``) is
of. Families are found by name: crewkit's own (:data:`BUNDLED`, imported only when a game of theirs is asked
for) and those of installed packages (the ``crewkit.families`` entry-point group: ``name = "module:FAMILY"``,
read without importing them until that family is asked for; an installed family's rule sets are found by name
in its own package, :func:`ruleset_file`). The protocol they answer is in
:mod:`crewkit.games.protocol`; the one driver of bots in :mod:`crewkit.games.driver`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkit.errors import CrewkitError

if TYPE_CHECKING:
    from crewkit.games.protocol import (
        Family,
        FamilyCheck,
        FamilyReview,
        FamilyWinnability,
        GameInPlay,
        LoggedAttempt,
        Replayed,
    )

__all__ = [
    "BUNDLED",
    "ENTRY_POINT_GROUP",
    "TRICK_TAKING",
    "UnknownFamily",
    "family_for",
    "family_named",
    "family_names",
    "family_name_of",
    "installed_action_types",
    "installed_rulesets",
    "logbook_extra_attempts",
    "solve_report_of",
    "logbook_attempt",
    "check_of",
    "review_of",
    "winnability_of",
    "ruleset_file",
    "record_family",
    "refuse_other_family",
    "open_game",
    "replay",
]

TRICK_TAKING = "trick-taking"  # a rule set or a record that names no family
ENTRY_POINT_GROUP = "crewkit.families"
BUNDLED: dict[str, str] = {
    TRICK_TAKING: "crewkit.families.trick_taking.family:FAMILY",
    "not-alone": "crewkit.families.not_alone.family:FAMILY",
}
"""crewkit's own families: ``family:`` name -> ``module:attribute`` of its :class:`Family` (imported lazily)."""


class UnknownFamily(CrewkitError, LookupError):
    """A ``family:`` no bundled or installed family answers to (the message lists those that do)."""


@functools.cache
def _installed() -> dict[str, str]:
    """The families of installed packages (entry points read, none imported)."""
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def family_names() -> list[str]:
    return sorted({*BUNDLED, *_installed()})


@functools.cache
def family_named(name: str) -> Family:
    """The family called ``name`` (its module imported now, once)."""
    target = BUNDLED.get(name) or _installed().get(name)
    if target is None:
        raise UnknownFamily(f"there is no game family {name!r}; families: {', '.join(family_names())}")
    module, _, attribute = target.partition(":")
    try:
        found: Family = getattr(importlib.import_module(module), attribute or "FAMILY")
    except (ImportError, AttributeError) as exc:
        raise UnknownFamily(f"the game family {name!r} ({target}) cannot be loaded: {exc}") from None
    return found


def installed_rulesets() -> dict[str, tuple[str, Path]]:
    """The rule sets installed families ship in their own packages: name -> (family, file). Asked only when a
    name is not one of crewkit's own rule sets, or for a listing (it imports every installed family)."""
    found: dict[str, tuple[str, Path]] = {}
    for name in sorted(_installed()):
        if name in BUNDLED:
            continue
        try:
            paths = family_named(name).rulesets()
        except UnknownFamily:
            continue  # a broken plug-in: named when a game of it is asked for
        for path in paths:
            found.setdefault(path.stem, (name, path))
    return found


def family_name_of(ruleset: str) -> str:
    """The ``family:`` of a rule set given by bundled name, an installed family's rule set name, or path
    (trick-taking when it names none, or when the name finds no file: the trick-taking loader then says what
    exists)."""
    from crewkit.spec import bundled

    try:
        return bundled.ruleset_family(bundled.ruleset_path(ruleset))
    except bundled.NotFound:
        if not bundled.looks_like_path(ruleset) and _installed():
            hit = installed_rulesets().get(ruleset)
            if hit is not None:
                return hit[0]
        return TRICK_TAKING


def ruleset_file(ruleset: str) -> Path:
    """The file of a rule set given by bundled name, an installed family's rule set name, or path (NotFound
    listing every rule set's name when there is none)."""
    from crewkit.spec import bundled

    try:
        return bundled.ruleset_path(ruleset)
    except bundled.NotFound as exc:
        hit = installed_rulesets().get(ruleset) if _installed() else None
        if hit is None:
            if _installed() and not bundled.looks_like_path(ruleset) and "/" not in ruleset:
                known = ", ".join([p.stem for p in bundled.bundled_rulesets(None)] + sorted(installed_rulesets()))
                raise bundled.NotFound(f"unknown rule set {ruleset!r}; rule sets: {known}") from None
            raise exc from None
        return hit[1]


def installed_action_types() -> frozenset[str]:
    """The action types of installed families' records (crewkit's own are the record schema's)."""
    types: set[str] = set()
    for name in _installed():
        if name not in BUNDLED:
            try:
                types |= family_named(name).action_types
            except UnknownFamily:
                continue
    return frozenset(types)


def family_for(ruleset: str) -> Family:
    """The family of a rule set given by bundled name or path."""
    return family_named(family_name_of(ruleset))


def record_family(record: Mapping[str, Any]) -> Family:
    """The family of a game record (its ``family``; trick-taking records name none)."""
    name = record.get("family") or TRICK_TAKING
    return family_named(str(name))


def open_game(ruleset: str, mission: str | None, players: int, seed: str = "",
              readings: Mapping[str, str] | None = None, names: Sequence[str] | None = None) -> GameInPlay:
    """A new game of any family: rule set (bundled name or path), mission (None for a family without), number
    of players, seed (every shuffle comes from it) and other options for some readings."""
    return family_for(ruleset).open(ruleset, mission, players, seed, readings, names)


def replay(record: Mapping[str, Any], names: Sequence[str] | None = None) -> Replayed:
    """Replay a game record of any family through its family's one record reader."""
    return record_family(record).replay(record, names)


def logbook_extra_attempts(ruleset: str) -> int:
    """What the logbook adds to a mission won under ``ruleset`` (by name or path) with the distress signal used:
    its family's answer (0 for a family without one; the rule book's 1 when the family cannot be loaded)."""
    try:
        family = family_for(ruleset)
    except UnknownFamily:
        return 1
    found = _answer(family, "logbook_extra_attempts", ruleset)
    return 0 if found is None else int(found)


def _answer(family: Family, name: str, *args: Any) -> Any:
    """A family's optional answer ``name`` called with ``args`` (:class:`~crewkit.games.protocol.FamilyAnswers`),
    None for a family without it."""
    answer = getattr(family, name, None)
    return None if answer is None else answer(*args)


def logbook_attempt(game: GameInPlay) -> LoggedAttempt | None:
    """A finished attempt of ``game`` as a campaign's logbook counts it: its family's answer (None: it does not
    count, as for a family without the answer)."""
    found: LoggedAttempt | None = _answer(game.family, "logbook_attempt", game)
    return found


def check_of(family: Family) -> FamilyCheck | None:
    """``crewkit check``'s answers for ``family``'s missions (None for a family without missions to check)."""
    found: FamilyCheck | None = _answer(family, "check")
    return found


def review_of(family: Family) -> FamilyReview | None:
    """The review of ``family``'s finished attempts: its answer (None for a family without one, or whose games
    have none)."""
    found: FamilyReview | None = _answer(family, "review")
    return found


def solve_report_of(family: Family) -> Callable[..., str] | None:
    """``crewkit solve``'s words for a position of ``family``'s games (the optional ``solve_report`` answer of a
    solvable family, :meth:`Family.solve`), or None for a family without a solver."""
    if not family.solvable:
        return None
    report: Callable[..., str] | None = getattr(family, "solve_report", None)
    return report


def winnability_of(family: Family) -> FamilyWinnability | None:
    """The winnable share of random deals of ``family``'s games: its answer (None for a family without one)."""
    found: FamilyWinnability | None = _answer(family, "winnability")
    return found


def refuse_other_family(ruleset: str, family: str) -> None:
    """Raise a SpecError at the ``family:`` line of ``ruleset`` when it is a game of another family than
    ``family`` (a command that runs one family's rule sets only: ``crewkit solve`` and the trick-taking loader);
    the message says which commands run it, from that family's answers (``crewkit play`` when it offers a
    table at the terminal)."""
    name = family_name_of(ruleset)
    if name == family:
        return
    from crewkit.spec import bundled
    from crewkit.spec.errors import SpecError, SpecIssue

    other = family_named(name)  # an unknown family is said as such
    path = ruleset_file(ruleset)
    line = next((i for i, text in enumerate(bundled.family_file_lines(path), 1) if text.startswith("family:")), 1)
    commands = [*(["play"] if getattr(other, "tui", None) else []), "simulate", "compare", "replay", "validate"]
    raise SpecError([SpecIssue(str(path), line, 1, ("family",),
                               f"rule set {path.stem!r} is a game of the {name} family, not {family}: crewkit "
                               f"{', '.join(commands[:-1])} and {commands[-1]} run it; this command runs {family} "
                               "rule sets only")])
