"""The setup steps of task cards with objectives (Mission Deep Sea): one class per kind of step.

- ``draw_tasks``        → :class:`DrawTasksStep`: shows the task cards drawn with the deal (``Deal.task_cards``)
- ``distribute_tasks``  → :class:`DistributeStep`: the crew gives each drawn task card to an allowed player who
  may take it
- ``volunteer``         → :class:`VolunteerStep`: asked in turn, the first to say yes takes the first role, ...
  (a player who may not take every card they would take is passed over, or asked, as ``tasks.volunteer_barred``
  says)
- ``hardest_first``, ``draft_without`` → :class:`DraftRuleStep`: what the draft of task cards must respect
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine import taskcards
from crewkit.families.trick_taking.engine.state import CardTask, Event
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
    allowed players (``to``: roles or the commander; anyone without) who may take it (the card's
    ``may_take_if``); one allowed player takes them all at once. A card no allowed player may take ends the
    mission before play, with that reason (the steps before, which bind the roles, avoid it where they can)."""

    def _allowed(self, g: Game) -> list[int]:
        names = self.spec.params["to"]
        return _named_seats(g, names) if names else list(range(g.n))

    def _receivers(self, g: Game, task: CardTask) -> list[int]:
        return [p for p in self._allowed(g) if task not in taskcards.barred_cards(g, p)]

    def start(self, g: Game) -> bool:
        allowed = self._allowed(g)
        for task in g.task_cards:
            if task.owner is None and allowed and not self._receivers(g, task):
                if len(allowed) == 1:
                    who = f"{taskcards.seat_words(g, allowed[0])}, who takes every task card,"
                else:
                    who = "no player who may receive it"
                g.fail(f"failed in the task draft: {who} may not take {taskcards.may_take_text(g, task)}", None)
                return False
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
        return [GiveTaskCard(seat, task.id, p) for p in self._receivers(g, task)]

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
        if action.player not in self._receivers(g, task):
            raise IllegalAction("may-not-take", f"{taskcards.seat_words(g, action.player)} may not take "
                                f"{taskcards.may_take_text(g, task)}")
        taskcards.assign(g, task, action.player)
        return all(t.owner is not None for t in g.task_cards)

    def describe(self) -> str:
        return "give out the task cards"


class VolunteerStep(Step):
    """``volunteer``: the commander asks the players in turn from the left (the commander last): yes or no. The
    first yes takes the first role, the next the second; once as many players are left as roles still open,
    they must say yes.

    A role that takes every task card (the only player a later ``distribute_tasks`` names) and a player a drawn
    card bars (its ``may_take_if``: the captain): under ``tasks.volunteer_barred: passed-over`` that player is
    not asked, so the last player asked who may take the cards must say yes; under ``mission-fails`` they are
    asked like everyone, and made to say yes the mission is lost when the cards are given out."""

    def __init__(self, spec: StepSpec) -> None:
        super().__init__(spec)
        self.answered: list[int] = []
        self.taken = 0

    def _barred(self, g: Game, seat: int) -> bool:
        roles = self.spec.params["roles"]
        role = roles[min(self.taken, len(roles) - 1)]
        return (g.rules.volunteer_barred == "passed-over" and taskcards.takes_every_card(g, role)
                and bool(taskcards.barred_cards(g, seat)))

    def _left(self, g: Game) -> list[int]:
        """The players still to ask, in order."""
        commander = g.commander if g.commander is not None else 0
        order = _asked(g, [(commander + i) % g.n for i in range(1, g.n + 1)])
        return [s for s in order if s not in self.answered and not self._barred(g, s)]

    def _forced(self, g: Game) -> bool:
        return len(self._left(g)) <= len(self.spec.params["roles"]) - self.taken

    def _nobody_left(self, g: Game) -> bool:
        if self._left(g):
            return False
        g.fail("failed in the task draft: no player left to ask may take every task card", None)
        return True

    def start(self, g: Game) -> bool:
        g.questions.append(("Will you take the tasks?", {}))
        self._nobody_left(g)
        return False

    def to_act(self, g: Game) -> int | None:
        left = self._left(g)
        return left[0] if left else None

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
        self.answered.append(action.seat)
        if action.answer == "yes":
            g.bind_role(self.spec.params["roles"][self.taken], action.seat)
            self.taken += 1
        done = self.taken >= len(self.spec.params["roles"])
        if not done and self._nobody_left(g):
            return False
        return done

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
