"""The review of a hosted table's game (where it went wrong), computed once by the host for every seat.

It is sent only once the game is over: it carries the game's record, every hand included, and the review as
``crewkit review --format json`` gives it. A seat draws it with the family's review screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewkit.games import review_of
from crewkit.games.protocol import GameInPlay, NoReview

NOT_OVER = "the review opens once the game is over (no hand is shown before)"


def table_review(game: GameInPlay, names: Sequence[str], *, first: bool = False) -> dict[str, Any]:
    """The ``review`` message's body for a finished game: its record, the players' names by seat, and the
    review (None, with ``error`` in words, for a game the solver cannot judge); ``first``: the family's first
    answer on a small budget, marked ``final: false`` (the final one follows it). Runs the solver: call it in a
    thread."""
    assert game.is_over(), NOT_OVER
    out: dict[str, Any] = {"record": game.record(), "names": list(names), "review": None, "error": None,
                           "final": not first}
    family = game.family
    answer = review_of(family)
    if answer is None:
        out["error"] = f"a game of {family.title} has no review (the review uses the solver of trick-taking games)"
        return out
    try:
        rv = answer.first_of_game(game, names) if first else answer.of_game(game, names)
    except NoReview as exc:
        out["error"] = str(exc)
        return out
    out["review"] = rv.to_json()
    return out


__all__ = ["NOT_OVER", "table_review"]
