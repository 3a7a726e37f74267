"""The expert's card play reads every answer (issue 43): each world it solves at a card is a draw mended until the
other seats' hands give the answers they gave to the setup's questions (``ExpertBot.answer_repair``). With seven
tasks asked about, the best of a few plain draws meets them all almost never, so the searches judged hands the
answers rule out."""

from __future__ import annotations

from typing import Any

import pytest

from crewkit.families.trick_taking.bots import choices, mended_worlds
from crewkit.families.trick_taking.bots.expert import ExpertBot
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, observe
from tests.fast_setup import fast_game_until


def _first_card(mission: str, seed: str) -> Game:
    """A game of ``mission`` set up by fast bots, at the first card of the first trick."""
    def at_first_card(game: Game) -> bool:
        legal = game.legal_actions(game.to_act) if game.to_act is not None else []
        return bool(legal) and isinstance(legal[0], Play)

    return fast_game_until(mission, seed, at_first_card)


def _meets_all(obs: Observation, hands: list[int]) -> bool:
    return all(predict(hands[seat]) in (None, given) for seat, predict, given in choices.answer_checks(obs))


def _solved_worlds(obs: Observation, monkeypatch: pytest.MonkeyPatch, **params: Any) -> list[list[int]]:
    """The worlds the expert draws for its searches at ``obs`` (both ways of drawing them spied on)."""
    seen: list[list[int]] = []
    mend, plain = mended_worlds.repaired_sample, choices.consistent_sample

    def spy_mend(*args: Any) -> list[int]:
        seen.append(mend(*args))
        return seen[-1]

    def spy_plain(*args: Any) -> list[int]:
        seen.append(plain(*args))
        return seen[-1]

    monkeypatch.setattr(mended_worlds, "repaired_sample", spy_mend)
    monkeypatch.setattr(choices, "consistent_sample", spy_plain)
    bot = ExpertBot(obs.seat, "mended", worlds=8, nodes=1_000, total_nodes=400_000, rollout_worlds=16, **params)
    assert isinstance(bot.act(obs), Play)
    monkeypatch.undo()
    return seen


def test_the_expert_solves_worlds_that_meet_every_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mission 36, the first card, 21 answers of the other seats: most worlds the expert solves meet them all (6 of
    8 here, within 200 swaps; each keeps the seat's own hand); of the best of 8 plain draws (``answer_repair=0``)
    none does."""
    game = _first_card("planet-nine/36", "mended")
    seat = game.to_act
    assert seat is not None
    obs = observe(game, seat)
    assert len(choices.answer_checks(obs)) == 21
    mended = _solved_worlds(obs, monkeypatch)  # the default: 200 swaps
    plain = _solved_worlds(obs, monkeypatch, answer_repair=0)
    assert len(mended) >= 8 and len(plain) >= 8
    assert all(w[seat] == obs.hand_mask for w in mended)
    assert sum(_meets_all(obs, w) for w in mended) >= len(mended) * 3 // 4
    assert sum(_meets_all(obs, w) for w in plain) <= 1
