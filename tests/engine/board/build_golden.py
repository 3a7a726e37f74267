"""Rebuilds the regression records of golden/ (run by hand: ``python tests/engine/board/build_golden.py``).

Each record is one game of random bots in every seat (the random bot plays more kinds of cards than the
heuristic), seeded as its name says; test_records.py replays each to the same record. Rebuild them when a rule
is corrected on purpose, and say which rule in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from crewkit.families.not_alone.board import new_board_game
from crewkit.families.not_alone.bots import side_bots
from crewkit.families.not_alone.family import play_board_game
from crewkit.families.not_alone.record import board_record

HERE = Path(__file__).parent / "golden"
GAMES = [  # (file, rule set, players, seed)
    ("not-alone-3p", "not-alone", 3, "golden-3"),
    ("not-alone-6p", "not-alone", 6, "golden-6"),
    ("not-alone-advanced-2p", "not-alone-advanced", 2, "golden-2"),
]


def main() -> None:
    for name, ruleset, players, seed in GAMES:
        game = new_board_game(ruleset, players, seed=seed)
        play_board_game(game, side_bots(game, "random", seed))
        record = board_record(game)
        (HERE / f"{name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        cards = sorted({a["card"] for a in record["actions"] if a.get("card")})
        print(f"{name}: {len(record['actions'])} actions, {record['reason']}; cards played: {', '.join(cards)}")


if __name__ == "__main__":
    main()
