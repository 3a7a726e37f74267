"""Block ``draft`` (phase): the tasks are taken one at a time, in turn, until every task has an owner.

Tasks are the revealed colour-card tasks (Planet Nine, ``take-task``) and the drawn task cards with objectives
(Mission Deep Sea, ``take-task-card``). For the latter the draft also knows:

- who may take a card (its ``may_take_if``: the captain never takes a card that compares with the captain);
- passing (``tasks.passing: fewer-tasks-than-players``): when fewer cards than drafting seats were drawn, a seat
  may pass (``pass-task``) while enough later seats of the first round remain to take the rest;
- the steps ``draft_without`` (seats the draft passes over) and ``hardest_first`` (the first choice is one of
  the most difficult cards; under ``tasks.hardest_barred: hardest-allowed`` of those the seat may take, under
  ``redraw`` the deal made sure it may take one), which set the :class:`DraftState` before the draft begins;
- numbers: once every card is taken, the owner of each card that asks a number names it (``choose-number``).

A seat whose turn it is and that may neither take a card left nor pass ends the mission: the crew left it a
card it may not take.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Deck
from crewkit.engine.actions import (
    Action,
    ActionFormatError,
    CardAction,
    register_action,
    register_card_action,
)
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import DRAFT, Block, BlockState, Handler, Phase, register
from crewkit.families.trick_taking.engine import taskcards
from crewkit.families.trick_taking.engine.state import CardTask, Event

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@dataclass(frozen=True, slots=True)
class TakeTask(CardAction):
    type = "take-task"


register_card_action(TakeTask)


@dataclass(frozen=True, slots=True)
class TakeTaskCard(Action):
    """A seat takes a drawn task card (by its id) in the draft."""

    task: str
    type = "take-task-card"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "task": self.task}


@dataclass(frozen=True, slots=True)
class PassTask(Action):
    """A seat takes no task card this turn (only when fewer cards than seats were drawn)."""

    type = "pass-task"


@dataclass(frozen=True, slots=True)
class ChooseNumber(Action):
    """The owner of a prediction card names its number (``task``: the card's id)."""

    task: str
    number: int
    type = "choose-number"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "task": self.task, "number": self.number}


def task_field(obj: dict[str, Any], kind: str) -> str:
    value = obj.get("task")
    if not isinstance(value, str) or not value:
        raise ActionFormatError(f"a {kind} action needs 'task' (a task card's id), found {value!r}")
    return value


def _read_choose_number(obj: dict[str, Any], seat: int, deck: Deck) -> ChooseNumber:
    number = obj.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        raise ActionFormatError(f"a choose-number action needs 'number' (a whole number), found {number!r}")
    return ChooseNumber(seat, task_field(obj, ChooseNumber.type), number)


register_action(TakeTaskCard, lambda obj, seat, deck: TakeTaskCard(seat, task_field(obj, TakeTaskCard.type)))
register_action(PassTask, lambda obj, seat, deck: PassTask(seat))
register_action(ChooseNumber, _read_choose_number)


@dataclass(slots=True)
class DraftState(BlockState):
    """The draft's progress and the setup steps' say in it (``draft_without``, ``hardest_first``)."""

    skip: frozenset[int] = frozenset()  # seats the draft passes over
    hardest: str | None = None  # choose | first-drawn: the first choice is one of the most difficult cards
    order: tuple[int, ...] = ()  # the drafting seats, from the first
    turns: int = 0  # turns taken (a pass included)
    can_pass: bool = False  # fewer task cards than drafting seats were drawn


@register
class Draft(Block):
    name = "draft"
    phase = Phase.DRAFT

    def actions(self) -> dict[type, Handler]:
        return {TakeTask: take_task, TakeTaskCard: take_task_card, PassTask: pass_task,  # type: ignore[dict-item]
                ChooseNumber: choose_number}  # type: ignore[dict-item]

    def start(self, g: Game) -> None:
        if g.task_cards:
            g.set_state(DraftState())

    def enter(self, g: Game) -> bool:
        """A draft only when some task has no owner (or a card waits for its number) and the rule set drafts
        (``tasks.assignment: draft``)."""
        open_cards = [t for t in g.tasks if t.owner is None]
        open_task_cards = [t for t in g.task_cards if t.owner is None]
        if g.rules.assignment != "draft" or not (open_cards or open_task_cards or _number_pending(g)):
            g.draft_turn = -1
            return False
        start = {"commander": g.commander, "dealer": g.dealer}.get(g.rules.draft_start)
        first = g.leader if start is None else start
        st = g.state_or_none(DraftState)
        if st is None:
            g.draft_turn = first
            return True
        st.order = tuple(s for s in ((first + i) % g.n for i in range(g.n)) if s not in st.skip)
        st.turns = 0
        st.can_pass = g.rules.draft_passing and len(open_cards) + len(open_task_cards) < len(st.order)
        if not st.order:
            g.fail("no player may take the task cards (every seat is left out of the draft)", None)
            return True
        if open_cards or open_task_cards:
            g.draft_turn = st.order[0]
            _stuck(g)
        else:
            g.draft_turn = _number_owner(g)
        return True

    def to_act(self, g: Game) -> int | None:
        return g.draft_turn

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != g.draft_turn:
            return []
        out: list[Action] = [TakeTask(seat, t.card) for t in g.tasks if t.owner is None]
        if any(t.owner is None for t in g.task_cards):
            out += [TakeTaskCard(seat, t.id) for t in takeable(g, seat)]
            if may_pass(g, seat):
                out.append(PassTask(seat))
            return out
        if not out and _number_pending(g):
            from crewkit.families.trick_taking.engine.taskcards import number_range

            task = _pending(g)
            if task is not None and task.owner == seat:
                card = g.rules.task_deck.card(task.id)
                out = [ChooseNumber(seat, task.id, n) for n in number_range(card, g.total_tricks)]
        return out

    def describe(self, g: Game) -> str:
        if _number_pending(g) and not any(t.owner is None for t in g.task_cards):
            return f"task draft, seat {g.draft_turn} to name a number"
        return f"task draft, seat {g.draft_turn} to choose"

    def not_playing(self, g: Game) -> str:
        return "cards are played only after the task draft"


# ---------------------------------------------------------------------------- task cards
def takeable(g: Game, seat: int) -> list[CardTask]:
    """The drawn task cards ``seat`` may take now: not taken, allowed by their ``may_take_if``, and the most
    difficult ones on the first choice of a ``hardest_first`` mission."""
    from crewkit.families.trick_taking.engine.taskcards import owner_may_take

    deck = g.rules.task_deck
    free = [t for t in g.task_cards if t.owner is None]
    st = g.state_or_none(DraftState)
    view = g.view()
    if st is not None and st.hardest is not None and st.turns == 0:
        if g.rules.hardest_barred == "hardest-allowed":  # the most difficult of the cards the seat may take
            free = [t for t in free if owner_may_take(deck.card(t.id), view, seat)]
        if free:
            top = max(deck.card(t.id).difficulty for t in free)
            free = [t for t in free if deck.card(t.id).difficulty == top]
        if st.hardest == "first-drawn":
            free = free[:1]
    return [t for t in free if owner_may_take(deck.card(t.id), view, seat)]


def may_pass(g: Game, seat: int) -> bool:
    """Passing: fewer cards than drafting seats were drawn, and the seats after this one in the first round can
    still take every card left."""
    st = g.state_or_none(DraftState)
    if st is None or not st.can_pass or st.turns >= len(st.order):
        return False
    left = sum(1 for t in g.task_cards if t.owner is None) + sum(1 for t in g.tasks if t.owner is None)
    return left <= len(st.order) - st.turns - 1


def _pending(g: Game) -> CardTask | None:
    """The first owned card that still waits for its owner's number."""
    deck = g.rules.task_deck
    for t in g.task_cards:
        if t.owner is not None and t.number is None and deck.card(t.id).asks is not None:
            return t
    return None


def _number_pending(g: Game) -> bool:
    return bool(g.task_cards) and _pending(g) is not None


def _number_owner(g: Game) -> int:
    task = _pending(g)
    assert task is not None and task.owner is not None
    return task.owner


def _next_turn(g: Game) -> None:
    """After a take or a pass: the next drafting seat, the numbers, or the end of the draft."""
    st = g.state_or_none(DraftState)
    if any(t.owner is None for t in g.tasks) or any(t.owner is None for t in g.task_cards):
        if st is None:
            g.draft_turn = (g.draft_turn + 1) % g.n
        else:
            st.turns += 1
            g.draft_turn = st.order[st.turns % len(st.order)]
        _stuck(g)
    elif _number_pending(g):
        g.draft_turn = _number_owner(g)
    else:
        g.draft_turn = -1
        g.advance()


def _stuck(g: Game) -> None:
    """The seat to choose may take none of the cards left and may not pass: the crew left it cards it may not
    take, and the mission fails."""
    if g._outcome is not None or not any(t.owner is None for t in g.task_cards):
        return
    seat = g.draft_turn
    if any(t.owner is None for t in g.tasks) or takeable(g, seat) or may_pass(g, seat):
        return
    left = ", ".join(t.id for t in g.task_cards if t.owner is None)
    who = f"seat {seat}" + (" (the commander)" if seat == g.commander else "")
    g.fail(f"failed in the task draft: {who} may take none of the task cards left ({left})", None)


def _check_turn(g: Game, seat: int, what: str) -> None:
    if g.phase != DRAFT:
        raise IllegalAction("not-drafting", "tasks can only be taken during the task draft")
    if seat != g.draft_turn:
        raise IllegalAction("not-your-turn", f"seat {seat} cannot {what} now: it is seat {g.draft_turn}'s choice")


def take_task_card(g: Game, a: TakeTaskCard) -> None:
    _check_turn(g, a.seat, "take a task card")
    task = taskcards.find(g, a.task)
    if task is None:
        raise IllegalAction("no-such-task", f"task card {a.task!r} was not drawn for this mission")
    if task.owner is not None:
        raise IllegalAction("task-taken", f"task card {a.task!r} was already taken by seat {task.owner}")
    if task not in takeable(g, a.seat):
        card = g.rules.task_deck.card(a.task)
        st = g.state_or_none(DraftState)
        if st is not None and st.hardest is not None and st.turns == 0:
            why = "the first choice must be one of the most difficult cards"
            if g.rules.hardest_barred == "hardest-allowed":
                why += " it may take"
            if st.hardest == "first-drawn":
                why += " (the first drawn of them)"
        else:
            why = f"its condition for who may take it does not allow seat {a.seat} ({card.spec.may_take_if.text})" \
                if card.spec.may_take_if is not None else "it cannot be taken now"
        raise IllegalAction("may-not-take", f"seat {a.seat} may not take task card {a.task!r}: {why}")
    taskcards.assign(g, task, a.seat)
    _next_turn(g)


def pass_task(g: Game, a: PassTask) -> None:
    _check_turn(g, a.seat, "pass")
    if not any(t.owner is None for t in g.task_cards):
        raise IllegalAction("nothing-to-pass", "every task card is taken: there is nothing to pass on")
    if not may_pass(g, a.seat):
        raise IllegalAction("may-not-pass", f"seat {a.seat} may not pass: a seat passes only when fewer task cards "
                            "than players were drawn, and only while the players after it can take every card left")
    g.events.append(Event("task-pass", a.seat, None, ""))
    _next_turn(g)


def choose_number(g: Game, a: ChooseNumber) -> None:
    from crewkit.families.trick_taking.engine.taskcards import number_range

    _check_turn(g, a.seat, "name a number")
    task = taskcards.find(g, a.task)
    if task is None or task.owner != a.seat:
        raise IllegalAction("not-your-task", f"seat {a.seat} owns no task card {a.task!r}")
    card = g.rules.task_deck.card(a.task)
    if card.asks is None or task.number is not None:
        raise IllegalAction("no-number", f"task card {a.task!r} asks for no number now")
    allowed = number_range(card, g.total_tricks)
    if a.number not in allowed:
        raise IllegalAction("bad-number", f"the number for {a.task!r} is from {allowed.start} to {allowed.stop - 1}, "
                            f"not {a.number}")
    taskcards.name_number(g, task, a.number)
    _next_turn(g)


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
    if not g.task_cards and all(t.owner is not None for t in g.tasks):
        g.draft_turn = -1
        g.advance()
    elif not g.task_cards:
        g.draft_turn = (g.draft_turn + 1) % g.n
    else:
        _next_turn(g)
