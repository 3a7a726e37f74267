"""Builds golden records for the special missions (run by hand: `python tests/records/build_mission_records.py`).

For each special mission: one game ending in success and one ending in failure for the mission's own special
reason. Successes are found by a depth-first search over the engine (the engine's earliest-failure detection
prunes it), failures by random play. The expected outcome and reason of each record are written by hand in
`missions/expected.yaml`; the test replays every record, compares, and judges each finished game again with the
independent referee (tests/referee.py).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from crewkit.families.trick_taking.engine.blocks.communication import Communicate, true_statements
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.setup import new_game

HERE = Path(__file__).parent / "missions"
OPTIONAL = (Communicate, Distress, HandTask)

# mission -> (players, fragment of the special failure reason)
SPECIAL = {
    "05": (4, "the sick crew member"),
    "09": (4, "every colour 1 has been played"),
    "11": (4, None),
    "12": (4, None),
    "13": (4, "two rockets fell in the same trick"),
    "16": (4, "was won by"),
    "17": (4, "was won by"),
    "23": (4, "task order broken"),
    "26": (4, "too few colour 1s"),
    "29": (4, "two tricks more than another"),
    "33": (4, "the volunteer"),
    "34": (4, "the commander did not win"),
    "40": (3, "task order broken"),
    "41": (4, "the chosen player"),
    "44": (4, "ascending order"),
    "46": (4, "not to the collector"),
    "48": (4, "before the last trick"),
    "50": (3, "opener"),
}


def required(game: Game) -> list:
    return [a for a in game.legal_actions() if not isinstance(a, OPTIONAL)]


def search(game: Game, rng: random.Random, budget: list[int]) -> Game | None:
    if game.is_over():
        return game if game.outcome().result == "success" else None
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    actions = required(game)
    rng.shuffle(actions)
    for action in actions:
        child = game.clone()
        child.apply(action)
        found = search(child, rng, budget)
        if found is not None:
            return found
    return None


def random_failure(mission: str, players: int, fragment: str | None) -> Game | None:
    for i in range(3000):
        game = new_game("crew", f"planet-nine/{mission}", players, seed=f"fail-{i}")
        rng = random.Random(i)
        while not game.is_over():
            game.apply(rng.choice(required(game)))
        out = game.outcome()
        if out.result == "failure" and (fragment is None or fragment in out.reason):
            return game
    return None


def build(only: list[str]) -> None:
    sys.setrecursionlimit(10_000)
    for mission, (players, fragment) in SPECIAL.items():
        if only and mission not in only:
            continue
        won = None
        for i in range(200):
            game = new_game("crew", f"planet-nine/{mission}", players, seed=f"win-{i}")
            won = search(game, random.Random(i), [4000])
            if won is not None:
                break
        lost = random_failure(mission, players, fragment)
        for tag, game in (("success", won), ("failure", lost)):
            if game is None:
                print(f"{mission}: no {tag} found")
                continue
            record = game_to_record(game)
            for key in ("outcome", "reason", "result"):
                record.pop(key, None)
            (HERE / f"{mission}-{tag}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            print(f"{mission}-{tag}: {game.outcome().reason}")


def build_silenced() -> None:
    """Mission 11: the silenced player tries to communicate right after the draft (refused)."""
    game = new_game("crew", "planet-nine/11", 4, seed="silenced")
    rng = random.Random(0)
    while game.phase != "tricks":
        game.apply(rng.choice(required(game)))
    silent = game.roles["silent"]
    card = next(c for c in game.hand(silent) if not c.is_trump and true_statements(game, silent, c))
    statement = true_statements(game, silent, card)[0]
    record = game_to_record(game)
    for key in ("outcome", "reason", "result"):
        record.pop(key, None)
    record["actions"].append({"seat": silent, "type": "communicate", "card": card.name, "position": statement})
    (HERE / "11-illegal-silenced.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"11-illegal-silenced: seat {silent} communicates {card} ({statement})")


if __name__ == "__main__":
    build(sys.argv[1:])
    if not sys.argv[1:] or "11" in sys.argv[1:]:
        build_silenced()
