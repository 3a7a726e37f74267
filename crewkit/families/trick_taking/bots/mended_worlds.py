"""Worlds that meet every answer of the setup's questions ("who wants this task?"), for the expert commander's
hand-out (:func:`~crewkit.families.trick_taking.bots.choices.give_task`) and the worlds the expert solves at a card
(``ExpertBot.answer_repair``).

:func:`~crewkit.families.trick_taking.bots.choices.consistent_sample` keeps the best of a few plain draws; with
seven tasks and three seats answering each, a plain draw meets every answer almost never by the fifth task, so
the play-outs and searches judged hands the answers rule out. Here a draw is mended instead: cards swapped between
two other seats while the answers met do not fall.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewkit.cards import mask_ids
from crewkit.families.trick_taking.engine.observation import Observation


def played_by(obs: Observation) -> list[int]:
    """Per seat: the cards it has played (its hand when it answered the setup's questions held them)."""
    out = [0] * obs.players
    for trick in obs.tricks:
        for s, c in trick.plays:
            out[s] |= c.bit
    for s, c in obs.current_trick:
        out[s] |= c.bit
    return out


def since_answers(obs: Observation) -> tuple[list[int], list[int]]:
    """Per seat, what this seat knows of how its hand changed since it answered the setup's questions: the cards
    it held then and no longer holds (played, or passed to this seat in the distress signal) and the cards it
    holds now and did not then (passed to it by this seat). Its hand then is ``hand | gone & ~came``."""
    gone = played_by(obs)
    came = [0] * obs.players
    me = obs.seat
    for giver, to, c in obs.passes_seen:
        if to == me:
            gone[giver] |= c.bit
        elif giver == me:
            came[to] |= c.bit
    return gone, came


def repaired_sample(know: Any, obs: Observation, rng: Any, checks: Sequence[Any], steps: int) -> list[int]:
    """A world in which the other seats' hands give the answers they gave: a draw from ``know`` whose hands are
    then mended by swapping cards between two other seats (the seats' known cards and voids kept) while the
    answers met do not fall, up to ``steps`` swaps. With many answers (seven tasks, three seats each) a plain
    draw meets them all almost never; the swaps reach such a world in a few dozen steps."""
    hands = list(know.sample(rng))
    if not checks:
        return hands
    gone, came = since_answers(obs)
    by_seat: dict[int, list[Any]] = {}
    for seat, predict, given in checks:
        by_seat.setdefault(seat, []).append((predict, given))

    def met(seat: int, hand: int) -> int:
        then = (hand | gone[seat]) & ~came[seat]
        return sum(1 for predict, given in by_seat.get(seat, ()) if predict(then) in (None, given))

    seats = [s for s in range(know.n) if s != know.seat and know.need[s] > 0]
    if len(seats) < 2:
        return hands
    score = {s: met(s, hands[s]) for s in seats}
    total = {s: len(by_seat.get(s, ())) for s in seats}
    for _ in range(steps):
        short = [s for s in seats if score[s] < total[s]]
        if not short:
            break
        a = short[rng.randrange(len(short))]
        b = seats[rng.randrange(len(seats) - 1)]
        if b == a:
            b = seats[-1]
        free_a = [c for c in mask_ids(hands[a] & ~know.known[a]) if not know.void[b] >> c & 1]
        free_b = [c for c in mask_ids(hands[b] & ~know.known[b]) if not know.void[a] >> c & 1]
        if not free_a or not free_b:
            continue
        ca, cb = free_a[rng.randrange(len(free_a))], free_b[rng.randrange(len(free_b))]
        ha = hands[a] & ~(1 << ca) | 1 << cb
        hb = hands[b] & ~(1 << cb) | 1 << ca
        sa, sb = met(a, ha), met(b, hb)
        if sa + sb >= score[a] + score[b]:
            hands[a], hands[b], score[a], score[b] = ha, hb, sa, sb
    return hands

