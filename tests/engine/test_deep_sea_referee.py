"""tests/records/deep-sea/cards.json judged by an independent referee (tests/deep_sea_referee.py: each card's
words written again as a test of the finished game, no engine code): the deal where the engine says a card is
fulfilled fulfils it in every legal end of the game, the deal where it fails fails it in every one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import deep_sea_referee as referee

GOLDEN: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "records" / "deep-sea" / "cards.json").read_text(encoding="utf-8"))


def test_the_referee_has_every_card_of_the_records() -> None:
    assert sorted(referee.OBJECTIVES) == sorted(GOLDEN)
    assert len(GOLDEN) == 96


@pytest.mark.parametrize("card_id", sorted(GOLDEN))
def test_the_referee_agrees_with_the_recorded_verdicts(card_id: str) -> None:
    for kind, fulfilled in (("fulfilled", True), ("fails", False)):
        script = GOLDEN[card_id][kind]
        assert script["outcome"] == ("success" if fulfilled else "failure")
        verdicts = referee.judge(card_id, script["hands"], script["plays"], script["owner"], script["number"])
        assert verdicts == {fulfilled}, (card_id, kind, script["reason"], verdicts)




def _code(c: Any) -> str:
    return f"{c.suit.code}{c.rank}"


@pytest.mark.parametrize("card_id", sorted(GOLDEN))
def test_the_referee_agrees_with_the_engine_on_a_random_game(card_id: str) -> None:
    """A game of the card at 3, 4 or 5 seats, drafted and played at random through the engine: its outcome is
    the referee's verdict on the same tricks (in every legal end, when the engine ended it early)."""
    import dataclasses
    import random

    from crewkit.families.trick_taking.engine.blocks.tricks import Play
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.setup import compile_game
    from crewkit.families.trick_taking.engine.taskcards import TaskDraw

    players = 3 + sorted(GOLDEN).index(card_id) % 3
    rules = compile_game("crew-deep-sea", "deep-sea/01", players)
    game = Game.new(dataclasses.replace(rules, task_draw=TaskDraw(0, (card_id,))), seed=f"referee:{card_id}")
    hands = [" ".join(_code(c) for c in game.hand(s)) for s in range(players)]
    rng = random.Random(card_id)
    plays: list[str] = []
    while not game.is_over():
        legal = game.legal_actions()  # no distress signal: the referee reads the hands as dealt
        action = rng.choice([a for a in legal if type(a).__name__ not in ("Distress", "PassCard")] or legal)
        if isinstance(action, Play):
            plays.append(_code(action.card))
        game.apply(action)
    assert plays, "the game ended in its draft"
    task = game.task_cards[0]
    verdicts = referee.judge(card_id, hands, " ".join(plays), task.owner, task.number)
    assert verdicts == {game.outcome().result == "success"}, (players, game.outcome().reason, verdicts)
