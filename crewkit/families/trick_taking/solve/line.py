"""A winning line in words: the one text ``crewkit solve`` and ``crewkit review`` print (players by name)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


def seat_names(game: Game, names: Sequence[str] | None = None) -> list[str]:
    """How the words name each seat: the given names, else "Player 1", ... (the dummy seat: JARVIS)."""
    out = []
    for s in range(game.n):
        if names and s < len(names) and names[s]:
            out.append(names[s])
        elif s == game.dummy_seat:
            out.append("JARVIS")
        else:
            out.append(f"Player {s + 1}")
    return out


def action_words(action: Action, names: Sequence[str], *, had: bool = False) -> str:
    """``Bob played the pink 7`` (``had``: ``Bob had played the pink 7``)."""
    who = names[action.seat] if 0 <= action.seat < len(names) else f"Player {action.seat + 1}"
    if isinstance(action, Play):
        verb = "had played" if had else "played"
        return f"{who} {verb} the {action.card.name}"
    if isinstance(action, TakeTask):
        verb = "had taken" if had else "took"
        return f"{who} {verb} the task {action.card.name}"
    data = action.to_json()
    data.pop("seat", None)
    kind = str(data.pop("type", "action")).replace("-", " ")
    rest = " ".join(str(v) for v in data.values())
    verb = "had chosen" if had else "chose"
    return f"{who} {verb} {kind} {rest}".rstrip()


def line_rows(game: Game, line: Sequence[Action], names: Sequence[str] | None = None) -> list[str]:
    """``line`` replayed on a copy of ``game``: its choices (tasks taken, setup answers) one a row, then one row
    per trick (who played what, who won it, the tasks it did) and the outcome. ``names``: the players' names
    in seat order (:func:`seat_names` fills what is missing)."""
    who = seat_names(game, names)
    g = game.clone()
    out: list[str] = []
    seen = len(g.tricks)
    pending: list[str] = []
    for action in line:
        if isinstance(action, Play):
            pending.append(f"{who[action.seat]} {action.card.name}")
        else:
            out.append(f"  {action_words(action, who)}")
        g.apply(action)
        for t in g.tricks[seen:]:
            done = [task for task in g.tasks if task.trick == t.number]
            tasks = f"; tasks done: {', '.join(x.card.name for x in done)}" if done else ""
            out.append(f"  trick {t.number:>2}: {', '.join(pending)}; won by {who[t.winner]}{tasks}")
            pending = []
        seen = len(g.tricks)
    if pending:
        out.append(f"  trick {len(g.tricks) + 1:>2}: {', '.join(pending)}")
    out.append(f"  outcome: {g.outcome()}")
    return out


__all__ = ["action_words", "line_rows", "seat_names"]
