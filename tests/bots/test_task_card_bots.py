"""The bots and Mission Deep Sea's task cards: every card bound to a seat translates to C and evaluates there as
the condition language does, the bots' choices of cards, passes and numbers are the same in C and in Python,
and the fast bot, the heuristic bot and the expert play the missions (and win some)."""

from __future__ import annotations

import ctypes
import random
from typing import Any

import pytest

from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.bots.condcode import NativeProgram, compile_program
from crewkit.families.trick_taking.bots.fast import FastBot, native_task_plays
from crewkit.families.trick_taking.bots.heuristic import Knowledge, world_from
from crewkit.families.trick_taking.bots.registry import make_bot
from crewkit.families.trick_taking.bots.taskcard_choice import TASK_CARD_ACTIONS, choose_task_card_action
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import compile_game, new_game
from crewkit.families.trick_taking.family import play_game

needs_c = pytest.mark.skipif(fastnative.load() is None, reason=f"no C library here: {fastnative.status()}")
RULES = compile_game("crew-deep-sea", "deep-sea/01", 4)
DECK = RULES.task_deck


def _bound(card: Any, seat: int) -> Any:
    return DECK.bind(card.id, seat, 2 if card.asks is not None else None)


def test_every_card_translates_to_c() -> None:
    for card in DECK.cards:
        program, why = compile_program([_bound(card, 1)], RULES.deck, {}, 0, 10, [])
        assert program is not None, f"{card.id}: {why}"


def _state(game: Game) -> list[int]:
    st = [game.n, *game.hands, len(game.plays)]
    for seat, c in game.plays:
        st += [seat, c.id]
    st += [0, len(game.tricks)]
    for t in game.tricks:
        st += [t.leader, t.winner, len(t.plays)]
        for seat, c in t.plays:
            st += [seat, c.id]
    return st


@needs_c
def test_every_card_evaluates_in_c_as_the_dsl_does() -> None:
    """All 96 cards, bound to seat 1, after every card of random games: C's fail_if/done_if are the DSL's."""
    lib = fastnative.load()
    assert lib is not None
    plain = compile_game("crew-deep-sea", "deep-sea/01", 4)
    import dataclasses

    plain = dataclasses.replace(plain, task_draw=None)
    conds = [_bound(card, 1) for card in DECK.cards]
    compared = 0
    for seed in range(3):
        game = Game.new(plain, seed=f"twin:{seed}")
        natives = []
        for cond in conds:
            program, why = compile_program([cond], plain.deck, {}, game.commander, game.total_tricks, [])
            assert program is not None, why
            natives.append(NativeProgram(lib, program, plain.deck))
        rng = random.Random(seed)
        while not game.is_over():
            game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
            st = _state(game)
            arr = (ctypes.c_longlong * len(st))(*st)
            view = game.view()
            for cond, native in zip(conds, natives, strict=True):
                out = (ctypes.c_int * 2)()
                assert lib.fs_cond_eval(native.handle, arr, out) == 0, cond.id
                want_fail = -1 if cond.fail_if is None else int(bool(cond.fail_if(view, {})))
                want_done = -1 if cond.done_if is None else int(bool(cond.done_if(view, {})))
                assert (out[0], out[1]) == (want_fail, want_done), (cond.id, len(game.tricks), len(game.plays))
                compared += 1
    assert compared > 10_000


@needs_c
@pytest.mark.parametrize(("mission", "players"), [("deep-sea/05", 4), ("deep-sea/18", 3), ("deep-sea/28", 5),
                                                  ("deep-sea/32", 4), ("deep-sea/14", 4)])
def test_the_choices_of_task_cards_are_the_same_in_c_and_in_python(mission: str, players: int) -> None:
    for seed in range(3):
        game = new_game("crew-deep-sea", mission, players, seed=f"choice:{seed}")
        while game.phase != "tricks" and not game.is_over():
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            req = obs.required or obs.legal
            if {type(a) for a in req} <= TASK_CARD_ACTIONS and len(req) > 1:
                picks = [choose_task_card_action(obs, req, random.Random(f"{seed}"), 4, Knowledge, world_from, native)
                         for native in (native_task_plays, None)]
                assert picks[0] == picks[1], (mission, seed, picks)
                game.apply(picks[0])
            else:
                game.apply(make_bot("fast", seat, "x").act(obs))


# the expert at the table's budget (expert-quick: the same bot with a fifth of its worlds, the table's default):
# 3 of the 4 missions won as with the full budget, in 40% of its time
@pytest.mark.parametrize("bot", ["fast", "heuristic", "expert-quick"])
def test_the_bots_play_deep_sea_missions_and_win_some(bot: str) -> None:
    wins = 0
    for i, mission in enumerate(["deep-sea/01", "deep-sea/02", "deep-sea/03", "deep-sea/05"]):
        game = new_game("crew-deep-sea", mission, 4, seed=f"bots:{i}")
        play_game(game, [make_bot(bot, s, f"bots:{i}") for s in range(4)])
        assert game.is_over()
        wins += game.outcome().result == "success"
    assert wins >= 2


@needs_c
def test_the_fast_bot_plays_the_same_game_in_c_and_in_python() -> None:
    rules = compile_game("crew-deep-sea", "deep-sea/09", 4)
    games = []
    for native in (True, False):
        game = Game.new(rules, seed="same")
        play_game(game, [FastBot(s, "same", native=native, cond_worlds=4, draft_worlds=2) for s in range(4)])
        games.append(game)
    assert games[0].actions == games[1].actions
    assert games[0].outcome() == games[1].outcome()
