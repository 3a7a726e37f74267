"""One rule every bot keeps: never win a teammate's task card while a legal card avoids it.

A seat following in a trick that holds an open task card of another seat (or that would hold one, the
card it plays included) does not take the lead of that trick when one of its legal cards leaves the lead
where it is: only the owner may win it, and a higher card only makes that harder. The leader of a trick
is not bound (leading a teammate's task card low, for its owner to win, is the usual way to hand it over).
"""

from __future__ import annotations

from crewkit.families.trick_taking.bots.sim import table_for
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import Observation


def takes_foreign_task(obs: Observation, card_id: int) -> bool:
    """Would playing ``card_id`` now make this seat the current winner of a trick holding another seat's
    open task card? (False for the leader of the trick.)"""
    cur = obs.current_trick
    if not cur:
        return False
    me = obs.seat
    foreign = 0
    for task in obs.tasks:
        if task.trick is None and task.owner is not None and task.owner != me:
            foreign |= task.card.bit
    mask = 1 << card_id
    for _, c in cur:
        mask |= c.bit
    if not mask & foreign:
        return False
    t = table_for(obs.rules)
    led = cur[0][1].suit
    keys = t.keys[(led.index if led is not None else -1) + 1]
    best = max(keys[c.id] for _, c in cur)
    return keys[card_id] > best


def safe_plays(obs: Observation, req: tuple[Play, ...]) -> tuple[Play, ...]:
    """``req`` without the plays that take a teammate's task card, unless every play does.

    The rule of :func:`takes_foreign_task` for every play at once: the trick, the teammates' open task cards
    and the card to beat are worked out once (the random bot asks this before every card it plays)."""
    cur = obs.current_trick
    if not cur or not obs.tasks:
        return req
    me = obs.seat
    foreign = 0
    for task in obs.tasks:
        if task.trick is None and task.owner is not None and task.owner != me:
            foreign |= task.card.bit
    if not foreign:
        return req
    trick = 0
    for _, c in cur:
        trick |= c.bit
    led = cur[0][1].suit
    keys = table_for(obs.rules).keys[(led.index if led is not None else -1) + 1]
    best = max(keys[c.id] for _, c in cur)
    keep = tuple(a for a in req if not ((trick | a.card.bit) & foreign and keys[a.card.id] > best))
    return keep or req
