"""Block ``draft`` (phase): the tasks are taken one at a time, in turn, until every task has an owner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewkit.engine.actions import Action, CardAction, register_card_action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import DRAFT, Block, Handler, Phase, register
from crewkit.engine.state import Event

if TYPE_CHECKING:
    from crewkit.engine.game import Game


@dataclass(frozen=True, slots=True)
class TakeTask(CardAction):
    type = "take-task"


register_card_action(TakeTask)


@register
class Draft(Block):
    name = "draft"
    phase = Phase.DRAFT

    def actions(self) -> dict[type, Handler]:
        return {TakeTask: take_task}  # type: ignore[dict-item]

    def enter(self, g: Game) -> bool:
        """A draft only when some task has no owner and the rule set drafts (``tasks.assignment: draft``)."""
        if g.tasks and any(t.owner is None for t in g.tasks) and g.rules.assignment == "draft":
            start = {"commander": g.commander, "dealer": g.dealer}.get(g.rules.draft_start)
            g.draft_turn = g.leader if start is None else start
            return True
        g.draft_turn = -1
        return False

    def to_act(self, g: Game) -> int | None:
        return g.draft_turn

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat == g.draft_turn:
            return [TakeTask(seat, t.card) for t in g.tasks if t.owner is None]
        return []

    def describe(self, g: Game) -> str:
        return f"task draft, seat {g.draft_turn} to choose"

    def not_playing(self, g: Game) -> str:
        return "cards are played only after the task draft"


def take_task(g: Game, a: TakeTask) -> None:
    if g.phase != DRAFT:
        raise IllegalAction("not-drafting", "tasks can only be taken during the task draft")
    if a.seat != g.draft_turn:
        raise IllegalAction(
            "not-your-turn", f"seat {a.seat} cannot take a task now: it is seat {g.draft_turn}'s choice"
        )
    task = g._task_by_card.get(a.card.id)  # g.task_of without the call
    if task is None:
        raise IllegalAction("no-such-task", f"{a.card} is not among this mission's tasks")
    if task.owner is not None:
        raise IllegalAction("task-taken", f"the {a.card} task was already taken by seat {task.owner}")
    task.owner = a.seat
    g.events.append(Event("task-taken", a.seat, a.card, task.token or ""))
    if all(t.owner is not None for t in g.tasks):
        g.draft_turn = -1
        g.advance()
    else:
        g.draft_turn = (g.draft_turn + 1) % g.n
