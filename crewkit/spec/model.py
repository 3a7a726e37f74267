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
class Campaign:
    name: str
    title: str
    ruleset: str
    missions: tuple[str, ...]
    path: Path
