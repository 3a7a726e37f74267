"""The bot driver offers optional actions exactly when the engine has some (one predicate, the engine's).

The driver once decided with a predicate of its own that ignored the Persian signal, so `simulate`, `compare`
and `check` never signalled while the terminal app (which asks the engine) did. Random positions of every
bundled rule set: at each communication window the driver offers `optional` to exactly the seats for which
`Game.optional_actions` is not empty, and `has_optional_actions` agrees with it for every seat.
"""

from __future__ import annotations

import random

import pytest

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import BotSeat, TrickTakingGame, play_game
from crewkit.games.driver import play_out
from crewkit.spec import bundled

GAMES = {
    "crew": [("planet-nine/06", 4), ("planet-nine/25", 5), ("planet-nine/14", 3)],
    "crew-3p-challenge": [("planet-nine/04", 3)],
    "crew-jarvis": [("planet-nine/04", 2)],
    "crew-persian": [("persian", 3), ("persian", 4), ("persian/level-2", 5)],
    "hammer": [("hammer", 4)],
    # currents (dead zone), rapture of the deep (a shared pool of tokens), no communication once under way
    "crew-deep-sea": [("deep-sea/09", 4), ("deep-sea/11", 3), ("deep-sea/10", 5)],
    "crew-deep-sea-tonoja": [("deep-sea/05", 2), ("deep-sea/11", 2)],
}
READINGS = {"crew-persian": [{}, {"signal-who": "everyone-once"}, {"persian-distress": "as-standard"}],
            "crew-jarvis": [{}, {"jarvis-communication": "jarvis-takes-part"}]}


class WindowOffered(Exception):  # noqa: N818 - a signal that stops the driver after one window
    pass


class Decliner:
    """Records which seats the driver offers optional actions to, and declines (the position stays as it is)."""

    def __init__(self, seat: int, offered: list[int]) -> None:
        self.seat, self.offered = seat, offered

    def optional(self, obs: Observation) -> Action | None:
        self.offered.append(self.seat)
        return None

    def act(self, obs: Observation) -> Action:
        raise WindowOffered  # the window's offers are over: the driver asks for the required action


def compare_at(game: Game) -> int:
    """At this position: the seats the driver offers are exactly the seats the engine gives optional actions."""
    for seat in range(game.n):
        assert game.has_optional_actions(seat) == bool(game.optional_actions(seat)), seat
    if not game.in_communication_window():
        return 0
    offered: list[int] = []
    try:  # the one driver, on a copy, until it has offered the window and asks for the required action
        play_out(TrickTakingGame(game.clone()), [BotSeat(Decliner(s, offered)) for s in range(game.n)])
    except WindowOffered:
        pass
    want = [s for s in ((game.leader + i) % game.n for i in range(game.n)) if game.optional_actions(s)]
    assert offered == want, f"driver offered {offered}, engine allows {want} ({game.phase}, trick {game.trick_number})"
    return 1


def _cases() -> list[tuple[str, str, int, dict[str, str]]]:
    out = []
    for path in bundled.bundled_rulesets():
        assert path.stem in GAMES, f"add a game of the new rule set {path.stem!r} to GAMES"
        for mission, players in GAMES[path.stem]:
            for readings in READINGS.get(path.stem, [{}]):
                out.append((path.stem, mission, players, readings))
    return out


@pytest.mark.parametrize(("ruleset", "mission", "players", "readings"), _cases())
def test_driver_offers_exactly_what_the_engine_allows(ruleset: str, mission: str, players: int,
                                                      readings: dict[str, str]) -> None:
    windows = 0
    for i in range(4):
        game = new_game(ruleset, mission, players, seed=f"agree-{i}", readings=readings)
        rng = random.Random(f"{ruleset}:{mission}:{i}")
        while not game.is_over():
            windows += compare_at(game)
            actions = game.legal_actions()
            if game.in_communication_window() and rng.random() < 0.3:  # sometimes a seat out of turn speaks
                actions = game.optional_actions(rng.randrange(game.n)) or actions
            game.apply(rng.choice(actions))
    if game.rules.comm_enabled or game.rules.distress_enabled:
        assert windows, "no communication window was ever reached"


def test_persian_bots_signal_in_simulations() -> None:
    """What the old driver never did: a random bot in crew-persian signals."""
    from crewkit.families.trick_taking.bots.random_bot import RandomBot

    signals = 0
    for i in range(10):
        game = new_game("crew-persian", "persian", 4, seed=f"signal-{i}")
        play_game(game, [RandomBot(s, seed=str(i), optional_probability=0.5) for s in range(game.n)])
        signals += sum(1 for c in game.communications if c.statement == "signal")
    assert signals > 0


def test_persian_distress_reading_is_offered() -> None:
    """`persian-distress=as-standard` once enabled a distress signal nobody was ever offered (signals only)."""
    game = new_game("crew-persian", "persian", 4, seed="distress", readings={"persian-distress": "as-standard"})
    assert game.in_communication_window()
    assert {a.type for a in game.optional_actions(game.to_act)} == {"distress"}
    default = new_game("crew-persian", "persian", 4, seed="distress")
    assert not default.in_communication_window() and not default.optional_actions(default.to_act)
