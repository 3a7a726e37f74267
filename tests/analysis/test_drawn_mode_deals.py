"""Missions that draw a card for the communication mode (Mission Deep Sea, unfamiliar terrain): a played deal
(``game.rules`` and ``game.deal``, as ``crewkit check`` replays it to trace conditions) deals again the same."""

from __future__ import annotations

import dataclasses

import pytest

from crewkit.analysis.check import check_mission
from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.spec.bundled import bundled_missions
from crewkit.spec.loader import load_mission, load_ruleset

DEEP_SEA = [f"deep-sea/{p.stem.split('-')[0]}" for p in bundled_missions() if p.parent.name == "deep-sea"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_check_mission_27_plays_its_deals(players: int) -> None:
    # mission 27 has a condition, so check replays each deal to trace it: the replay refused the drawn card
    report = check_mission("deep-sea/27", players=[players], games=4, workers=1, solver=False)
    (count,) = report.counts
    assert count.error == ""
    assert count.games == 4


@pytest.mark.parametrize("mission", DEEP_SEA)
def test_a_played_deal_deals_again_under_the_rules_in_force(mission: str) -> None:
    players = 4 if 4 in load_mission(mission_file(mission)).players(load_ruleset("crew-deep-sea")) else 3
    rules = load_rules("crew-deep-sea", mission_file(mission), players)
    base = new_game("crew-deep-sea", mission, players, seed="again")
    ranks = sorted({c.rank for c in rules.deck.cards if c.suit is not None and not c.is_trump})
    cards = [next(c for c in rules.deck.cards if c.rank == r and c.suit is not None and not c.is_trump)
             for r in ranks] if rules.drawn_modes else [None]
    for card in cards:
        game = Game.new(rules, seed="again", deal=dataclasses.replace(base.deal, mode_card=card))
        again = Game.new(game.rules, seed="again", deal=game.deal)  # what check's condition trace does
        assert again.rules.comm_mode == game.rules.comm_mode
        assert again.deal == game.deal
        assert again.legal_actions() == game.legal_actions()
        if card is not None:
            other = next((c for c in cards if c is not None and c.rank not in (game.rules.drawn_ranks or ())), None)
            if other is not None:  # a card that draws another mode is refused by the rules of this one
                with pytest.raises(SetupError, match="communication mode"):
                    Game.new(game.rules, seed="again", deal=dataclasses.replace(game.deal, mode_card=other))


def mission_file(mission: str) -> str:
    from crewkit.spec.bundled import mission_path

    return str(mission_path(mission))
