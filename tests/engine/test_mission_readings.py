"""Issue 11 items 1-4: cards that stay unplayed, the readings of missions 17 and 46, mission 50's question and
JARVIS in missions 5, 11, 12, 33 and 41. Every option of every new reading is exercised here."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from crewkit.dsl import SimpleView, compile_expr, parse
from crewkit.engine.actions import action_from_json
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import replay_record
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.engine.step_actions import Answer, ChoosePlayer
from tests.referee import assert_engine_agrees

RECORDS = Path(__file__).parent.parent / "records" / "missions"
OPTIONAL = (Communicate, Distress, HandTask)


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _replay(name: str, readings: dict[str, str] | None = None) -> Game:
    record = _record(name)
    if readings is not None:
        record["readings"] = readings
    result = replay_record(record)
    assert result.game is not None and result.error is None, result.error
    return result.game


def _left_in_hands(game: Game) -> list[str]:
    return [c.name for seat in range(game.n) for c in game.hand(seat)]


def _step(game: Game, rng: random.Random) -> None:
    game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, OPTIONAL)]))


# ------------------------------------------------------------------------------------------ item 1

CREW_DECK = new_game("crew", "planet-nine/01", 3, seed="deck").rules.deck


def _view(tricks: list[list[str]], total: int, tasks: tuple[tuple[str, int | None, str | None], ...] = (),
          **roles: int) -> SimpleView:
    return SimpleView.from_plays(CREW_DECK, tricks, n_players=3, total=total, tasks=tasks, role_seats=dict(roles))


def test_left_unplayed_only_once_the_hands_have_run_out() -> None:
    unplayed = compile_expr(parse("left_unplayed(pink 9)"))
    played = compile_expr(parse("left_unplayed(blue 1)"))
    tricks = [["blue 1", "blue 2", "blue 3"]]
    assert not unplayed(_view(tricks, total=2), {})  # a trick is left: pink 9 may still be played
    assert unplayed(_view(tricks, total=1), {})  # the hands ran out with pink 9 unplayed
    assert not played(_view(tricks, total=1), {})  # a played card did not stay unplayed


def _conditions(mission: str, readings: dict[str, str] | None = None) -> dict[str, Any]:
    rules = new_game("crew", f"planet-nine/{mission}", 3, seed="c", readings=readings).rules
    return {c.id: c for c in rules.conditions}


# Three tricks, no colour 1, no 9 and no rocket among the winners' cards except where a test says so.
NINE_UNPLAYED = [["blue 2", "blue 1", "green 1"], ["blue 9", "rocket 1", "yellow 2"], ["yellow 3", "yellow 1", "pink 2"]]


def test_mission_16_an_unplayed_9_is_out_once_the_hands_run_out() -> None:
    cond = _conditions("16")["no-nine-wins"]
    # blue 9 fell under a rocket; green, yellow and pink 9 were never played
    assert not cond.fail_if(_view(NINE_UNPLAYED, total=3), {})
    assert not cond.done_if(_view(NINE_UNPLAYED, total=4), {})  # a trick is left: the 9s may still win
    assert cond.done_if(_view(NINE_UNPLAYED, total=3), {})  # the hands ran out: no 9 can win any more


def test_mission_17_unplayed_9s_are_out_in_both_readings() -> None:
    for option in ("end-with-tasks", "until-nines-out"):
        cond = _conditions("17", {"nines-after-tasks": option})["no-nine-wins"]
        open_task = (("pink 8", 0, None),)  # a task still open: only the 9s can fulfil the condition
        assert not cond.done_if(_view(NINE_UNPLAYED, total=4, tasks=open_task), {}), option
        assert cond.done_if(_view(NINE_UNPLAYED, total=3, tasks=open_task), {}), option


def test_missions_9_and_26_fail_with_their_reason_when_the_1s_stay_unplayed() -> None:
    # no colour 1 won; pink 1 never played
    nine = _conditions("09")["a-one-wins"]
    assert not nine.fail_if(_view(NINE_UNPLAYED, total=4), {})
    assert nine.fail_if(_view(NINE_UNPLAYED, total=3), {})
    twenty_six = _conditions("26")["two-ones-win"]
    assert not twenty_six.fail_if(_view(NINE_UNPLAYED[:1], total=4), {})  # 3 colour 1s still to come
    assert twenty_six.fail_if(_view(NINE_UNPLAYED, total=3), {})


@pytest.mark.parametrize(("mission", "cid"), [("13", "every-rocket-wins"), ("44", "rockets-in-order")])
def test_an_unplayed_rocket_cannot_win_so_the_rocket_missions_fail(mission: str, cid: str) -> None:
    tricks = [["pink 1", "rocket 1", "pink 2"], ["blue 1", "rocket 2", "blue 2"], ["green 1", "rocket 3", "green 2"]]
    cond = _conditions(mission)[cid]
    view = _view(tricks, total=3)  # rocket 4 stayed unplayed
    assert not cond.fail_if(view, {})
    assert not cond.done_if(view, {})  # never fulfilled: the engine reports the hands ran out before it was


def test_mission_46_unplayed_pink_in_each_reading() -> None:
    tricks = [["pink 1", "pink 2", "pink 3"]]  # seat 2 wins with pink 3; the other pinks stay unplayed
    default = _conditions("46")["every-pink"]
    assert default.done_if(_view(tricks, total=1, collector=2), {})
    assert not default.done_if(_view(tricks, total=2, collector=2), {})
    missed = _conditions("46", {"unplayed-card": "counts-as-missed"})
    assert not missed["every-pink"].done_if(_view(tricks, total=1, collector=2), {})
    assert missed["no-pink-unplayed"].fail_if(_view(tricks, total=1, collector=2), {})
    assert not missed["no-pink-unplayed"].fail_if(_view(tricks, total=2, collector=2), {})


def test_mission_16_succeeds_when_the_unplayed_card_is_a_9() -> None:
    game = _replay("16-unplayed-nine-success")
    assert game.n == 3
    left = _left_in_hands(game)
    assert len(left) == 1 and left[0].endswith(" 9")
    assert not any(t.winning_card.rank == 9 for t in game.tricks)
    assert game.outcome().result == "success"


def test_mission_46_unplayed_pink_follows_the_reading() -> None:
    game = _replay("46-unplayed-not-needed-success")
    (left,) = _left_in_hands(game)
    assert left.startswith("pink ")
    collector = game.roles["collector"]
    assert all(t.winner == collector for t in game.tricks if any(c.suit and c.suit.name == "pink" for c in t.cards))
    assert game.outcome().result == "success"
    # not-needed is the default: the same game without naming the reading succeeds too
    assert _replay("46-unplayed-not-needed-success", {}).outcome().result == "success"
    missed = _replay("46-unplayed-counts-as-missed-failure")
    assert missed.outcome().result == "failure"
    assert "a pink card stayed unplayed" in missed.outcome().reason
    assert [a.to_json() for a in missed.actions] == [a.to_json() for a in game.actions]


def test_mission_46_counts_as_missed_changes_nothing_when_every_card_is_played() -> None:
    game = _replay("46-success", {"unplayed-card": "counts-as-missed"})  # 4 players play every card
    assert game.outcome().result == "success"


# ------------------------------------------------------------------------------------------ item 2


def test_mission_17_until_nines_out_plays_on_after_the_tasks() -> None:
    game = _replay("17-until-nines-out-success")
    tasks_at = max(t.trick or 0 for t in game.tasks)
    assert all(t.done for t in game.tasks)
    assert len(game.tricks) > tasks_at
    nines = [c for c in game.rules.deck.cards if c.rank == 9]
    assert all(game.card_trick.get(c.id) is not None or c.name in _left_in_hands(game) for c in nines)
    assert game.outcome().result == "success"


def test_mission_17_a_9_winning_after_the_tasks() -> None:
    failed = _replay("17-until-nines-out-failure")
    tasks_at = max(t.trick or 0 for t in failed.tasks)
    assert failed.outcome().result == "failure"
    assert failed.tricks[-1].winning_card.rank == 9 and failed.tricks[-1].number > tasks_at
    # the same play under end-with-tasks (the default) ends in success when the tasks are done
    for readings in ({"nines-after-tasks": "end-with-tasks"}, {}):
        record = _record("17-until-nines-out-failure")
        game = new_game("crew", "planet-nine/17", 3, readings=readings,
                        deal=replay_record(record).game.deal)  # type: ignore[union-attr]
        for raw in record["actions"]:
            if game.is_over():
                break
            game.apply(action_from_json(raw, game.rules.deck))
        assert game.outcome().result == "success"
        assert game.outcome().trick == tasks_at


# ------------------------------------------------------------------------------------------ item 3


@pytest.mark.parametrize("name", ["50-success", "50-failure"])
def test_mission_50_asks_everyone_before_the_roles(name: str) -> None:
    game = _replay(name)
    (question, answers), = game.questions
    assert "part" in question
    assert sorted(answers) == list(range(game.n))  # everyone, the commander included
    assert set(answers.values()) <= {"first four tricks", "tricks between", "last trick"}
    kinds = [a.type for a in game.actions[:game.n + 2]]
    assert kinds == ["answer"] * game.n + ["choose-player"] * 2
    assert game.actions[0].seat == game.commander


def test_mission_50_refuses_a_role_before_the_answers() -> None:
    game = new_game("crew", "planet-nine/50", 4, seed="q")
    seat = game.to_act
    assert seat == game.commander
    with pytest.raises(IllegalAction):
        game.apply(ChoosePlayer(seat, 1, "opener"))
    with pytest.raises(IllegalAction):
        game.apply(Answer(seat, "yes"))


# ------------------------------------------------------------------------------------------ item 4: JARVIS


def _jarvis(mission: str, seed: str = "j", **readings: str) -> Game:
    game = new_game("crew-jarvis", f"planet-nine/{mission}", 2, seed=seed,
                    readings={k.replace("_", "-"): v for k, v in readings.items()})
    rng = random.Random(seed)
    while game.current_step is not None and game.current_step.spec.kind == "dummy-seat":
        _step(game, rng)
    return game


def _until_step(game: Game, kind: str, rng: random.Random) -> None:
    while game.current_step is not None and game.current_step.spec.kind != kind:
        _step(game, rng)


@pytest.mark.parametrize("mission", ["05", "33", "41"])
def test_jarvis_questions_commander_answers(mission: str) -> None:
    game = _jarvis(mission, jarvis_questions="commander-answers")
    rng = random.Random(1)
    _until_step(game, "choose", rng)
    (_, answers), = game.questions
    assert game.dummy_seat in answers and game.commander not in answers


@pytest.mark.parametrize("mission", ["05", "33", "41"])
def test_jarvis_questions_not_asked(mission: str) -> None:
    game = _jarvis(mission, jarvis_questions="not-asked")
    rng = random.Random(1)
    assert game.to_act != game.dummy_seat
    _until_step(game, "choose", rng)
    (_, answers), = game.questions
    assert game.dummy_seat not in answers and sorted(answers) == [s for s in range(3)
                                                                  if s not in (game.dummy_seat, game.commander)]


def test_jarvis_questions_in_the_commanders_decision() -> None:
    asked = _jarvis("20", jarvis_questions="commander-answers")
    assert asked.dummy_seat in _answer_seats(asked)
    skipped = _jarvis("20", jarvis_questions="not-asked")
    assert skipped.dummy_seat not in _answer_seats(skipped)
    # JARVIS may still receive every task: the reading is about the question only
    gives = skipped.legal_actions()
    assert any(getattr(a, "player", None) == skipped.dummy_seat for a in gives)


def _answer_seats(game: Game) -> list[int]:
    seats = []
    while game.legal_actions() and isinstance(game.legal_actions()[0], Answer):
        seat = game.to_act
        assert seat is not None
        seats.append(seat)
        game.apply(Answer(seat, "yes"))
    return seats


@pytest.mark.parametrize("mission", ["05", "11", "33", "41", "50"])
def test_jarvis_roles(mission: str) -> None:
    for option, may in (("may-be-picked", True), ("never-picked", False)):
        game = _jarvis(mission, jarvis_roles=option)
        _until_step(game, "choose", random.Random(2))
        seat = game.to_act
        assert seat is not None
        chosen = {a.player for a in game.legal_actions() if isinstance(a, ChoosePlayer)}
        assert (game.dummy_seat in chosen) == may, option
        role = game.current_step.spec.params["role"]
        if not may:
            with pytest.raises(IllegalAction):
                game.apply(ChoosePlayer(seat, game.dummy_seat, role))  # type: ignore[arg-type]
        else:
            game.apply(ChoosePlayer(seat, game.dummy_seat, role))  # type: ignore[arg-type]
            assert game.roles[role] == game.dummy_seat


def _after_first_trick(option: str, seed: str) -> tuple[Game, set[str], set[str], Game]:
    game = _jarvis("12", seed=seed, jarvis_pickpocket=option)
    rng = random.Random(seed)
    while len(game.tricks) < 1:
        before = game.clone()
        _step(game, rng)
    # JARVIS's face-up cards when the draws happen: its hand before the last play of trick 1, less what it
    # played, plus what turned up when the trick ended (the draws come right after)
    played = {c.name for c in game.tricks[0].cards}
    new_events = game.events[len(before.events):]
    first_draw = next((i for i, e in enumerate(new_events) if e.kind == "draw"), len(new_events))
    revealed = {e.card.name for e in new_events[:first_draw] if e.kind == "dummy-reveal" and e.card is not None}
    up = {c.name for c in before.hand(before.dummy_seat)} - played | revealed  # type: ignore[arg-type]
    down = {c.name for col in before.dummy_columns for c in col} - up - played
    return game, up, down, before


def _draws(game: Game) -> list[Any]:
    return [e for e in game.events if e.kind == "draw"]


def _all_cards(game: Game) -> list[str]:
    held = [c.name for s in range(game.n) for c in game.hand(s)]
    down = [c.name for col in game.dummy_columns for c in col if c not in game.hand(game.dummy_seat)]  # type: ignore[arg-type]
    played = [c.name for t in game.tricks for c in t.cards]
    return sorted(held + down + played)


def _tops_are_the_hand(game: Game) -> bool:
    """Between tricks JARVIS's hand is exactly the top card of each column (the cards under them lie face down)."""
    dummy = game.dummy_seat
    return {col[-1] for col in game.dummy_columns if col} == set(game.hand(dummy))  # type: ignore[arg-type]


def test_jarvis_pickpocket_face_up() -> None:
    checked = 0
    for i in range(10):
        game, up, down, _ = _after_first_trick("face-up", f"fu{i}")
        if game.is_over():
            continue
        dummy = game.dummy_seat
        draws = _draws(game)
        assert len(draws) == 3
        taken = next(e.card for e in draws if e.detail == f"from seat {dummy}")
        assert taken.name in up and taken.name not in down  # a face-up card, never a face-down one
        given = next(e.card for e in draws if e.seat == dummy)
        assert given in game.hand(dummy)  # laid face up: playable at once
        assert [given] in game.dummy_columns
        assert _tops_are_the_hand(game)  # the card under the one taken turned up
        assert len(_all_cards(game)) == 40 and len(set(_all_cards(game))) == 40
        checked += 1
    assert checked >= 5


def test_jarvis_pickpocket_any_card_may_take_a_face_down_card() -> None:
    from_down = 0
    for i in range(40):
        game, _up, down, _ = _after_first_trick("any-card", f"ac{i}")
        if game.is_over():
            continue
        dummy = game.dummy_seat
        taken = next(e.card for e in _draws(game) if e.detail == f"from seat {dummy}")
        from_down += taken.name in down
        assert _tops_are_the_hand(game)
        assert len(set(_all_cards(game))) == 40 and len(_all_cards(game)) == 40
    assert from_down > 0


def test_jarvis_pickpocket_skipped() -> None:
    game, _up, _down, before = _after_first_trick("skipped", "sk")
    assert not game.is_over()
    dummy = game.dummy_seat
    draws = _draws(game)
    assert len(draws) == 2
    assert all(e.seat != dummy and e.detail != f"from seat {dummy}" for e in draws)
    assert {c.name for col in game.dummy_columns for c in col} <= {c.name for col in before.dummy_columns for c in col}


def test_variants_doc_lists_the_new_readings() -> None:
    from crewkit.analysis.variants_doc import generate_markdown

    text = generate_markdown()
    for key in ("`unplayed-card=counts-as-missed`", "`nines-after-tasks=until-nines-out`",
                "`jarvis-questions=not-asked`", "`jarvis-roles=never-picked`", "`jarvis-pickpocket=any-card`",
                "`jarvis-pickpocket=skipped`", "### `planet-nine/46`: Pink collector"):
        assert key in text, key


@pytest.mark.parametrize("option", ["face-up", "any-card", "skipped"])
def test_jarvis_pickpocket_games_play_to_the_end(option: str) -> None:
    for i in range(8):
        game = _jarvis("12", seed=f"end{i}", jarvis_pickpocket=option)
        rng = random.Random(i)
        while not game.is_over():
            _step(game, rng)
            if not game.plays and not game.is_over() and game.tricks:
                assert _tops_are_the_hand(game)
        assert_engine_agrees(game)


def test_jarvis_questions_in_the_commanders_distribution() -> None:
    for option, asked in (("commander-answers", True), ("not-asked", False)):
        game = _jarvis("24", jarvis_questions=option)
        seats = _answer_seats(game)  # the answers about the first task
        assert (game.dummy_seat in seats) == asked, option
        assert game.commander in seats
        gives = game.legal_actions()
        assert any(getattr(a, "player", None) == game.dummy_seat for a in gives)  # JARVIS may still get it
