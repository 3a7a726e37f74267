"""``crewkit list``: what can be played, in text and JSON, each entry with the command that plays it (issue 17)."""

from __future__ import annotations

import json

import pytest

from crewkit.cli import main
from crewkit.tui.launch import PlayOptions, check_play_options


def listed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["list", *argv]) == 0
    return capsys.readouterr().out


def test_list_names_rule_sets_with_players_campaigns_sets_and_missions(capsys: pytest.CaptureFixture[str]) -> None:
    out = listed(capsys)
    lines = out.splitlines()
    jarvis = next(line for line in lines if line.strip().startswith("crew-jarvis "))
    assert "2 players" in jarvis
    crew = next(line for line in lines if line.strip().startswith("crew "))
    assert "3-5 players" in crew and "campaign missions" in crew
    hammer = next(line for line in lines if line.strip().startswith("hammer ") and "players" in line)
    assert "4 players" in hammer and "mission set hammer" in hammer
    assert any(line.strip().startswith("planet-nine ") and "50 missions" in line and "[bundled]" in line
               for line in lines)
    for name in ("persian", "persian/level-1", "persian/level-2"):
        assert f"crewkit play --ruleset crew-persian --mission {name}" in out
    assert "crewkit play --ruleset hammer --mission hammer" in out
    assert any(line.strip().startswith("planet-nine/05 ") for line in lines)
    assert "? players" not in out


def test_list_json_sections_match_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(listed(capsys, "--format", "json"))
    assert set(data) == {"rulesets", "campaigns", "mission_sets", "missions"}
    rulesets = {r["name"]: r for r in data["rulesets"]}
    assert rulesets["crew-jarvis"]["players"] == [2] and rulesets["crew"]["players"] == [3, 4, 5]
    # a game of another family is listed too, its players read through extends:
    for name in ("not-alone", "not-alone-advanced"):
        assert rulesets[name]["family"] == "not-alone" and rulesets[name]["players"] == [2, 3, 4, 5, 6, 7]
        assert rulesets[name]["problem"] is None and "not trick-taking" in rulesets[name]["plays"]
    assert rulesets["crew"]["family"] == "trick-taking"
    campaigns = {c["name"]: c for c in data["campaigns"]}
    assert campaigns["planet-nine"]["missions"] == 50 and campaigns["planet-nine"]["source"] == "bundled"
    assert campaigns["jarvis-duet"]["players"] == [2] and campaigns["jarvis-duet"]["ruleset"] == "crew-jarvis"
    sets = {s["name"]: s for s in data["mission_sets"]}
    assert sets["persian/level-2"]["level"] == 2 and sets["persian/level-2"]["ruleset"] == "crew-persian"
    assert sets["hammer"]["players"] == [4]
    assert {"id": "planet-nine/01", "title": "First contact"}.items() <= next(
        m for m in data["missions"] if m["id"] == "planet-nine/01").items()
    only = json.loads(listed(capsys, "sets", "--format", "json"))
    assert only == {"mission_sets": data["mission_sets"]}
    text = listed(capsys, "sets")
    assert text.startswith("mission sets") and "rule sets" not in text and "missions (" not in text


def test_every_listed_play_command_is_accepted_by_play(capsys: pytest.CaptureFixture[str]) -> None:
    """What ``list`` tells a player to type is something ``play`` opens (checked without opening the app)."""
    data = json.loads(listed(capsys, "--format", "json"))
    for row in data["mission_sets"]:
        check_play_options(PlayOptions(mission=row["name"], ruleset=row["ruleset"], players=None, campaign=None))
    for row in data["campaigns"]:
        assert row["play"] == f"crewkit play --campaign {row['name']}"
        check_play_options(PlayOptions(mission=None, ruleset=None, players=None, campaign=row["name"]))
    for row in data["rulesets"]:
        if row["family"] != "trick-taking":  # Not Alone: the table's session is checked as play checks it
            for count in row["players"]:
                check_play_options(PlayOptions(ruleset=row["name"], players=count, campaign=None))
            continue
        for count in row["players"]:
            mission = next((s["name"] for s in data["mission_sets"] if s["ruleset"] == row["name"]), None)
            campaign = "planet-nine" if mission is None else None
            if row["name"] == "crew-jarvis":
                campaign = "jarvis-duet"
            if row["name"].startswith("crew-deep-sea"):  # task cards with objectives: the Deep Sea logbook
                campaign = "deep-sea"
            check_play_options(PlayOptions(mission=mission, ruleset=row["name"], players=count, campaign=campaign))


def test_list_refuses_an_unknown_section(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["list", "decks"])
    assert exc.value.code == 2
    assert "invalid choice: 'decks'" in capsys.readouterr().err
