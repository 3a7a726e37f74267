"""The analysis reads Mission Deep Sea: ``crewkit check --campaign deep-sea --players 4`` prints the curve of the
32 missions with the solver's winnable share beside the bots' success, and ``crewkit winnability`` measures
the winnable share by difficulty total."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.analysis import winnability as win_mod
from crewkit.families.trick_taking.analysis import winnability as tt_win

ROOT = Path(__file__).resolve().parents[2]


def crewkit(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "crewkit", *argv], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=1200)


def test_check_prints_the_curve_of_the_campaign_with_the_winnable_share() -> None:
    proc = crewkit("check", "--campaign", "deep-sea", "--players", "4", "--games", "1", "--solver-nodes", "2000")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "campaign deep-sea (Mission Deep Sea)" in out
    assert "bot success (95%)" in out and "winnable (95%)" in out
    rows = [line for line in out.splitlines() if line.strip().startswith("deep-sea/") and "%" in line]
    assert len(rows) == 32
    assert "difficulty curve" in out


def test_the_default_mission_of_winnability_follows_the_rule_set() -> None:
    assert win_mod.default_mission("crew") == "planet-nine/10"
    assert win_mod.default_mission("crew-deep-sea") == "deep-sea/01"
    rules = tt_win.shaped_rules("crew-deep-sea", "deep-sea/01", 4, 7)
    assert rules.task_draw.difficulty == 7 and rules.mission_id.endswith("~difficulty-7")
    with pytest.raises(win_mod.WinnabilityError, match="setup steps come before the draft"):
        tt_win.shaped_rules("crew-deep-sea", "deep-sea/14", 4, 6)
    with pytest.raises(win_mod.TooManyTasks):
        tt_win.shaped_rules("crew-deep-sea", "deep-sea/01", 4, 10_000)


def test_winnability_by_difficulty_total() -> None:
    result = win_mod.winnability([1, 3], 2, ruleset="crew-deep-sea", mission="deep-sea/01", players=4,
                                 timeout=20, seed="w")
    assert result.unit == "difficulty"
    assert [(r.tasks, r.draft) for r in result.rows] == [(1, "free"), (1, "fixed"), (3, "free"), (3, "fixed")]
    assert all(r.decided + r.unknown == 2 for r in result.rows)
    text = result.format_text(chart=False)
    assert "task cards drawn by difficulty" in text and "diff." in text
    assert result.to_json()["unit"] == "difficulty"
    game = tt_win.deal(tt_win.shaped_rules("crew-deep-sea", "deep-sea/01", 4, 3), "w", 3, 0, "fixed")
    assert all(t.owner is not None for t in game.task_cards)
    deck = game.rules.task_deck
    assert sum(deck.card(t.id).difficulty for t in game.task_cards) == 3
