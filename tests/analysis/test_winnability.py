"""crewkit winnability: winnable share per task count, free draft and fixed owners, tiny samples."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

from crewkit import cli
from crewkit.analysis import winnability as win_mod
from crewkit.analysis.stats import wilson_interval
from crewkit.families.trick_taking.analysis import winnability as tt_win
from crewkit.families.trick_taking.solve import solve


def test_parse_tasks() -> None:
    assert win_mod.parse_tasks("1-4") == [1, 2, 3, 4]
    assert win_mod.parse_tasks("12, 4,8") == [4, 8, 12]
    assert win_mod.parse_tasks("1-3,2-5,20") == [1, 2, 3, 4, 5, 20]
    for bad in ("", "x", "4-2", "0-3", "1-", "3-x"):
        with pytest.raises(ValueError):
            win_mod.parse_tasks(bad)


def test_free_and_fixed_deals_share_the_cards() -> None:
    rules = tt_win.shaped_rules("crew", "planet-nine/10", 4, 6)
    free = tt_win.deal(rules, "s", 6, 3, "free")
    fixed = tt_win.deal(rules, "s", 6, 3, "fixed")
    assert free.phase == "draft" and fixed.phase == "tricks"
    assert free.hands == fixed.hands and [t.card for t in free.tasks] == [t.card for t in fixed.tasks]
    assert all(t.token is None for t in fixed.tasks) and len(fixed.tasks) == 6
    with pytest.raises(win_mod.TooManyTasks):
        tt_win.shaped_rules("crew", "planet-nine/10", 4, 37)


def test_rows_count_every_deal_with_wilson_intervals() -> None:
    result = win_mod.winnability([2, 12], 3, seed="t", timeout=20)
    assert [(r.tasks, r.draft) for r in result.rows] == [(2, "free"), (2, "fixed"), (12, "free"), (12, "fixed")]
    for r in result.rows:
        assert r.winnable + r.unwinnable + r.unknown == 3
        if r.decided:
            assert r.interval == wilson_interval(r.winnable, r.decided)
    # a free draft can do whatever the fixed owners can: never a smaller winnable count on the same deals
    by = {(r.tasks, r.draft): r for r in result.rows}
    for k in (2, 12):
        if not by[k, "free"].unknown and not by[k, "fixed"].unknown:
            assert by[k, "free"].winnable >= by[k, "fixed"].winnable
    # each row's verdicts are the solver's on the documented seeds
    rules = tt_win.shaped_rules("crew", "planet-nine/10", 4, 12)
    fixed = [solve(tt_win.deal(rules, "t", 12, i, "fixed"), timeout=20).status for i in range(3)]
    assert by[12, "fixed"].winnable == fixed.count("winnable")
    text = result.format_text()
    assert "95% interval" in text and "undecided" in text and "█" in text


def test_cli_json_csv_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["winnability", "--tasks", "3-4", "--deals", "2", "--draft", "free", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["tasks"] for row in data["rows"]] == [3, 4]
    assert {row["draft"] for row in data["rows"]} == {"free"}
    assert all(row["winnable"] + row["unwinnable"] + row["undecided"] == 2 for row in data["rows"])
    assert cli.main(["winnability", "--tasks", "3", "--deals", "2", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["tasks"], r["draft"]) for r in rows] == [("3", "free"), ("3", "fixed")]
    assert cli.main(["winnability", "--tasks", "2", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "winnable share" in out and "fixed" in out


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["winnability", "--tasks", "4-x", "--deals", "1"]) == 2
    assert "--tasks" in capsys.readouterr().err
    assert cli.main(["winnability", "--tasks", "40", "--deals", "1"]) == 2
    assert "36 task cards" in capsys.readouterr().err
    # counts above the task cards are skipped with a note, the rest is measured
    assert cli.main(["winnability", "--tasks", "36-40", "--deals", "1", "--draft", "free", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "37-40 skipped" in captured.err
    assert [row["tasks"] for row in json.loads(captured.out)["rows"]] == [36]
    assert cli.main(["winnability", "--tasks", "3", "--deals", "1", "--plot", "chart.txt"]) == 2


def test_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                 tmp_path: Path) -> None:
    # None in sys.modules makes `import matplotlib` raise ImportError, as on a machine without it
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "out.svg"
    assert cli.main(["winnability", "--tasks", "3", "--deals", "1", "--plot", str(out)]) == 1
    err = capsys.readouterr().err
    assert 'pip install "crewkit[plot]"' in err and 'pip install ".[plot]"' in err  # the checkout's command too
    assert not out.exists()


def test_readme_command_table_names_the_plot_extra() -> None:
    """Issue 30: the README's command table did not say that --plot needs the plot extra."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `crewkit winnability"))
    assert 'pip install ".[plot]"' in row


def test_plot_draws_both_curves(tmp_path: Path) -> None:
    # matplotlib comes with the dev extra: this draws a real chart
    result = win_mod.winnability([2, 3], 1, seed="plot", timeout=20)
    out = tmp_path / "curve.svg"
    win_mod.plot(result, str(out))
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text and "free draft" in text and "fixed owners" in text


def test_workers_give_the_same_rows() -> None:
    one = win_mod.winnability([4], 3, seed="w", timeout=30, drafts=("fixed",))
    two = win_mod.winnability([4], 3, seed="w", timeout=30, drafts=("fixed",), workers=2)
    assert two.workers == 2
    assert [r.to_json()["winnable"] for r in one.rows] == [r.to_json()["winnable"] for r in two.rows]
