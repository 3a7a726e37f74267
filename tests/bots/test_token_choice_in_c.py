"""The token choice (:func:`choices.tokens`) plays its options out in C where the library loads: the same
play-outs won per option as the Python play-outs (a bot kept in Python), so the same choice."""

from __future__ import annotations

from crewkit.families.trick_taking.bots import choices
from crewkit.families.trick_taking.bots.heuristic import HeuristicBot
from crewkit.families.trick_taking.engine.observation import observe
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.engine.step_actions import MoveToken, Skip, SwapTokens
from crewkit.families.trick_taking.solve import native as solver_native
from tests import native_marks

pytestmark = native_marks.needs_c(solver_native)


def test_token_options_win_the_same_play_outs_in_c_and_python() -> None:
    compared = won = 0
    for i in range(6):
        game = new_game("crew", "planet-nine/40", 3 + i % 3, seed=f"tokens-c:{i}")
        while not game.is_over():
            legal = game.legal_actions()
            if legal and all(isinstance(a, SwapTokens | MoveToken | Skip) for a in legal) and len(legal) > 1:
                break
            game.apply(legal[0])
        else:
            continue
        seat = game.to_act
        assert seat is not None
        obs = observe(game, seat)
        req = tuple(game.legal_actions())
        in_c = HeuristicBot(seat, f"t{i}")
        in_py = HeuristicBot(seat, f"t{i}")
        in_py.native = False  # type: ignore[attr-defined]  # kept in Python, as a fast bot with native=False
        a = choices.tokens(in_c, obs, req)
        b = choices.tokens(in_py, obs, req)
        assert in_c.last_token_wins == in_py.last_token_wins
        assert a == b
        won += sum(in_c.last_token_wins.values())
        compared += 1
    assert compared >= 3
    assert won > 0  # play-outs won, not only lost, were compared
