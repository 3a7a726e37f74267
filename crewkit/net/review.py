"""The review of a hosted table's game (where it went wrong), computed once by the host for every seat.

It is sent only once the game is over: it carries the game's record, every hand included, and the review as
``crewkit review --format json`` gives it. A seat draws it with the family's review screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewkit.games import review_of
from crewkit.games.protocol import AttemptReview, GameInPlay, NoReview

NOT_OVER = "the review opens once the game is over (no hand is shown before)"


def table_review(game: GameInPlay, names: Sequence[str], *, first: bool = False) -> dict[str, Any]:
    """The ``review`` message's body for a finished game: its record, the players' names by seat, and the
    review (None, with ``error`` in words, for a game the solver cannot judge); ``first``: the family's first
    answer on a small budget, marked ``final: false`` (the final one follows it). Runs the solver: call it in a
    thread."""
    return table_review_answer(game, names, first=first)[0]


def table_review_answer(game: GameInPlay, names: Sequence[str], *, first: bool = False,
                        earlier: AttemptReview | None = None) -> tuple[dict[str, Any], AttemptReview | None]:
    """:func:`table_review`'s body and the family's review it was made from (None when there is none);
    ``earlier``: the first answer's review, given to the final one (its decided positions are not searched
    again)."""
    assert game.is_over(), NOT_OVER
    out: dict[str, Any] = {"record": game.record(), "names": list(names), "review": None, "error": None,
                           "final": not first}
    family = game.family
    answer = review_of(family)
    if answer is None:
        out["error"] = f"a game of {family.title} has no review (the review uses the solver of trick-taking games)"
        return out, None
    try:
        rv = answer.first_of_game(game, names) if first else answer.of_game(game, names, earlier)
    except NoReview as exc:
        out["error"] = str(exc)
        return out, None
    out["review"] = rv.to_json()
    return out, rv


__all__ = ["NOT_OVER", "table_review", "table_review_answer"]
