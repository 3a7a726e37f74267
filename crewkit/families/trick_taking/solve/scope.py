"""What the solver's core searches as it stands: when equal cards may be merged (no condition tells them
apart), when a draft is searched as a free draft (conditions that read trick winners only), and each seat's
share of the undrafted tasks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game

# identifiers a condition may use and still let the solver merge adjacent cards (no rank or card identity)
_MERGE_SAFE_WORDS = frozenset(
    """
    tricks_won players p q t tricks max min in and or not none true false first_trick last_trick winner
    leader commander dealer tricks_left tricks_played total_tricks number is_last is_first is_trump
    winning_card any all count tasks token done trick owner abs left_of right_of mode others longest_run
    """.split()
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_STRING = re.compile(r"\"[^\"]*\"|'[^']*'")


def conditions_merge_safe(texts: Sequence[str], roles: Sequence[str]) -> bool:
    """True when no condition text can tell two cards of one suit apart (so merging them is sound)."""
    allowed = _MERGE_SAFE_WORDS | set(roles)
    for text in texts:
        for word in _WORD.findall(_STRING.sub("", text)):
            if word not in allowed:
                return False
    return True


def draft_conditions_ok(conditions: Sequence[Any], roles: Sequence[str]) -> bool:
    """Can a free draft be searched with these mission conditions? Yes when they read only trick winners
    (card-blind, checked after each trick): they never read a task or its owner, so who takes which task is
    the draft's business alone."""
    from crewkit.families.trick_taking.solve.compiled import card_blind

    return all(c.check != "after-play" and card_blind(c.fail_expr, roles) and card_blind(c.done_expr, roles)
               for c in conditions)


def draft_quotas(game: Game) -> list[int]:
    """How many of the undrafted tasks each seat takes: the draft goes round from ``draft_turn``."""
    quotas = [0] * game.n
    k = sum(1 for t in game.tasks if t.owner is None)
    for j in range(k):
        quotas[(game.draft_turn + j) % game.n] += 1
    return quotas
