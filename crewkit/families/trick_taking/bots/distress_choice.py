"""The distress signal, decided with a reason: whether to call it and in which direction, and which card to pass.

**Which card to pass** (:func:`pass_card_id`): the passable card whose loss hurts the passer's own open tasks
least and helps the receiver's open tasks most, measured by task affinity (:func:`knowledge._task_affinity`:
the task card itself, cards above it in its suit). The passer does not see the receiver's hand, so a card's help
is its affinity alone for each of the receiver's tasks. Then a card that leaves the passer void in its suit
(a void lets it discard task cards onto their owners' tricks or trump), then the lowest.

**When and which way** (:func:`weigh`): over worlds consistent with what the seat knows, each option (no
signal, left, right) is played out on the same worlds, every seat passing by the policy above. The signal is
called only when its gain pays the logbook's extra attempt (:data:`MAX_BASE`, :data:`MIN_GAIN`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from crewkit.cards import mask_ids
from crewkit.families.trick_taking.bots.conditions import cond_world, condition_setup, rollout_cond
from crewkit.families.trick_taking.bots.knowledge import Knowledge, _model_fits, _task_affinity, world_from
from crewkit.families.trick_taking.bots.sim import rollout, table_for
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.rules import Rules

# A success with the signal counts one attempt more in the logbook. At a success rate p a mission takes 1/p
# attempts on average, so the signal (rate q) is worth it when 1/q + 1 < 1/p. With p <= MAX_BASE and q at least
# twice p that always holds (1/(2p) + 1 <= 1/p for p <= 1/2); MIN_GAIN (in play-outs won, out of the worlds
# played) keeps a lucky world or two from calling it.
MAX_BASE = 0.5
MIN_GAIN = 0.25

DIRECTIONS = ("left", "right")


def receiver_of(n: int, seat: int, direction: str) -> int:
    """The neighbour ``seat`` passes to (no dummy seat: the play-outs do not weigh the signal with one)."""
    return (seat + (1 if direction == "left" else -1)) % n


def gain_table(rules: Rules, tasks: Sequence[int]) -> list[float]:
    """Per card id: how much it helps a hand that must win ``tasks`` (its affinity alone for each)."""
    t = table_for(rules)
    return [sum(_task_affinity(rules, 1 << c, x) for x in tasks) for c in range(t.n_cards)]


def pass_card_id(rules: Rules, hand: int, tasks: Sequence[tuple[int, int | None]], seat: int, to: int,
                 gain: Sequence[float] | None = None) -> int | None:
    """The card ``seat`` (holding ``hand``) passes to ``to``; ``tasks``: the open tasks as (card id, owner);
    ``gain``: :func:`gain_table` of ``to``'s tasks, if already known."""
    t = table_for(rules)
    cands = mask_ids(hand & ~rules.distress_excluded_mask)
    if not cands:
        return None
    if gain is None:
        gain = gain_table(rules, [c for c, o in tasks if o == to])
    # only a card of a task's suit (or a trump) changes the passer's affinity for it
    mine = [(x, t.suit_masks[t.suit[x]] | t.trump_mask, _task_affinity(rules, hand, x))
            for x, o in tasks if o == seat]

    def score(c: int) -> tuple[float, int, int, int]:
        bit = 1 << c
        loss = sum(base - _task_affinity(rules, hand & ~bit, x) for x, rel, base in mine if rel & bit)
        s = t.suit[c]
        void = 1 if s >= 0 and (hand & t.suit_masks[s]) == bit else 0
        return (gain[c] - loss, void, -t.rank[c], -c)

    return max(cands, key=score)


def passed_hands(rules: Rules, hands: Sequence[int], tasks: Sequence[tuple[int, int | None]],
                 direction: str, gains: Sequence[Sequence[float]] | None = None) -> list[int]:
    """The hands after every seat passed its card (:func:`pass_card_id`) to its neighbour in ``direction``;
    ``gains``: :func:`gain_table` per seat."""
    n = len(hands)
    out = list(hands)
    for s in range(n):
        to = receiver_of(n, s, direction)
        c = pass_card_id(rules, hands[s], tasks, s, to, gains[to] if gains is not None else None)
        if c is not None:
            out[s] &= ~(1 << c)
            out[to] |= 1 << c
    return out


def weigh(obs: Observation, rng: random.Random, worlds: int,
          sample: Callable[[Knowledge], list[int]] | None = None, native: Any = None) -> dict[str, int] | None:
    """Play-outs won per option (``"none"``, ``"left"``, ``"right"``) over the same sampled deals, and
    ``"worlds"``, how many (up to ``worlds``; without the directions when the signal cannot pay); None where the play-outs cannot judge the game (a dummy seat, cards unseen, a task without owner).
    ``native``: the fast bot's C decider (:func:`fastcore.native_decider`), which plays the same play-outs."""
    if obs.dummy_seat is not None or not _model_fits(obs) or any(t.owner is None for t in obs.tasks):
        return None
    know = Knowledge(obs)
    judged = condition_setup(obs) if obs.conditions else None
    if obs.conditions and judged is None:
        return None
    tasks = [(t.card.id, t.owner) for t in obs.tasks if t.trick is None]
    options = ("none", *[d for d in DIRECTIONS if d in obs.rules.distress_directions])
    wins = dict.fromkeys(options, 0)
    gains = [gain_table(obs.rules, [c for c, o in tasks if o == s]) for s in range(obs.players)]
    head: list[int] = []
    program = None
    cond_tail: list[int] = []
    if native is not None:
        from crewkit.families.trick_taking.bots.condcode import native_program, trick_tail
        from crewkit.families.trick_taking.bots.conditions import goal_tail
        from crewkit.families.trick_taking.bots.sim import token_kind

        head = [obs.players, obs.leader, obs.total_tricks - len(obs.tricks), 0, len(obs.tasks)]
        for task in obs.tasks:
            head += [task.card.bit, task.owner if task.owner is not None else -1, *token_kind(task.token),
                     int(task.trick is None)]
        head.append(sum(1 for task in obs.tasks if task.trick is not None))
        if judged is not None:
            program = native_program(native._lib, judged[0])[0]
            if program is None:
                native = None
            else:
                cond_tail = trick_tail(judged[1], judged[2], goal_tail(judged))
    def play(h: list[int]) -> int:
        if native is not None:
            won = (native.rollout([*head, *h]) if program is None
                   else native.rollout_cond(program, [*head, *h, *cond_tail]))
            if won != -2:  # -2: a condition C leaves to Python
                return max(0, int(won))
        w: Any = world_from(obs, list(h))
        if judged is not None:
            w = cond_world(w, *judged)
            return rollout_cond(w) if w.status == 0 else 0
        return rollout(w)

    # first without the signal: once it wins more than MAX_BASE of the worlds the signal cannot be called, and
    # the directions are not played out (most games: the cost stays small)
    deals: list[list[int]] = []
    for _ in range(worlds):
        hands = sample(know) if sample is not None else know.sample(rng)
        deals.append(hands)
        wins["none"] += play(hands)
        if wins["none"] > MAX_BASE * worlds:
            return {"worlds": len(deals), "none": wins["none"]}
    for o in options[1:]:
        for hands in deals:
            wins[o] += play(passed_hands(obs.rules, hands, tasks, o, gains))
    return {"worlds": len(deals), **wins}


def decide(wins: dict[str, int]) -> str | None:
    """The direction to call, or None (``wins``: :func:`weigh`'s): the best direction only when the play-outs'
    success without the signal is at most :data:`MAX_BASE`, with it at least doubles, and gains at least
    :data:`MIN_GAIN`."""
    worlds = wins.get("worlds", 0)
    dirs = [d for d in DIRECTIONS if d in wins]
    if not dirs or worlds <= 0:
        return None
    best = max(dirs, key=lambda d: (wins[d], -DIRECTIONS.index(d)))
    base, got = wins["none"] / worlds, wins[best] / worlds
    if base <= MAX_BASE and got >= 2 * base and got - base >= MIN_GAIN:
        return best
    return None
