"""The game-independent part of the phase machine, for game families that are not trick-taking.

A :class:`Machine` runs a *flow* of phase blocks (:class:`MachineBlock`) in order and round after round: the
current block says which seats it waits for (several at once for a simultaneous secret choice), which actions
each may take, and carries them out. The machine keeps what every such game has: the blocks' own state
(:class:`~crewkit.engine.phase.BlockState` by class, copied on :meth:`Machine.clone`), the action record, a log
of lines each visible to all or to some seats, the outcome, and *choices*: an effect that needs a player's
decision in the middle of its work (which card to take back, which option) suspends, the machine asks that
seat for :class:`Pick` actions, and the work is run again from its start with the answers so far (so effects
are plain functions of the state and a chooser; nothing half-done is ever kept).

Secret simultaneous choices: a block whose action is secret calls :meth:`Machine.hold` instead of letting it
go to the record; :meth:`Machine.release` writes the held actions in seat order when they are revealed, so
neither the record nor an observation tells in which order the seats chose.

The trick-taking :class:`~crewkit.families.trick_taking.engine.game.Game` keeps its own specialised copy of
the flow for speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from crewkit.cards import Deck
from crewkit.engine.actions import Action, ActionFormatError, register_action
from crewkit.engine.errors import IllegalAction, SetupError
from crewkit.engine.outcome import FAILURE, IN_PROGRESS, SUCCESS, Outcome
from crewkit.engine.phase import BlockState

S = TypeVar("S", bound=BlockState)
M = TypeVar("M", bound="Machine")
T = TypeVar("T")
Value = int | str  # what a Pick chooses: a place number, a seat, a card id, an option's label


# ------------------------------------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """One item chosen for the question the machine asks (``count`` picks answer a question of ``count``)."""

    value: Value
    type = "pick"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "value": self.value}


def _read_pick(obj: dict[str, Any], seat: int, deck: Deck | None) -> Pick:
    value = obj.get("value")
    if not isinstance(value, (int, str)) or isinstance(value, bool):
        raise ActionFormatError(f"a pick action needs 'value' (a number or a word), found {value!r}")
    return Pick(seat, value)


register_action(Pick, _read_pick)


# ------------------------------------------------------------------------------------------------ choices


class NeedChoice(Exception):  # noqa: N818 - a signal, not an error
    """Raised by the chooser when a player must decide: the work is undone and the seat is asked."""

    def __init__(self, seat: int, options: Sequence[Value], count: int, why: str, private: bool,
                 labels: Sequence[str] = ()) -> None:
        super().__init__(why)
        self.seat, self.options, self.count, self.why, self.private = (
            seat,
            tuple(options),
            count,
            why,
            private,
        )
        self.labels = tuple(labels)


Job = Callable[
    [Any, "Answers"], None
]  # (machine, chooser) -> None; run again from its start after each answer


@dataclass(frozen=True, slots=True)
class Question:
    """What the machine waits for: ``seat`` picks ``count`` distinct items of ``options`` (one Pick each)."""

    seat: int
    options: tuple[Value, ...]
    count: int
    why: str
    private: bool  # the picks are shown to the picker only (the options are cards of a hidden hand)
    job: Job
    answers: tuple[tuple[Value, ...], ...]
    partial: tuple[Value, ...] = ()
    # the words of each option when its value is an id (a one-of option of a card: "option-2"); a record keeps
    # the id, so rewording an option keeps old records valid. () when the values are their own words
    labels: tuple[str, ...] = ()

    def label(self, value: Value) -> str:
        """How a player reads ``value``."""
        return self.labels[self.options.index(value)] if self.labels and value in self.options else str(value)


class Answers:
    """The chooser a job runs with: hands out the answers given so far, then raises :class:`NeedChoice`.

    ``seat_of`` maps the chooser's ``who`` (a seat, or a negative code of the effect vocabulary) to a seat;
    ``chance`` is the code for a random pick (made with the machine's random source, never asked)."""

    def __init__(self, machine: Machine, answers: Sequence[tuple[Value, ...]]) -> None:
        self.machine = machine
        self.answers = list(answers)
        self.used = 0

    def pick(self, who: int, options: Sequence[T], count: int, why: str, labels: Sequence[str] = ()) -> list[T]:
        items = list(options)
        count = min(count, len(items))
        if count <= 0:
            return []
        if who == self.machine.chance_code:
            return self.machine.rng.sample(items, count)
        if count == len(items) or len(set(map(repr, items))) == 1:
            return items[:count]
        if self.machine.is_over():  # the game ended during this work: nothing left to decide
            return items[:count]
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            out: list[T] = []
            for value in answer:
                out.append(next(i for i in items if i == value and i not in out))
            return out
        values: list[Any] = items  # the values a Pick may carry (numbers and words)
        raise NeedChoice(self.machine.seat_of(who), values, count, why, self.machine.is_private(why), labels)


# ------------------------------------------------------------------------------------------------ blocks


class MachineBlock(Generic[M]):
    """One phase of a :class:`Machine`'s flow. ``params`` are its entry in the rule set's ``flow:``.

    * ``actions()``: the action types it takes, each with its handler ``(machine, action)``;
    * ``start(m)``: once when the game is built; ``enter(m)``: when its turn in the flow comes (False: skip);
    * ``proceed(m)``: do what needs no player (resolve, reveal, move on with ``m.advance()``); called after
      every action while no question is pending;
    * ``waiting(m)``: the seats it waits for (several for a simultaneous choice); ``legal(m, seat)``;
    * ``describe(m)``: the phase in words.
    """

    name: ClassVar[str] = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.params: dict[str, Any] = dict(params or {})

    @property
    def label(self) -> str:
        return str(self.params.get("label", self.name))

    def actions(self) -> dict[type, Callable[[M, Any], None]]:
        return {}

    def start(self, m: M) -> None:
        return None

    def enter(self, m: M) -> bool:
        return True

    def proceed(self, m: M) -> None:
        return None

    def waiting(self, m: M) -> tuple[int, ...]:
        return ()

    def legal(self, m: M, seat: int) -> list[Action]:
        return []

    def describe(self, m: M) -> str:
        return self.label


MACHINE_BLOCKS: dict[str, type[MachineBlock[Any]]] = {}


def register_machine_block(cls: type[MachineBlock[Any]]) -> type[MachineBlock[Any]]:
    """Class decorator: make a machine block known by its ``name`` (the word in a rule set's ``flow:``)."""
    if not cls.name:
        raise ValueError(f"block class {cls.__name__} has no name")
    MACHINE_BLOCKS[cls.name] = cls
    return cls


# ------------------------------------------------------------------------------------------------ log


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the players' log; ``seats`` None: everyone sees it, else only those seats."""

    round: int
    text: str
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)


# ------------------------------------------------------------------------------------------------ machine


class Machine:
    """A game run by a flow of :class:`MachineBlock` phases. Subclasses hold the family's state."""

    chance_code: ClassVar[int] = -2  # the chooser's ``who`` for a random pick
    MAX_FLOW_PASSES: ClassVar[int] = 10_000

    def __init__(self, flow: Sequence[MachineBlock[Any]], n: int, seed: str) -> None:
        if not flow:
            raise SetupError("the rule set's flow names no phase")
        self.n = n
        self.seed = seed
        self.rng = random.Random(f"crewkit:{seed}")
        self.flow = tuple(flow)
        self._states: dict[type[BlockState], BlockState] = {}
        self.actions: list[Action] = []  # the record: secret choices enter it in seat order when revealed
        self.lines: list[LogLine] = []
        self.round = 1
        self.question: Question | None = None
        self._held: list[Action] = []  # secret actions not yet revealed
        self._holding = False
        self._outcome: Outcome | None = None
        self._flow_index = 0
        self.chooser = Answers(self, ())
        self.winners: tuple[int, ...] = ()
        # each phase's own table: several phases may take the same kind of action (a pass), each its way
        self._handlers = tuple(block.actions() for block in self.flow)

    def action_types(self) -> frozenset[str]:
        """The action types this game takes: its flow's blocks' own and :class:`Pick` (a record of it holds no
        other)."""
        return frozenset({Pick.type, *(str(getattr(cls, "type", "")) for handlers in self._handlers for cls in handlers)})

    def begin(self) -> None:
        """Start the blocks and enter the flow (subclasses call it once their state is set up)."""
        for block in self.flow:
            block.start(self)
        self._enter(0)
        self._settle()

    # ------------------------------------------------------------------ block state
    def state(self, kind: type[S]) -> S:
        return self._states[kind]  # type: ignore[return-value]

    def state_or_none(self, kind: type[S]) -> S | None:
        return self._states.get(kind)  # type: ignore[return-value]

    def set_state(self, state: BlockState) -> None:
        self._states[type(state)] = state

    # ------------------------------------------------------------------ flow
    @property
    def current(self) -> MachineBlock[Any]:
        return self.flow[self._flow_index]

    @property
    def phase(self) -> str:
        return "over" if self._outcome is not None else self.current.label

    def _enter(self, index: int) -> None:
        for _ in range(len(self.flow) * 2 + 1):
            if index >= len(self.flow):
                raise SetupError(
                    "the flow ran out of phases before the game ended (its last phase must start "
                    "the next round)"
                )
            self._flow_index = index
            if self.current.enter(self):
                return
            index += 1
        raise SetupError("no phase of the flow has anything to do")  # pragma: no cover - defensive

    def advance(self) -> None:
        """The current phase is done: the next one of the flow that has something to do."""
        self._enter(self._flow_index + 1)

    def next_round(self) -> None:
        """Back to the flow's first phase for the next round."""
        self.round += 1
        self._enter(0)

    def _settle(self) -> None:
        """Let the current phases do what needs no player, until one waits for a seat or the game ends."""
        for _ in range(self.MAX_FLOW_PASSES):
            if self._outcome is not None or self.question is not None:
                return
            block, index = self.current, self._flow_index
            block.proceed(self)
            if self.current is block and self._flow_index == index and self.question is None:
                if not block.waiting(self) and self._outcome is None:
                    raise SetupError(f"the {block.describe(self)} phase waits for nobody and does not end")
                return
        raise SetupError("the flow does not settle")  # pragma: no cover - defensive

    # ------------------------------------------------------------------ choices
    def seat_of(self, who: int) -> int:
        """The seat a chooser's ``who`` stands for (subclasses map role codes)."""
        return who

    def is_private(self, why: str) -> bool:
        """Whether a question's picks are shown only to the picker (default: yes)."""
        return True

    def run(self, job: Job, answers: Sequence[tuple[Value, ...]] = ()) -> bool:
        """Run ``job``; if it needs a decision, undo it and ask (True: it ran to its end)."""
        snapshot = self._snapshot()
        self.chooser = Answers(self, answers)  # the chooser of the job under way (effects reach it)
        try:
            job(self, self.chooser)
        except NeedChoice as q:
            self._restore(snapshot)
            self.question = Question(q.seat, q.options, q.count, q.why, q.private, job, tuple(answers),
                                     labels=q.labels)
            return False
        return True

    def _pick(self, action: Pick) -> None:
        q = self.question
        assert q is not None
        left = [o for o in q.options if o not in q.partial]
        value = action.value
        if value not in left and value in q.labels:  # a record written before options had ids: by its words
            value = q.options[q.labels.index(str(value))]
        if value not in left:
            raise IllegalAction(
                "not-an-option",
                f"{q.why}: {action.value!r} is not one of the options ({', '.join(map(str, left))})",
            )
        partial = (*q.partial, value)
        if len(partial) < q.count:
            self.question = Question(q.seat, q.options, q.count, q.why, q.private, q.job, q.answers, partial,
                                     q.labels)
            return
        self.question = None
        self.run(q.job, (*q.answers, partial))

    # ------------------------------------------------------------------ acting
    def waiting(self) -> tuple[int, ...]:
        """Every seat the game waits for now (several during a simultaneous secret choice)."""
        if self._outcome is not None:
            return ()
        if self.question is not None:
            return (self.question.seat,)
        return self.current.waiting(self)

    @property
    def to_act(self) -> int | None:
        """A seat the game waits for (the first of :meth:`waiting`), None when the game is over."""
        seats = self.waiting()
        return seats[0] if seats else None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: :attr:`to_act`) may take now."""
        if seat is None:
            seat = self.to_act
        if seat is None or seat not in self.waiting():
            return []
        q = self.question
        if q is not None:
            return [Pick(seat, o) for o in q.options if o not in q.partial]
        return self.current.legal(self, seat)

    def apply(self, action: Action) -> None:
        """Carry out ``action`` or raise :class:`IllegalAction` naming the rule it breaks."""
        if self._outcome is not None:
            raise IllegalAction("game-over", f"the game is over ({self._outcome.result}); no more actions")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("no-such-seat", f"there is no seat {action.seat} in a {self.n}-player game")
        q = self.question
        if q is not None:
            if action.seat != q.seat or not isinstance(action, Pick):
                raise IllegalAction(
                    "choice-pending", f"the game waits for {self.seat_name(q.seat)} to choose: {q.why}"
                )
            self._pick(action)
        else:
            if action.seat not in self.current.waiting(self):
                raise IllegalAction(
                    "not-your-turn",
                    f"{self.seat_name(action.seat)} may not act now: {self.current.describe(self)}",
                )
            handler = self._handlers[self._flow_index].get(type(action))
            if handler is None:
                raise IllegalAction(
                    "not-now",
                    f"a {action.type} action is not possible during the {self.current.describe(self)}",
                )
            self._holding = False
            handler(self, action)
        if self._holding:
            self._held.append(action)
            self._holding = False
        else:
            self.actions.append(action)
        self._settle()

    def hold(self) -> None:
        """Called by a handler: the action being applied is secret; keep it out of the record until released."""
        self._holding = True

    def held(self) -> list[Action]:
        return list(self._held)

    def release(self) -> None:
        """Reveal the held secret actions: they enter the record in seat order (not in the order chosen)."""
        self.actions.extend(sorted(self._held, key=lambda a: a.seat))
        self._held = []

    # ------------------------------------------------------------------ log and outcome
    def say(self, text: str, seats: Sequence[int] | None = None) -> None:
        self.lines.append(LogLine(self.round, text, None if seats is None else frozenset(seats)))

    def seat_name(self, seat: int) -> str:
        return f"player {seat + 1}"

    def finish(self, winners: Sequence[int], reason: str) -> None:
        """The game ends at once; ``winners`` are the seats that win."""
        if self._outcome is not None:
            return
        self.winners = tuple(winners)
        self._outcome = Outcome(SUCCESS if winners else FAILURE, reason, self.round)
        self.say(f"The game ends: {reason}.")

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome:
        if self._outcome is None:
            return Outcome(IN_PROGRESS, self.current.describe(self))
        return self._outcome

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:
        """An independent copy (blocks, actions and log lines are immutable and shared)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._states = {kind: s.copy() for kind, s in self._states.items()}
        other.actions = list(self.actions)
        other.lines = list(self.lines)
        other._held = list(self._held)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        self.clone_extra(other)
        return other

    def clone_extra(self, other: Self) -> None:
        """Copy mutable state a subclass keeps outside its block states."""
        return None

    def _snapshot(self) -> tuple[dict[str, Any], int, int]:
        """The state before a job: a clone sharing the record and the log (jobs only append to them), so a
        snapshot costs the size of the state, not of the game so far."""
        other = self.clone()
        other.lines, other.actions = self.lines, self.actions
        return dict(other.__dict__), len(self.lines), len(self.actions)

    def _restore(self, snapshot: tuple[dict[str, Any], int, int]) -> None:
        state, lines, actions = snapshot
        self.__dict__.clear()
        self.__dict__.update(state)
        del self.lines[lines:]
        del self.actions[actions:]


__all__ = [
    "FAILURE",
    "SUCCESS",
    "Answers",
    "Job",
    "LogLine",
    "Machine",
    "MachineBlock",
    "NeedChoice",
    "Pick",
    "Question",
    "Value",
    "register_machine_block",
]
