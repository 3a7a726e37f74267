"""Printing a replayed game: outcome, tricks, tasks, communications (text and JSON)."""

from __future__ import annotations

from typing import Any

from crewkit.engine.phase import OVER
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState, match_of
from crewkit.families.trick_taking.engine.record import Replay
from crewkit.families.trick_taking.engine.rules import OMEGA
from crewkit.families.trick_taking.engine.words import STATEMENT_WORDS


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
        "task_cards": [
            {"id": t.id, "text": game.rules.task_deck.card(t.id).text, "owner": t.owner, "number": t.number,
             "done": t.cond is not None and game.cond_done[t.cond]}
            for t in game.task_cards
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
    match = match_of(game)
    if match is not None:
        from crewkit.families.trick_taking.engine.scoring import chip_json

        out["dealer"] = match.first_dealer
        out["chips"] = [chip_json(c) for c in match.chips]
        out["rounds"] = [
            {**r.to_json(), "tricks": [
                {"number": t.number, "leader": t.leader, "winner": t.winner,
                 "cards": [{"seat": s, "card": c.name} for s, c in t.plays]} for t in ts]}
            for r, ts in zip(match.round_results, match.round_tricks, strict=False)
        ]
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
    if game.task_cards:
        lines.append("task cards:")
        for tc in game.task_cards:
            owner = "not taken" if tc.owner is None else f"seat {tc.owner}"
            number = "" if tc.number is None else f" (number {tc.number})"
            done = " fulfilled" if tc.cond is not None and game.cond_done[tc.cond] else ""
            lines.append(f"  {game.rules.task_deck.card(tc.id).text}{number}  {owner}{done}")
    if game.distress_direction:
        lines.append(f"distress signal used: cards passed {game.distress_direction}")
    if game.communications:
        lines.append("communications:")
        for c in game.communications:
            stmt = "statement hidden (dead zone)" if c.hidden else STATEMENT_WORDS.get(c.statement, c.statement)
            lines.append(f"  seat {c.seat}: {c.card.name} ({stmt}) before trick {c.before_trick}")
    match = match_of(game)
    if match is not None:
        lines.extend(_rounds_text(game, match))
    elif game.tricks:
        lines.append("tricks:")
        lines.extend(_tricks_text(game.tricks))
    outcome = game.outcome()
    lines.append(f"outcome: {outcome.result}")
    lines.append(f"reason: {outcome.reason}")
    if result.error is not None:
        lines.append(f"stopped at {result.error}")
    return "\n".join(lines)


def _tricks_text(tricks: Any) -> list[str]:
    out = []
    for t in tricks:
        cards = ", ".join(f"{c.name} (seat {s})" for s, c in t.plays)
        out.append(f"  {t.number:>2}. led by seat {t.leader}: {cards} -> won by seat {t.winner}")
    return out


def _rounds_text(game: Any, match: MatchState) -> list[str]:
    from crewkit.families.trick_taking.engine.scoring import chip_text

    out = [f"chips at the start: {', '.join(chip_text(c) for c in [game.scoring.chips_start] * game.n)}"]
    for res, tricks in zip(match.round_results, match.round_tricks, strict=False):
        out.append(f"round {res.round}: dealer seat {res.dealer}, {res.mission} in {res.mode} mode: {res.reason}")
        out.extend(_tricks_text(tricks))
        deltas = ", ".join(f"seat {i} {'+' if d >= 0 else ''}{chip_text(d)}" for i, d in enumerate(res.deltas))
        chips = ", ".join(f"seat {i} {chip_text(c)}" for i, c in enumerate(res.chips))
        out.append(f"  chips: {deltas}  ->  {chips}")
    if game.phase != OVER and match.round_mission is not None:
        out.append(f"round {match.round} in progress: dealer seat {game.dealer}, {match.round_mission.id} ({game.mode})")
        out.extend(_tricks_text(game.tricks))
    return out
