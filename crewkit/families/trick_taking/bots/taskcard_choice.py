"""The bots' choices among task cards with objectives (Mission Deep Sea): which card to take, whether to pass,
which number to name, to whom the crew gives a card.

Each candidate is judged by play-outs, as the heuristic bot judges a role
(:meth:`HeuristicBot._choose_player`): the card's objective is bound to the seat that would take it
(:meth:`TaskCardDeck.bind`), added to the conditions the seat knows, and the same sampled deals are played out
with the conditions judged (:func:`crewkit.families.trick_taking.bots.conditions.rollout_cond`); the candidate
that succeeds most often is chosen (ties: the first offered). Passing is worth what the best card left is
worth in another drafting seat's hands. A card that asks a number is weighed, before the number is named, with
the trick share of a seat (tricks / seats).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.conditions import (
    choose_play_cond,
    cond_world,
    condition_setup,
    goal_tail,
    rollout_cond,
)
from crewkit.families.trick_taking.engine.blocks.draft import ChooseNumber, PassTask, TakeTaskCard
from crewkit.families.trick_taking.engine.step_actions import GiveTaskCard
from crewkit.families.trick_taking.engine.taskcards import number_range

TASK_CARD_ACTIONS = frozenset({TakeTaskCard, PassTask, ChooseNumber, GiveTaskCard})
MAX_NUMBERS = 6  # numbers weighed for a prediction card: those nearest a seat's share of the tricks


def choose_task_card_action(obs: Any, req: Sequence[Action], rng: random.Random, worlds: int,
                            knowledge: Callable[[Any], Any], world_from: Callable[[Any, list[int]], Any],
                            native_of: Callable[[Any, Any, list[list[int]]], NativeTaskPlays | None] | None = None,
                            ) -> Action:
    """The best of ``req`` (task-card actions only) by play-outs on ``worlds`` deals sampled from the bot's
    ``knowledge(obs)``, each made a play-out world by ``world_from``; ``native_of`` (the fast bot's) gives the
    play-outs in C where the library loads and the conditions translate: the same choice as in Python. The bot
    passes these in, so that this module needs neither bot."""
    deck = obs.rules.task_deck
    share = obs.total_tricks // max(1, obs.players)

    def bound(card_id: str, seat: int, number: int | None = None) -> Any:
        card = deck.card(card_id)
        if card.asks is not None and number is None:
            rng_ = number_range(card, obs.total_tricks)
            number = min(max(share, rng_.start), rng_.stop - 1)
        return deck.bind(card_id, seat, number if card.asks is not None else None)

    candidates: list[tuple[Action, list[tuple[Any, ...]]]] = []  # action, alternatives of added conditions
    numbers = [a for a in req if isinstance(a, ChooseNumber)]
    if numbers:  # keep the numbers nearest a seat's share of the tricks
        numbers.sort(key=lambda a: (abs(a.number - share), a.number))
        req = [*(a for a in req if not isinstance(a, ChooseNumber)), *numbers[:MAX_NUMBERS]]
    open_cards = [t for t in obs.task_cards if t.owner is None]
    for a in req:
        if isinstance(a, TakeTaskCard):
            candidates.append((a, [(bound(a.task, a.seat),)]))
        elif isinstance(a, GiveTaskCard):
            candidates.append((a, [(bound(a.task, a.player),)]))
        elif isinstance(a, ChooseNumber):
            candidates.append((a, [(deck.bind(a.task, a.seat, a.number),)]))
        elif isinstance(a, PassTask):
            others = [s for s in range(obs.players) if s != a.seat]
            candidates.append((a, [(bound(t.id, s),) for t in open_cards for s in others] or [()]))
    know = knowledge(obs)
    deals = [know.sample(rng) for _ in range(max(1, worlds))]
    bases = [world_from(obs, list(hands)) for hands in deals]
    known = tuple(obs.conditions)
    fast = native_of(obs, know, deals) if native_of is not None else None
    best: tuple[float, int] | None = None
    choice = req[0]
    for i, (action, alternatives) in enumerate(candidates):
        score = max(_wins(obs, bases, (*known, *extra), fast) for extra in alternatives)
        if best is None or (score, -i) > best:
            best, choice = (score, -i), action
    return choice


def _open_cards_and_worlds(obs: Any, rng: random.Random, worlds: int, knowledge: Callable[[Any], Any],
                           world_from: Callable[[Any, list[int]], Any],
                           native_of: Callable[[Any, Any, list[list[int]]], NativeTaskPlays | None] | None,
                           ) -> tuple[list[Any], Callable[[str, int], Any], list[Any], tuple[Any, ...],
                                      NativeTaskPlays | None]:
    """What the one-taker and the team scores share: the task cards without an owner, how one is bound to a seat
    (a number asked for: the seat's fair share of the tricks, within the card's range), ``worlds`` deals sampled
    once with their play-out worlds, the conditions known, and the C play-outs where they load."""
    deck = obs.rules.task_deck
    share = obs.total_tricks // max(1, obs.players)
    open_cards = [t for t in obs.task_cards if t.owner is None]

    def bound(card_id: str, seat: int) -> Any:
        card = deck.card(card_id)
        number = None
        if card.asks is not None:
            span = number_range(card, obs.total_tricks)
            number = min(max(share, span.start), span.stop - 1)
        return deck.bind(card_id, seat, number)

    know = knowledge(obs)
    deals = [know.sample(rng) for _ in range(max(1, worlds))]
    bases = [world_from(obs, list(hands)) for hands in deals]
    fast = native_of(obs, know, deals) if native_of is not None else None
    return open_cards, bound, bases, tuple(obs.conditions), fast


def taker_scores(obs: Any, seats: Sequence[int], rng: random.Random, worlds: int,
                 knowledge: Callable[[Any], Any], world_from: Callable[[Any, list[int]], Any],
                 native_of: Callable[[Any, Any, list[list[int]]], NativeTaskPlays | None] | None = None,
                 ) -> list[float]:
    """For each of ``seats``: the play-outs won (of ``worlds`` deals sampled once, the same for every seat) when
    that seat takes every task card still without an owner (a one-taker choice, a volunteer); -1 where the
    conditions cannot be judged."""
    open_cards, bound, bases, known, fast = _open_cards_and_worlds(obs, rng, worlds, knowledge, world_from, native_of)
    # the roles still open are the candidate's (the taker, the volunteers) for the play-outs' conditions
    open_roles = [r for r in obs.rules.roles if dict(obs.roles).get(r) is None]
    return [_wins(obs, bases, (*known, *(bound(t.id, s) for t in open_cards)), fast,
                  {**dict(obs.roles), **dict.fromkeys(open_roles, s)}) for s in seats]


def team_scores(obs: Any, teams: Sequence[Sequence[int]], rng: random.Random, worlds: int,
                knowledge: Callable[[Any], Any], world_from: Callable[[Any, list[int]], Any],
                native_of: Callable[[Any, Any, list[list[int]]], NativeTaskPlays | None] | None = None,
                ) -> list[float]:
    """For each team (the players the open roles would bind, in the roles' order: Deep Sea's two volunteers):
    the play-outs won (of ``worlds`` deals sampled once, the same for every team) when the team shares every
    task card still without an owner as the crew then gives them out: card by card in the order drawn, each to
    the member with whom the cards given so far and it succeed most often (ties: the first member); -1 where the
    conditions cannot be judged. The play-outs are C's from the first card where the library loads."""
    open_cards, bound, bases, known, fast = _open_cards_and_worlds(obs, rng, worlds, knowledge, world_from, native_of)
    roles_now = dict(obs.roles)
    open_roles = [r for r in obs.rules.roles if roles_now.get(r) is None]

    def roles_for(members: Sequence[int]) -> dict[str, int | None]:
        fresh = [m for m in members if m not in roles_now.values()] or list(members)  # the open roles' players
        return {**roles_now, **{r: fresh[min(i, len(fresh) - 1)] for i, r in enumerate(open_roles)}}

    out: list[float] = []
    for team in teams:
        members = list(dict.fromkeys(team))
        roles = roles_for(members)
        if len(members) == 1 or not open_cards:
            out.append(_wins(obs, bases, (*known, *(bound(t.id, members[0]) for t in open_cards)), fast, roles,
                             lead_in_c=True))
            continue
        given: tuple[Any, ...] = ()
        score = -1.0
        for t in open_cards:  # card by card, as the crew gives them out
            best: tuple[float, tuple[Any, ...]] | None = None
            for m in members:
                extra = (*given, bound(t.id, m))
                won = _wins(obs, bases, (*known, *extra), fast, roles, lead_in_c=True)
                if best is None or won > best[0]:
                    best = (won, extra)
            assert best is not None
            score, given = best
        out.append(score)
    return out


class NativeTaskPlays:
    """The play-outs in C (the fast bot's port of the same policy): the leader's first card is chosen in
    Python, the rest is played out by ``fs_rollout_batch`` with the conditions translated
    (:mod:`crewkit.families.trick_taking.bots.condcode`)."""

    def __init__(self, decider: Any, head: list[int], tail: list[int], deals: list[list[int]]) -> None:
        self.decider, self.head, self.tail, self.deals = decider, head, tail, deals


def _wins(obs: Any, bases: Sequence[Any], conditions: tuple[Any, ...], native: NativeTaskPlays | None,
          roles: dict[str, int | None] | None = None, lead_in_c: bool = False) -> float:
    """Successful play-outs of the sampled deals with these conditions (-1 when they cannot be judged).
    ``lead_in_c``: C chooses the leader's first card too (the play-out of the position as it is)."""
    from crewkit.families.trick_taking.bots.condcode import native_program, trick_tail

    judged = condition_setup(obs, roles, conditions=conditions)
    if judged is None:
        return -1.0
    program = native_program(native.decider._lib, judged[0])[0] if native is not None else None
    results: list[int | None] = [None] * len(bases)
    if native is not None and program is not None:
        cond_tail = trick_tail(judged[1], judged[2], goal_tail(judged))
        states, where = [], []
        for k, base in enumerate(bases):
            w = cond_world(base, *judged)
            if w.status == 0:
                first = [0] if lead_in_c else [*native.head[3:], choose_play_cond(w)]
                states.append([*native.head[:3], *first, *native.tail, *native.deals[k], *cond_tail])
                where.append(k)
        for k, won in zip(where, native.decider.rollout_batch(program, states), strict=True):
            results[k] = max(0, won) if won != -2 else None
    wins = 0
    for k, base in enumerate(bases):
        if results[k] is not None:
            wins += results[k] or 0
            continue
        w = cond_world(base, *judged)
        if w.status == 0:
            wins += rollout_cond(w)
    return float(wins)
