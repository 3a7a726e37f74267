"""Compiled rules and new games by name, for simulations and benchmarks.

Uses :func:`crewkit.families.trick_taking.engine.setup.compile_game` (the full spec pipeline). While that
pipeline is not working (modules still being written), it falls back to reading the bundled YAML directly with
:func:`crewkit.families.trick_taking.engine.rules.compile_rules`, which is enough for rule sets without
``extends:``.
"""

from __future__ import annotations

from collections.abc import Mapping

from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.setup import GameSpec, compile_game
from crewkit.families.trick_taking.engine.setup import game_spec as _named_spec


def load_rules(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> Rules:
    """Compiled rules by name (cached by the engine's setup module)."""
    return compile_game(ruleset, mission, players, readings)


def game_spec(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> GameSpec:
    """The game's name for its records (with the text of a user's mission file)."""
    return _named_spec(ruleset, mission, players, readings)


def start_game(rules: Rules, spec: GameSpec | None, seed: str) -> Game:
    """A new attempt of ``rules`` seeded by ``seed``, named by ``spec`` (for records)."""
    game = Game.new(rules, seed=seed)
    game.spec = spec
    return game
