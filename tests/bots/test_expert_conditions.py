"""The expert on missions whose conditions read cards (17: no trick won by a 9; 26: two colour 1s win a trick):
its winnable filter runs there too, so every world it solves and decided is winnable before its card."""

from __future__ import annotations

from typing import Any

import pytest

from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.bots.expert import ExpertBot, template_game, world_game
from crewkit.families.trick_taking.engine.observation import observe
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.solve import SearchAborted, TrickSearch
from crewkit.families.trick_taking.solve import native as solver_native
from tests import native_marks


@native_marks.needs_c(solver_native)
@pytest.mark.parametrize("mission", ["planet-nine/26", "planet-nine/17"])
def test_condition_worlds_are_winnable_before_the_card(mission: str) -> None:
    checked = 0
    for i in range(3):
        game = new_game("crew", mission, 4, seed=f"cond-filter:{i}")
        fast = [make_bot("fast", s, f"cond-filter:{i}") for s in range(4)]
        # the fast bot plays four tricks, then the expert decides once
        while not game.is_over() and (game.phase != "tricks" or len(game.tricks) < 4):
            seat = game.to_act
            assert seat is not None
            game.apply(fast[seat].act(observe(game, seat)))
        if game.is_over():
            continue
        seat = game.to_act
        assert seat is not None
        obs = observe(game, seat)
        probe: Any = TrickSearch(game.clone())
        assert probe.native and not probe.shares_positions  # what this test is about: C search, no shared keys
        bot = ExpertBot(seat, "cond-filter", worlds=6, rollout_worlds=6)
        bot.act(obs)
        if not bot.last:
            continue
        for hands, decided in bot.last["world_hands"]:
            if not decided:
                continue
            checked += 1
            world = world_game(template_game(obs), obs, list(hands))
            try:
                assert TrickSearch(world).run(max_nodes=200_000), "a world lost before the card was solved"
            except SearchAborted:
                pass
    assert checked >= 6, "the filter should have decided some worlds"
