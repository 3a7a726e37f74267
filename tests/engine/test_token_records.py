"""Token missions: records where tokened tasks are completed in order, where two consecutive tokens are
completed in one trick (allowed), and where the order is broken (failure). Checked on the replayed games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.record import replay_record
from crewkit.families.trick_taking.engine.rules import ARROWS, NUMBERED

FOLDER = Path(__file__).parent.parent / "records" / "tokens"
TOKEN_MISSIONS = ["03", "06", "08", "14", "15", "19", "21", "22", "23", "28", "30", "31", "35", "36", "39", "40",
                  "45", "48", "49"]
# No player can complete two consecutive tokens in one trick here: each of the 3+ players owns at most one
# of the 2-3 tasks (3, 6, 8), or the mission has no two consecutive tokens (19: 1; 28: 1 and Ω; 48: Ω).
NO_SAME_TRICK = {"03", "06", "08", "19", "28", "48"}


def replay(name: str):  # type: ignore[no-untyped-def]
    result = replay_record(json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8")))
    assert result.error is None, str(result.error)
    assert result.game is not None
    return result.game


def rank(token: str) -> tuple[int, int]:
    return (0, int(token)) if token in NUMBERED else (1, ARROWS.index(token) + 1) if token in ARROWS else (2, 0)


@pytest.mark.parametrize("mission", TOKEN_MISSIONS)
def test_in_order(mission: str) -> None:
    game = replay(f"{mission}-in-order")
    assert game.outcome().result != "failure", game.outcome().reason
    last = len(game.tricks)
    done_now = [t for t in game.tasks if t.token and t.trick == last]
    assert done_now
    for task in done_now:
        if task.token in NUMBERED:  # the k-th task completed: k-1 were done before or in this trick
            before = sum(1 for t in game.tasks if t.trick is not None and t.trick < last)
            assert before < int(task.token) <= game.tasks_done
        elif task.token in ARROWS:
            lower = [t for t in game.tasks if t.token in ARROWS and rank(t.token) < rank(task.token)]
            assert all(t.done for t in lower)


@pytest.mark.parametrize("mission", sorted(set(TOKEN_MISSIONS) - NO_SAME_TRICK))
def test_consecutive_tokens_in_one_trick(mission: str) -> None:
    game = replay(f"{mission}-same-trick")
    assert game.outcome().result != "failure", game.outcome().reason
    last = len(game.tricks)
    ranks = sorted(rank(t.token) for t in game.tasks if t.token and t.trick == last)
    assert any(a[0] == b[0] and b[1] == a[1] + 1 for a, b in zip(ranks, ranks[1:], strict=False))


@pytest.mark.parametrize("mission", TOKEN_MISSIONS)
def test_broken_order_fails(mission: str) -> None:
    game = replay(f"{mission}-broken")
    outcome = game.outcome()
    assert outcome.result == "failure"
    assert "task order broken" in outcome.reason
    assert outcome.trick == len(game.tricks)  # at once: in the trick that broke it
