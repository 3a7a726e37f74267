"""The bots' setup decisions (:mod:`crewkit.families.trick_taking.bots.choices`): answers that tell the truth about
the hand by a rule every bot knows, and a commander who reads them."""

from __future__ import annotations

import pytest

from crewkit.engine.phase import TRICKS
from crewkit.families.trick_taking.analysis.loading import load_rules, start_game
from crewkit.families.trick_taking.bots import make_bot, undecided
from crewkit.families.trick_taking.bots.choices import ask_answer, hand_strength, wants_answer
from crewkit.families.trick_taking.engine.observation import observe
from crewkit.families.trick_taking.engine.step_actions import GiveTask

SETUP_SAMPLE = [
    ("crew", "planet-nine/05", 4), ("crew", "planet-nine/11", 4), ("crew", "planet-nine/20", 4),
    ("crew", "planet-nine/23", 4), ("crew", "planet-nine/24", 4), ("crew", "planet-nine/40", 4),
    ("crew", "planet-nine/50", 4), ("crew-jarvis", "planet-nine/05", 2), ("crew-jarvis", "planet-nine/24", 2),
    ("crew-deep-sea", "deep-sea/10", 4), ("crew-deep-sea", "deep-sea/14", 4), ("crew-deep-sea", "deep-sea/26", 4),
    ("crew-deep-sea-tonoja", "deep-sea/06", 2), ("hammer", "hammer", 4),
]


@pytest.mark.parametrize("bot", ["heuristic", "expert"])
@pytest.mark.parametrize(("ruleset", "mission", "players"), SETUP_SAMPLE,
                         ids=[f"{r}:{m}:{n}" for r, m, n in SETUP_SAMPLE])
def test_slow_bots_decide_every_setup_step(monkeypatch: pytest.MonkeyPatch, bot: str, ruleset: str, mission: str,
                                           players: int) -> None:
    """The heuristic and expert bots through every kind of setup decision (up to the first card) with the
    random fallback raising."""
    monkeypatch.setattr(undecided, "STRICT", True)
    game = start_game(load_rules(ruleset, mission, players), None, "setup")
    bots = [make_bot(bot, s, "setup") for s in range(game.n)]
    decided = 0
    while game.phase != TRICKS and not game.is_over():
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(observe(game, seat)))
        decided += 1
    assert decided > 0


def test_answers_follow_the_hand() -> None:
    """The strongest hands answer the first answer, the weakest the last; the card's holder wants its task."""
    rules = load_rules("crew", "planet-nine/05", 4)
    deck = rules.deck
    strong = sum(c.bit for c in deck.cards if c.rank >= 7 or c.suit is not None and c.suit.trump)
    weak = sum(c.bit for c in deck.cards if c.rank <= 3 and not (c.suit is not None and c.suit.trump))

    def first(mask: int, k: int) -> int:
        out = 0
        for c in deck.cards:
            if mask >> c.id & 1 and bin(out).count("1") < k:
                out |= c.bit
        return out

    strong10, weak10 = first(strong, 10), first(weak, 10)
    assert hand_strength(rules, strong10) > hand_strength(rules, weak10)
    assert ask_answer(rules, strong10, ["good", "bad"]) == "good"
    assert ask_answer(rules, weak10, ["good", "bad"]) == "bad"
    nine = next(c for c in deck.cards if c.rank == 9 and c.suit is not None and not c.suit.trump)
    assert wants_answer(rules, strong10 | nine.bit, nine.id, 4) == "yes"
    assert wants_answer(rules, weak10, nine.id, 4) == "no"


def test_commander_picks_the_sick_player_from_the_answers() -> None:
    """Mission 05: the sick player chosen is one who said they feel bad in most deals (it was drawn blind)."""
    rules = load_rules("crew", "planet-nine/05", 4)
    agree = asked = 0
    for i in range(12):
        game = start_game(rules, None, f"sick:{i}")
        bots = [make_bot("fast", s, f"sick:{i}") for s in range(game.n)]
        while game.phase != TRICKS:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].act(observe(game, seat)))
        answers = dict(game.questions[0][1])
        bad = {s for s, a in answers.items() if a == "bad"}
        if bad and len(bad) < len(answers):
            asked += 1
            agree += game.roles["sick"] in bad
    assert asked >= 4
    assert agree >= asked - 1


def test_commander_reads_the_answers_when_handing_out_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mission 24: the tasks go to players whose hands (as dealt) suit them better than where the same commander
    gives them with the answers ignored (it handed them out at random, then by affinity alone)."""
    from crewkit.families.trick_taking.bots import choices
    from crewkit.families.trick_taking.bots.knowledge import _task_affinity

    rules = load_rules("crew", "planet-nine/24", 4)
    read = blind = 0.0
    differ = 0
    for i in range(6):
        game = start_game(rules, None, f"quartermaster:{i}")
        bots = [make_bot("fast", s, f"quartermaster:{i}") for s in range(game.n)]
        while game.phase != TRICKS:
            seat = game.to_act
            assert seat is not None
            obs = observe(game, seat)
            action = bots[seat].act(obs)
            if isinstance(action, GiveTask):
                with monkeypatch.context() as m:
                    m.setattr(choices, "answer_checks", lambda obs: [])
                    unread = make_bot("fast", seat, f"quartermaster:{i}").act(obs)
                assert isinstance(unread, GiveTask)
                read += _task_affinity(rules, game.hands[action.player], action.card.id)
                blind += _task_affinity(rules, game.hands[unread.player], action.card.id)
                differ += action.player != unread.player
            game.apply(action)
    assert differ >= 6  # the answers change where tasks go
    assert read > blind * 1.1, (read, blind)
