"""No bot but ``random`` decides anything at random: every bundled rule set × mission × player count is played
by each bot with :data:`crewkit.families.trick_taking.bots.undecided.STRICT` set, so that a decision with no
policy (the old "a seeded choice" fallback) raises instead of being drawn.

The fast and rules bots play every case; the heuristic and expert bots, slower, a sample that still holds every
kind of decision (questions, role choices with and without conditions, the commander's hand-out, task-card
picks and volunteers, JARVIS, Hammer's dealer)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from crewkit.families.trick_taking.analysis.loading import load_rules, start_game
from crewkit.families.trick_taking.bots import make_bot, undecided
from crewkit.families.trick_taking.family import play_game
from crewkit.spec import bundled
from crewkit.spec.loader import load_mission

# rule sets whose games are a set of missions played in rounds or drawn: played by the set's name
MISSION_SETS = {"crew-persian": "persian", "hammer": "hammer"}
# the player counts of each rule set when the mission does not name its own
COUNTS = {"crew-jarvis": (2,), "crew-deep-sea-tonoja": (2,), "crew-3p-challenge": (3,)}


def cases() -> Iterator[tuple[str, str, int]]:
    names = {p.stem for p in bundled.bundled_rulesets()}
    seen: set[tuple[str, str, int]] = set()
    for path in bundled.bundled_missions():
        ms = load_mission(str(path))
        rulesets = [r for r in ms.data.get("rulesets") or ["crew"] if r in names]
        if "crew" in rulesets and "crew-jarvis" not in rulesets:
            rulesets.append("crew-jarvis")  # every logbook mission is meant to be playable with JARVIS
        if "crew" in rulesets and "crew-3p-challenge" not in rulesets and ms.id.startswith("planet-nine"):
            rulesets.append("crew-3p-challenge")
        for rs in rulesets:
            mission = MISSION_SETS.get(rs, ms.id)
            counts = COUNTS.get(rs) or tuple(ms.data.get("players") or (3, 4, 5))
            for n in counts:
                key = (rs, mission, n)
                if key not in seen:
                    seen.add(key)
                    yield key


CASES = list(cases())


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(undecided, "STRICT", True)


def play(bot: str, ruleset: str, mission: str, players: int, seed: str) -> None:
    try:
        rules = load_rules(ruleset, mission, players)
    except Exception as exc:  # a combination the mission does not allow (player count): nothing to decide
        pytest.skip(f"{ruleset} {mission} {players}: {exc}")
    game = start_game(rules, None, seed)
    play_game(game, [make_bot(bot, s, seed) for s in range(game.n)])
    assert game.is_over()


@pytest.mark.parametrize("bot", ["fast", "rules"])
@pytest.mark.parametrize(("ruleset", "mission", "players"), CASES, ids=[f"{r}:{m}:{n}" for r, m, n in CASES])
def test_no_random_choice(strict: None, bot: str, ruleset: str, mission: str, players: int) -> None:
    play(bot, ruleset, mission, players, "strict")
