"""Loading a board-family rule set (by bundled name or path, cached), choosing other reading options, and
building the flow of machine blocks its ``flow:`` names (:mod:`crewkit.families.not_alone.board`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from crewkit.effects.ruleset import EffectRuleSet, load_effect_ruleset
from crewkit.engine.errors import SetupError
from crewkit.engine.machine import MachineBlock
from crewkit.engine.registry import machine_block_named
from crewkit.families.not_alone import blocks as _blocks  # noqa: F401 - the family's blocks register on import
from crewkit.spec.merge import merge
from crewkit.spec.resources import data_path


def flow_of(data: Mapping[str, Any]) -> list[MachineBlock[Any]]:
    """The machine blocks of a rule set's ``flow:`` (each entry a block name, or a mapping with ``block``)."""
    out: list[MachineBlock[Any]] = []
    for i, entry in enumerate(data.get("flow") or []):
        name, params = (entry, {}) if isinstance(entry, str) else (entry.get("block"), entry)
        try:
            out.append(machine_block_named(str(name), params))
        except SetupError as exc:
            raise SetupError(f"flow[{i}]: {exc}") from None
    return out


def board_ruleset_path(ref: str | Path) -> Path:
    """The file of a bundled rule set name (``rulesets/<name>.yaml``, or in a folder of ``rulesets/``) or a path."""
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return path
    root = data_path("rulesets")
    for candidate in (root / f"{ref}.yaml", *sorted(root.glob(f"*/{ref}.yaml"))):
        if candidate.is_file():
            return candidate
    raise SetupError(f"there is no rule set {str(ref)!r}")


def load_board_ruleset(ref: str | Path) -> EffectRuleSet:
    """A board-family rule set by bundled name or path, checked (raises SpecError with positions); loaded
    once per file version (checking every reading's options takes seconds)."""
    path = board_ruleset_path(ref).resolve()
    stamps = tuple(
        (p.stat().st_mtime_ns if p.is_file() else 0) for p in (path, *sorted(path.parent.glob("*/*.yaml")))
    )
    return _load_cached(str(path), stamps)


@functools.lru_cache(maxsize=16)
def _load_cached(path: str, stamps: tuple[int, ...]) -> EffectRuleSet:
    return load_effect_ruleset(path)


def with_readings(ruleset: EffectRuleSet, readings: Mapping[str, str]) -> EffectRuleSet:
    """The rule set with other options chosen for some readings (``{reading id: option}``): each option's
    ``overrides`` merged in (a reading or option the rule set does not have is a SetupError naming it)."""
    data: dict[str, Any] = dict(ruleset.data)
    by_id = {r["id"]: r for r in data.get("readings", [])}
    for rid, option in readings.items():
        reading = by_id.get(rid)
        if reading is None:
            raise SetupError(
                f"rule set {ruleset.name} has no reading {rid!r}; readings: {', '.join(sorted(by_id))}"
            )
        if option not in reading["options"]:
            raise SetupError(
                f"reading {rid!r} has no option {option!r}; options: {', '.join(reading['options'])}"
            )
        patch = reading["options"][option].get("overrides")
        if patch:
            data = merge(data, patch, top=False)
    data["readings"] = [dict(r, choice=readings.get(r["id"], r["choice"])) for r in data.get("readings", [])]
    return EffectRuleSet(ruleset.name, ruleset.path, data, ruleset.cards)
