"""The expert judges the plays that take a teammate's task card by search instead of dropping them
(``ExpertBot.safe_bonus``): in this position of planet-nine/36 (game ``expert-targets:1`` of
``crewkit simulate --bot expert``, trick 5, the third card) the only card that keeps the deal winnable takes the
lead over a teammate's task card, which its owner overtakes later."""

from __future__ import annotations

import json

from crewkit.families.trick_taking.bots.expert import ExpertBot
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.record import replay_record
from crewkit.families.trick_taking.playing import TrickTakingGame
from crewkit.families.trick_taking.solve import TrickSearch
from crewkit.families.trick_taking.solve import native as solver_native
from tests import native_marks

pytestmark = native_marks.needs_c(solver_native)

# the game up to the position (a record as ``crewkit`` writes it)
RECORD = json.loads(r"""{"format": "crewkit-record/1", "ruleset": "crew", "mission": "planet-nine/36", "players": 4, "seed": "expert-targets:1", "deal": {"hands": [["rocket 2", "green 4", "green 6", "yellow 2", "yellow 1", "blue 2", "green 2", "pink 6", "rocket 3", "blue 1"], ["rocket 1", "yellow 3", "blue 8", "pink 5", "blue 6", "pink 8", "pink 1", "yellow 5", "blue 7", "pink 3"], ["green 8", "yellow 8", "pink 7", "green 5", "green 1", "blue 3", "green 3", "yellow 9", "blue 5", "pink 4"], ["blue 9", "green 9", "pink 2", "yellow 4", "yellow 6", "green 7", "pink 9", "yellow 7", "blue 4", "rocket 4"]], "tasks": ["green 7", "pink 5", "blue 6", "green 5", "pink 7", "blue 9", "green 2"]}, "actions": [{"seat": 3, "type": "answer", "answer": "yes"}, {"seat": 0, "type": "answer", "answer": "no"}, {"seat": 1, "type": "answer", "answer": "no"}, {"seat": 2, "type": "answer", "answer": "no"}, {"seat": 3, "type": "give-task", "card": "green 7", "to": 3}, {"seat": 3, "type": "answer", "answer": "no"}, {"seat": 0, "type": "answer", "answer": "no"}, {"seat": 1, "type": "answer", "answer": "yes"}, {"seat": 2, "type": "answer", "answer": "no"}, {"seat": 3, "type": "give-task", "card": "pink 5", "to": 2}, {"seat": 3, "type": "answer", "answer": "no"}, {"seat": 0, "type": "answer", "answer": "no"}, {"seat": 1, "type": "answer", "answer": "yes"}, {"seat": 2, "type": "answer", "answer": "no"}, {"seat": 3, "type": "give-task", "card": "blue 6", "to": 1}, {"seat": 3, "type": "answer", "answer": "no"}, {"seat": 0, "type": "answer", "answer": "no"}, {"seat": 1, "type": "answer", "answer": "no"}, {"seat": 2, "type": "answer", "answer": "yes"}, {"seat": 3, "type": "give-task", "card": "green 5", "to": 3}, {"seat": 3, "type": "answer", "answer": "no"}, {"seat": 0, "type": "answer", "answer": "no"}, {"seat": 1, "type": "answer", "answer": "no"}, {"seat": 2, "type": "answer", "answer": "yes"}, {"seat": 3, "type": "give-task", "card": "pink 7", "to": 2}, {"seat": 3, "type": "answer", "answer": "yes"}, {"seat": 0, "type": "answer", "answer": "no"}, {"seat": 1, "type": "answer", "answer": "no"}, {"seat": 2, "type": "answer", "answer": "no"}, {"seat": 3, "type": "give-task", "card": "blue 9", "to": 0}, {"seat": 3, "type": "answer", "answer": "no"}, {"seat": 0, "type": "answer", "answer": "yes"}, {"seat": 1, "type": "answer", "answer": "no"}, {"seat": 2, "type": "answer", "answer": "no"}, {"seat": 3, "type": "give-task", "card": "green 2", "to": 0}, {"seat": 3, "type": "communicate", "card": "blue 9", "position": "top"}, {"seat": 1, "type": "communicate", "card": "blue 8", "position": "top"}, {"seat": 2, "type": "communicate", "card": "green 8", "position": "top"}, {"seat": 3, "type": "play", "card": "yellow 7"}, {"seat": 0, "type": "play", "card": "yellow 2"}, {"seat": 1, "type": "play", "card": "yellow 5"}, {"seat": 2, "type": "play", "card": "yellow 9"}, {"seat": 2, "type": "play", "card": "green 3"}, {"seat": 3, "type": "play", "card": "green 7"}, {"seat": 0, "type": "play", "card": "green 6"}, {"seat": 1, "type": "play", "card": "blue 8"}, {"seat": 3, "type": "play", "card": "yellow 6"}, {"seat": 0, "type": "play", "card": "yellow 1"}, {"seat": 1, "type": "play", "card": "yellow 3"}, {"seat": 2, "type": "play", "card": "yellow 8"}, {"seat": 2, "type": "play", "card": "pink 4"}, {"seat": 3, "type": "play", "card": "pink 9"}, {"seat": 0, "type": "play", "card": "pink 6"}, {"seat": 1, "type": "play", "card": "pink 1"}, {"seat": 3, "type": "play", "card": "pink 2"}, {"seat": 0, "type": "play", "card": "blue 1"}], "result": {"tricks_won": [0, 0, 2, 2], "distress_used": false}, "outcome": "in-progress", "reason": "trick 5 of 10, seat 1 to play"}""")


def _keeps(game: object, card: int) -> bool:
    g = game.clone()  # type: ignore[attr-defined]
    g.apply(Play(1, g.rules.deck.cards[card]))
    return bool(TrickSearch(g).run(max_nodes=300_000))


def test_the_only_winnable_card_takes_a_teammates_task_card() -> None:
    game = replay_record(RECORD).game
    assert game is not None
    obs = TrickTakingGame(game).seat_observation(1)
    names = {a.card.id: a.card.name for a in obs.legal if type(a) is Play}
    seed = "expert-targets:1:blunder:0"
    new = ExpertBot(1, seed).act(obs).card.id  # type: ignore[attr-defined]
    # the old veto leaves only losing cards, whatever the budget: a small one keeps the test cheap
    old = ExpertBot(1, seed, safe_bonus=None, worlds=4, rollout_worlds=8).act(obs).card.id  # type: ignore[attr-defined]
    assert names[new] == "pink 5"
    assert names[old] != "pink 5"
    # the solver on the true hands: the new card keeps the deal winnable, the old one loses it
    assert _keeps(game, new)
    assert not _keeps(game, old)


def test_a_safe_card_wins_a_tie() -> None:
    game = replay_record(RECORD).game
    assert game is not None
    obs = TrickTakingGame(game).seat_observation(1)
    bot = ExpertBot(1, "tie", safe_bonus=0.05, worlds=1, rollout_worlds=0, rollouts=False, total_nodes=0)
    # no world solved: every card scores 0 but the safe ones, which get the bonus
    assert bot.act(obs).card.name != "pink 5"  # type: ignore[attr-defined]
