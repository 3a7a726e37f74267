"""Every command plays a mission under the first rule set it lists unless told otherwise (issue 42, item 3),
and a refusal under another rule set names the ones the mission lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit.cli import main
from crewkit.spec.mission_rulesets import default_ruleset, listed_rulesets

# Mission Deep Sea's first mission draws task cards: only crew-deep-sea (and its variant) has them
DEEP = "deep-sea/01"


def test_simulate_defaults_to_the_missions_first_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--mission", DEEP, "--players", "3", "--games", "2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "crew-deep-sea"


def test_solve_defaults_to_the_missions_first_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--mission", DEEP, "--players", "3", "--seed", "s", "--nodes", "2000",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "crew-deep-sea"


def test_compare_defaults_to_each_variants_missions_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--mission", DEEP, "--players", "3", "--games", "2", "--no-solver", "--format", "json",
                 "bot=fast", "mission=planet-nine/01"]) == 0
    variants = json.loads(capsys.readouterr().out)["variants"]
    assert [v["ruleset"] for v in variants] == ["crew-deep-sea", "crew"]


def test_winnability_defaults_to_the_missions_first_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winnability", "--mission", DEEP, "--players", "3", "--deals", "1", "--tasks", "1",
                 "--draft", "fixed", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "crew-deep-sea"


def test_host_defaults_to_the_missions_first_rule_set() -> None:
    from crewkit.cli.core import build_parser
    from crewkit.cli.online import _table_config

    args = build_parser().parse_args(["host", "--mission", DEEP, "--players", "3", "--seats", "human,bot,bot"])
    config, _ = _table_config(args)
    assert config.ruleset == "crew-deep-sea"


def test_play_checks_the_mission_under_its_first_rule_set() -> None:
    from crewkit.tui.launch import DEFAULT_CAMPAIGN, PlayOptions, check_play_options

    # raised "rule set crew has no task deck" before: the app fell back to crew outside its campaign
    check_play_options(PlayOptions(mission=DEEP, players=3, campaign=DEFAULT_CAMPAIGN))


def test_a_refusal_names_the_rule_sets_the_mission_lists(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--ruleset", "crew", "--mission", DEEP, "--players", "3", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "has no task deck" in err
    assert "deep-sea/01 lists rule sets crew-deep-sea, crew-deep-sea-tonoja" in err


def test_a_user_missions_own_rule_set_is_found_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "my-rules.yaml").write_text("name: my-rules\nextends: crew\n", encoding="utf-8")
    mission = folder / "m.yaml"
    mission.write_text("number: 1\ntitle: Mine\nrulesets: [my-rules, crew]\ntasks: {count: 1}\n",
                       encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the command runs from elsewhere than the mission's folder
    first, second = listed_rulesets("mine/m.yaml")
    assert (Path(first).resolve(), second) == ((folder / "my-rules.yaml").resolve(), "crew")
    assert main(["simulate", "--mission", "mine/m.yaml", "--players", "4", "--games", "1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"].endswith("my-rules.yaml")


def test_defaults_without_a_mission_and_for_a_mission_set() -> None:
    assert default_ruleset(None) == "crew"
    assert default_ruleset("planet-nine/10") == "crew"
    assert default_ruleset("hammer") == "hammer"
    assert default_ruleset("persian/level-2") == "crew-persian"
    assert default_ruleset("no/such-mission") == "crew"  # the mission's own loader says what is wrong


def test_the_apps_compare_screen_defaults_the_first_variant_the_same_way() -> None:
    from crewkit.analysis.compare import parse_variant
    from crewkit.tui.screens.compare import FIRST_DEFAULTS

    assert parse_variant(f"mission={DEEP}", FIRST_DEFAULTS).ruleset == "crew-deep-sea"
    assert parse_variant("mission=planet-nine/05", FIRST_DEFAULTS).ruleset == "crew"
