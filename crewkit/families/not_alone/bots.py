"""Bots for board-family games (Not Alone): the interface, the registry by name, a random bot.

A bot sees only its seat's observation (:class:`~crewkit.families.not_alone.observation.BoardObservation`) and its
legal actions, and returns one of them. One bot object plays one seat (the Creature's seat 0 or a Hunted's);
a bot for one side only may refuse the other by raising :class:`UnknownBoardBot` from its factory. A factory
is given the seat, the seed and the rule set being played (its cards and places are public facts a bot may
read; None when the caller has none, then a bot that needs them reads the bundled ``not-alone``).

Register a bot with :func:`register_board_bot` (``name -> factory(seat, seed, ruleset)``); :func:`make_board_bot`
builds one; the family puts them behind the one driver (:mod:`crewkit.families.not_alone.family`). Bundled: ``random`` (uniform over the legal
actions) and ``heuristic`` (:mod:`crewkit.families.not_alone.heuristic`).

A *side spec* names a bot per side: ``heuristic`` (both sides) or ``CREATURE/HUNTED`` (``random/heuristic``:
a random Creature against heuristic Hunted); :func:`parse_side_bots` reads it, :func:`side_bots` makes a bot
per seat from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.actions import Action
from crewkit.errors import CrewkitError
from crewkit.families.not_alone.board import BoardGame
from crewkit.families.not_alone.observation import BoardObservation
from crewkit.families.not_alone.state import LONE


class BoardBot(Protocol):
    seat: int

    def choose(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty), decided from ``obs`` only."""
        ...


class UnknownBoardBot(CrewkitError, ValueError):
    """A bot name that is not registered for board games (the message lists the names)."""


class RandomBoardBot:
    """Picks uniformly among the legal actions (seeded by the game seed and its seat)."""

    def __init__(self, seat: int, seed: str = "", ruleset: EffectRuleSet | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(f"board-random:{seed}:{seat}")

    def choose(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def _heuristic(seat: int, seed: str = "", ruleset: EffectRuleSet | None = None) -> BoardBot:
    from crewkit.families.not_alone.heuristic import HeuristicBoardBot

    return HeuristicBoardBot(seat, seed, ruleset)


BoardBotFactory = Callable[[int, str, EffectRuleSet | None], BoardBot]
BOARD_BOTS: dict[str, BoardBotFactory] = {"random": RandomBoardBot, "heuristic": _heuristic}


def register_board_bot(name: str, factory: BoardBotFactory) -> None:
    BOARD_BOTS[name] = factory


def board_bot_names() -> list[str]:
    return sorted(BOARD_BOTS)


def make_board_bot(name: str, seat: int, seed: str = "", ruleset: EffectRuleSet | None = None) -> BoardBot:
    factory = BOARD_BOTS.get(name)
    if factory is None:
        raise UnknownBoardBot(f"unknown bot {name!r} for this game; bots: {', '.join(board_bot_names())}")
    return factory(seat, seed, ruleset)


def parse_side_bots(spec: str, creature: str | None = None, hunted: str | None = None) -> tuple[str, str]:
    """(Creature bot, Hunted bot) from a side spec (``heuristic`` or ``random/heuristic``), each overridden
    by ``creature``/``hunted`` when given; unknown names raise :class:`UnknownBoardBot`."""
    parts = [p.strip() for p in spec.split("/")]
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2 or not all(parts):
        raise UnknownBoardBot(f"bot {spec!r}: give one bot name, or two as CREATURE/HUNTED (random/heuristic)")
    pair = (creature or parts[0], hunted or parts[1])
    for name in pair:
        if name not in BOARD_BOTS:
            raise UnknownBoardBot(f"unknown bot {name!r} for this game; bots: {', '.join(board_bot_names())}")
    return pair


def side_label(creature: str, hunted: str) -> str:
    """The side spec of a pair of bots (one name when both sides play the same bot)."""
    return creature if creature == hunted else f"{creature}/{hunted}"


def side_bots(game: BoardGame, spec: str, seed: str) -> list[BoardBot]:
    """One bot per seat from a side spec: the Creature's for the lone seat, the Hunted's for the others."""
    creature, hunted = parse_side_bots(spec)
    return [make_board_bot(creature if seat == LONE else hunted, seat, seed, game.ruleset) for seat in range(game.n)]
