"""A joined seat's client reads the host's observation back into the objects its table screen draws: the same
objects the local table reads from the game (Not Alone's :class:`BoardObservation`, Hammer's match)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.families.not_alone.family import FAMILY
from crewkit.families.not_alone.observation import board_observation_from_json
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState, match_of
from crewkit.families.trick_taking.tui.remote import JoinSetup, RemoteGame, compile_rules
from crewkit.games import open_game


@settings(max_examples=6, deadline=None)
@given(seed=st.text(alphabet="abcdefgh", min_size=1, max_size=6), players=st.integers(2, 5))
def test_a_not_alone_observation_reads_back_the_same_at_every_moment(seed: str, players: int) -> None:
    game = FAMILY.open("not-alone", None, players, seed)
    rng = random.Random(seed)
    for _ in range(400):
        for seat in range(players):
            assert board_observation_from_json(game.observation(seat)) == game.engine.observation(seat)
        if game.is_over():
            break
        seat = game.waiting()[0]
        game.apply(rng.choice(game.legal_actions(seat)))


def test_hammer_s_match_reads_back_the_same_after_every_round() -> None:
    game = open_game("hammer", "hammer/05", 4, "match-json")
    rules = compile_rules(JoinSetup("hammer", "hammer/05", 4, {}))
    rng = random.Random(1)
    rounds_checked = 0
    while not game.is_over():
        seat = game.waiting()[0]
        game.apply(rng.choice(game.legal_actions(seat)))
        match = match_of(game.engine)
        assert match is not None
        if len(match.round_results) > rounds_checked or game.is_over():
            rounds_checked = len(match.round_results)
            for seat in range(4):
                state = {"seq": 0, "seat": seat, "observation": game.observation(seat), "log": [], "legal": [],
                         "over": game.is_over(), "turn": False, "window": False,
                         "outcome": {"result": "", "words": ""}}
                remote = RemoteGame(state, rules)
                read = remote.state(MatchState)
                assert (read.round, read.first_dealer, read.chips) == (match.round, match.first_dealer, match.chips)
                assert read.round_results == match.round_results and read.round_tricks == match.round_tricks
                assert read.round_mission == match.round_mission and remote.dealer == game.engine.dealer
                assert remote.mode == game.engine.mode
    assert rounds_checked == 8
