"""What ``crewkit solve`` prints of a position of a trick-taking game: the verdict, one winning line, how long
the search took and how each mission condition was checked (text), or the result as JSON. The command itself
(``crewkit/cli/solve.py``) reaches it through the family (``Family.solve_report``)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve.line import line_rows
from crewkit.families.trick_taking.solve.solver import solve

VERDICTS = {"winnable": "winnable: the crew can still succeed",
            "unwinnable": "not winnable: no sequence of plays succeeds",
            "unknown": "unknown: the search stopped before deciding"}
SEARCHES = {"core-c": "the C search", "core": "the Python search", "engine": "the engine-driven search"}


def solve_report(game: Game, *, timeout: float | None, max_nodes: int | None, names: Sequence[str] | None,
                 as_json: bool) -> str:
    """Solve ``game`` (its position now) and say so as ``crewkit solve`` prints it."""
    result = solve(game, timeout=timeout, max_nodes=max_nodes)
    if as_json:
        out = {
            "ruleset": game.spec.ruleset if game.spec else game.rules.ruleset_name,
            "mission": game.spec.mission if game.spec else game.rules.mission_id,
            "players": game.rules.players,
            "seed": game.seed,
            "actions_before": len(game.actions),
            **result.to_json(),
        }
        return json.dumps(out, indent=2, ensure_ascii=False)
    lines = [VERDICTS[result.status] + (f" ({result.note})" if result.note else "")]
    if result.line:
        lines.append(f"winning line ({len(result.line)} actions):")
        lines.extend(line_rows(game, result.line, list(names) if names else None))
    starts = f", {result.starts} assignments/setups tried" if result.starts > 1 else ""
    by = f" ({SEARCHES.get(result.engine, result.engine)})" if result.nodes else ""
    lines.append(f"searched {result.nodes} plays in {result.seconds:.3f} s{starts}{by}")
    if result.conditions:
        lines.append(conditions_text(result.conditions))
    return "\n".join(lines)


def conditions_text(paths: list[dict[str, str]]) -> str:
    """How the solver checked the mission's conditions: one line each, naming the slower paths and why."""
    lines = []
    for d in paths:
        path, how, why = d["path"], d.get("how", ""), d.get("why", "")
        if path == "compiled":
            text = f"compiled into the search ({how})"
        elif path in ("winners", "program") and not why:
            text = f"fast path ({how})"
        elif path in ("winners", "dsl"):
            text = f"slower path ({how}), because {why}"
        else:
            text = f"slowest path ({how}), because {why}"
        lines.append(f"  {d['id']}: {text}")
    return "conditions:\n" + "\n".join(lines)
