"""The one driver of bots, for a game of any family: windows of out-of-turn actions, then the seat waited for.

While a window is open (The Crew's communication before a trick) each seat of :meth:`GameInPlay.window` that
may act out of turn is offered the chance once, in order (the offers stop when the window closes: a distress
signal switches to passing cards); then the first seat the game waits for acts. During a simultaneous secret
choice (Not Alone's places) the first waiting seat acts first: its choice stays face down, so neither the
record nor another seat's observation shows who chose first. A run is reproducible from its seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.errors import CrewkitError
from crewkit.games.protocol import GameInPlay, SeatPlayer

G = TypeVar("G", bound=GameInPlay)

__all__ = ["BotError", "play_out"]


class BotError(CrewkitError, RuntimeError):
    """A bot returned an action that is not legal, or one of another seat (a bug in the bot)."""


def play_out(game: G, players: Sequence[SeatPlayer], max_actions: int = 20_000) -> G:
    """Play ``game`` to its end with ``players[seat]`` deciding for each seat; returns the game."""
    n = game.seats
    if len(players) != n:
        raise ValueError(f"{len(players)} bots for a {n}-seat game")
    offered_at = -1  # the number of actions applied when the last window was offered
    for _ in range(max_actions):
        if game.is_over():
            return game
        order = game.window()
        if order and offered_at != len(game.actions):
            for seat in order:
                if not game.may_act_out_of_turn(seat):
                    continue
                action = players[seat].offer(game)
                if action is not None:
                    _apply(game, action, seat)
                    if game.is_over() or not game.window():
                        break  # the window closed (a distress signal: every seat now passes a card)
            offered_at = len(game.actions)
            continue
        actor = game.to_act
        if actor is None:  # pragma: no cover - a game that is not over waits for a seat
            raise BotError("the game waits for nobody")
        _apply(game, players[actor].act(game), actor)
    if game.is_over():
        return game
    raise BotError(f"the game did not end after {max_actions} actions")


def _apply(game: GameInPlay, action: Action | object, seat: int) -> None:
    if getattr(action, "seat", None) != seat:
        raise BotError(f"the bot of seat {seat} returned {action!r}, an action of another seat")
    try:
        game.apply(action)  # type: ignore[arg-type]
    except IllegalAction as exc:
        raise BotError(f"the bot of seat {seat} chose an illegal action {action!r}: {exc}") from exc
    except AttributeError as exc:
        raise BotError(f"the bot of seat {seat} returned {action!r}, not an action") from exc
