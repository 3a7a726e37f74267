"""The fast bot reads the answers in its card play (issue 43): after the players answered questions about their
hands (the commander's "who wants this task?" on missions 24, 32, 36), it weighs each card over worlds in which
every other seat's hand gives the answers it gave, played out in C; the plain look-ahead's worlds know only
the cards seen and the voids."""

from __future__ import annotations

import functools

import pytest

from crewkit.families.trick_taking.analysis.loading import load_rules, start_game
from crewkit.families.trick_taking.bots import choices, make_bot
from crewkit.families.trick_taking.bots.fast import FastBot, answer_world_wins
from crewkit.families.trick_taking.bots.fastcore import native_decider, position
from crewkit.families.trick_taking.bots.knowledge import Knowledge
from crewkit.families.trick_taking.bots.mended_worlds import played_by
from crewkit.families.trick_taking.bots.sim import table_for
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, observe


@functools.cache
def _first_card_after_answers(seed: str) -> tuple[Game, Observation]:
    """Mission 36 played by fast bots up to the first card a seat chooses among several in the tricks."""
    game = start_game(load_rules("crew", "planet-nine/36", 4), None, seed)
    bots = [make_bot("fast", s, seed) for s in range(game.n)]
    while True:
        seat = game.to_act
        assert seat is not None
        obs = observe(game, seat)
        plays = [a for a in obs.legal if isinstance(a, Play)]
        if len(plays) > 2 and obs.questions and not game.is_over():
            return game, obs
        game.apply(bots[seat].act(obs))


def test_the_worlds_meet_the_answers_and_c_counts_the_play_outs_as_python_does() -> None:
    game, obs = _first_card_after_answers("answers")
    checks = choices.answer_checks(obs)
    assert checks, "the hand-out's answers are public"
    know = Knowledge(obs)
    bot = FastBot(obs.seat, "answers")
    worlds = [choices.consistent_sample(know, obs, bot.rng, checks, 24) for _ in range(12)]
    plain = [know.sample(bot.rng) for _ in range(12)]
    gone = played_by(obs)

    def met(hands: list[int]) -> int:
        return sum(predict(hands[seat] | gone[seat]) in (None, given) for seat, predict, given in checks)

    # the worlds meet more of the answers than worlds drawn from the cards seen and the voids alone (late in a
    # hand-out of many tasks no draw may meet them all: the one that meets the most is kept)
    assert sum(map(met, worlds)) > sum(map(met, plain)), ([met(w) for w in worlds], [met(w) for w in plain])
    for hands in worlds:  # and every world agrees with what the seat sees
        assert hands[obs.seat] == obs.hand_mask
    cands = sorted(a.card.id for a in obs.legal if isinstance(a, Play))
    pos = position(obs, know, 0, True, 0)
    decider = native_decider(table_for(obs.rules))
    if decider is None:
        pytest.skip("the fast bot's C library is not available")
    # one world in which some card wins and another loses (the Python play-outs of nine tasks take a second
    # each): C and Python count the same there
    split = next(w for w in worlds if len(set(answer_world_wins(obs, pos, cands, [w], decider).values())) > 1)
    in_c = answer_world_wins(obs, pos, cands, [split], decider)
    two = [max(cands, key=lambda c: in_c[c]), min(cands, key=lambda c: in_c[c])]  # one won, one lost
    assert answer_world_wins(obs, pos, two, [split], None) == {c: in_c[c] for c in two} == {two[0]: 1, two[1]: 0}


def test_the_card_chosen_wins_most_play_outs_over_the_answers_worlds() -> None:
    game, obs = _first_card_after_answers("answers")
    chosen = FastBot(obs.seat, "answers-2").act(obs)
    assert isinstance(chosen, Play)
    # the same worlds again (the same seed): the card chosen wins at least as many play-outs as any other
    again = FastBot(obs.seat, "answers-2")
    know = Knowledge(obs)
    again.rng.getrandbits(64)  # the plain look-ahead's seed, drawn before the worlds
    worlds = [choices.consistent_sample(know, obs, again.rng, choices.answer_checks(obs), again.answer_tries)
              for _ in range(again.answer_worlds)]
    cands = sorted(a.card.id for a in obs.legal if isinstance(a, Play))
    wins = answer_world_wins(obs, position(obs, know, 0, True, 0), cands, worlds,
                             native_decider(table_for(obs.rules)))
    assert wins[chosen.card.id] == max(wins.values()) > 0, (wins, chosen)


def test_the_experts_solved_worlds_meet_the_answers() -> None:
    """The expert's solved worlds are each the draw that meets the most answers (``answer_tries``); with the
    answers not read (0) they meet fewer."""
    from crewkit.families.trick_taking.bots.expert import ExpertBot

    game, obs = _first_card_after_answers("answers")
    checks = choices.answer_checks(obs)
    gone = played_by(obs)
    met: dict[int, float] = {}
    for tries in (0, 8):
        bot = ExpertBot(obs.seat, "answers", worlds=8, nodes=300, total_nodes=3_000, rollout_worlds=0,
                        winnable_filter=0, answer_tries=tries)
        bot.act(obs)
        worlds = [hands for hands, _ in bot.last["world_hands"]]
        assert worlds
        met[tries] = sum(sum(predict(h[seat] | gone[seat]) in (None, given) for seat, predict, given in checks)
                         for h in worlds) / len(worlds)
    assert met[8] > met[0], met
