"""One way through loading: each DSL text of a mission is parsed and checked once, in the spec layer, and the
engine compiles the trees it is handed (``docs/architecture.md``, "Loading")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from crewkit import dsl
from crewkit.families.trick_taking.engine.rules import compile_rules
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.spec.errors import SpecError
from crewkit.spec.loader import load_mission, load_ruleset

MISSION = """\
number: 98
title: parsed once
rulesets: [crew]
setup:
  - choose_player: {role: sick, by: commander}
tasks:
  count: 1
conditions:
  - id: sick-wins-none
    fail_if: tricks_won(sick) > 0
    reason: "{sick} won trick {tricks_played}"
  - id: pink-nine
    fail_if: won_by(pink 9) == commander
    done_if: tricks_played == total_tricks
"""

NO_PINK_9 = """\
name: no-pink-9
extends: crew
title: The Crew without pink 9 and blue 9
description: two cards fewer
players: [3, 4]
deck:
  remove: ["pink 9", "blue 9"]
deal:
  hands: {"3": [13, 13, 12], "4": [10, 10, 9, 9]}
"""


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every DSL text parsed (expressions and templates), counted."""
    seen: Counter[str] = Counter()
    parse, parse_template = dsl.parse, dsl.parse_template

    def counting_parse(text: str, *args: Any, **kwargs: Any) -> Any:
        seen[text] += 1
        return parse(text, *args, **kwargs)

    def counting_template(text: str, *args: Any, **kwargs: Any) -> Any:
        seen[text] += 1
        return parse_template(text, *args, **kwargs)

    monkeypatch.setattr(dsl, "parse", counting_parse)
    monkeypatch.setattr(dsl, "parse_template", counting_template)
    return seen


def test_each_text_is_parsed_once_for_every_player_count(tmp_path: Path, parses: Counter[str]) -> None:
    from crewkit.dsl.parser import parse
    from crewkit.dsl.template import words_template

    # the default reason of a condition that states none: its fail_if in words (parsed here without counting)
    default = words_template(parse("won_by(pink 9) == commander"), ("sick",))
    path = tmp_path / "once.yaml"
    path.write_text(MISSION, encoding="utf-8")
    for players in (3, 4, 5):
        rules = compile_game("crew", str(path), players)
        assert [c.id for c in rules.conditions] == ["sick-wins-none", "pink-nine"]
    assert parses == {
        "tricks_won(sick) > 0": 1,
        "{sick} won trick {tricks_played}": 1,
        "won_by(pink 9) == commander": 1,
        "tricks_played == total_tricks": 1,
        default: 1,
    }


def test_the_engine_compiles_the_trees_without_parsing(tmp_path: Path, parses: Counter[str]) -> None:
    path = tmp_path / "once.yaml"
    path.write_text(MISSION, encoding="utf-8")
    ruleset = load_ruleset("crew")
    mission = load_mission(str(path), ruleset=ruleset)
    parses.clear()
    rules = compile_rules(ruleset, mission, 4, mission_id=mission.id)
    assert not parses
    cond = rules.conditions[1]
    assert cond.fail_expr is mission.conditions[1].fail_if.expr  # type: ignore[union-attr]  # the spec's tree
    assert cond.fail_text == "won_by(pink 9) == commander"
    assert mission.conditions[0].fail_if is not None and mission.conditions[0].fail_if.path == (
        "conditions",
        0,
        "fail_if",
    )
    assert mission.roles == ("sick",) and rules.roles == ("sick",)


def test_a_text_is_checked_against_the_deck_it_is_played_with(tmp_path: Path) -> None:
    """The mission names crew (where pink 9 exists); played under a rule set without it, loading refuses it
    at its place in the file, before the engine sees it."""
    (tmp_path / "no-pink-9.yaml").write_text(NO_PINK_9, encoding="utf-8")
    path = tmp_path / "once.yaml"
    path.write_text(MISSION, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        compile_game(str(tmp_path / "no-pink-9.yaml"), str(path), 4)
    issue = info.value.issues[0]
    assert (Path(issue.file).name, issue.line, issue.column) == ("once.yaml", 13, 21)
    assert issue.message == "in DSL expression: pink 9 is not in this deck"


def test_validate_and_play_share_the_seat_bound(tmp_path: Path) -> None:
    """One environment: the most players the file allows bounds seat numbers, for validate and play alike."""
    path = tmp_path / "seat.yaml"
    path.write_text(MISSION.replace("tricks_won(sick) > 0", "tricks_won(4) > 0"), encoding="utf-8")
    rules = compile_game("crew", str(path), 5)  # seat 4 sits at a table of five
    assert rules.conditions[0].fail_text == "tricks_won(4) > 0"
    path.write_text(
        MISSION.replace("rulesets: [crew]", "rulesets: [crew]\nplayers: [3, 4]").replace(
            "tricks_won(sick) > 0", "tricks_won(4) > 0"
        ),
        encoding="utf-8",
    )
    with pytest.raises(SpecError, match="there is no seat 4"):
        load_mission(str(path))
