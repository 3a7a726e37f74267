"""The perfect-information solver: can the crew still win with every hand known, and how?

>>> from crewkit.families.trick_taking.engine.setup import new_game
>>> from crewkit.families.trick_taking.solve import solve
>>> result = solve(new_game("crew", "planet-nine/01", 4, seed="doc"), timeout=10)
>>> result.status in ("winnable", "unwinnable")
True
"""

from crewkit.families.trick_taking.solve.core import SearchAborted, TrickSearch
from crewkit.families.trick_taking.solve.line import action_words, line_rows, seat_names
from crewkit.families.trick_taking.solve.reference import EngineSearch, brute_force
from crewkit.families.trick_taking.solve.solver import (
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    SolveResult,
    replays_to_success,
    solve,
)

__all__ = [
    "UNKNOWN",
    "UNWINNABLE",
    "WINNABLE",
    "EngineSearch",
    "SearchAborted",
    "SolveResult",
    "TrickSearch",
    "action_words",
    "brute_force",
    "line_rows",
    "replays_to_success",
    "seat_names",
    "solve",
]
