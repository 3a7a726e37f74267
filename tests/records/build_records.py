"""Builds the golden records in this folder (run by hand: `python tests/records/build_records.py`).

Each record is a hand-made deal plus actions that exercise one rule, legal or illegal. The expected result of
each record is written by hand in `expected.yaml`, not derived from the engine: the test replays every record
and compares.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SUITS = ["blue", "green", "yellow", "pink"]
ALL = [f"{s} {r}" for s in SUITS for r in range(1, 10)] + [f"rocket {r}" for r in range(1, 5)]


def deal(players: int, fixed: dict[int, list[str]], sizes: list[int] | None = None) -> list[list[str]]:
    """Hands with the fixed cards placed, the rest of the deck filled in deck order."""
    sizes = sizes or {3: [14, 13, 13], 4: [10] * 4, 5: [8] * 5}[players]
    hands = [list(fixed.get(s, [])) for s in range(players)]
    used = {c for h in hands for c in h}
    rest = [c for c in ALL if c not in used]
    for seat in range(players):
        while len(hands[seat]) < sizes[seat]:
            hands[seat].append(rest.pop(0))
    return hands


def record(mission: str, players: int, hands: list[list[str]], tasks: list[str], actions: list[dict[str, Any]],
           ruleset: str = "crew") -> dict[str, Any]:
    return {"format": "crewkit-record/1", "ruleset": ruleset, "mission": mission, "players": players,
            "seed": "golden", "deal": {"hands": hands, "tasks": tasks}, "actions": actions}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


def take(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "take-task", "card": card}


def comm(seat: int, card: str, position: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": "communicate", "card": card}
    if position:
        out["position"] = position
    return out


def build() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    # The seed's worked example: commander owns pink 1, leads pink 9; pink 5; no pink so yellow 2; pink 1.
    worked = deal(4, {0: ["rocket 4", "pink 9"], 1: ["pink 5"], 2: ["yellow 2", "blue 9", "green 9", "yellow 9",
                                                                    "blue 8", "green 8", "yellow 8", "blue 7",
                                                                    "green 7", "yellow 7"], 3: ["pink 1"]})
    out["worked-example"] = record("planet-nine/01", 4, worked, ["pink 1"], [
        take(0, "pink 1"), play(0, "pink 9"), play(1, "pink 5"), play(2, "yellow 2"), play(3, "pink 1")])

    # must follow: seat 3 holds pink 1 but plays a rocket
    out["illegal-must-follow"] = record("planet-nine/01", 4, worked, ["pink 1"], [
        take(0, "pink 1"), play(0, "pink 9"), play(1, "pink 5"), play(2, "yellow 2"), play(3, "rocket 1")])
    # not the commander's turn to draft
    out["illegal-draft-turn"] = record("planet-nine/01", 4, worked, ["pink 1"], [take(1, "pink 1")])
    # a task already taken
    two = deal(4, {0: ["rocket 4", "pink 9"], 1: ["pink 5"], 2: ["yellow 2"], 3: ["pink 1"]})
    out["illegal-task-taken"] = record("planet-nine/02", 4, two, ["pink 1", "blue 1"], [
        take(0, "pink 1"), take(1, "pink 1")])
    # a task card won by someone else: seat 1 owns pink 1 but the commander wins it
    out["failure-wrong-winner"] = record("planet-nine/02", 4, worked, ["blue 1", "pink 1"], [
        take(0, "blue 1"), take(1, "pink 1"), play(0, "pink 9"), play(1, "pink 5"), play(2, "yellow 2"),
        play(3, "pink 1")])
    # void in the led suit: a rocket trumps; seat 2 has no pink and plays rocket 3
    trump = deal(4, {0: ["rocket 4", "pink 9", "blue 1"], 1: ["pink 5"], 2: ["rocket 3", "blue 9", "green 9",
                                                                             "yellow 9", "blue 8", "green 8",
                                                                             "yellow 8", "blue 7", "green 7",
                                                                             "yellow 7"], 3: ["pink 1"]})
    out["rocket-trumps"] = record("planet-nine/01", 4, trump, ["pink 1"], [
        take(0, "pink 1"), play(0, "pink 9"), play(1, "pink 5"), play(2, "rocket 3"), play(3, "pink 1")])
    # communication: seat 1 holds green 1..9 (so green 9 is its highest, green 1 its lowest)
    greens = deal(4, {0: ["rocket 4", "pink 9", "pink 2"], 1: ["pink 5"] + [f"green {r}" for r in range(1, 10)],
                      2: ["yellow 2", "blue 9", "rocket 3"], 3: ["pink 1"]})
    base = [take(0, "pink 1")]
    out["communicate-top"] = record("planet-nine/01", 4, greens, ["pink 1"], base + [
        comm(1, "green 9", "top"), comm(2, "blue 9", "top"), play(0, "pink 9"), play(1, "pink 5"),
        play(2, "yellow 2"), play(3, "pink 1")])
    out["communicate-only"] = record("planet-nine/01", 4, greens, ["pink 1"], base + [comm(1, "pink 5", "only")])
    out["illegal-communicate-false"] = record("planet-nine/01", 4, greens, ["pink 1"], base + [
        comm(1, "green 5", "top")])
    out["illegal-communicate-rocket"] = record("planet-nine/01", 4, greens, ["pink 1"], base + [
        comm(2, "rocket 3", "top")])
    out["illegal-communicate-twice"] = record("planet-nine/02", 4, greens, ["pink 1", "pink 2"], [
        take(0, "pink 1"), take(1, "pink 2"), comm(1, "green 9", "top"), comm(1, "green 1", "bottom")])
    out["illegal-communicate-in-trick"] = record("planet-nine/02", 4, greens, ["pink 1", "green 3"], [
        take(0, "pink 1"), take(1, "green 3"), play(0, "pink 2"), comm(1, "green 9", "top")])
    out["illegal-communicate-before-draft"] = record("planet-nine/02", 4, greens, ["pink 1", "green 3"], [
        take(0, "pink 1"), comm(1, "green 9", "top")])
    # dead zone (mission 6): position omitted is legal, a position is refused
    six = deal(4, {0: ["rocket 4", "pink 9", "pink 2"], 1: ["pink 5"] + [f"green {r}" for r in range(1, 10)],
                   2: ["yellow 2", "blue 9", "rocket 3"], 3: ["pink 1"]})
    out["dead-zone-communicate"] = record("planet-nine/06", 4, six, ["pink 1", "green 3", "blue 9"], [
        take(0, "pink 1"), take(1, "green 3"), take(2, "blue 9"), comm(1, "green 9", None)])
    out["illegal-dead-zone-position"] = record("planet-nine/06", 4, six, ["pink 1", "green 3", "blue 9"], [
        take(0, "pink 1"), take(1, "green 3"), take(2, "blue 9"), comm(1, "green 9", "top")])
    # disruption 2 (mission 18): no communication before trick 2
    out["illegal-disruption"] = record("planet-nine/18", 4, six,
                                       ["pink 1", "green 3", "blue 9", "yellow 2", "green 1"], [
        take(0, "pink 1"), take(1, "green 3"), take(2, "blue 9"), take(3, "yellow 2"), take(0, "green 1"),
        comm(1, "green 9", "top")])
    # distress: left, every seat passes a colour card
    out["distress-left"] = record("planet-nine/01", 4, worked, ["pink 1"], [
        take(0, "pink 1"), {"seat": 2, "type": "distress", "direction": "left"},
        {"seat": 0, "type": "pass-card", "card": "blue 1"}, {"seat": 1, "type": "pass-card", "card": "pink 5"},
        {"seat": 2, "type": "pass-card", "card": "yellow 2"}, {"seat": 3, "type": "pass-card", "card": "pink 2"},
        play(0, "pink 9"), play(1, "blue 1"), play(2, "pink 5"), play(3, "pink 1")])
    out["illegal-distress-rocket"] = record("planet-nine/01", 4, worked, ["pink 1"], [
        take(0, "pink 1"), {"seat": 2, "type": "distress", "direction": "right"},
        {"seat": 0, "type": "pass-card", "card": "rocket 4"}])
    out["illegal-distress-after-communication"] = record("planet-nine/01", 4, greens, ["pink 1"], base + [
        comm(1, "green 9", "top"), {"seat": 0, "type": "distress", "direction": "left"}])
    # tokens (mission 3: tokens 1 and 2): pink 1 (token 1) then blue 1 (token 2)
    tok = deal(4, {0: ["rocket 4", "pink 9", "blue 9"], 1: ["pink 5", "blue 5"], 2: ["pink 4", "blue 4"],
                   3: ["pink 1", "blue 1"]})
    t_in_order = [take(0, "pink 1"), take(1, "blue 1"), play(0, "pink 9"), play(1, "pink 5"), play(2, "pink 4"),
                  play(3, "pink 1")]
    out["tokens-in-order"] = record("planet-nine/03", 4, tok, ["pink 1", "blue 1"], t_in_order + [
        play(0, "blue 2"), play(1, "blue 5"), play(2, "blue 4"), play(3, "blue 1")])
    # token order broken: the task with token 2 (blue 1, seat 0) completes first
    out["tokens-broken"] = record("planet-nine/03", 4, tok, ["pink 1", "blue 1"], [
        take(0, "blue 1"), take(1, "pink 1"), play(0, "blue 9"), play(1, "blue 5"), play(2, "blue 4"),
        play(3, "blue 1")])
    # tokens 1 and 2 completed in one trick by seat 0 (3 players, mission 15: tokens 1-4)
    same = deal(3, {0: ["rocket 4", "pink 9"], 1: ["pink 4"], 2: ["pink 1"]})
    out["tokens-same-trick"] = record("planet-nine/15", 3, same, ["pink 1", "pink 4", "blue 1", "blue 4"], [
        take(0, "pink 1"), take(1, "blue 1"), take(2, "blue 4"), take(0, "pink 4"),
        play(0, "pink 9"), play(1, "pink 4"), play(2, "pink 1")])
    # omega completed first (mission 7: the first task carries omega)
    out["tokens-omega-broken"] = record("planet-nine/07", 4, tok, ["blue 1", "pink 1", "pink 5"], [
        take(0, "blue 1"), take(1, "pink 1"), take(2, "pink 5"), play(0, "blue 9"), play(1, "blue 5"),
        play(2, "blue 4"), play(3, "blue 1")])
    # arrows (mission 6: > on the first task, >> on the second): >> before > breaks the order
    out["tokens-arrow-broken"] = record("planet-nine/06", 4, tok, ["pink 1", "blue 1", "pink 5"], [
        take(0, "blue 1"), take(1, "pink 1"), take(2, "pink 5"), play(0, "blue 9"), play(1, "blue 5"),
        play(2, "blue 4"), play(3, "blue 1")])
    # arrows in order: > (blue 1 by seat 0) first, then >> later
    out["tokens-arrow-in-order"] = record("planet-nine/06", 4, tok, ["blue 1", "pink 1", "pink 5"], [
        take(0, "blue 1"), take(1, "pink 1"), take(2, "pink 5"), play(0, "blue 9"), play(1, "blue 5"),
        play(2, "blue 4"), play(3, "blue 1")])
    # 3 players: 14/13/13
    three = deal(3, {0: ["rocket 4", "pink 9"], 1: ["pink 5"], 2: ["pink 1"]})
    out["three-players"] = record("planet-nine/01", 3, three, ["pink 1"], [
        take(0, "pink 1"), play(0, "pink 9"), play(1, "pink 5"), play(2, "pink 1")])
    return out


if __name__ == "__main__":
    for name, rec in build().items():
        (HERE / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(build())} records")
