"""Each command imports only the family it plays: a trick-taking solve imports nothing of the board family (Not
Alone's blocks, the effect vocabulary, the phase machine), a Not Alone game nothing of trick-taking (the solver,
the trick blocks, the trick-taking Game); a bundled mission whose schema check passed once is not checked again.

Each check runs in a fresh interpreter: ``sys.modules`` of the test process holds everything the suite imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BOARD_ONLY = ("crewkit.effects", "crewkit.families.not_alone", "crewkit.engine.machine")
TRICK_ONLY = ("crewkit.families.trick_taking",)  # its engine, bots, analyses, search, table
SOLVE = ["solve", "--mission", "planet-nine/10", "--players", "4", "--seed", "1"]
SIMULATE_NOT_ALONE = ["simulate", "--ruleset", "not-alone", "--players", "3", "--games", "2", "--seed", "1"]


def modules_after(argv: list[str], cache: Path | None = None) -> set[str]:
    """The modules imported by ``crewkit ARGV`` (run through :func:`crewkit.cli.main` in a fresh process)."""
    code = (
        "import json, sys\n"
        "from crewkit.cli import main\n"
        f"code = main({argv!r})\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    env = dict(os.environ, **({"CREWKIT_CACHE": str(cache)} if cache else {}))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    exit_code, modules = json.loads(out.stdout.strip().splitlines()[-1])
    assert exit_code == 0, out.stdout + out.stderr
    return set(modules)


def starting_with(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.startswith(prefixes))


def test_a_trick_taking_solve_imports_nothing_of_the_board_family() -> None:
    modules = modules_after(SOLVE)
    assert {"crewkit.families.trick_taking.solve.solver", "crewkit.families.trick_taking.engine.blocks.tricks"} <= modules  # it solved
    assert starting_with(modules, BOARD_ONLY) == []


def test_a_not_alone_simulation_imports_nothing_of_trick_taking() -> None:
    modules = modules_after(SIMULATE_NOT_ALONE)
    assert "crewkit.families.not_alone.blocks" in modules and "crewkit.engine.machine" in modules  # it did play
    assert starting_with(modules, TRICK_ONLY) == []


def test_a_bundled_mission_found_valid_once_skips_the_schema_and_jsonschema(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = modules_after(SOLVE, cache)
    assert "jsonschema" in first  # validated, and the verdict remembered
    assert list((cache / "valid-specs").iterdir())
    assert "jsonschema" not in modules_after(SOLVE, cache)
