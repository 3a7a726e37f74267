"""Block ``setup`` (phase): the mission's setup steps, walked in order before the tasks are drafted.

The steps themselves (questions, role choices, token moves, the commander's task decisions, the dummy's seat)
are one class each in :mod:`crewkit.families.trick_taking.engine.steps`; this phase runs them: it starts steps
until one waits for an action, hands every action to the current step, and gives way to the next phase of the
flow when the last step is done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import SETUP, Block, Phase, register
from crewkit.families.trick_taking.engine.state import Event
from crewkit.families.trick_taking.engine.step_actions import Answer
from crewkit.families.trick_taking.engine.steps import Step, make_step

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@register
class SetupSteps(Block):
    name = "setup"
    phase = Phase.SETUP
    takes_every_action = True

    def start(self, g: Game) -> None:
        g.steps = [make_step(spec) for spec in g.rules.setup_steps]
        g.step_index = 0

    def enter(self, g: Game) -> bool:
        """Start steps until one waits for an action (True), or every step finished at once (False)."""
        while g.step_index < len(g.steps):
            if not g.steps[g.step_index].start(g):
                return True
            g.step_index += 1
        return False

    def to_act(self, g: Game) -> int | None:
        return g.steps[g.step_index].to_act(g)

    def legal(self, g: Game, seat: int) -> list[Action]:
        return g.steps[g.step_index].legal(g, seat)

    def apply(self, g: Game, action: Action) -> None:
        step = g.steps[g.step_index]
        expected = step.to_act(g)
        if action.seat != expected:
            raise IllegalAction(
                "not-your-turn", f"seat {action.seat} cannot act now: {step.describe()} waits for seat {expected}"
            )
        if step.apply(g, action):
            g.events.append(Event("step-done", action.seat, None, step.describe()))
            g.step_index += 1
            if not self.enter(g):
                g.advance()
        if isinstance(action, Answer):
            g.events.append(Event("answer", action.seat, None, action.answer))

    def describe(self, g: Game) -> str:
        step = current_step(g)
        return f"setup: {step.describe() if step else ''}"


def current_step(g: Game) -> Step | None:
    return g.steps[g.step_index] if g.phase == SETUP and g.step_index < len(g.steps) else None
