"""Builds token-order records for the token missions (run by hand: `python tests/records/build_token_records.py`).

For each mission, from seeded random play: `in-order` stops right after a trick in which a task with a token
was completed in its order; `same-trick` stops after a trick that completed two tasks whose tokens are
consecutive (1 and 2, > and >>, ...); `broken` ends in the failure "task order broken". The test replays each
and checks the token rule on the replayed game itself (see tests/engine/test_token_records.py).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.rules import ARROWS, NUMBERED
from crewkit.families.trick_taking.engine.setup import new_game

HERE = Path(__file__).parent / "tokens"
TOKEN_MISSIONS = ["03", "06", "08", "14", "15", "19", "21", "22", "23", "28", "30", "31", "35", "36", "39", "40",
                  "45", "48", "49"]
OPTIONAL = (Communicate, Distress, HandTask)


def order_rank(token: str) -> tuple[int, int]:
    if token in NUMBERED:
        return (0, int(token))
    if token in ARROWS:
        return (1, ARROWS.index(token) + 1)
    return (2, 99)


def consecutive_in_trick(game: Game, number: int) -> bool:
    done = sorted(order_rank(t.token) for t in game.tasks if t.token and t.trick == number)
    return any(a[0] == b[0] and b[1] == a[1] + 1 for a, b in zip(done, done[1:], strict=False))


def play_until(mission: str, players: int, want: str, tries: int = 4000) -> Game | None:
    for i in range(tries):
        game = new_game("crew", f"planet-nine/{mission}", players, seed=f"{want}-{i}")
        rng = random.Random(i)
        while not game.is_over():
            before = len(game.tricks)
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, OPTIONAL)]))
            if len(game.tricks) > before and game.outcome().result != "failure":
                number = len(game.tricks)
                if want == "in-order" and any(t.token and t.trick == number for t in game.tasks):
                    return game
                if want == "same-trick" and consecutive_in_trick(game, number):
                    return game
        if want == "broken" and "task order broken" in game.outcome().reason:
            return game
    return None


def main(only: list[str]) -> None:
    for mission in TOKEN_MISSIONS:
        if only and mission not in only:
            continue
        for want in ("in-order", "same-trick", "broken"):
            game = None
            for players in (3, 4, 5):
                game = play_until(mission, players, want)
                if game is not None:
                    break
            if game is None:
                print(f"{mission} {want}: none found")
                continue
            record = game_to_record(game)
            for key in ("outcome", "reason", "result"):
                record.pop(key, None)
            (HERE / f"{mission}-{want}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            print(f"{mission} {want}: {game.n} players, {game.outcome().reason}")


if __name__ == "__main__":
    main(sys.argv[1:])
