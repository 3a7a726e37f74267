"""Printing a replayed game: outcome, tricks, tasks, communications (text and JSON)."""

from __future__ import annotations

from typing import Any

from crewkit.engine.record import Replay
from crewkit.engine.rules import OMEGA


def replay_json(result: Replay) -> dict[str, Any]:
    game = result.game
    if game is None:
        return {"outcome": "invalid", "reason": str(result.error), "error": _error_json(result), "tricks": []}
    outcome = game.outcome()
    out: dict[str, Any] = {
        "outcome": outcome.result,
        "reason": outcome.reason,
        "players": game.n,
        "commander": game.commander,
        "tricks": [
            {
                "number": t.number,
                "leader": t.leader,
                "cards": [{"seat": s, "card": c.name} for s, c in t.plays],
                "winner": t.winner,
            }
            for t in game.tricks
        ],
        "tasks": [
            {"card": t.card.name, "owner": t.owner, "token": t.token, "trick": t.trick} for t in game.tasks
        ],
        "communications": [
            {"seat": c.seat, "card": c.card.name, "statement": c.statement, "hidden": c.hidden,
             "before_trick": c.before_trick}
            for c in game.communications
        ],
        "distress": game.distress_direction,
    }
    if game.roles:
        out["roles"] = dict(game.roles)
    if result.error is not None:
        out["error"] = _error_json(result)
    return out


def _error_json(result: Replay) -> dict[str, Any] | None:
    err = result.error
    if err is None:
        return None
    return {"index": err.index, "seat": err.seat, "code": err.code, "message": err.message}


def replay_text(result: Replay) -> str:
    game = result.game
    if game is None:
        return f"outcome: invalid\nreason: {result.error}"
    lines: list[str] = []
    spec = game.spec
    if spec is not None:
        lines.append(f"{spec.mission} under {spec.ruleset}, {game.n} players, seed {game.seed!r}")
    if game.commander is not None:
        lines.append(f"commander: seat {game.commander}")
    if game.roles:
        lines.append("roles: " + ", ".join(f"{k} = seat {v}" for k, v in game.roles.items()))
    if game.tasks:
        lines.append("tasks:")
        for t in game.tasks:
            token = f" [{('Ω' if t.token == OMEGA else t.token)}]" if t.token else ""
            owner = "unassigned" if t.owner is None else f"seat {t.owner}"
            done = f"done in trick {t.trick}" if t.trick is not None else "open"
            lines.append(f"  {t.card.name:<10}{token:<7} {owner:<11} {done}")
    if game.distress_direction:
        lines.append(f"distress signal used: cards passed {game.distress_direction}")
    if game.communications:
        lines.append("communications:")
        for c in game.communications:
            stmt = "statement hidden (dead zone)" if c.hidden else c.statement
            lines.append(f"  seat {c.seat}: {c.card.name} ({stmt}) before trick {c.before_trick}")
    if game.tricks:
        lines.append("tricks:")
        for t in game.tricks:
            cards = ", ".join(f"{c.name} (seat {s})" for s, c in t.plays)
            lines.append(f"  {t.number:>2}. led by seat {t.leader}: {cards} -> won by seat {t.winner}")
    outcome = game.outcome()
    lines.append(f"outcome: {outcome.result}")
    lines.append(f"reason: {outcome.reason}")
    if result.error is not None:
        lines.append(f"stopped at {result.error}")
    return "\n".join(lines)
