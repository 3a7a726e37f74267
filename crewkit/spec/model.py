"""The typed spec model: resolved rule sets, missions and campaigns.

``data`` holds the resolved, schema-checked document (plain dicts and lists), for the faces that show it. A
mission's parts the engine reads are typed fields, built by the loader (:func:`crewkit.spec.loader.load_mission`):
its tasks, symbols, conditions and scoring, every DSL text already parsed and checked (:class:`Dsl`, from the
table of :mod:`crewkit.spec.dslsites`). The engine compiles these once into fast objects
(``crewkit.engine.rules``) and parses nothing itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class RuleSet:
    name: str
    path: Path
    data: Mapping[str, Any]
    readings: Mapping[str, str] = field(default_factory=dict)  # selections applied on top of the file's choices

    @property
    def players(self) -> list[int]:
        return list(self.data.get("players", []))


@dataclass(frozen=True, slots=True)
class Dsl:
    """One DSL text of a spec, parsed and checked by the spec layer (once): what the engine compiles."""

    text: str
    path: tuple[str | int, ...]  # where it stands in the file, e.g. ("conditions", 2, "fail_if")
    expr: Any  # a crewkit.dsl Expr; for a template (a condition's reason) the tuple of its parts


@dataclass(frozen=True, slots=True)
class ConditionSpec:
    """A mission condition (``conditions[i]``)."""

    id: str  # as written, or condition-N
    fail_if: Dsl | None
    done_if: Dsl | None
    reason: Dsl  # a template; when the file gives none, "condition ID broken"
    check: str  # after-trick | after-play


@dataclass(frozen=True, slots=True)
class CardRestriction:
    """A free card barred from some tricks (``scoring.challenge.free_card_restrictions[i]``)."""

    card: str
    not_in_tricks: tuple[str, ...]  # first | last


@dataclass(frozen=True, slots=True)
class MissionScoring:
    """A competitive mission card's ``scoring`` block (Hammer): formulas per mode and their payments."""

    penalty_score: Dsl | None = None
    penalty_settled: Dsl | None = None
    hidden_if: Dsl | None = None
    hidden_payment: int = 0
    challenge_success: Dsl | None = None
    challenge_fail: Dsl | None = None
    success_payment: int = 0
    failure_payment: int = 0
    free_card_restrictions: tuple[CardRestriction, ...] = ()


@dataclass(frozen=True, slots=True)
class MissionTasks:
    """A mission's ``tasks`` block."""

    count: int = 0
    fixed: tuple[str, ...] = ()  # card names
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MissionSymbols:
    """A mission's ``symbols`` block."""

    dead_zone: bool = False
    disruption: int | None = None  # communication only from just before this trick
    gold_frame: bool = False


@dataclass(frozen=True)
class Mission:
    id: str  # canonical: planet-nine/03, or the file path for user files
    number: int | None
    title: str
    path: Path
    data: Mapping[str, Any]
    readings: Mapping[str, str] = field(default_factory=dict)
    # the typed parts the engine reads (built by the loader from ``data``, readings applied)
    player_counts: tuple[int, ...] = ()  # the mission's own ``players``; empty: its rule set's
    tasks: MissionTasks = MissionTasks()
    symbols: MissionSymbols = MissionSymbols()
    conditions: tuple[ConditionSpec, ...] = ()
    scoring: MissionScoring | None = None
    roles: tuple[str, ...] = ()  # every role its setup steps bind (the names its conditions may use)
    barred_roles: tuple[str, ...] = ()  # communication.barred_roles: roles that may not communicate
    in_force: tuple[tuple[str, str], ...] = ()  # the mission's readings in force: (id, choice)
    level: int = 1  # a secret mission card's level (Persian reading)

    @property
    def rulesets(self) -> list[str]:
        return list(self.data.get("rulesets") or ["crew"])

    def players(self, ruleset: RuleSet) -> list[int]:
        return list(self.data.get("players") or ruleset.players)


@dataclass(frozen=True)
class CampaignMission:
    """One mission of a campaign, resolved (see ``crewkit.spec.campaigns``)."""

    key: str  # in the logbook: the bundled id, or the path relative to the campaign's folder
    ref: str  # what the loader opens: the bundled id, or the mission file's absolute path
    ruleset: str  # bundled name or absolute path
    players: tuple[int, ...]  # allowed counts; empty: whatever the mission and its rule set allow
    title: str
    chapter_title: str = ""
    chapter_text: str = ""  # shown before the mission
    version: str = ""  # fingerprint of the mission file (the logbook keeps attempts per version)
    path: Path | None = None


@dataclass(frozen=True)
class Campaign:
    name: str
    title: str
    ruleset: str
    missions: tuple[str, ...]  # the missions' logbook keys, in order (``entries`` has everything else)
    path: Path
    description: str = ""
    players: tuple[int, ...] = ()
    unlock: str = "free"  # in-order | free
    readings: Mapping[str, str] = field(default_factory=dict)  # fixed for every mission of the campaign
    entries: tuple[CampaignMission, ...] = ()
    identity: str = ""  # the logbook's campaign key: name (bundled), pack:NAME, or NAME@location
    source: str = "bundled"  # bundled | pack DIST VERSION | folder | zip

    def entry(self, key: str) -> CampaignMission | None:
        return next((e for e in self.entries if e.key == key or e.ref == key), None)
