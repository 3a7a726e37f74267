"""Mission Deep Sea's 96 task cards, each through the engine: one scripted deal where it is fulfilled and one
where it fails (tests/records/deep-sea/cards.json, built by tests/records/build_deep_sea_cards.py), replayed
move by move; the engine's verdict is checked once more by the C translation of the card's condition (an
independent evaluator of the condition language), and a property over random games: once a card's ``done_if``
holds it holds for good and its ``fail_if`` never becomes true after."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.bots.condcode import NativeProgram, compile_program
from crewkit.families.trick_taking.engine.blocks.draft import ChooseNumber, PassTask, TakeTaskCard
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.engine.taskcards import TaskDraw
from tests import native_marks

GOLDEN: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "records" / "deep-sea" / "cards.json").read_text(encoding="utf-8"))
RULES = compile_game("crew-deep-sea", "deep-sea/01", 4)
CARDS = [c.id for c in RULES.task_deck.cards]


def test_every_card_has_a_fulfilled_and_a_failed_deal() -> None:
    assert len(CARDS) == 96
    assert sorted(GOLDEN) == sorted(CARDS)
    missing = [(c, k) for c in CARDS for k in ("fulfilled", "fails") if k not in GOLDEN[c]]
    assert not missing


def replay(card_id: str, script: dict[str, Any]) -> Game:
    """The scripted game, move by move through the engine: the draft (the seats before the owner pass), the
    number, then every card played."""
    rules = dataclasses.replace(RULES, task_draw=TaskDraw(0, (card_id,)))
    deck = rules.deck
    hands = tuple(tuple(deck.card(c) for c in hand.split()) for hand in script["hands"])
    game = Game.new(rules, seed="golden", deal=Deal(hands, (), task_cards=(card_id,)))
    owner = script["owner"]
    while game.to_act != owner:
        game.apply(PassTask(game.to_act))
    game.apply(TakeTaskCard(owner, card_id))
    if script["number"] is not None:
        game.apply(ChooseNumber(owner, card_id, script["number"]))
    assert game.phase == "tricks"
    for name in script["plays"].split():
        assert not game.is_over()
        game.apply(Play(game.to_act, deck.card(name)))
    assert game.is_over()
    return game


@pytest.mark.parametrize("card_id", CARDS)
def test_the_card_is_fulfilled_in_one_deal_and_fails_in_another(card_id: str) -> None:
    for kind, result in (("fulfilled", "success"), ("fails", "failure")):
        script = GOLDEN[card_id][kind]
        game = replay(card_id, script)
        outcome = game.outcome()
        assert (outcome.result, outcome.reason) == (result, script["reason"]), (card_id, kind)
        assert outcome.result == script["outcome"]
        task = game.task_cards[0]
        assert (task.owner, task.number) == (script["owner"], script["number"])
        if result == "failure" and "hands ran out" not in outcome.reason:  # the card's own reason, its owner named
            assert f"seat {task.owner}" in outcome.reason or "captain" in outcome.reason, outcome.reason


@native_marks.needs_c(fastnative)  # skipped, with its reason, only where no C library can be had
@pytest.mark.parametrize("card_id", CARDS)
def test_the_c_translation_of_the_card_agrees_with_the_engine(card_id: str) -> None:
    for kind, result in (("fulfilled", "success"), ("fails", "failure")):
        _check_in_c(replay(card_id, GOLDEN[card_id][kind]), result)


def _check_in_c(game: Game, result: str) -> None:
    """The card's condition evaluated by the C translation on the final position agrees with the engine."""
    lib = fastnative.load()
    assert lib is not None, fastnative.status()  # a compiler is there: a library that does not build is a failure
    cond = game.conditions[-1]
    program, why = compile_program([cond], game.rules.deck, {}, game.commander, game.total_tricks, [])
    assert program is not None, why
    native = NativeProgram(lib, program, game.rules.deck)
    st = [game.n, *game.hands, len(game.plays)]
    for seat, card in game.plays:
        st += [seat, card.id]
    st.append(0)  # no colour-card tasks
    st.append(len(game.tricks))
    for t in game.tricks:
        st += [t.leader, t.winner, len(t.plays)]
        for seat, card in t.plays:
            st += [seat, card.id]
    arr = (ctypes.c_longlong * len(st))(*st)
    out = (ctypes.c_int * 2)()
    assert lib.fs_cond_eval(native.handle, arr, out) == 0
    fail, done = out[0], out[1]
    if result == "failure":
        assert fail == 1 or (done in (0, -1) and len(game.tricks) == game.total_tricks), (cond.id, fail, done)
    else:
        assert fail != 1 and (done == 1 or (done == -1 and len(game.tricks) == game.total_tricks)), (cond.id, fail,
                                                                                                     done)


# ---------------------------------------------------------------------------- the property over random games
def _plain_rules(players: int) -> Any:
    """deep-sea/01's rules with no card drawn: games that run to the last trick."""
    rules = compile_game("crew-deep-sea", "deep-sea/01", players)
    return dataclasses.replace(rules, task_draw=None)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_done_holds_for_good_and_fail_never_follows_it(players: int) -> None:
    rules = compile_game("crew-deep-sea", "deep-sea/01", players)
    deck = rules.task_deck
    bound = [deck.bind(c.id, 1, NUMBER if c.asks is not None else None) for c in deck.cards]
    base = _plain_rules(players)
    checked = 0
    for seed in range(4):
        game = Game.new(base, seed=f"prop:{players}:{seed}")
        rng = random.Random(seed)
        done = [False] * len(bound)
        failed = [False] * len(bound)
        while not game.is_over():
            game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
            view = game.view()
            trick_end = not game.plays
            for i, cond in enumerate(bound):
                if failed[i] or (not trick_end and cond.check != "after-play"):
                    continue
                is_done = cond.done_if is not None and bool(cond.done_if(view, {}))
                is_failed = cond.fail_if is not None and bool(cond.fail_if(view, {}))
                assert not (done[i] and is_failed), f"{cond.id}: fail_if true after done_if"
                assert not (done[i] and not is_done), f"{cond.id}: done_if true, then false again"
                assert not (is_done and is_failed), f"{cond.id}: done_if and fail_if true together"
                done[i], failed[i] = is_done, is_failed
                checked += 1
        assert game.outcome().result == "success" and len(game.tricks) == game.total_tricks
    assert checked > 1000


NUMBER = 2
