"""The commander's distribution (missions 24, 32, 36, 43): the commander hands each task, as it is revealed, to
the seat with whom the tasks revealed so far succeed most often in play-outs (issue 43 item 1). The tasks still
face down used to make the bots' world model give up, so every hand-out fell back to the affinity alone."""

from __future__ import annotations

from crewkit.families.trick_taking.bots import choices, make_bot
from crewkit.families.trick_taking.bots.knowledge import Knowledge, _full_view
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import observe
from crewkit.families.trick_taking.engine.step_actions import GiveTask
from tests.fast_setup import fast_game_until


def _at_hand_out(mission: str, seed: str, given: int) -> Game:
    """A game of ``mission`` played by fast bots up to the commander's hand-out of its ``given``-th task."""
    def at_hand_out(game: Game) -> bool:
        legal = game.legal_actions(game.to_act) if game.to_act is not None else []
        return bool(legal) and isinstance(legal[0], GiveTask) and sum(t.owner is not None for t in game.tasks) == given

    return fast_game_until(mission, seed, at_hand_out)


def _wins(game: Game, native: bool | None) -> list[float]:
    seat = game.commander
    assert seat is not None
    obs = observe(game, seat)
    req = [a for a in obs.legal if isinstance(a, GiveTask)]
    bot = make_bot("fast", seat, "handout")
    bot.native = native  # type: ignore[attr-defined]
    view = _full_view(obs)
    know = Knowledge(view)
    worlds = [choices.consistent_sample(know, obs, bot.rng, choices.answer_checks(obs)) for _ in range(24)]
    return choices.handout_wins(bot, view, know, worlds, req[0].card.id, [a.player for a in req])


def test_the_hand_out_is_played_out_while_tasks_are_still_face_down() -> None:
    """Mission 36's third task, four face down: the play-outs run (the old model gave up and scored nothing),
    they tell the candidates apart, and C and Python (the bots' twin) count the same wins on the same worlds."""
    game = _at_hand_out("planet-nine/36", "handout", given=2)
    assert sum(t.owner is None for t in game.tasks) == 5
    in_c, in_python = _wins(game, None), _wins(game, False)
    assert in_c == in_python
    assert max(in_c) > 0 and len(set(in_c)) > 1, in_c
