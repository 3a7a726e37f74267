"""A second game on the board engine: a made-up rule set (``second_game/wardens.yaml``) whose roles, tracks,
decks, tokens and counter have names of its own. Random games run to their end by its own tracks, the right
role wins, and no line of the log, no observation and no record speaks of Not Alone's things: the engine reads
every name from the rule set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.families.not_alone.board import BoardGame, new_board_game
from crewkit.families.not_alone.record import board_record
from crewkit.families.not_alone.state import LONE, CardsState, ResourceState, TracksState

from .scenario import random_play

RULESET = Path(__file__).parent / "second_game" / "wardens.yaml"
NOT_ALONE_WORDS = ("creature", "hunted", "rescue", "assimilation", "artemia", "survival", "hunt card", "will")


def play_out(players: int, seed: int) -> BoardGame:
    return random_play(new_board_game(RULESET, players, seed=f"w{seed}", names=[f"P{i}" for i in range(players)]), seed)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(6))
def test_a_made_up_game_runs_to_its_end_by_its_own_tracks(players: int, seed: int) -> None:
    g = play_out(players, seed)
    assert g.is_over()
    tracks = g.state(TracksState)
    assert set(tracks.goal) == {"escape", "capture"}
    assert tracks.goal == {"escape": 6 + players - 2, "capture": 4 + players - 2}
    reached = [t for t, pos in tracks.position.items() if pos == tracks.goal[t]]
    assert len(reached) == 1
    assert g.winners == ((LONE,) if reached == ["capture"] else tuple(range(1, players)))
    assert g.role_of(g.winners[0]) == ("warden" if reached == ["capture"] else "runner")
    cards = g.state(CardsState)
    assert set(cards.hands) == {"claws", "tricks"}  # the decks the rule set declares, nothing else
    assert sum(len(h) for h in cards.hands["tricks"]) + len(cards.draw["tricks"]) + len(cards.discard["tricks"]) == 4
    assert all(0 <= v <= 2 for v in g.state(ResourceState).value)  # counter.start: 2
    text = "\n".join(line.text for line in g.lines).lower()
    for word in NOT_ALONE_WORDS:
        assert word not in text, word
    assert ("the warden" in text) and ("nerve" in text or "escape" in text)
    record = board_record(g)
    assert record["result"]["winning_side"] in ("warden", "runner")
    for seat in range(players):
        obs = g.observation(seat)
        assert obs.role in ("warden", "runner")
        dumped = json.dumps([obs.tracks, obs.draw_piles, list(obs.discards), obs.log]).lower()
        assert not any(w in dumped for w in NOT_ALONE_WORDS)


def test_its_tokens_do_what_its_rule_set_says() -> None:
    """The claw catches (nerve lost, Capture moved once), the net makes the Runner discard, a Runner hiding
    from the claw uses the place's power: the tokens' effects come from ``tokens:``."""
    from crewkit.families.not_alone.blocks import Pass, PlaceToken, PlayPlaces
    from crewkit.families.not_alone.state import PilesState

    g = new_board_game(RULESET, 3, seed="tokens")
    cards = g.state(CardsState)
    cards.hands["claws"][LONE] = ["snare", "rush"]
    cards.hands["tricks"] = [[], [], []]
    while g.waiting() == (LONE,) and g.phase == "stalk":
        g.apply(Pass(LONE))
    g.apply(PlayPlaces(1, (2,)))
    g.apply(PlayPlaces(2, (3,)))
    snare = [a for a in g.legal_actions(LONE) if a.to_json().get("card") == "snare" and a.to_json()["places"] == [3]]
    g.apply(snare[0])
    g.apply(PlaceToken(LONE, "claw", (2,)))
    while not g.is_over() and g.question is None:
        g.apply(g.legal_actions(g.waiting()[0])[-1])  # pass every card window
    g.apply(g.legal_actions(2)[0])  # the net: Player 3 discards a place card (the Den)
    # the Warden played its one claw card of the round, so the dusk window is skipped and the round ends
    assert g.round == 2 and g.waiting() == (1, 2)
    res, tracks, piles = g.state(ResourceState), g.state(TracksState), g.state(PilesState)
    assert res.value[1] == 1 and tracks.position["capture"] == 1  # caught by the claw on the Brook
    assert res.value[2] == 2 and piles.hand[2] == [2] and sorted(piles.discard[2]) == [1, 3]  # net, then upkeep
    assert tracks.position["escape"] == 1  # round-upkeep's move_track
    text = [line.text for line in g.lines]
    assert "Player 2 is caught by the Claw token on the Brook." in text
    assert "Player 3 is caught by the Net token on the Ridge." in text
    with pytest.raises(IllegalAction):
        g.apply(PlaceToken(LONE, "claw", (5,)))  # not the token phase
