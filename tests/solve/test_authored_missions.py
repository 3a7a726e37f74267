"""The held-out missions of ``benchmarks/authored/`` (issue 47): written as an author would (trick order,
counts, "before"/"after"), measured by ``python benchmarks/solver_conditions.py --authored``. Every file
validates, and on a few of the check's deals the solver decides it at the check's budget (a win replays)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.cli import main
from crewkit.families.trick_taking.analysis import check
from crewkit.families.trick_taking.solve import UNKNOWN, WINNABLE, replays_to_success, solve
from crewkit.games import family_for

AUTHORED = Path(__file__).resolve().parents[2] / "benchmarks" / "authored"
FILES = sorted(AUTHORED.glob("*.yaml"))


def test_the_authored_folder_holds_ten_or_more_missions() -> None:
    assert len(FILES) >= 10


def test_every_authored_mission_validates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *map(str, FILES)]) == 0
    assert f"{len(FILES)} files checked: all valid" in capsys.readouterr().out


# 14 (the last trick won by a colour 1) leaves most deals undecided at 3 and 4 players (docs/performance.md)
PLAYERS = {"14-last-by-a-one": 5}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_check_deal_is_decided_and_some_are_won(path: Path) -> None:
    """Deals ``check:0`` and ``check:1`` (4 players unless said), as the check solves them: decided, a win
    replays."""
    family = family_for("crew")
    won = 0
    for i in range(2):
        game = family.open("crew", str(path), PLAYERS.get(path.stem, 4), f"check:{i}").engine
        result = solve(game, max_nodes=20_000, native_weight=check.SOLVER_NATIVE_WEIGHT)
        assert result.status != UNKNOWN
        if result.status == WINNABLE:
            won += 1
            assert replays_to_success(game, result.line)
    assert won
