"""A failed attempt for the review's tests: planet-nine/10 at 4 players, played by the fast bots."""

from __future__ import annotations

import json
from pathlib import Path

from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game


def lost_game(tag: str = "line", mission: str = "planet-nine/10") -> Game:
    for k in range(40):
        game = new_game("crew", mission, 4, f"{tag}:{k}")
        play_game(game, [make_bot("fast", s, f"{tag}:{k}") for s in range(4)])
        if game.outcome().result != "success":
            return game
    raise AssertionError("no failed game in 40 deals")


def lost_record(folder: Path, tag: str = "line") -> Path:
    """A failed attempt's record file in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"lost-{tag}.json"
    path.write_text(json.dumps(game_to_record(lost_game(tag))))
    return path
