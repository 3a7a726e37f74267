"""The trick-taking family's winnable share of random deals (:class:`crewkit.games.protocol.FamilyWinnability`,
``crewkit winnability``; the runner and its report: :mod:`crewkit.analysis.winnability`).

For ``k`` tasks, a deal of the mission's rules with ``k`` plain tasks (the mission's task tokens dropped), solved

- with a **free** draft: the players divide the tasks, each keeping the number of tasks the draft gives it
  (the solver searches the division, :mod:`crewkit.families.trick_taking.solve.core`), and
- with **fixed** owners: the draft runs in its normal order and each seat takes a task chosen at random.

Under a rule set of task cards with objectives (``tasks.deck``, Mission Deep Sea) ``k`` is the mission's
difficulty total instead: the cards are drawn by difficulty as the mission's ``draw_tasks`` step draws them;
the free draft lets the solver try every way of taking them (passes and named numbers included), fixed owners
take them in draft order at random (the numbers are still the solver's).

Deal ``i`` of ``k`` tasks is seeded ``"{seed}:{k}:{i}"`` (the same deal for both drafts), the fixed owners
``"{seed}:owners:{k}:{i}"``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from crewkit.games.protocol import TooManyTasks, WinnabilityError


def shaped_rules(ruleset: str, mission: str, players: int, tasks: int,
                 readings: Mapping[str, str] | None = None) -> Any:
    """The mission's rules with ``tasks`` plain tasks (no tokens), drafted."""
    from crewkit.families.trick_taking.analysis.loading import load_rules

    base = load_rules(ruleset, mission, players, readings)
    if base.task_deck is not None:
        return _card_rules(base, mission, tasks)
    if base.assignment != "draft":
        raise WinnabilityError(f"{mission}: its tasks are not drafted (assignment {base.assignment!r})")
    if tasks > len(base.task_pool):
        raise TooManyTasks(f"{tasks} tasks: the rule set has only {len(base.task_pool)} task cards")
    rules = dataclasses.replace(base, task_count=tasks, tokens=(), mission_id=f"{base.mission_id}~{tasks}-tasks")
    from crewkit.families.trick_taking.engine.game import Game

    if Game.new(rules, seed="shape").phase != "draft":
        raise WinnabilityError(f"{mission}: setup steps come before the task draft (only plain drafts are dealt)")
    return rules


def _card_rules(base: Any, mission: str, total: int) -> Any:
    """A mission of task cards with objectives, drawn to a difficulty total of ``total``."""
    from crewkit.families.trick_taking.engine.game import Game

    draw = base.task_draw
    if draw is None or draw.fixed:
        raise WinnabilityError(f"{mission}: its task cards are not drawn by a difficulty total (setup step "
                               "draw_tasks with difficulty)")
    most = sum(c.difficulty for c in base.task_deck.cards)
    if total > most:
        raise TooManyTasks(f"a difficulty total of {total}: the task cards add up to {most} at most")
    rules = dataclasses.replace(base, task_draw=dataclasses.replace(draw, difficulty=total),
                                mission_id=f"{base.mission_id}~difficulty-{total}")
    if Game.new(rules, seed="shape").phase != "draft":
        raise WinnabilityError(f"{mission}: setup steps come before the draft of task cards (only plain drafts "
                               "are dealt)")
    return rules


def default_mission(ruleset: str) -> str:
    """The mission that shapes the deals when none is named: planet-nine/10, or under a rule set of task
    cards with objectives the first bundled mission of that rule set whose cards are drawn by difficulty and
    drafted at once."""
    from crewkit.spec import bundled
    from crewkit.spec.loader import load_ruleset

    try:
        deck = (load_ruleset(ruleset).data.get("tasks") or {}).get("deck")
    except Exception:  # noqa: BLE001 - an unknown rule set is reported where it is compiled
        return "planet-nine/10"
    if not deck:
        return "planet-nine/10"
    from crewkit.spec.loader import load_doc

    for path in bundled.bundled_missions():
        data = load_doc(path).data
        if not isinstance(data, dict) or ruleset not in (data.get("rulesets") or []):
            continue
        steps = [next(iter(s)) for s in data.get("setup") or [] if isinstance(s, dict) and s]
        draw = next((s["draw_tasks"] for s in data.get("setup") or [] if isinstance(s, dict) and "draw_tasks" in s),
                    None)
        if steps and steps == ["draw_tasks"] and isinstance(draw, dict) and "difficulty" in draw:
            return bundled.mission_id_for(path)
    return "planet-nine/10"


_WORKER: dict[str, Any] = {}


def _init(ruleset: str, mission: str, players: int, readings: dict[str, str] | None, seed: str,
          timeout: float) -> None:
    _WORKER.clear()
    _WORKER.update(ruleset=ruleset, mission=mission, players=players, readings=readings, seed=seed,
                   timeout=timeout, rules={})


def deal(rules: Any, seed: str, tasks: int, i: int, draft: str) -> Any:
    """Deal ``i`` of ``tasks`` tasks: in its draft phase (free) or with owners drawn in draft order (fixed)."""
    from crewkit.families.trick_taking.engine.blocks.draft import PassTask, TakeTask, TakeTaskCard
    from crewkit.families.trick_taking.engine.game import Game

    game = Game.new(rules, seed=f"{seed}:{tasks}:{i}")
    if draft == "fixed" and game.task_cards:  # task cards taken (or passed) at random; numbers left to the solver
        rng = random.Random(f"{seed}:owners:{tasks}:{i}")
        while game.phase == "draft" and not game.is_over():
            takes = [a for a in game.legal_actions() if isinstance(a, TakeTaskCard | PassTask)]
            if not takes:
                break
            game.apply(rng.choice(takes))
    elif draft == "fixed":
        rng = random.Random(f"{seed}:owners:{tasks}:{i}")
        while game.phase == "draft":
            open_tasks = [t for t in game.tasks if t.owner is None]
            game.apply(TakeTask(game.draft_turn, rng.choice(open_tasks).card))
    return game


def _job(job: tuple[int, int, str]) -> tuple[str, float]:
    from crewkit.families.trick_taking.solve import solve

    tasks, i, draft = job
    cache = _WORKER["rules"]
    if tasks not in cache:
        cache[tasks] = shaped_rules(_WORKER["ruleset"], _WORKER["mission"], _WORKER["players"], tasks,
                                    _WORKER["readings"])
    game = deal(cache[tasks], _WORKER["seed"], tasks, i, draft)
    t0 = time.perf_counter()
    result = solve(game, timeout=_WORKER["timeout"])
    return result.status, time.perf_counter() - t0


class TrickTakingWinnability:
    """The family's answer (:meth:`crewkit.families.trick_taking.family.TrickTaking.winnability`)."""

    def default_mission(self, ruleset: str) -> str:
        return default_mission(ruleset)

    def shape(self, ruleset: str, mission: str, players: int, tasks: int,
              readings: Mapping[str, str] | None = None) -> str:
        shaped = shaped_rules(ruleset, mission, players, tasks, readings)
        return "difficulty" if getattr(shaped, "task_deck", None) is not None else "tasks"

    # read at each call (not bound once): a test may replace the module's functions
    @property
    def init(self) -> Callable[[str, str, int, dict[str, str] | None, str, float], None]:
        return _init

    @property
    def job(self) -> Callable[[tuple[int, int, str]], tuple[str, float]]:
        return _job


WINNABILITY = TrickTakingWinnability()

__all__ = ["WINNABILITY", "TrickTakingWinnability", "deal", "default_mission", "shaped_rules"]
