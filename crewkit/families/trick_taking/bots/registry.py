"""Bots by name."""

from __future__ import annotations

from collections.abc import Callable

from crewkit.errors import CrewkitError
from crewkit.families.trick_taking.bots.base import Bot


class UnknownBot(CrewkitError, ValueError):
    """A bot name that is not registered (the message lists the names)."""


def _random(seat: int, seed: str) -> Bot:
    from crewkit.families.trick_taking.bots.random_bot import RandomBot

    return RandomBot(seat, seed)


def _heuristic(seat: int, seed: str) -> Bot:
    from crewkit.families.trick_taking.bots.heuristic import HeuristicBot

    return HeuristicBot(seat, seed)


def _expert(seat: int, seed: str) -> Bot:
    from crewkit.families.trick_taking.bots.expert import ExpertBot

    return ExpertBot(seat, seed)


#: the expert's budgets at the table, where a person waits for each card: a fifth of the worlds, an eighth of the
#: solver's nodes, a seventh of the play-outs and fewer redraws of a world until it explains the teammates'
#: communications (that redraw is most of a decision once cards are communicated): benchmarks/table_pace.py
TABLE_BUDGET = {"worlds": 10, "total_nodes": 250_000, "rollout_worlds": 60, "comm_tries": 3, "draft_worlds": 60}


def _expert_quick(seat: int, seed: str) -> Bot:
    from crewkit.families.trick_taking.bots.expert import ExpertBot

    return ExpertBot(seat, seed, **TABLE_BUDGET)  # type: ignore[arg-type]


def _rules(seat: int, seed: str) -> Bot:
    from crewkit.families.trick_taking.bots.heuristic import HeuristicBot

    return HeuristicBot(seat, seed, lookahead=False)


def _fast(seat: int, seed: str) -> Bot:
    from crewkit.families.trick_taking.bots.fast import FastBot

    return FastBot(seat, seed)


BOTS: dict[str, tuple[Callable[[int, str], Bot], str]] = {
    "random": (_random, "uniform over the legal required actions; communicates rarely"),
    "heuristic": (_heuristic, "cooperative rules plus a short determinized lookahead"),
    "fast": (_fast, "the heuristic bot's look-ahead with fewer worlds, played out in C (Python if no compiler)"),
    "rules": (_rules, "the heuristic bot's rules alone, no lookahead (fast)"),
    "expert": (_expert, "samples worlds consistent with what it saw and asks the solver which play keeps the "
                        "most of them winnable (strongest; up to about a second per card)"),
    "expert-quick": (_expert_quick, "the expert with a third of its worlds and search: within half a second per "
                                    "card (the table's default)"),
}


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(name: str, seat: int, seed: str = "") -> Bot:
    """A new bot for ``seat``; its RNG is ``random.Random(f"{seed}:{seat}")``."""
    entry = BOTS.get(name)
    if entry is None:
        raise UnknownBot(f"unknown bot {name!r}; available bots: {', '.join(BOTS)}")
    return entry[0](seat, seed)
