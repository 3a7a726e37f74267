"""Fair blame's loop over worlds, shared by the review of an attempt (``review``) and of a match's rounds
(``round_review``): with every hand known the best play is not always the best with what its player could see,
so each legal play is judged in worlds consistent with that player's observation."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from crewkit.families.trick_taking.engine.blocks.tricks import Play


class ReviewStopped(Exception):
    """The review's ``stop`` said to stop (the screen that asked for it is gone)."""


Stop = Callable[[], bool]


def blame_in_worlds(obs: Any, action: Play, names: Sequence[str],
                    judge: Callable[[list[int], Sequence[Play]], Mapping[int, bool | None]], more: Callable[[], bool],
                    *, worlds: int, seed: str, stop: Stop | None = None, know: Any = None,
                    goal: str = "kept the mission winnable", stake: str = "the mission") -> dict[str, Any] | None:
    """Fair blame's figures: worlds consistent with ``obs`` (the acting seat's observation) sampled as the expert
    bot samples them (``know``: its :class:`Knowledge`, by default read from ``obs``), up to ``worlds`` while
    ``more()``; ``judge(hands, plays)`` says for each legal play (by card id) whether it reached the goal in that
    world (None: undecided). The share of the worlds in which each play did, the play made's, the best play's,
    and the words (``goal``: what a play did, ``stake``: what turned on hidden cards)."""
    from crewkit.families.trick_taking.bots.knowledge import Knowledge

    plays = [a for a in obs.legal if isinstance(a, Play)]
    if len(plays) < 2:
        return None
    know = know if know is not None else Knowledge(obs)
    rng = random.Random(f"review:{seed}")
    kept = dict.fromkeys((a.card.id for a in plays), 0)
    decided = dict.fromkeys(kept, 0)
    sampled = 0
    while sampled < worlds and more():
        if stop is not None and stop():
            raise ReviewStopped
        hands = know.sample(rng)
        sampled += 1
        for cid, ok in judge(hands, plays).items():
            if ok is not None:
                decided[cid] += 1
                kept[cid] += int(ok)

    def share(cid: int) -> float:
        return kept[cid] / decided[cid] if decided[cid] else 0.0

    by_id = {a.card.id: a for a in plays}
    played = share(action.card.id)
    best_id = max(kept, key=lambda c: (share(c), c == action.card.id, -c))
    best = share(best_id)
    who = names[action.seat] if action.seat < len(names) else f"Player {action.seat + 1}"
    if best <= played:
        words = (f"Nothing {who} could know of was safer: with what {who} could see, the {action.card.name} {goal} "
                 f"in {played:.0%} of the possible deals; {stake} turned on hidden cards.")
    else:
        words = (f"With what {who} could know, the {by_id[best_id].card.name} {goal} in {best:.0%} of the possible "
                 f"deals and the {action.card.name} in {played:.0%}.")
    return {
        "played": round(played, 4),
        "best": round(best, 4),
        "best_action": by_id[best_id].to_json(),
        "worlds": sampled,
        "shares": {by_id[c].card.name: round(share(c), 4) for c in sorted(kept)},
        "undecided": sum(sampled - decided[c] for c in decided),
        "words": words,
    }


__all__ = ["ReviewStopped", "Stop", "blame_in_worlds"]
