"""Create games from names: rule set + mission + player count + seed (or an explicit deal)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from crewkit.engine.errors import SetupError
from crewkit.engine.game import Deal, Game
from crewkit.engine.rules import Rules, compile_rules, mission_roles
from crewkit.spec.loader import load_mission, load_ruleset
from crewkit.spec.model import Mission, RuleSet


@dataclass(frozen=True)
class GameSpec:
    """A fully named game: what a record's header says."""

    ruleset: str
    mission: str
    players: int
    readings: tuple[tuple[str, str], ...] = ()


@functools.lru_cache(maxsize=128)
def _compiled(ruleset: str, mission: str, players: int, readings: tuple[tuple[str, str], ...]) -> tuple[Rules, RuleSet, Mission]:
    selection = dict(readings)
    rs = load_ruleset(ruleset, selection)
    ms = load_mission(mission, selection)
    why = (ms.data.get("unsupported") or {}).get(rs.name)
    if why:
        raise SetupError(f"{ms.id} cannot be played under {rs.name}: {why}")
    rules = compile_rules(rs.data, ms.data, players, mission_id=ms.id, roles=mission_roles(ms.data))
    return rules, rs, ms


def compile_game(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> Rules:
    """Compiled rules, cached per (rule set, mission, players, readings)."""
    return _compiled(ruleset, mission, players, tuple(sorted((readings or {}).items())))[0]


def specs_for(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> tuple[RuleSet, Mission]:
    _, rs, ms = _compiled(ruleset, mission, players, tuple(sorted((readings or {}).items())))
    return rs, ms


def new_game(
    ruleset: str = "crew",
    mission: str = "planet-nine/01",
    players: int = 4,
    seed: str = "",
    readings: Mapping[str, str] | None = None,
    deal: Deal | None = None,
) -> Game:
    rules = compile_game(ruleset, mission, players, readings)
    game = Game.new(rules, seed=seed, deal=deal)
    game.spec = GameSpec(ruleset, mission, players, tuple(sorted((readings or {}).items())))  # type: ignore[attr-defined]
    return game
