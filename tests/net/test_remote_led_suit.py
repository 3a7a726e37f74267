"""A hosted seat's view reads a trick's colour by the engine's one rule (:func:`trick_led_suit`): after a led
Hammer 10 the next coloured card's. The host sends the cards, not the colour, so the view once took the first
card's (none for the 10) and its card tracker showed no void in such a trick."""

from __future__ import annotations

import random

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.observation_json import observation_json
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.engine.tracking import card_tracker, shown_voids
from crewkit.families.trick_taking.tui.remote import RemoteObservation


def test_a_hosted_seat_reads_every_tricks_colour_as_the_engine_does() -> None:
    ten_led = 0
    # (game seed, action seed, actions): random states, and one whose trick in play was led by the 10
    for seed, actions_seed, steps in [*((f"remote-led-{i}", i, 40 + 17 * i) for i in range(6)), ("h54", 54, 101)]:
        game = new_game("hammer", "hammer", 4, seed=seed)
        rng = random.Random(actions_seed)
        for _ in range(steps):
            if game.is_over():
                break
            legal = [a for a in game.legal_actions(game.to_act) if not isinstance(a, Communicate | Distress)]
            game.apply(rng.choice(legal))
        obs = game.observation(0)
        remote = RemoteObservation(observation_json(obs), obs.rules)
        assert remote.led_suit == obs.led_suit
        assert [t.led_suit for t in remote.tricks] == [t.led_suit for t in obs.tricks]
        assert shown_voids(remote) == shown_voids(obs)  # type: ignore[arg-type]
        assert card_tracker(remote).voids == card_tracker(obs).voids  # type: ignore[arg-type]
        led = [*((t.plays, t.led_suit) for t in obs.tricks), (obs.current_trick, obs.led_suit)]
        ten_led += sum(1 for plays, suit in led if plays and plays[0][1].suit is None and suit is not None)
    assert ten_led, "no trick led by the 10 in these games: the test would not tell the rules apart"
