"""Records of board-family games (``crewkit-record/1`` with ``family:``): writing, replaying, printing.

A board game is fixed by its rule set, its readings, its number of players and its seed (every shuffle comes
from the seed), so the record holds no deal: only the actions, secret choices in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crewkit.engine.actions import ActionFormatError, action_from_json
from crewkit.engine.errors import IllegalAction, SetupError
from crewkit.families.not_alone.board import BoardGame, load_board_ruleset, with_readings
from crewkit.games.protocol import RECORD_FORMAT as FORMAT
from crewkit.games.protocol import ReplayError
from crewkit.spec.errors import SpecError


def board_record(game: BoardGame, readings: Mapping[str, str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "family": str(game.data.get("family", "")),
        "ruleset": game.ruleset.name,
        "mission": None,
        "players": game.n,
        "seed": game.seed,
    }
    if readings:
        out["readings"] = dict(readings)
    out["actions"] = [a.to_json() for a in game.actions]
    outcome = game.outcome()
    result: dict[str, Any] = {"rounds_played": game.round}
    if game.is_over():
        result["winners"] = list(game.winners)
        result["winning_side"] = game.role_of(game.winners[0])
    out["result"] = result
    out["outcome"] = outcome.result
    out["reason"] = outcome.reason
    return out


@dataclass
class BoardReplay:
    game: BoardGame | None
    error: ReplayError | None


def replay_board(record: Mapping[str, Any], names: Sequence[str] | None = None) -> BoardReplay:
    """Rebuild the game from the record's header and apply its actions in order; the first refused action
    stops the replay with the rule it breaks. ``names``: how the log names the seats (a record keeps none)."""
    try:
        ruleset = load_board_ruleset(str(record["ruleset"]))
        readings = record.get("readings") or {}
        if readings:
            ruleset = with_readings(ruleset, readings)
        game = BoardGame(ruleset, int(record["players"]), str(record.get("seed", "")), names)
    except SetupError as exc:
        return BoardReplay(None, ReplayError(str(exc), code="setup"))
    except SpecError as exc:
        first = exc.issues[0] if exc.issues else None
        where = f" ({first.file}:{first.line}:{first.column}: {first.message})" if first else ""
        return BoardReplay(
            None, ReplayError(f"cannot load the rule set named by the record{where}", code="spec")
        )
    for i, raw in enumerate(record.get("actions", []) or []):
        seat = raw.get("seat") if isinstance(raw, dict) else None
        try:
            game.apply(action_from_json(raw, None, game.action_types()))  # this family's actions only
        except ActionFormatError as exc:
            return BoardReplay(game, ReplayError(str(exc), i, seat, "malformed-action"))
        except IllegalAction as exc:
            return BoardReplay(game, ReplayError(exc.message, i, seat, exc.code))
    return BoardReplay(game, None)


def board_replay_text(result: BoardReplay) -> str:
    """The rounds as the public log tells them, then the winner (or why the replay stopped)."""
    game = result.game
    if game is None:
        return f"invalid record: {result.error}"
    out: list[str] = []
    current = 0
    for line in game.lines:
        if line.seats is not None:
            continue
        if line.round != current:
            current = line.round
            out.append(f"Round {current}")
        out.append(f"  {line.text}")
    if game.is_over():
        side = game.title(game.role_of(game.winners[0]))
        names = ", ".join(game.seat_name(s) for s in game.winners)
        out.append(f"Winner: {side} ({names}) in round {game.round}: {game.outcome().reason}")
    else:
        out.append(f"Not finished: {game.outcome().reason}")
    return "\n".join(out)


def board_replay_json(result: BoardReplay) -> dict[str, Any]:
    game = result.game
    if game is None:
        return {"outcome": "invalid", "reason": str(result.error)}
    out: dict[str, Any] = {
        "outcome": game.outcome().result,
        "reason": game.outcome().reason,
        "players": game.n,
        "rounds": game.round,
        "winners": list(game.winners),
        "log": [{"round": ln.round, "text": ln.text} for ln in game.lines if ln.seats is None],
    }
    if result.error is not None:
        err = result.error
        out["error"] = {"message": err.message, "index": err.index, "seat": err.seat, "code": err.code}
    return out
