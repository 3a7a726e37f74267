"""Every failure reason names what failed, in words, and is the reason of what really failed.

Every Planet Nine mission is played to failures at 3, 4 and 5 players (random bots, and the fast bot, which
gets further into the conditions), and each failure is judged again by the independent referee
(``tests/referee.py``), which says what decided it: a task card won by another player, the task order, the
mission conditions its rule breaks (by the ids of the mission file), or the hands running out. The engine's
reason must say that: the task card and both players; the reason of the first broken condition in the file's
order with its seats and trick filled in; the conditions with a ``done_if`` still open, in words, and never
a condition that has only a ``fail_if`` (it cannot be "not fulfilled").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crewkit.dsl import ast as A
from crewkit.dsl.words import words
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.spec.campaigns import load_campaign
from crewkit.spec.loader import load_mission
from tests.referee import FAILURE, explain

MISSIONS = list(load_campaign("planet-nine").missions)
RANDOM_GAMES = 12
FAST_GAMES = 2


def _template_pattern(parts: tuple[object, ...], game: Game, trick: int) -> re.Pattern[str]:
    """A reason template as a pattern: literal text as written, a role by its seat, ``trick.number`` (the
    trick the condition failed in) by its number, any other expression by some text."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(re.escape(part))
        elif isinstance(part, A.Name) and part.name in game.roles:
            out.append(str(game.roles[part.name]))
        elif isinstance(part, A.Field) and part.name == "number" and isinstance(part.obj, A.Name) \
                and part.obj.name == "trick":
            out.append(str(trick))
        else:
            out.append(".+?")
    return re.compile("".join(out))


def check_reason(game: Game, mission: str) -> str:
    """Assert the engine's reason for a failed game is the referee's cause; return the cause."""
    outcome = game.outcome()
    result, trick, cause = explain(game, mission)
    assert (outcome.result, outcome.trick) == (result, trick)
    reason = outcome.reason
    conditions = {c.id: c for c in load_mission(mission).conditions}
    if cause.startswith("task "):
        card = cause.removeprefix("task ")
        owner = next(t.owner for t in game.tasks if t.card.name == card)
        winner = game.tricks[trick - 1].winner
        assert reason == f"failed in trick {trick}: {card} won by seat {winner}, task of seat {owner}", reason
    elif cause == "order":
        assert reason.startswith(f"failed in trick {trick}: task order broken by "), reason
    elif cause.startswith("conditions "):
        ids = cause.removeprefix("conditions ").split(",")
        first = next(cid for cid in conditions if cid in ids)  # the engine checks them in the file's order
        pattern = _template_pattern(conditions[first].reason.expr, game, trick)
        body = reason.removeprefix(f"failed in trick {trick}: ")
        assert body != reason and pattern.fullmatch(body), (reason, first, pattern.pattern)
    elif cause == "tasks undone":
        assert reason.startswith(f"failed after trick {trick}: the hands ran out with tasks undone: "), reason
        for t in game.tasks:
            assert (f"{t.card} (seat {t.owner})" in reason) == (not t.done), reason
    else:
        assert cause == "unfulfilled", cause
        names = {role: f"seat {seat}" for role, seat in game.roles.items()}
        open_ids = [cid for cid, c in conditions.items() if c.done_if is not None]
        said = [conditions[cid].text.rstrip(".")  # the mission's own words, else the done_if in words
                or words(conditions[cid].done_if.expr, names) for cid in open_ids]  # type: ignore[union-attr]
        assert len(said) == 1, "the referee's missions have one condition with a done_if each"
        assert reason == f"failed after trick {trick}: the hands ran out before this was fulfilled: {said[0]}"
        for c in conditions.values():
            if c.done_if is None:
                assert c.id not in reason and words(c.fail_if.expr, names) not in reason  # type: ignore[union-attr]
    assert "broken" not in reason.replace("task order broken", "")  # no "condition X broken"
    return cause


@pytest.mark.parametrize("mission", MISSIONS)
def test_every_failure_reason_is_the_referees_cause(mission: str) -> None:
    causes: set[str] = set()
    for players in (3, 4, 5):
        for i in range(RANDOM_GAMES + FAST_GAMES):
            bot = "random" if i < RANDOM_GAMES else "fast"
            game = new_game("crew", mission, players, seed=f"reasons:{i}")
            play_game(game, [make_bot(bot, seat, f"reasons:{i}") for seat in range(game.n)])
            if game.outcome().result == FAILURE:
                causes.add(check_reason(game, mission).split(" ")[0])
    assert causes, f"{mission}: no failure in {3 * (RANDOM_GAMES + FAST_GAMES)} games"
    if load_mission(mission).conditions:
        assert "conditions" in causes or "unfulfilled" in causes, (mission, causes)


ONLY_FAIL = """\
number: 93
title: Open at the end
rulesets: [crew]
tasks: {count: 1, tokens: []}
symbols: {}
conditions:
  - id: commander-modest
    fail_if: "tricks_won(commander) > 20"
  - id: out-of-reach
    done_if: "tricks_won(commander) > 20"
"""


def test_a_condition_with_only_fail_if_is_never_unfulfilled(tmp_path: Path) -> None:
    """The hands run out with the task done and one condition open: the reason names that condition in
    words, not the one that only forbids (it was listed as "not fulfilled" too)."""
    path = tmp_path / "open.yaml"
    path.write_text(ONLY_FAIL, encoding="utf-8")
    seen = 0
    for i in range(30):
        game = new_game("crew", str(path), 4, seed=f"open:{i}")
        play_game(game, [make_bot("fast", seat, f"open:{i}") for seat in range(game.n)])
        reason = game.outcome().reason
        if "task" in reason:
            continue
        seen += 1
        assert reason == ("failed after trick 10: the hands ran out before this was fulfilled: "
                          "the commander has won more than 20 tricks")
    assert seen, "no game reached the end with the task done"


SICK = """\
number: 94
title: Quiet sick bay
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
setup:
  - choose_player: {role: sick, by: commander, exclude: [commander]}
conditions:
  - id: sick-wins-nothing
    fail_if: "tricks_won(sick) > 0"
"""


def test_a_condition_without_reason_fails_in_words(tmp_path: Path) -> None:
    """A condition whose file gives no reason fails with its fail_if in words, its role by the seat."""
    path = tmp_path / "sick.yaml"
    path.write_text(SICK, encoding="utf-8")
    failed = 0
    for i in range(10):
        game = new_game("crew", str(path), 4, seed=f"sick:{i}")
        play_game(game, [make_bot("random", seat, f"sick:{i}") for seat in range(game.n)])
        outcome = game.outcome()
        if outcome.result != FAILURE:
            continue
        failed += 1
        assert outcome.reason == f"failed in trick {outcome.trick}: seat {game.roles['sick']} has won a trick"
    assert failed


def test_the_hands_running_out_says_a_condition_by_its_own_words(tmp_path: Path) -> None:
    """A condition with the mission's own words (``text:``) is named by them when the hands run out before
    it is fulfilled, as the briefing shows it; without them, its done_if in words."""
    path = tmp_path / "open.yaml"
    path.write_text(ONLY_FAIL.replace('    done_if: "tricks_won(commander) > 20"\n',
                                      '    done_if: "tricks_won(commander) > 20"\n'
                                      '    text: The commander wins more tricks than there are.\n'),
                    encoding="utf-8")
    seen = 0
    for i in range(30):
        game = new_game("crew", str(path), 4, seed=f"open:{i}")
        play_game(game, [make_bot("fast", seat, f"open:{i}") for seat in range(game.n)])
        reason = game.outcome().reason
        if "task" in reason:
            continue
        seen += 1
        assert reason == ("failed after trick 10: the hands ran out before this was fulfilled: "
                          "The commander wins more tricks than there are")
    assert seen, "no game reached the end with the task done"
