"""crewkit diff: rule differences from the resolved specs."""

from __future__ import annotations

import argparse
import json

import pytest

from crewkit.analysis.diff import diff_specs, diff_values
from crewkit.cli import diff as commands


def test_crew_against_3p_challenge_lists_the_changed_keys() -> None:
    d = diff_specs("crew", "crew-3p-challenge")
    assert d.kind == "ruleset"
    keys = {k.path: k for k in d.rule_keys}
    assert keys["players"].old == [3, 4, 5] and keys["players"].new == [3]
    assert keys["deck.remove"].kind == "added" and "green 1" in keys["deck.remove"].new
    assert keys["deal.hands.3"].old == [14, 13, 13] and keys["deal.hands.3"].new == [11, 10, 10]
    assert keys["deal.hands.4"].kind == "removed" and keys["deal.hands.5"].kind == "removed"
    assert keys["tasks.cards.suits"].new == ["blue", "yellow", "pink"]
    readings = {r.id: r for r in d.readings}
    assert readings["challenge-rocket-1"].kind == "added"
    assert readings["challenge-rocket-1"].options_b == ("keep-rocket-1", "remove-rocket-1")
    text = d.format_text()
    assert "deal.hands.3" in text and "challenge-rocket-1" in text


def test_readings_selected_change_the_resolved_rules() -> None:
    d = diff_specs("crew-3p-challenge", "crew-3p-challenge", readings_b={"challenge-rocket-1": "remove-rocket-1"})
    paths = {k.path for k in d.rule_keys}
    assert "deck.remove" in paths and "deal.hands.3" in paths
    assert diff_specs("crew", "crew").same


def test_missions_and_list_matching_by_id() -> None:
    d = diff_specs("planet-nine/16", "planet-nine/17")
    assert d.kind == "mission"
    paths = {k.path for k in d.rule_keys}
    assert "tasks.count" in paths
    assert any(p.startswith("conditions[no-nine-wins]") for p in paths)
    out = diff_values({"s": [{"name": "a", "x": 1}, {"name": "b"}]}, {"s": [{"name": "a", "x": 2}, {"name": "c"}]})
    assert {(k.kind, k.path) for k in out} == {("changed", "s[a].x"), ("removed", "s[b]"), ("added", "s[c]")}


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crewkit")
    sub = parser.add_subparsers(dest="command")
    commands.add_diff_parser(sub)
    return parser.parse_args(argv)


def test_cmd_diff_json_and_mixed_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.cli import UsageError

    assert commands.cmd_diff(_parse(["diff", "crew", "crew-3p-challenge", "--format", "json"])) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(k["path"] == "deal.hands.3" for k in data["keys"])
    assert data["readings"][0]["id"] == "challenge-rocket-1"
    with pytest.raises(UsageError):
        commands.cmd_diff(_parse(["diff", "crew", "planet-nine/03"]))
