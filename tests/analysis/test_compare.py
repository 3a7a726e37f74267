"""crewkit compare: variant strings, paired deals, identical results for any number of workers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from crewkit.analysis.compare import (
    Variant,
    VariantError,
    compare,
    compare_campaign,
    parse_variant,
    text_bar,
)
from crewkit.cli import compare as commands
from crewkit.games import open_game

DEFAULTS = {"ruleset": "crew", "mission": "planet-nine/10", "players": 4, "bot": "random"}


def test_parse_variant_keys_aliases_and_defaults() -> None:
    v = parse_variant("rs=crew, m=planet-nine/04, p=3, b=rules, r=singleton-statement:only, label=Three", DEFAULTS)
    assert (v.ruleset, v.mission, v.players, v.bot, v.label) == ("crew", "planet-nine/04", 3, "rules", "Three")
    assert v.readings == (("singleton-statement", "only"),)
    d = parse_variant("bot=heuristic", DEFAULTS)
    assert (d.mission, d.players, d.label) == ("planet-nine/10", 4, "bot=heuristic")
    for bad in ("nonsense", "colour=red", "players=x", "reading=noop", "bot=a,bot=b"):
        with pytest.raises(VariantError):
            parse_variant(bad, DEFAULTS)
    with pytest.raises(VariantError):
        parse_variant("bot=random", {"ruleset": "crew", "players": 4, "bot": "random"})  # no mission


def test_paired_seeds_give_identical_deals_for_a_shared_deck() -> None:
    seeds = [f"pair:{i}" for i in range(5)]
    def fingerprint(ruleset: str, mission: str, players: int, seed: str) -> str:
        game = open_game(ruleset, mission, players, seed)
        return game.family.summary(game).fingerprint

    for seed in seeds:
        assert fingerprint("crew", "planet-nine/10", 4, seed) == fingerprint("crew", "planet-nine/04", 4, seed)
    assert fingerprint("crew-3p-challenge", "planet-nine/10", 3, "x") != fingerprint("crew", "planet-nine/10", 3, "x")


def test_compare_pairs_results_and_identical_for_workers() -> None:
    variants = [parse_variant(s, DEFAULTS, index=i) for i, s in enumerate(["label=A", "mission=planet-nine/04"])]
    one = compare(variants, 6, "w", workers=1, solver=True, solver_nodes=400)
    two = compare(variants, 6, "w", workers=2, solver=True, solver_nodes=400)
    assert one.to_json()["variants"] == two.to_json()["variants"]
    assert one.to_json()["pairs"] == two.to_json()["pairs"]
    pair = one.pairs[0]
    assert pair.same_deals  # same deck, same hand sizes: the same hands
    assert pair.table.n == 6
    a, b = one.results
    assert [d.deal for d in a.deals] == [d.deal for d in b.deals]
    assert all(d.solver in ("winnable", "unwinnable", "unknown") for d in a.deals)
    text = one.format_text()
    assert "bot success" in text and "McNemar" in text and "[2]" in text
    rows = one.to_csv().splitlines()
    assert rows[0].startswith("label,ruleset,mission") and len(rows) == 3
    data = json.loads(json.dumps(one.to_json()))
    assert data["variants"][0]["games"] == 6


def test_compare_without_solver_and_invalid_variant() -> None:
    cmp = compare([Variant("r", "crew", "planet-nine/01", 4, "random")], 3, "n", solver=False)
    assert not cmp.results[0].solver_ran and "winnable" not in cmp.format_text()
    with pytest.raises(VariantError):
        compare([Variant("x", "crew", "planet-nine/01", 4, "no-such-bot")], 2, "n")


def test_campaign_table_and_curve() -> None:
    cmp = compare_campaign("planet-nine", 4, 1, "camp", bot="random", solver=False)
    assert len(cmp.results) == 50
    text = cmp.format_text()
    assert "Difficulty curve" in text and "planet-nine/50" in text


def test_text_bar() -> None:
    bar = text_bar(0.5, (0.25, 0.75), 20, 0.9)
    assert bar.startswith("|") and bar.endswith("|") and "[" in bar and "]" in bar and "×" in bar and "◆" not in bar


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crewkit")
    sub = parser.add_subparsers(dest="command")
    commands.add_compare_parser(sub)
    return parser.parse_args(argv)


def test_cmd_compare_formats_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.cli import UsageError

    args = _parse(["compare", "--mission", "planet-nine/01", "--games", "2", "--bot", "random", "--no-solver",
                   "--format", "json", "bot=random", "bot=rules"])
    assert commands.cmd_compare(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["variants"]) == 2 and len(data["pairs"]) == 1
    with pytest.raises(UsageError):
        commands.cmd_compare(_parse(["compare", "--games", "2"]))
    with pytest.raises(UsageError):
        commands.cmd_compare(_parse(["compare", "--games", "2", "colour=red"]))


def test_cmd_compare_plot_without_matplotlib(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # None in sys.modules makes `import matplotlib` raise ImportError, as on a machine without it
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "out.png"
    args = _parse(["compare", "--mission", "planet-nine/01", "--games", "2", "--plot", str(out), "bot=random"])
    assert commands.cmd_compare(args) == 1
    err = capsys.readouterr().err
    assert 'pip install "crewkit[plot]"' in err and 'pip install ".[plot]"' in err
    assert not out.exists()


def test_cmd_compare_plot_draws_a_real_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # matplotlib comes with the dev extra: the chart is drawn, not skipped
    out = tmp_path / "bars.png"
    args = _parse(["compare", "--mission", "planet-nine/01", "--games", "4", "--no-solver", "--plot", str(out),
                   "bot=random", "bot=rules"])
    assert commands.cmd_compare(args) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # the header's width and height: a chart of some size, not an empty image
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 300 and height >= 200
    assert f"chart written to {out}" in capsys.readouterr().out
