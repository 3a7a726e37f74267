"""The expert commander's hand-out reads every answer (issue 43): the worlds behind each task it hands out are
mended until every other seat's hand gives the answers it gave. A plain draw (the best of a few) meets them all
almost never once five or six tasks were asked about, so the hand-out's play-outs judged hands the answers rule
out."""

from __future__ import annotations

import random
from typing import Any

import pytest

from crewkit.families.trick_taking.bots import choices, make_bot
from crewkit.families.trick_taking.bots.expert import ExpertBot
from crewkit.families.trick_taking.bots.knowledge import Knowledge, _full_view
from crewkit.families.trick_taking.bots.mended_worlds import repaired_sample
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, observe
from crewkit.families.trick_taking.engine.step_actions import GiveTask
from tests.bots.test_handout import _at_hand_out


def _meets_all(obs: Observation, hands: list[int]) -> bool:
    return all(predict(hands[seat]) in (None, given) for seat, predict, given in choices.answer_checks(obs))


def _commander_obs(game: Game) -> Observation:
    assert game.commander is not None
    return observe(game, game.commander)


def test_mended_worlds_meet_every_answer() -> None:
    """Mission 36's sixth task, eighteen answers of the other seats: the mended worlds meet them all (15 of 16
    within 200 swaps; each keeps the commander's hand, its card and every hand's size); of the best of 24 plain
    draws, none does."""
    obs = _commander_obs(_at_hand_out("planet-nine/36", "answers", given=5))
    checks = choices.answer_checks(obs)
    assert len(checks) == 18
    know = Knowledge(_full_view(obs))
    rng = random.Random(1)
    mended = [repaired_sample(know, obs, rng, checks, 200) for _ in range(16)]
    plain = [choices.consistent_sample(know, obs, rng, checks) for _ in range(16)]
    assert all(w[obs.seat] == obs.hand_mask for w in mended)
    assert all([h.bit_count() for h in w] == list(obs.hand_sizes) for w in mended)
    assert all(w[obs.commander] & obs.rules.commander_card.bit for w in mended)  # type: ignore[union-attr,index]
    assert sum(_meets_all(obs, w) for w in mended) >= 15
    assert sum(_meets_all(obs, w) for w in plain) <= 2


@pytest.mark.parametrize("given", [3, 5])
def test_the_expert_commander_hands_out_over_worlds_that_meet_the_answers(
        given: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worlds the expert's hand-out plays out (``choices.handout_wins``) meet every answer, 64 of them; the
    fast bot's stay its plain draws (its own targets and speed unchanged)."""
    game = _at_hand_out("planet-nine/36", "answers", given=given)
    obs = _commander_obs(game)
    seen: list[list[list[int]]] = []
    real = choices.handout_wins

    def spy(bot: Any, view: Any, know: Any, worlds: list[list[int]], card: int, candidates: Any) -> list[float]:
        seen.append(worlds)
        return real(bot, view, know, worlds, card, candidates)

    monkeypatch.setattr(choices, "handout_wins", spy)
    action = ExpertBot(obs.seat, "answers").act(obs)
    assert isinstance(action, GiveTask)
    assert len(seen) == 1 and len(seen[0]) == 64
    assert sum(_meets_all(obs, w) for w in seen[0]) >= 60
    make_bot("fast", obs.seat, "answers").act(obs)
    assert len(seen) == 2 and len(seen[1]) == 32
