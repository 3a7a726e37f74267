"""Driving a game with bots: optional actions at communication windows, then the required action."""

from __future__ import annotations

from collections.abc import Sequence

from crewkit.bots.base import OPTIONAL_TYPES, Bot
from crewkit.engine.errors import IllegalAction
from crewkit.engine.game import Game
from crewkit.engine.observation import Table, observe, table_snapshot
from crewkit.errors import CrewkitError


class BotError(CrewkitError, RuntimeError):
    """A bot returned an action that is not legal (a bug in the bot)."""


def play_game(game: Game, bots: Sequence[Bot], max_actions: int = 10_000) -> Game:
    """Play ``game`` to its end with one bot per seat and return it.

    At every communication window each seat, from the leader clockwise, is offered one ``optional`` call
    if it has optional actions (the offers stop once a distress signal switched the phase to passing);
    then the seat to act gets ``act``. Bots see observations only.
    """
    n = game.n
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for a {n}-player game")
    offered_at = -1  # the number of actions applied when the last window was offered
    table: Table | None = None
    table_at = -1  # the number of actions applied when ``table`` was taken
    steps = 0
    while not game.is_over():
        steps += 1
        if steps > max_actions:
            raise BotError(f"the game did not end after {max_actions} actions")
        if game.in_communication_window() and offered_at != len(game.actions):
            offered_at, table = _offer_optional(game, bots)
            table_at = offered_at
            if game.is_over():
                break
            if not game.in_communication_window():
                continue  # a distress signal switched to passing cards
        seat = game.to_act
        assert seat is not None
        if game.in_communication_window():
            obs = observe(game, seat, lazy_optional=True, table=table if table_at == len(game.actions) else None)
        else:
            obs = observe(game, seat, game.legal_actions(seat))
        action = bots[seat].act(obs)
        if type(action) in OPTIONAL_TYPES and obs.required:
            raise BotError(f"the bot of seat {seat} returned the optional {action!r} from act()")
        _apply(game, action, seat)
    return game


def _offer_optional(game: Game, bots: Sequence[Bot]) -> tuple[int, Table | None]:
    """Offer each seat its optional actions once; the number of actions applied and the last table."""
    n = game.n
    leader = game.leader
    table: Table | None = None
    for i in range(n):
        seat = (leader + i) % n
        if not game.has_optional_actions(seat):  # the engine's predicate: one rule for bots, app and checks
            continue
        if table is None:
            table = table_snapshot(game, lazy_optional=True)
        obs = observe(game, seat, lazy_optional=True, table=table)
        action = bots[seat].optional(obs)
        if action is not None:
            if type(action) not in OPTIONAL_TYPES:
                raise BotError(f"the bot of seat {seat} returned {action!r} from optional(): not optional")
            _apply(game, action, seat)
            table = None
            if not game.in_communication_window():
                break  # distress: every seat now passes a card
    if table is None:
        table = table_snapshot(game, lazy_optional=True)
    return len(game.actions), table


def _apply(game: Game, action: object, seat: int) -> None:
    if getattr(action, "seat", None) != seat:
        raise BotError(f"the bot of seat {seat} returned {action!r}, an action of another seat")
    try:
        game.apply(action)  # type: ignore[arg-type]
    except IllegalAction as exc:
        raise BotError(f"the bot of seat {seat} chose an illegal action {action!r}: {exc}") from exc
    except AttributeError as exc:
        raise BotError(f"the bot of seat {seat} returned {action!r}, not an action") from exc
