"""Setup and task-assignment building blocks: each kind of mission step is one class here.

A mission's ``setup`` list, typed by the spec layer (:class:`~crewkit.spec.model.SetupStep`), compiles into
:class:`StepSpec` objects (frozen, in :class:`Rules`); a running game
walks them in order before the tricks. Each step says whose action it waits for, which actions are legal,
and what an action does. Automatic steps (``role_from_holder``) finish as soon as they start.

Step kinds (mission YAML key → class):
- ``ask``               → :class:`AskStep`: every asked seat answers from a fixed list (public answers)
- ``choose_player``     → :class:`ChooseStep`: the chooser binds a role to a seat (``exclude`` honoured, and a
  seat a drawn task card bars when the role takes every card)
- ``choose_roles``      → one :class:`ChooseStep` per role, each distinct from the earlier ones
- ``role_from_holder``  → :class:`HolderRoleStep`: role = the holder of a card, or its left/right neighbour
- ``swap_tokens``       → :class:`SwapTokensStep`: optionally swap the tokens of two tasks
- ``move_token``        → :class:`MoveTokenStep`: optionally move a token onto a task without one
- symbol ``commander_decision``     → :class:`DecisionStep`: answers, then all tasks to one non-commander
- symbol ``commander_distribution`` → :class:`DistributionStep`: per task answers, then the commander gives it
- ``draw_tasks``, ``distribute_tasks``, ``volunteer``, ``hardest_first``, ``draft_without``: the task-card steps
  of Mission Deep Sea, in :mod:`crewkit.families.trick_taking.engine.taskcard_steps`
``draw_from_neighbour`` is not a setup step but a trigger after a trick (the ``draws`` block, blocks/draws.py).
A dummy seat (JARVIS) is asked and may be chosen for a role as its rule set's ``dummy.answers`` and
``dummy.choosable`` say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat, move_dummy
from crewkit.families.trick_taking.engine.step_actions import (
    Answer,
    ChoosePlayer,
    GiveAllTasks,
    GiveTask,
    MoveToken,
    Skip,
    SwapTokens,
)
from crewkit.spec.model import Mission, SetupStep

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


StepSpec = SetupStep
"""A compiled step: the mission's typed setup steps, then the steps the engine adds (``decision``,
``distribution``, ``dummy-seat``)."""


def compile_steps(mission: Mission | None, assignment: str) -> tuple[tuple[StepSpec, ...], str]:
    """The mission's setup steps followed by the task-assignment step; returns (steps, assignment)."""
    if mission is None:
        return (), assignment
    steps = list(mission.setup)
    if mission.symbols.commander_decision:
        assignment = "commander-decision"
    elif mission.symbols.commander_distribution:
        assignment = "commander-distribution"
    if mission.tasks.count:
        if assignment == "commander-decision":
            steps.append(StepSpec("decision", {}))
        elif assignment == "commander-distribution":
            steps.append(StepSpec("distribution", {}))
    return tuple(steps), assignment


def compile_draws(mission: Mission | None) -> tuple[tuple[int, str], ...]:
    """``draw_from_neighbour`` triggers as (after_trick, from)."""
    return tuple((d.after_trick, d.source) for d in mission.draws) if mission is not None else ()


class Step:
    """One running step. Subclasses keep their own progress; the game holds the current one."""

    spec: StepSpec

    def __init__(self, spec: StepSpec) -> None:
        self.spec = spec

    def start(self, g: Game) -> bool:
        """Called when the step becomes current; True when it finished at once (automatic steps)."""
        return False

    def to_act(self, g: Game) -> int | None:
        raise NotImplementedError

    def legal(self, g: Game, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, g: Game, action: Action) -> bool:
        """Carry out ``action`` (already checked to be this seat's turn); True when the step is done."""
        raise NotImplementedError

    def describe(self) -> str:
        return self.spec.kind

    def clone(self) -> Step:
        other = type(self).__new__(type(self))
        other.__dict__.update({k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                               for k, v in self.__dict__.items()})
        return other


DECISION_QUESTION = "Can you take all the tasks?"


def wants_question(card: object) -> str:
    """The commander's distribution asks this of every seat about the task card just revealed (bots read it)."""
    return f"Who wants {card}?"


def _seats_from(g: Game, start: int) -> list[int]:
    return [(start + i) % g.n for i in range(g.n)]


def _asked(g: Game, seats: Sequence[int]) -> list[int]:
    """The seats a question goes to: the dummy (JARVIS) is left out when its rule set says nobody answers for it."""
    dummy = g.rules.dummy
    if dummy is not None and dummy.answers == "not-asked":
        return [s for s in seats if s != g.dummy_seat]
    return list(seats)


def _chooser(g: Game, by: str) -> int:
    if by == "dealer" and g.dealer is not None:
        return g.dealer
    # "crew" decisions are recorded as the commander's action: the crew agrees, the commander carries it out
    return g.commander if g.commander is not None else 0


class AskStep(Step):
    def __init__(self, spec: StepSpec) -> None:
        super().__init__(spec)
        self.order: list[int] = []
        self.answers: dict[int, str] = {}

    def start(self, g: Game) -> bool:
        commander = g.commander if g.commander is not None else 0
        self.order = _seats_from(g, commander)
        if self.spec.params["who"] == "others":
            self.order = [s for s in self.order if s != commander]
        self.order = _asked(g, self.order)
        g.questions.append((self.spec.params["question"], self.answers))
        return not self.order

    def to_act(self, g: Game) -> int | None:
        for seat in self.order:
            if seat not in self.answers:
                return seat
        return None

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        return [Answer(seat, a) for a in self.spec.params["answers"]]

    def apply(self, g: Game, action: Action) -> bool:
        if not isinstance(action, Answer):
            raise IllegalAction("answer-expected", f"the commander asked {self.spec.params['question']!r}: answer first")
        allowed = self.spec.params["answers"]
        if action.answer not in allowed:
            raise IllegalAction("bad-answer", f"answer {action.answer!r} is not allowed; answers: {', '.join(allowed)}")
        self.answers[action.seat] = action.answer
        return self.to_act(g) is None

    def describe(self) -> str:
        return f"question: {self.spec.params['question']}"


def _excluded(g: Game, exclude: Sequence[str]) -> set[int]:
    out: set[int] = set()
    if g.rules.dummy is not None and not g.rules.dummy.choosable and g.dummy_seat is not None:
        out.add(g.dummy_seat)  # the rule set does not let the dummy (JARVIS) take a role
    for name in exclude:
        if name == "commander" and g.commander is not None:
            out.add(g.commander)
        elif name == "dealer" and g.dealer is not None:
            out.add(g.dealer)
        elif g.roles.get(name) is not None:
            out.add(g.roles[name])
    return out


class ChooseStep(Step):
    def to_act(self, g: Game) -> int | None:
        return _chooser(g, self.spec.params["by"])

    def start(self, g: Game) -> bool:
        if not self.candidates(g):
            g.fail(f"failed before play: no player may be the {self.spec.params['role']}", None)
        return False

    def _barred(self, g: Game) -> set[int]:
        """Seats a drawn task card bars (its ``may_take_if``) when the role takes every card (the only player a
        ``distribute_tasks`` step names): Deep Sea's captain, with a card the captain may not take."""
        if not g.task_cards:
            return set()
        from crewkit.families.trick_taking.engine import taskcards

        if not taskcards.takes_every_card(g, self.spec.params["role"]):
            return set()
        return {s for s in range(g.n) if taskcards.barred_cards(g, s)}

    def candidates(self, g: Game) -> list[int]:
        barred = _excluded(g, self.spec.params["exclude"]) | self._barred(g)
        return [s for s in range(g.n) if s not in barred]

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        role = self.spec.params["role"]
        return [ChoosePlayer(seat, p, role) for p in self.candidates(g)]

    def apply(self, g: Game, action: Action) -> bool:
        role = self.spec.params["role"]
        if not isinstance(action, ChoosePlayer) or action.role != role:
            raise IllegalAction("choose-expected", f"the {role} must be chosen now (a choose-player action for {role!r})")
        if not 0 <= action.player < g.n:
            raise IllegalAction("no-such-seat", f"there is no seat {action.player}")
        if action.player in self._barred(g) and action.player not in _excluded(g, self.spec.params["exclude"]):
            from crewkit.families.trick_taking.engine import taskcards

            cards = ", ".join(taskcards.may_take_text(g, t) for t in taskcards.barred_cards(g, action.player))
            raise IllegalAction("may-not-take", f"seat {action.player} cannot be the {role}: the {role} takes every "
                                f"task card, and {taskcards.seat_words(g, action.player)} may not take {cards}")
        if action.player not in self.candidates(g):
            barred = ", ".join(self.spec.params["exclude"])
            raise IllegalAction("excluded-player", f"seat {action.player} cannot be the {role} (excluded: {barred})")
        g.bind_role(role, action.player)
        return True

    def describe(self) -> str:
        return f"choose the {self.spec.params['role']}"


class HolderRoleStep(Step):
    def start(self, g: Game) -> bool:
        card = g.rules.deck.card(self.spec.params["card"])
        holder = next((s for s in range(g.n) if g.hands[s] & card.bit), None)
        if holder is None and g.dummy_seat is not None and any(card in col for col in g.dummy_columns):
            # face down under the dummy's (JARVIS's) face-up cards: the dummy holds it, and every player can tell,
            # since each other card is in their own hand or face up
            holder = g.dummy_seat
        if holder is None:
            # the card is not in any hand (set aside): the role stays unbound and conditions on it fail clearly
            return True
        offset = {"self": 0, "left": 1, "right": -1}[self.spec.params["offset"]]
        g.bind_role(self.spec.params["role"], (holder + offset) % g.n, announce=card)
        return True

    def to_act(self, g: Game) -> int | None:
        return None

    def legal(self, g: Game, seat: int) -> list[Action]:
        return []


class SwapTokensStep(Step):
    def to_act(self, g: Game) -> int | None:
        return _chooser(g, "crew")

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        tokened = [t for t in g.tasks if t.token is not None]
        out: list[Action] = [Skip(seat)] if self.spec.params["optional"] else []
        for i, a in enumerate(tokened):
            for b in tokened[i + 1:]:
                out.append(SwapTokens(seat, a.card, b.card))
        return out

    def apply(self, g: Game, action: Action) -> bool:
        if isinstance(action, Skip) and self.spec.params["optional"]:
            return True
        if not isinstance(action, SwapTokens):
            raise IllegalAction("swap-expected", "the crew may now swap the tokens of two tasks (swap-tokens or skip)")
        a, b = g.task_of(action.first), g.task_of(action.second)
        if a is None or b is None or a is b or a.token is None or b.token is None:
            raise IllegalAction("bad-swap", "swap-tokens needs two different tasks that both carry a token")
        if g.tasks.index(a) > g.tasks.index(b):
            # one spelling of each swap, as legal() lists it, so a record names every choice one way
            raise IllegalAction("bad-swap", f"swap-tokens names the two tasks in table order: {b.card} first, "
                                            f"then {a.card}")
        a.token, b.token = b.token, a.token
        return True


class MoveTokenStep(Step):
    def to_act(self, g: Game) -> int | None:
        return _chooser(g, "crew")

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        out: list[Action] = [Skip(seat)] if self.spec.params["optional"] else []
        sources = [t for t in g.tasks if t.token is not None]
        targets = [t for t in g.tasks if t.token is None]
        out += [MoveToken(seat, str(s.token), t.card) for s in sources for t in targets]
        return out

    def apply(self, g: Game, action: Action) -> bool:
        if isinstance(action, Skip) and self.spec.params["optional"]:
            return True
        if not isinstance(action, MoveToken):
            raise IllegalAction("move-expected", "the crew may now move one token (move-token or skip)")
        src = next((t for t in g.tasks if t.token == action.token), None)
        dst = g.task_of(action.target)
        if src is None or dst is None or dst.token is not None:
            raise IllegalAction("bad-move", "move-token moves a token from a task that has one onto a task without one")
        dst.token, src.token = src.token, None
        return True


class DecisionStep(Step):
    """Commander's decision: every other seat answers yes/no, then the commander gives all tasks to one of them."""

    def __init__(self, spec: StepSpec) -> None:
        super().__init__(spec)
        self.answers: dict[int, str] = {}

    def start(self, g: Game) -> bool:
        g.questions.append((DECISION_QUESTION, self.answers))
        return False

    def _candidates(self, g: Game) -> list[int]:
        return [s for s in _seats_from(g, g.commander or 0) if s != g.commander]

    def _asked(self, g: Game) -> list[int]:
        return _asked(g, self._candidates(g))

    def to_act(self, g: Game) -> int | None:
        for s in self._asked(g):
            if s not in self.answers:
                return s
        return g.commander

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        if len(self.answers) < len(self._asked(g)):
            return [Answer(seat, "yes"), Answer(seat, "no")]
        return [GiveAllTasks(seat, p) for p in self._candidates(g)]

    def apply(self, g: Game, action: Action) -> bool:
        if len(self.answers) < len(self._asked(g)):
            if not isinstance(action, Answer) or action.answer not in ("yes", "no"):
                raise IllegalAction("answer-expected", "commander's decision: answer yes or no first")
            self.answers[action.seat] = action.answer
            return False
        if not isinstance(action, GiveAllTasks):
            raise IllegalAction("give-expected", "commander's decision: the commander now gives the tasks to one player")
        if action.player == g.commander or not 0 <= action.player < g.n:
            raise IllegalAction("excluded-player", "commander's decision: the tasks go to a player other than the commander")
        for t in g.tasks:
            t.owner = action.player
            g.reveal_task(t, action.player)
        return True


class DistributionStep(Step):
    """Commander's distribution: tasks revealed one at a time; seats answer; the commander gives it to anyone.

    Balance rule: at the end no player may have two or more tasks more than another, so a gift is refused
    when the remaining tasks could no longer even the counts out.
    """

    def __init__(self, spec: StepSpec) -> None:
        super().__init__(spec)
        self.index = 0
        self.answers: dict[int, str] = {}

    def start(self, g: Game) -> bool:
        g.reveal_task(g.tasks[0], None)
        g.questions.append((wants_question(g.tasks[0].card), self.answers))
        return False

    def to_act(self, g: Game) -> int | None:
        for s in _asked(g, _seats_from(g, g.commander or 0)):
            if s not in self.answers:
                return s
        return g.commander

    def _counts(self, g: Game) -> list[int]:
        counts = [0] * g.n
        for t in g.tasks:
            if t.owner is not None:
                counts[t.owner] += 1
        return counts

    def allowed_players(self, g: Game) -> list[int]:
        remaining = len(g.tasks) - self.index - 1
        out = []
        for p in range(g.n):
            counts = self._counts(g)
            counts[p] += 1
            top = max(counts)
            need = sum(max(0, top - 1 - c) for c in counts)
            if need <= remaining:
                out.append(p)
        return out

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        if len(self.answers) < len(_asked(g, range(g.n))):
            return [Answer(seat, "yes"), Answer(seat, "no")]
        card = g.tasks[self.index].card
        return [GiveTask(seat, card, p) for p in self.allowed_players(g)]

    def apply(self, g: Game, action: Action) -> bool:
        if len(self.answers) < len(_asked(g, range(g.n))):
            if not isinstance(action, Answer) or action.answer not in ("yes", "no"):
                raise IllegalAction("answer-expected", "commander's distribution: answer yes or no first")
            self.answers[action.seat] = action.answer
            return False
        task = g.tasks[self.index]
        if not isinstance(action, GiveTask) or action.card != task.card:
            raise IllegalAction("give-expected", f"commander's distribution: the commander now gives {task.card}")
        if action.player not in self.allowed_players(g):
            raise IllegalAction(
                "unbalanced",
                f"seat {action.player} cannot take {task.card}: in the end no player may have two tasks more than another",
            )
        task.owner = action.player
        g.events_task_taken(task)
        self.index += 1
        if self.index >= len(g.tasks):
            return True
        self.answers = {}
        g.reveal_task(g.tasks[self.index], None)
        g.questions.append((wants_question(g.tasks[self.index].card), self.answers))
        return False


class DummySeatStep(Step):
    """Where the dummy (JARVIS) sits among the seats; the players decide, the commander records it."""

    def to_act(self, g: Game) -> int | None:
        return g.commander if g.commander is not None else 0

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != self.to_act(g):
            return []
        return [ChooseDummySeat(seat, d) for d in range(g.n)]

    def apply(self, g: Game, action: Action) -> bool:
        if not isinstance(action, ChooseDummySeat):
            raise IllegalAction("dummy-seat-expected", "first decide where the dummy sits (choose-dummy-seat)")
        if not 0 <= action.dummy_seat < g.n:
            raise IllegalAction("no-such-seat", f"there is no seat {action.dummy_seat} for the dummy")
        move_dummy(g, action.dummy_seat)
        return True

    def describe(self) -> str:
        return "choose the dummy's seat"


STEP_CLASSES: dict[str, type[Step]] = {
    "dummy-seat": DummySeatStep,
    "ask": AskStep,
    "choose": ChooseStep,
    "holder-role": HolderRoleStep,
    "swap-tokens": SwapTokensStep,
    "move-token": MoveTokenStep,
    "decision": DecisionStep,
    "distribution": DistributionStep,
}


#: modules of further step kinds, imported when a kind not yet in :data:`STEP_CLASSES` is asked for (each adds
#: its kinds there): the task-card steps of Mission Deep Sea cost nothing to a game without them, and build on
#: this module's classes, as a family's blocks build on the engine (:data:`crewkit.engine.registry.FAMILY_BLOCK_MODULES`)
STEP_MODULES: tuple[str, ...] = ("crewkit.families.trick_taking.engine.taskcard_steps",)


def make_step(spec: StepSpec) -> Step:
    if spec.kind not in STEP_CLASSES:
        import importlib

        for module in STEP_MODULES:
            importlib.import_module(module)
    return STEP_CLASSES[spec.kind](spec)
