"""A failed attempt for the review's tests: planet-nine/10 at 4 players, played by the fast bots (seed line:1,
lost in trick 3), kept as a record so that no test plays it again."""

from __future__ import annotations

import shutil
from pathlib import Path

from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import replay_record

LOST = Path(__file__).parent / "lost-planet-nine-10.json"


def lost_game() -> Game:
    import json

    game = replay_record(json.loads(LOST.read_text())).game
    assert game is not None and game.is_over() and game.outcome().result == "failure"
    return game


def lost_record(folder: Path) -> Path:
    """A copy of the failed attempt's record in ``folder``, as ``lost-line.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(LOST, folder / "lost-line.json"))
