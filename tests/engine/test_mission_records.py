"""Replay the special missions' golden records (tests/records/missions/) against hand-written expectations,
judge every finished one again with the independent referee (tests/referee.py), and check the rule each record
exists for directly on the replayed game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from crewkit.families.trick_taking.engine.record import replay_record
from tests.referee import assert_engine_agrees

FOLDER = Path(__file__).parent.parent / "records" / "missions"
EXPECTED: dict[str, dict[str, Any]] = yaml.safe_load((FOLDER / "expected.yaml").read_text(encoding="utf-8"))
SPECIAL = ["05", "09", "11", "12", "13", "16", "17", "23", "26", "29", "33", "34", "40", "41", "44", "46",
           "48", "50"]


def test_every_special_mission_has_a_success_and_a_failure() -> None:
    for number in SPECIAL:
        assert f"{number}-success" in EXPECTED, number
        assert f"{number}-failure" in EXPECTED, number
    assert {p.stem for p in FOLDER.glob("*.json")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mission_record(name: str) -> None:
    want = EXPECTED[name]
    result = replay_record(json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8")))
    game = result.game
    assert game is not None, result.error
    if "error" in want:
        assert result.error is not None
        assert (result.error.index, result.error.code) == (want["error"]["index"], want["error"]["code"])
        return
    assert result.error is None, str(result.error)
    outcome = game.outcome()
    assert outcome.result == want["outcome"], outcome.reason
    # the rules written again, without the engine's objectives, kernel or condition language, agree
    assert_engine_agrees(game)
    if "reason" in want:
        assert want["reason"] in outcome.reason
    for kind in want.get("events", []):
        assert any(e.kind == kind for e in game.events), f"no {kind} event"


def _replay(name: str) -> Any:
    game = replay_record(json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))).game
    assert game is not None
    return game


def test_sick_player_won_nothing_in_the_success() -> None:
    game = _replay("05-success")
    assert game.tricks_won[game.roles["sick"]] == 0
    assert game.roles["sick"] != game.commander


def test_rockets_each_won_in_order() -> None:
    game = _replay("44-success")
    rocket_wins = [t.winning_card.rank for t in game.tricks if t.winning_card.is_trump]
    assert rocket_wins == sorted(rocket_wins) == [1, 2, 3, 4]


def test_collector_is_left_of_pink_9_holder() -> None:
    game = _replay("46-success")
    holder = next(s for s, hand in enumerate(game.deal.hands) if any(c.name == "pink 9" for c in hand))
    assert game.roles["collector"] == (holder + 1) % game.n
    assert all(t.winner == game.roles["collector"] for t in game.tricks if any(c.suit and c.suit.name == "pink"
                                                                             for c in t.cards))


def test_grand_finale_roles() -> None:
    game = _replay("50-success")
    opener, closer = game.roles["opener"], game.roles["closer"]
    assert [t.winner for t in game.tricks[:4]] == [opener] * 4
    assert game.tricks[-1].winner == closer
    assert all(t.winner not in (opener, closer) for t in game.tricks[4:-1])


def test_draw_after_first_trick_moves_one_card_per_seat() -> None:
    game = _replay("12-success")
    draws = [e for e in game.events if e.kind == "draw"]
    assert len(draws) == game.n
    assert {e.seat for e in draws} == set(range(game.n))
