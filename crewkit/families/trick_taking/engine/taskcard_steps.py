"""The setup steps of task cards with objectives (Mission Deep Sea): one class per kind of step.

- ``draw_tasks``        → :class:`DrawTasksStep`: shows the task cards drawn with the deal (``Deal.task_cards``)
- ``distribute_tasks``  → :class:`DistributeStep`: the crew gives each drawn task card to an allowed player
- ``volunteer``         → :class:`VolunteerStep`: asked in turn, the first to say yes takes the first role, ...
- ``hardest_first``, ``draft_without`` → :class:`DraftRuleStep`: what the draft of task cards must respect
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine import taskcards
from crewkit.families.trick_taking.engine.state import Event
from crewkit.families.trick_taking.engine.step_actions import Answer, GiveTaskCard
from crewkit.families.trick_taking.engine.steps import STEP_CLASSES, Step, StepSpec, _asked, _chooser

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


class DrawTasksStep(Step):
    """``draw_tasks``: the task cards were drawn with the deal (``Deal.task_cards``, so a record replays them);
    the step shows them to everyone."""

    def start(self, g: Game) -> bool:
        for task in g.task_cards:
            g.events.append(Event("task-card-revealed", None, None, task.id))
        return True

    def to_act(self, g: Game) -> int | None:
        return None

    def legal(self, g: Game, seat: int) -> list[Action]:
        return []

    def describe(self) -> str:
        return "task cards drawn"


def _named_seats(g: Game, names: Sequence[str]) -> list[int]:
    """Seats named by ``commander`` or by roles bound earlier (an unbound role names nobody)."""
    out: list[int] = []
    for name in names:
        seat = g.commander if name == "commander" else g.roles.get(name)
        if seat is not None and seat not in out:
            out.append(seat)
    return out


class DistributeStep(Step):
    """``distribute_tasks``: the drawn task cards go out one by one, in the order drawn, each to one of the
    allowed players (``to``: roles or the commander; anyone without); one allowed player takes them all at once."""

    def _allowed(self, g: Game) -> list[int]:
        names = self.spec.params["to"]
        return _named_seats(g, names) if names else list(range(g.n))

    def start(self, g: Game) -> bool:
        allowed = self._allowed(g)
        if len(allowed) == 1:
            for task in g.task_cards:
                if task.owner is None:
                    taskcards.assign(g, task, allowed[0])
        return all(t.owner is not None for t in g.task_cards)

    def to_act(self, g: Game) -> int | None:
        return _chooser(g, "crew")

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        task = next((t for t in g.task_cards if t.owner is None), None)
        if task is None:
            return []
        return [GiveTaskCard(seat, task.id, p) for p in self._allowed(g)]

    def apply(self, g: Game, action: Action) -> bool:
        task = next((t for t in g.task_cards if t.owner is None), None)
        if not isinstance(action, GiveTaskCard) or task is None or action.task != task.id:
            want = f"task card {task.id!r}" if task is not None else "no card"
            raise IllegalAction("give-expected", f"the task cards are given out in the order drawn: {want} now "
                                "(a give-task-card action)")
        allowed = self._allowed(g)
        if action.player not in allowed:
            raise IllegalAction("excluded-player", f"seat {action.player} cannot receive task card {task.id!r}; "
                                f"allowed: {', '.join(f'seat {p}' for p in allowed)}")
        taskcards.assign(g, task, action.player)
        return all(t.owner is not None for t in g.task_cards)

    def describe(self) -> str:
        return "give out the task cards"


class VolunteerStep(Step):
    """``volunteer``: the commander asks the players in turn from the left (the commander last): yes or no. The
    first yes takes the first role, the next the second; once as many players are left as roles still open,
    they must say yes."""

    def __init__(self, spec: StepSpec) -> None:
        super().__init__(spec)
        self.asked = 0
        self.taken = 0

    def _order(self, g: Game) -> list[int]:
        commander = g.commander if g.commander is not None else 0
        return _asked(g, [(commander + i) % g.n for i in range(1, g.n + 1)])

    def _forced(self, g: Game) -> bool:
        return len(self._order(g)) - self.asked <= len(self.spec.params["roles"]) - self.taken

    def start(self, g: Game) -> bool:
        g.questions.append(("Will you take the tasks?", {}))
        return False

    def to_act(self, g: Game) -> int | None:
        order = self._order(g)
        return order[self.asked] if self.asked < len(order) else None

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        return [Answer(seat, "yes")] if self._forced(g) else [Answer(seat, "yes"), Answer(seat, "no")]

    def apply(self, g: Game, action: Action) -> bool:
        if not isinstance(action, Answer) or action.answer not in ("yes", "no"):
            raise IllegalAction("answer-expected", "who takes the tasks: answer yes or no")
        if action.answer == "no" and self._forced(g):
            raise IllegalAction("must-volunteer", f"seat {action.seat} must take the tasks: no one else is left to "
                                "ask")
        g.questions[-1][1][action.seat] = action.answer
        self.asked += 1
        if action.answer == "yes":
            g.bind_role(self.spec.params["roles"][self.taken], action.seat)
            self.taken += 1
        return self.taken >= len(self.spec.params["roles"])

    def describe(self) -> str:
        return "who takes the tasks?"


class DraftRuleStep(Step):
    """``hardest_first`` and ``draft_without``: rules the draft of task cards must respect (automatic)."""

    def start(self, g: Game) -> bool:
        from dataclasses import replace

        from crewkit.families.trick_taking.engine.blocks.draft import DraftState

        st = g.state_or_none(DraftState)
        if st is None:  # no task cards drawn: nothing to draft
            return True
        if self.spec.kind == "hardest-first":
            st.hardest = self.spec.params["ties"]
        else:
            g.set_state(replace(st, skip=st.skip | frozenset(_named_seats(g, self.spec.params["exclude"]))))
        return True

    def to_act(self, g: Game) -> int | None:
        return None

    def legal(self, g: Game, seat: int) -> list[Action]:
        return []


STEP_CLASSES.update({
    "draw-tasks": DrawTasksStep,
    "distribute-tasks": DistributeStep,
    "volunteer": VolunteerStep,
    "hardest-first": DraftRuleStep,
    "draft-without": DraftRuleStep,
})
