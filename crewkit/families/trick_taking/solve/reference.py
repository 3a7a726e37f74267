"""Engine-driven search: every node is a :meth:`Game.clone` plus :meth:`Game.apply`.

Slow but exact: it knows nothing about the rules beyond what the engine's ``legal_actions``, ``apply`` and
``outcome`` say. :func:`brute_force` (no table) is the reference the fast core is tested against;
:func:`engine_search` (with a table of lost positions) is the fallback for rules the core does not model,
such as the dummy seat (JARVIS).
"""

from __future__ import annotations

import time
from typing import Any

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import SUCCESS, TRICKS, Game
from crewkit.families.trick_taking.engine.step_actions import Answer
from crewkit.families.trick_taking.engine.taskcard_steps import VolunteerStep
from crewkit.families.trick_taking.solve.core import SearchAborted


def search_actions(game: Game, *, gold_frame: bool = True, first_answer_only: bool = True) -> list[Action]:
    """The actions the solver considers: plays, setup and draft choices; never communication or distress.

    Handing a task on (5-player gold frame) is included when ``gold_frame``; for setup questions only the
    first answer of each seat is tried when ``first_answer_only`` (answers change nothing a crew with full
    information can do), except whether a seat volunteers to take the task cards.
    """
    if game.is_over():
        return []
    seat = game.to_act
    if seat is None:
        return []
    out: list[Action] = []
    # a volunteer's yes or no decides who takes the task cards (Mission Deep Sea): every answer is tried there
    seen_answer = False
    first_answer_only = first_answer_only and not isinstance(game.current_step, VolunteerStep)
    for a in game.legal_actions(seat):
        if isinstance(a, (Communicate, Distress)):
            continue
        if isinstance(a, HandTask):
            continue  # collected below from every seat
        if isinstance(a, Answer) and first_answer_only:
            if seen_answer:
                continue
            seen_answer = True
        out.append(a)
    if gold_frame and game.phase == TRICKS and not game.tricks and not game.plays:
        for other in range(game.n):
            out.extend(a for a in game.optional_actions(other) if isinstance(a, HandTask))
    return out


def _key(game: Game) -> Any:
    """A position key for the engine search (the same history summary as the fast core)."""
    winmask = [0] * game.n
    for t in game.tricks:
        winmask[t.winner] |= t.winning_card.bit
    return (
        game.phase,
        tuple(game.hands),
        game.leader,
        game.turn,
        tuple(c.id for _, c in game.plays),
        tuple((t.owner, t.token, t.trick is not None) for t in game.tasks),
        tuple(game.cond_done),
        tuple(game.tricks_won),
        tuple(game.won),
        tuple(winmask),
        tuple(sorted(game.roles.items())),
        game.gold_frame_used,
        tuple(len(c) for c in game.dummy_columns),
        tuple(game._dummy_reveal),
    )


class EngineSearch:
    """Depth-first search through the engine. ``table=False`` gives the plain brute force."""

    def __init__(self, *, table: bool = True, gold_frame: bool = True, max_nodes: int | None = None,
                 deadline: float | None = None) -> None:
        self.table = table
        self.gold_frame = gold_frame
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.dead: set[Any] = set()

    def run(self, game: Game) -> tuple[bool, list[Action]]:
        line: list[Action] = []
        ok = self._search(game, line)
        line.reverse()
        return ok, line

    def _search(self, game: Game, line: list[Action]) -> bool:
        if game.is_over():
            return game.outcome().result == SUCCESS
        key = None
        if self.table and game.phase == TRICKS:
            key = _key(game)
            if key in self.dead:
                return False
        for action in search_actions(game, gold_frame=self.gold_frame):
            self.nodes += 1
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise SearchAborted("node budget")
            if self.deadline is not None and not self.nodes & 255 and time.perf_counter() > self.deadline:
                raise SearchAborted("time")
            child = game.clone()
            child.apply(action)
            if self._search(child, line):
                line.append(action)
                return True
        if key is not None:
            self.dead.add(key)
        return False


def brute_force(game: Game, *, gold_frame: bool = True, max_nodes: int | None = None) -> tuple[bool, list[Action]]:
    """Exhaustive reference: try every legal play (and setup choice) through the engine, no shortcuts."""
    return EngineSearch(table=False, gold_frame=gold_frame, max_nodes=max_nodes).run(game)


def is_play(action: Action) -> bool:
    return isinstance(action, Play)
