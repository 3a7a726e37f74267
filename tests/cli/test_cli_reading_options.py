"""A broken alternative reading: refused by `validate` without being picked, and with the same position when
a command picks it (never a crash at game start)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.cli import main

BROKEN = Path(__file__).resolve().parents[2] / "tests" / "broken"


def test_picking_a_broken_reading_is_refused_with_its_position(capsys: pytest.CaptureFixture[str]) -> None:
    path = BROKEN / "sem-reading-ruleset-bad-card.yaml"
    assert main(["simulate", "--ruleset", str(path), "--mission", "planet-nine/01", "--games", "1"]) == 0
    capsys.readouterr()
    code = main(["simulate", "--ruleset", str(path), "--reading", "who-commands=pink", "--mission",
                 "planet-nine/01", "--games", "1"])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 1, text
    assert f"{path.name}:18:44: error: " in text
    assert "with reading 'who-commands' = 'pink': rocket has no card '9'" in text
    assert "Traceback" not in text
