"""The bots' rule for what to communicate (:func:`comm_pick`): one rule, read by the bot that speaks, by the expert
bot that infers a teammate's hand from it, and by the setup choices that weigh what silencing a player costs."""

from __future__ import annotations

from collections.abc import Sequence

from crewkit.cards import Card


def comm_pick(seat: int, options: Sequence[tuple[Card, str | None]],
              open_tasks: Sequence[tuple[Card, int | None]]) -> int | None:
    """Which of the communications ``options`` (card, statement) the heuristic bot makes, by index, or None.

    Tell a teammate where its open task card is; else a top 8 or 9 in an open task's suit. One rule, read
    both by the bot that speaks and by the expert bot, which infers from it what a teammate holds
    (:mod:`crewkit.families.trick_taking.bots.expert`)."""
    owned = [(c, o) for c, o in open_tasks if o is not None]
    if not owned:
        return None
    task_suits = {c.suit.index for c, _ in owned if c.suit is not None}
    mine = {c.id for c, o in owned if o == seat}
    theirs = {c.id for c, o in owned if o != seat}
    best: int | None = None
    best_score = 0.0
    for i, (c, position) in enumerate(options):
        score = 0.0
        if c.id in theirs:
            score = 10 + c.rank  # tell the owner where its card is
        elif c.id in mine:
            score = 3
        elif c.suit is not None and c.suit.index in task_suits:
            if position == "top" and c.rank >= 8:
                score = 4 + c.rank / 10
            elif position == "only":
                score = 2
        if position == "only":
            score += 0.5
        if score > best_score:
            best, best_score = i, score
    return best if best_score >= 4 else None
