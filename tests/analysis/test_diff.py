"""crewkit diff: rule differences from the resolved specs."""

from __future__ import annotations

import argparse
import json

import pytest

from crewkit.analysis.diff import diff_specs, diff_values
from crewkit.cli import diff as commands
from crewkit.spec import bundled


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


# ------------------------------------------------------------------------------------------------ every family


def test_not_alone_against_its_advanced_variant() -> None:
    d = diff_specs("not-alone", "not-alone-advanced")
    assert d.kind == "ruleset" and (d.a, d.b) == ("not-alone", "not-alone-advanced")
    keys = {k.path: k for k in d.rule_keys}
    assert set(keys) == {"counter.at_zero.regain"}  # the whole difference: 2 will back, not 3
    assert (keys["counter.at_zero.regain"].old, keys["counter.at_zero.regain"].new) == (3, 2)
    readings = {r.id: r for r in d.readings}
    assert set(readings) == {"advanced-give-up"} and readings["advanced-give-up"].kind == "added"
    text = d.format_text()
    assert "counter.at_zero.regain" in text and "advanced-give-up" in text


def test_a_not_alone_reading_selected_changes_the_resolved_rules() -> None:
    d = diff_specs("not-alone", "not-alone", readings_b={"reckoning-order": "by-hunted"})
    keys = {k.path: k for k in d.rule_keys}
    assert keys["round.reckoning.order"].old == "by_token" and keys["round.reckoning.order"].new == "by_seat"
    assert [r.id for r in d.readings] == ["reckoning-order"] and d.readings[0].what == ("choice",)


def test_an_unknown_not_alone_reading_is_named() -> None:
    from crewkit.spec.errors import SpecError

    with pytest.raises((SpecError, ValueError)) as err:
        diff_specs("not-alone", "not-alone", readings_b={"no-such-reading": "x"})
    assert "no-such-reading" in str(err.value)


@pytest.mark.parametrize("name", [p.stem for p in bundled.bundled_rulesets(None)])
def test_every_shipped_rule_set_diffs_and_shows(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.cli import main

    assert diff_specs(name, name).same
    assert main(["show", "ruleset", name, "--resolved", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == name and data["players"] and data["title"]
    assert main(["diff", name, "crew"]) == 0
    assert capsys.readouterr().out.startswith(f"ruleset {name}  →  crew")
