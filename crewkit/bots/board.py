"""Bots for the board-of-places family (:mod:`crewkit.engine.board`, Not Alone), and the driver that runs them.

A board bot plays one seat from that seat's :class:`~crewkit.engine.board_observation.BoardObservation` and
the actions it may take now (``game.legal_actions(seat)``: its own options, which it may know); it never sees
the game. The rule set (the places' powers, the cards' texts: public facts printed on the cards) is given
when the bot is made. One bot object plays one seat of one game and may remember what it saw.

Bots by name (:data:`BOARD_BOTS`): ``random`` (uniform over the legal actions) and ``heuristic``
(:mod:`crewkit.bots.board_heuristic`: the Creature predicts the Hunted's places from their discard piles,
the Hunted spread out, resist and give up by rule of thumb). A *side spec* names a bot per side:
``heuristic`` (both sides) or ``CREATURE/HUNTED`` (``random/heuristic``: a random Creature against
heuristic Hunted); :func:`parse_side_bots` reads it.

Every bot draws from ``random.Random(f"{seed}:{seat}")``: a game and its bots seeded with the same string
play the same way every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.actions import Action
from crewkit.engine.board import BoardGame
from crewkit.engine.board_observation import BoardObservation
from crewkit.engine.boardstate import LONE
from crewkit.engine.errors import IllegalAction
from crewkit.errors import CrewkitError


class BoardBotError(CrewkitError, RuntimeError):
    """A board bot returned an action that is not legal (a bug in the bot), or a game did not end."""


class UnknownBoardBot(CrewkitError, ValueError):
    """A board bot name that is not registered (the message lists the names)."""


@runtime_checkable
class BoardBot(Protocol):
    """A player of one seat of a board game."""

    seat: int

    def act(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty), chosen from ``obs`` (what this seat may know)."""
        ...


class RandomBoardBot:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, seat: int, seed: str = "", ruleset: EffectRuleSet | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")

    def act(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        return legal[0] if len(legal) == 1 else legal[int(self.rng.random() * len(legal))]


def _random(seat: int, seed: str, ruleset: EffectRuleSet) -> BoardBot:
    return RandomBoardBot(seat, seed, ruleset)


def _heuristic(seat: int, seed: str, ruleset: EffectRuleSet) -> BoardBot:
    from crewkit.bots.board_heuristic import HeuristicBoardBot

    return HeuristicBoardBot(seat, seed, ruleset)


BOARD_BOTS: dict[str, tuple[Callable[[int, str, EffectRuleSet], BoardBot], str]] = {
    "random": (_random, "uniform over the legal actions"),
    "heuristic": (_heuristic, "the Creature predicts places from the discard piles; the Hunted spread out, "
                              "resist and give up by rule of thumb, play their cards when they help"),
}


def board_bot_names() -> list[str]:
    return list(BOARD_BOTS)


def make_board_bot(name: str, seat: int, seed: str, ruleset: EffectRuleSet) -> BoardBot:
    """A new bot of ``name`` for ``seat``; its random source is ``random.Random(f"{seed}:{seat}")``."""
    entry = BOARD_BOTS.get(name)
    if entry is None:
        raise UnknownBoardBot(f"unknown bot {name!r} for this game; available bots: {', '.join(BOARD_BOTS)}")
    return entry[0](seat, seed, ruleset)


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
            raise UnknownBoardBot(f"unknown bot {name!r} for this game; available bots: {', '.join(BOARD_BOTS)}")
    return pair


def side_label(creature: str, hunted: str) -> str:
    """The side spec of a pair of bots (one name when both sides play the same bot)."""
    return creature if creature == hunted else f"{creature}/{hunted}"


def side_bots(game: BoardGame, creature: str, hunted: str, seed: str) -> list[BoardBot]:
    """One bot per seat: ``creature`` for the lone seat, ``hunted`` for the others."""
    return [make_board_bot(creature if seat == LONE else hunted, seat, seed, game.ruleset) for seat in range(game.n)]


def play_board_game(game: BoardGame, bots: Sequence[BoardBot], max_actions: int = 20_000) -> BoardGame:
    """Play ``game`` to its end, one bot per seat, and return it. Bots see their seat's observation only.

    While several seats are waiting (the secret place choice), the first of them acts: its choice stays face
    down (neither the record nor another seat's observation shows which seat chose first)."""
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a {game.n}-player game")
    for _ in range(max_actions):
        seat = game.to_act
        if seat is None:
            return game
        legal = game.legal_actions(seat)
        if not legal:  # pragma: no cover - the engine always offers an action to a seat it waits for
            raise BoardBotError(f"the game waits for seat {seat}, which has no legal action ({game.phase})")
        action = bots[seat].act(game.observation(seat), legal)
        if getattr(action, "seat", None) != seat:
            raise BoardBotError(f"the bot of seat {seat} returned {action!r}, an action of another seat")
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise BoardBotError(f"the bot of seat {seat} chose an illegal action {action!r}: {exc}") from exc
    raise BoardBotError(f"the game did not end after {max_actions} actions")


__all__ = [
    "BOARD_BOTS",
    "BoardBot",
    "BoardBotError",
    "RandomBoardBot",
    "UnknownBoardBot",
    "board_bot_names",
    "make_board_bot",
    "parse_side_bots",
    "play_board_game",
    "side_bots",
    "side_label",
]
