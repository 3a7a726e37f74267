"""Block ``objectives`` (cross-cutting): what a co-operative mission asks, and when it is won or lost.

After each trick: a task card won by anyone but its owner fails the mission; done tasks are checked against
the task-token order (the kernel's :func:`~crewkit.families.trick_taking.engine.kernel.token_violation`) and,
for secret mission cards, their number order; the mission's conditions (compiled DSL) are checked; the mission
succeeds when every task and condition is done, and fails when the hands run out first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewkit.dsl.template import render_template
from crewkit.engine.phase import Block, PlayHook, TrickHook, register
from crewkit.families.trick_taking.engine.kernel import (
    ARROW_TOO_EARLY,
    LAST_TOO_EARLY,
    NUMBER_OUT_OF_TURN,
    token_kinds,
    token_violation,
)
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Event, Task, Trick, token_text

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@register
class Objectives(Block):
    name = "objectives"
    order = 35  # after the signal check, before the draws

    def trick_end(self) -> TrickHook | None:
        return after_trick

    def after_play(self) -> PlayHook | None:
        return after_play

    def needs(self, hook: str, rules: Rules) -> bool:
        # after a play: the mission's conditions only (and the task cards' objectives, bound during a game)
        return hook != "after_play" or bool(rules.conditions) or rules.task_deck is not None


def after_play(g: Game) -> None:
    if g.conditions:
        check_conditions(g, "after-play")


def after_trick(g: Game, trick: Trick, mask: int) -> bool:
    if mask & g._task_mask:
        score_tasks(g, trick, mask)
        if g._outcome is not None:
            return True
    if g.conditions:
        check_conditions(g, "after-trick")
        if g._outcome is not None:
            return True
    check_end(g, trick)
    return False


def score_tasks(g: Game, trick: Trick, mask: int) -> None:
    before = g.tasks_done
    completed: list[Task] = []
    for task in g.tasks:
        if task.card.bit & mask:
            if task.owner != trick.winner:
                owner = "nobody" if task.owner is None else f"seat {task.owner}"
                g.fail(f"failed in trick {trick.number}: {task.card} won by seat {trick.winner}, task of {owner}",
                       trick.number)
                return
            task.trick = trick.number
            completed.append(task)
            if not task.revealed and (g.rules.secret is None or g.rules.secret.reveal_when_done):
                # a secret mission card is shown once done (``tasks.secret.reveal_when_done``)
                task.revealed = True
                g.events.append(Event("task-revealed", task.owner, task.card, f"mission {task.number}"))
            g.events.append(Event("task-done", task.owner, task.card, f"trick {trick.number}"))
    g.tasks_done = after = before + len(completed)
    if g.rules.order_by_number and completed:
        for task in completed:
            for other in g.tasks:
                if other.number is not None and task.number is not None and other.number < task.number \
                        and not other.done:
                    g.fail(
                        f"failed in trick {trick.number}: mission card {task.number} ({task.card}, seat {task.owner}) "
                        f"was completed before mission card {other.number} ({other.card}, seat {other.owner})",
                        trick.number,
                    )
                    return
    if not any(t.token for t in g.tasks):
        return
    # token order: tasks completed in one trick count as simultaneous
    # (crewkit.families.trick_taking.engine.kernel judges it)
    tasks = g.tasks
    number = trick.number
    pending = completed_bits = 0
    for i, task in enumerate(tasks):
        if task.trick is None or task.trick == number:
            pending |= 1 << i
            if task.trick == number:
                completed_bits |= 1 << i
    kinds, ks = token_kinds([t.token for t in tasks])
    broken = token_violation(kinds, ks, pending, completed_bits, before)
    if broken is None:
        return
    verdict, i, j = broken
    task = tasks[i]
    if verdict == NUMBER_OUT_OF_TURN:
        why = f"it had to be task number {ks[i]} to be completed, but was number {before + 1}"
    elif verdict == LAST_TOO_EARLY:
        why = f"the last task (Ω) was completed with {len(tasks) - after} tasks still open"
    elif verdict == ARROW_TOO_EARLY:
        why = f"{task.token} was completed before {tasks[j].token} ({tasks[j].card})"
    else:
        why = f"task number {ks[i]} was not completed in time: {after} tasks already done"
    g.fail(f"failed in trick {trick.number}: task order broken by {task.card} (token {token_text(task.token)}, "
           f"seat {task.owner}): {why}", trick.number)


def check_conditions(g: Game, when: str) -> None:
    from_view = g.view()
    for i, cond in enumerate(g.conditions):
        if g.cond_done[i]:
            continue
        if cond.check != when and not (when == "after-trick" and cond.check == "after-play"):
            continue
        if cond.fail_if is not None and cond.fail_if(from_view, {}):
            number = len(g.tricks) if when == "after-trick" else len(g.tricks) + 1
            if cond.render_reason is not None:  # compiled with the file and condition for its errors
                reason = cond.render_reason(from_view, {})
            else:
                reason = render_template(cond.reason, from_view, {})
            g.fail(f"failed in trick {number}: {reason}", number)
            return
        if cond.done_if is not None and cond.done_if(from_view, {}):
            g.cond_done[i] = True
            if cond.card is not None:  # a task card fulfilled for good: said in the log
                owner = next((t.owner for t in g.task_cards if t.cond == i), None)
                g.events.append(Event("task-card-done", owner, None, cond.card))


def check_end(g: Game, trick: Trick) -> None:
    last = trick.number >= g.total_tricks
    conds_done = all(
        d or (last and c.done_if is None) for d, c in zip(g.cond_done, g.conditions, strict=True)
    )
    if g.tasks_done == len(g.tasks) and conds_done:
        if g.tasks or last or g.conditions:
            succeed(g, trick)
            return
    if last:
        undone = [t for t in g.tasks if not t.done]
        if undone:
            names = ", ".join(f"{t.card} (seat {t.owner})" for t in undone)
            g.fail(f"failed after trick {trick.number}: the hands ran out with tasks undone: {names}", trick.number)
        else:
            g.fail(f"failed after trick {trick.number}: {unfulfilled_text(g)}", trick.number)


def unfulfilled_text(g: Game) -> str:
    """Why a game whose tasks are done failed when the hands ran out: the conditions with a ``done_if`` that
    never became true, each by the mission's own words (``text:``) else its ``done_if`` in words (a condition
    with only a ``fail_if`` is fulfilled by never failing)."""
    from crewkit.dsl.words import words

    names = {role: f"seat {seat}" for role, seat in g.roles.items() if seat is not None}
    open_conds = [c for d, c in zip(g.cond_done, g.conditions, strict=True)
                  if not d and c.done_expr is not None]
    said = [c.text.rstrip(".") or words(c.done_expr, names) for c in open_conds]
    if len(said) == 1:
        return f"the hands ran out before this was fulfilled: {said[0]}"
    return "the hands ran out before these were fulfilled: " + "; ".join(said)


def succeed(g: Game, trick: Trick) -> None:
    if g.task_cards:
        count = len(g.task_cards)
        what = "the task card" if count == 1 else f"all {count} task cards"
        others = len(g.conditions) > count
        reason = f"{what}{' and the conditions' if others else ''} fulfilled by trick {trick.number}"
    elif g.tasks:
        # play went on after the last task because a condition waited for something (mission 17's nines
        # under until-nines-out): the win came from that condition, so say so
        waited = max(t.trick or 0 for t in g.tasks) < trick.number
        if len(g.tasks) > 1:
            both = " and the mission's conditions fulfilled" if waited else ""
            reason = f"all {len(g.tasks)} tasks done{both} by trick {trick.number}"
        elif waited:
            reason = f"the task done and the mission's conditions fulfilled by trick {trick.number}"
        else:
            reason = f"the task was done in trick {trick.number}"
    else:
        reason = f"every condition fulfilled by trick {trick.number}"
    g.succeed(reason, trick.number)

