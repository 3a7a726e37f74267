"""The typed spec model: resolved rule sets, missions and campaigns.

``data`` holds the resolved, schema-checked document (plain dicts and lists); the engine compiles it once
into fast objects (``crewkit.engine.rules``).
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


@dataclass(frozen=True)
class Mission:
    id: str  # canonical: planet-nine/03, or the file path for user files
    number: int | None
    title: str
    path: Path
    data: Mapping[str, Any]
    readings: Mapping[str, str] = field(default_factory=dict)

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
