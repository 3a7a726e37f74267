"""``Block.needs`` is a speed-up, never a change of the rules.

A composition leaves out the hooks its rule set cannot use (no after-play check without mission conditions,
no draws, no distress or gold-frame offers when those are off, mid-trick only the blocks that offer then).
Here every game is played twice, once with those hooks left out and once with every hook a block defines
(``needs`` answering True), and the two must agree on every legal action, optional offer, event and outcome.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from crewkit.engine import registry
from crewkit.engine.phase import BLOCKS, Block
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.rules import Rules

CASES = [
    ("crew", "planet-nine/05", 4, {}),  # mission conditions (after play and after the trick)
    ("crew", "planet-nine/12", 4, {}),  # draws from a neighbour
    ("crew", "planet-nine/13", 3, {}),
    ("crew", "planet-nine/25", 5, {}),  # gold frame, dead zone
    ("crew", "planet-nine/28", 5, {}),
    ("crew-jarvis", "planet-nine/12", 2, {"jarvis-pickpocket": "any-card", "jarvis-communication": "jarvis-takes-part"}),
    ("crew-persian", "persian", 4, {"signal-must-win": "must-win-same-trick", "signal-who": "everyone-once",
                                    "persian-distress": "as-standard"}),
    ("crew-persian", "persian/level-2", 3, {"signal-who": "commander-every-trick"}),
    ("hammer", "hammer", 4, {}),
]


def _trace(rules: Rules, seed: str) -> list[Any]:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    out: list[Any] = []
    for _ in range(400):
        if game.is_over():
            break
        out.append((str(game.phase), game.to_act, game.in_communication_window()))
        optional = []
        for seat in range(game.n):
            legal = game.legal_actions(seat)
            opts = game.optional_actions(seat)
            assert game.has_optional_actions(seat) == bool(opts)
            out.append((seat, legal, opts))
            optional += opts
        legal = game.legal_actions()
        required = [a for a in legal if a not in optional] or legal
        pick = optional if optional and rng.random() < 0.3 else required
        game.apply(pick[int(rng.random() * len(pick))])
    out.append((game.events, str(game.outcome())))
    return out


@pytest.mark.parametrize(("ruleset", "mission", "players", "readings"), CASES,
                         ids=[f"{c[0]}:{c[1]}:{c[2]}" for c in CASES])
def test_leaving_out_unneeded_hooks_changes_no_game(ruleset: str, mission: str, players: int,
                                                    readings: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules(ruleset, mission, players, readings)
    monkeypatch.setattr(registry, "_COMPOSED", {})
    pruned = registry.compose(rules).hooks
    lean = [_trace(rules, f"needs:{i}") for i in range(8)]

    monkeypatch.setattr(registry, "_COMPOSED", {})
    for cls in {Block, *BLOCKS.values()}:
        if "needs" in vars(cls):
            monkeypatch.setattr(cls, "needs", lambda self, hook, rules: True)
    full = registry.compose(rules).hooks
    counts = [(len(h.optional), len(h.optional_in_trick), len(h.trick_end), len(h.after_play)) for h in (full, pruned)]
    assert all(f >= p for f, p in zip(*counts, strict=True))
    assert [_trace(rules, f"needs:{i}") for i in range(8)] == lean


def test_a_plain_crew_mission_runs_only_the_hooks_it_needs() -> None:
    plain = registry.compose(load_rules("crew", "planet-nine/25", 4)).hooks
    assert plain.after_play == ()  # no mission conditions: nothing to check after a card
    assert plain.optional_in_trick == ()  # communication and distress wait for the trick's end
    assert [h.__module__.rsplit(".", 1)[-1] for h in plain.trick_end] == ["objectives"]
    conditions = registry.compose(load_rules("crew", "planet-nine/05", 4)).hooks
    assert len(conditions.after_play) == 1
    signal = registry.compose(load_rules("crew-persian", "persian", 4,
                                         {"signal-must-win": "must-win-same-trick"})).hooks
    assert len(signal.optional_in_trick) == 1  # the in-trick signal
    assert "communication" in [h.__module__.rsplit(".", 1)[-1] for h in signal.trick_end]
