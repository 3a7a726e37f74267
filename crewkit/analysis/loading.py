"""Compiled rules and new games by name, for simulations and benchmarks.

Uses :func:`crewkit.engine.setup.compile_game` (the full spec pipeline). While that pipeline is not
working (modules still being written), it falls back to reading the bundled YAML directly with
:func:`crewkit.engine.rules.compile_rules`, which is enough for rule sets without ``extends:``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from crewkit.engine.errors import SetupError
from crewkit.engine.game import Game
from crewkit.engine.rules import Rules, compile_rules, mission_roles
from crewkit.engine.setup import GameSpec, compile_game


def load_rules(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> Rules:
    try:
        return compile_game(ruleset, mission, players, readings)
    except SetupError:
        raise
    except Exception as exc:  # the spec pipeline is unfinished: read the YAML directly
        if readings:
            raise
        try:
            return _fallback(ruleset, mission, players)
        except Exception:
            raise exc from None


@functools.lru_cache(maxsize=32)
def _fallback(ruleset: str, mission: str, players: int) -> Rules:
    import yaml

    from crewkit.spec import bundled

    with open(bundled.ruleset_path(ruleset), encoding="utf-8") as fh:
        rs = yaml.safe_load(fh)
    mpath = bundled.mission_path(mission)
    with open(mpath, encoding="utf-8") as fh:
        ms = yaml.safe_load(fh)
    return compile_rules(rs, ms, players, mission_id=bundled.mission_id_for(mpath), roles=mission_roles(ms))


def game_spec(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> GameSpec:
    return GameSpec(ruleset, mission, players, tuple(sorted((readings or {}).items())))


def start_game(rules: Rules, spec: GameSpec | None, seed: str) -> Game:
    """A new attempt of ``rules`` seeded by ``seed``, named by ``spec`` (for records)."""
    game = Game.new(rules, seed=seed)
    game.spec = spec
    return game
