"""Builds the golden records of issue 11 items 5-8 (run by hand: `python tests/records/build_rules_records.py`).

Hammer's `ten-leads` reading, a penalty round settled before the hands run out, the record's first dealer, and
explicit deals the rule set cannot deal. Hand-made deals and actions; the expected results are written by hand
in `expected.yaml` (worked out in the comments below), never derived from the engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from build_records import ALL, play
from build_records import deal as crew_deal

HERE = Path(__file__).parent


def hammer(hands: list[list[str]], actions: list[dict[str, Any]], readings: dict[str, str] | None = None,
           dealer: int = 0, mission: str = "hammer") -> dict[str, Any]:
    out: dict[str, Any] = {"format": "crewkit-record/1", "ruleset": "hammer", "mission": mission, "players": 4,
                           "seed": "golden"}
    out["readings"] = {"dealer-start": "chosen", **(readings or {})}
    out["dealer"] = dealer
    out["deal"] = {"hands": hands, "tasks": []}
    out["actions"] = actions
    return out


def choose(seat: int, mission: str, mode: str) -> dict[str, Any]:
    return {"seat": seat, "type": "choose-mission", "mission": mission, "mode": mode}


def colours(suit: str, ranks: range | list[int]) -> list[str]:
    return [f"{suit} {r}" for r in ranks]


# seat 0 red 1 + blue 1-8; seat 1 red 2-9 + blue 9; seat 2 every yellow; seat 3 every green
SUIT_HANDS = [["red 1", *colours("blue", range(1, 9))], [*colours("red", range(2, 10)), "blue 9"],
              colours("yellow", range(1, 10)), colours("green", range(1, 10))]
# for a 10 led in trick 2: the dealer (seat 0) wins trick 1 with red 9, then leads the 10 it adds in challenge mode
TEN_HANDS = [["red 9", "red 8", *colours("blue", range(1, 8))], [*colours("red", range(1, 8)), "blue 8", "yellow 9"],
             [*colours("yellow", range(1, 9)), "blue 9"], colours("green", range(1, 10))]
TEN_TRICKS = [play(0, "red 9"), play(1, "red 1"), play(2, "yellow 1"), play(3, "green 1"),  # seat 0 wins
              play(0, "10"), play(1, "yellow 9")]


def build() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    no_suit = {"ten-leads": "no-suit"}
    # item 5: under ten-leads=no-suit a trick led by a colour is an ordinary trick: must follow, led colour wins
    out["hammer-no-suit-must-follow"] = hammer(SUIT_HANDS, [
        choose(0, "hammer/01", "penalty"), play(0, "red 1"), play(1, "blue 9")], no_suit)  # seat 1 holds red
    out["hammer-no-suit-led-colour-wins"] = hammer(SUIT_HANDS, [
        choose(0, "hammer/01", "penalty"), play(0, "red 1"), play(1, "red 9"), play(2, "yellow 1"),
        play(3, "green 1")], no_suit)  # red 9 wins, not the leader's red 1
    # only the trick the 10 leads has no colour: seat 2 holds yellow yet plays blue 9 after yellow 9; trick 3 is
    # led blue 1 and won by seat 1's blue 8
    out["hammer-no-suit-ten-leads"] = hammer(TEN_HANDS, [
        choose(0, "hammer/05", "challenge"), *TEN_TRICKS, play(2, "blue 9"), play(3, "green 2"),
        play(0, "blue 1"), play(1, "blue 8"), play(2, "yellow 2"), play(3, "green 3")], no_suit)
    # the default reading: the first coloured card after the 10 (yellow 9) sets the colour; seat 2 must follow
    out["hammer-next-card-ten-leads"] = hammer(TEN_HANDS, [
        choose(0, "hammer/05", "challenge"), *TEN_TRICKS, play(2, "blue 9")])
    # item 6: mission 2 in penalty mode; every red card is out after trick 3, so the round is scored at once
    reds = [["red 1", "red 2", "red 3", *colours("blue", range(1, 7))],
            ["red 7", "red 5", "red 6", *colours("blue", range(7, 10)), *colours("yellow", range(1, 4))],
            ["red 4", "red 8", "red 9", *colours("yellow", range(4, 10))], colours("green", range(1, 10))]
    tricks = [play(0, "red 1"), play(1, "red 7"), play(2, "red 4"), play(3, "green 1"),  # seat 1: 3 reds
              play(1, "red 5"), play(2, "red 8"), play(3, "green 2"), play(0, "red 2"),  # seat 2: 3 reds
              play(2, "red 9"), play(3, "green 3"), play(0, "red 3"), play(1, "red 6")]  # seat 2: 3 reds
    out["hammer-penalty-settles-early"] = hammer(reds, [choose(0, "hammer/02", "penalty"), *tricks])
    out["hammer-penalty-no-play-after-settling"] = hammer(reds, [choose(0, "hammer/02", "penalty"), *tricks,
                                                                 play(2, "yellow 4")])
    # item 7: the record's first dealer. Chosen: seat 2 deals and leads. Random: the seed "golden" draws seat 1,
    # so a record naming seat 3 is refused.
    out["hammer-dealer-chosen"] = hammer(SUIT_HANDS, [
        choose(2, "hammer/01", "penalty"), play(2, "yellow 1"), play(3, "green 1"), play(0, "blue 1"),
        play(1, "blue 9")], dealer=2)
    random_start = hammer(SUIT_HANDS, [choose(3, "hammer/01", "penalty")], dealer=3)
    del random_start["readings"]
    out["hammer-dealer-not-drawn"] = random_start
    # item 8: explicit deals the rule set cannot deal
    uneven = [list(h) for h in SUIT_HANDS]
    uneven[0].append(uneven[1].pop())  # 10 and 8 cards
    out["deal-hammer-uneven-hands"] = hammer(uneven, [choose(0, "hammer/01", "penalty")])
    ten = [list(h) for h in SUIT_HANDS]
    ten[1][-1] = "10"  # the 10 is never dealt (blue 9 goes missing)
    out["deal-hammer-ten-dealt"] = hammer(ten, [choose(0, "hammer/01", "penalty")])
    persian = crew_deal(4, {}, [10, 10, 10, 10])
    out["deal-persian-nothing-aside"] = {
        "format": "crewkit-record/1", "ruleset": "crew-persian", "mission": "persian", "players": 4, "seed": "golden",
        "deal": {"hands": persian, "secret_tasks": [["persian/01"], ["persian/02"], ["persian/03"], ["persian/04"]]},
        "actions": []}
    aside = crew_deal(4, {}, [8, 8, 8, 8])  # the first 32 cards in deck order; the last 8 are set aside
    leftover = ALL[32:39] + [ALL[32]]  # ... but one of them twice and another missing
    out["deal-persian-duplicate-set-aside"] = {
        "format": "crewkit-record/1", "ruleset": "crew-persian", "mission": "persian", "players": 4, "seed": "golden",
        "deal": {"hands": aside, "set_aside": leftover,
                 "secret_tasks": [["persian/01"], ["persian/02"], ["persian/03"], ["persian/04"]]},
        "actions": []}
    # JARVIS: rocket 4 is held out of the dummy's columns (the real player holding it commands)
    columns_up = ["rocket 4", *ALL[8:14]]
    rest = [c for c in ALL if c not in ALL[:14] and c != "rocket 4"] + [ALL[7]]
    out["deal-jarvis-rocket-4-in-column"] = {
        "format": "crewkit-record/1", "ruleset": "crew-jarvis", "mission": "planet-nine/01", "players": 2,
        "seed": "golden", "readings": {"jarvis-seat": "fixed"},
        "deal": {"hands": [rest[:13], rest[13:]], "tasks": ["pink 1"],
                 "dummy": {"face_down": [[c] for c in ALL[:7]], "face_up": [[c] for c in columns_up]}},
        "actions": []}
    three = crew_deal(3, {0: ["rocket 4"]}, [15, 12, 13])
    out["deal-crew-uneven-hands"] = {
        "format": "crewkit-record/1", "ruleset": "crew", "mission": "planet-nine/01", "players": 3, "seed": "golden",
        "deal": {"hands": three, "tasks": ["pink 1"]}, "actions": []}
    return out


def main() -> None:
    for name, rec in build().items():
        (HERE / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
