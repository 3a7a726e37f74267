"""The game: one attempt at one mission under one rule set, driven by actions: the phase machine.

The machine knows no particular game. A rule set is a composition of blocks (:mod:`crewkit.engine.registry`):
the phases of its ``flow:`` run in order (each says who acts, what is legal, what an action does, how it reads
in words), and cross-cutting blocks add actions and hooks (communication, the distress signal, the dummy seat,
chip scoring, ...). Hands, piles and legal plays are bitmasks over the deck's card ids; the state lives here,
the rules in the blocks.
"""

from __future__ import annotations

import copy
import random
from typing import Any, TypeVar

from crewkit.cards import Card, Suit, sort_key
from crewkit.engine.actions import Action
from crewkit.engine.errors import DealerError, IllegalAction, SetupError
from crewkit.engine.outcome import FAILURE, FINISHED, IN_PROGRESS, SUCCESS, Outcome
from crewkit.engine.phase import Block, BlockState, Phase
from crewkit.engine.registry import Composition, compose
from crewkit.families.trick_taking.engine.blocks.communication import in_window
from crewkit.families.trick_taking.engine.blocks.setup_steps import current_step
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.blocks.tricks import legal_play_mask as tricks_legal_play_mask
from crewkit.families.trick_taking.engine.deal import (
    check_deal,
    complete_deal,
    deal_from_seed,
    deal_from_strings,
    first_dealer,
    set_aside_count,
)
from crewkit.families.trick_taking.engine.observation import Observation, observe
from crewkit.families.trick_taking.engine.rules import Condition, Rules, mode_for_card
from crewkit.families.trick_taking.engine.state import CardTask, Communication, Deal, Event, Task, Trick
from crewkit.families.trick_taking.engine.view import EngineView

S = TypeVar("S", bound=BlockState)

# the phases by their former names (kept for callers; the names themselves are spelled once, in Phase)
CHOOSE_MISSION = Phase.CHOOSE_MISSION
SETUP = Phase.SETUP
DRAFT = Phase.DRAFT
DISTRESS_PASS = Phase.DISTRESS_PASS
TRICKS = Phase.TRICKS
OVER = Phase.OVER


class Game:
    """One attempt of a mission. Create with :meth:`new`; drive with :meth:`apply`."""

    # the tricks block's per-rule-set lookups (crewkit.families.trick_taking.engine.blocks.tricks), set by its
    # ``start``: plain attributes because every play reads them
    _cards: tuple[Card, ...]
    _play_actions: tuple[tuple[Play, ...], ...]  # [seat][card id]: the shared Play actions
    _strengths: tuple[tuple[int, ...], ...]  # [led suit + 1][card id]
    _free_mask: int  # every free card
    _free_not_first: int  # free cards barred from the first trick
    _free_not_last: int  # free cards barred from the last trick

    def __init__(self, rules: Rules, deal: Deal, seed: str, rng: random.Random, dealer: int | None = None) -> None:
        rules = mode_for_card(rules, deal.mode_card)  # the communication mode drawn for this attempt, if any
        self.rules = rules
        self.seed = seed
        self._states: dict[type[BlockState], BlockState] = {}  # the blocks' own state, by its class
        self.deal = deal
        self._rng = rng
        comp = self._comp = compose(rules)
        self.hooks = comp.hooks
        self._handlers = comp.handlers
        n = rules.seats
        self.n = n
        deck = rules.deck
        self.hands: list[int] = [deck.mask(h) for h in deal.hands]
        self.dummy_seat: int | None = None
        self.dummy_columns: list[list[Card]] = []
        self._dummy_reveal: list[int] = []  # dummy columns whose next card turns up when the trick ends
        self.won: list[int] = [0] * n
        self.tricks_won: list[int] = [0] * n
        self.tricks: list[Trick] = []
        self.card_trick: dict[int, Trick] = {}  # card id -> the completed trick it fell in
        self.plays: list[tuple[int, Card]] = []
        self.led_suit: Suit | None = None
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.tasks: list[Task] = [
            Task(card, rules.tokens[i] if i < len(rules.tokens) else None) for i, card in enumerate(deal.tasks)
        ]
        for prepare in comp.hooks.prepare:
            prepare(self, deal)
        self._task_by_card: dict[int, Task] = {t.card.id: t for t in self.tasks}
        self.tasks_done = 0
        self.communications: list[Communication] = []
        self.comm_used: list[int] = [0] * n
        self.distress_direction: str | None = None
        self.passes: dict[int, Card] = {}
        # the mission's conditions, then each task card's objective once it is bound to its owner
        self.conditions: tuple[Condition, ...] = rules.conditions
        self.cond_done: list[bool] = [False] * len(rules.conditions)
        self.task_cards: list[CardTask] = [CardTask(card_id) for card_id in deal.task_cards]
        self.roles: dict[str, int] = {}
        self.questions: list[tuple[str, dict[int, str]]] = []  # public: question and answers by seat
        self.gold_frame_used = False
        # in-game randomness (mission 12's draws), independent of the deal; seeded only where needed
        self._draw_rng = random.Random(f"crewkit:{seed}:draws") if rules.draws else random.Random(0)
        self._outcome: Outcome | None = None
        # the GameSpec (names) when created through crewkit.families.trick_taking.engine.setup
        self.spec: Any = None
        self.total_tricks = min(len(h) for h in deal.hands) if deal.hands else 0
        if self.dummy_seat is not None:
            self.total_tricks = min(len(h) for i, h in enumerate(deal.hands) if i != self.dummy_seat)

        # commander and first leader
        self.commander: int | None = None
        if rules.commander_card is not None:
            for seat, h in enumerate(self.hands):
                if seat == self.dummy_seat:
                    continue
                if h & rules.commander_card.bit:
                    self.commander = seat
            if self.commander is None:
                raise SetupError(f"nobody holds {rules.commander_card}, which names the commander")
        for choose in comp.hooks.choose_commander:
            chosen = choose(self)
            if chosen is not None:
                self.commander = chosen
        self.dealer: int | None = None
        self.dealer_asked = dealer  # the first dealer named by the caller (a block with rounds reads it)
        self.leader = self.first_leader()
        self.turn = self.leader

        self.events.append(Event("deal", detail=f"{n} players"))
        if self.commander is not None:
            self.events.append(Event("commander", self.commander, rules.commander_card))
        hidden_tasks = rules.assignment in ("commander-decision", "commander-distribution") or rules.secret is not None
        for t in self.tasks:
            t.revealed = not hidden_tasks
            if t.revealed:
                self.events.append(Event("task-revealed", None, t.card, t.token or ""))

        # the setup phase's steps (crewkit.families.trick_taking.engine.steps), when the flow has one
        self.steps: list[Any] = []
        self.step_index = 0
        self.draft_turn = -1
        self._task_mask = deck.mask(t.card for t in self.tasks)
        self.scoring = rules.scoring
        self.mode: str | None = None  # a round's mode (penalty, challenge) in a game played in rounds
        self.signal_trick: int = 0  # the trick number in which the last signal was given
        self._pending_signal: tuple[int, Card, int] | None = None  # must be won in this trick (a reading)
        if dealer is not None and not comp.takes_dealer:
            raise DealerError(f"a first dealer (seat {dealer}) is named, but rule set {rules.ruleset_name} has no dealer")
        for start in comp.hooks.start:
            start(self)
        self._stack: list[Block] = []  # phases interrupted by the current one (the distress pass)
        self._flow_index = -1
        self.phase: Any = comp.flow[0].phase
        self.current_block: Block = comp.flow[0]
        self._enter_flow(0)
        for started in comp.hooks.started:
            started(self)

    def first_leader(self) -> int:
        """Who leads the first trick (``first_leader``): the holder of a card, the dealer or the commander.

        A ``holder_of`` card nobody holds (set aside, or under a dummy's face-up card) falls back to the
        commander, as does ``dealer`` in a game without a dealer; without a commander, seat 0 leads."""
        r = self.rules
        if r.first_leader_card is not None:
            for seat, hand in enumerate(self.hands):
                if hand & r.first_leader_card.bit:
                    return seat
        if r.first_leader == "dealer" and self.dealer is not None:
            return self.dealer
        return self.commander if self.commander is not None else 0

    # ------------------------------------------------------------------ the flow
    def _enter_flow(self, index: int) -> None:
        flow = self._comp.flow
        while index < len(flow):
            block = flow[index]
            self._flow_index = index
            self.phase = block.phase
            self.current_block = block
            if block.enter(self):
                return
            index += 1
        raise SetupError(f"the flow of rule set {self.rules.ruleset_name} ran out of phases before the game ended")

    def advance(self) -> None:
        """The current phase is done: the next phase of the flow that has something to do."""
        self._enter_flow(self._flow_index + 1)

    def restart_flow(self) -> None:
        """Back to the flow's first phase (the next round of a game played in rounds)."""
        self._stack = []
        self._enter_flow(0)

    def place_in(self, phase: Any) -> None:
        """Stand in the flow's first block of ``phase`` without entering it: for a position built from outside
        the game (a bot's sampled world with the trick play set up by hand). Raises SetupError without one."""
        for index, block in enumerate(self._comp.flow):
            if block.phase == phase:
                self._stack = []
                self._flow_index = index
                self.phase = block.phase
                self.current_block = block
                return
        raise SetupError(f"the flow of rule set {self.rules.ruleset_name} has no {phase} phase")

    def interrupt(self, block: Block) -> None:
        """Run ``block``'s phase now; :meth:`resume` returns to the phase it interrupted."""
        self._stack.append(self.current_block)
        self.current_block = block
        self.phase = block.phase

    def resume(self) -> None:
        block = self._stack.pop()
        self.current_block = block
        self.phase = block.phase

    def finish(self, outcome: Outcome, detail: str) -> None:
        """The game ends with ``outcome``; ``detail`` is the outcome event's text."""
        self._outcome = outcome
        self.phase = Phase.OVER
        self.events.append(Event("outcome", None, None, detail))

    def succeed(self, reason: str, trick: int | None) -> None:
        self.finish(Outcome(SUCCESS, reason, trick), f"success: {reason}")

    def fail(self, reason: str, trick: int | None) -> None:
        self.finish(Outcome(FAILURE, reason, trick), f"failure: {reason}")

    @property
    def blocks(self) -> tuple[str, ...]:
        """The names of the blocks this game is made of (its flow's phases first)."""
        return self._comp.names()

    @property
    def composition(self) -> Composition:
        return self._comp

    @property
    def current_step(self) -> Any:
        """The setup step under way (None outside the setup phase)."""
        return current_step(self)

    def state(self, kind: type[S]) -> S:
        """The state of kind ``kind`` a block keeps on this game (KeyError when no block of the game keeps one)."""
        return self._states[kind]  # type: ignore[return-value]

    def state_or_none(self, kind: type[S]) -> S | None:
        """As :meth:`state`, or None when the game has no such state (its rule set lacks the block)."""
        return self._states.get(kind)  # type: ignore[return-value]

    def set_state(self, state: BlockState) -> None:
        """Keep a block's state on the game (replacing any of its class), for :meth:`state` and :meth:`clone`."""
        self._states[type(state)] = state

    def bind_role(self, role: str, seat: int, announce: Card | None = None) -> None:
        self.roles[role] = seat
        self.events.append(Event("role", seat, announce, role))

    def reveal_task(self, task: Task, owner: int | None) -> None:
        if not task.revealed:
            task.revealed = True
            self.events.append(Event("task-revealed", None, task.card, task.token or ""))
        if owner is not None:
            self.events_task_taken(task)

    def events_task_taken(self, task: Task) -> None:
        self.events.append(Event("task-taken", task.owner, task.card, task.token or ""))

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules: Rules, seed: str = "", deal: Deal | None = None, dealer: int | None = None,
            partial: bool = False) -> Game:
        """A new attempt: ``seed`` fixes whatever ``deal`` does not (string seeds are stable everywhere).

        ``deal`` is checked against the rule set (:func:`check_deal`; ``partial`` allows smaller hands, for
        hand-made positions). ``dealer``: the first round's dealer of a scoring game, as ``dealer_start`` allows."""
        rng = random.Random(f"crewkit:{seed}")
        if deal is None:
            deal = deal_from_seed(rules, rng)
        else:
            deal = complete_deal(rules, deal, rng, partial)
        return cls(rules, deal, seed, rng, dealer)

    def clone(self) -> Game:
        """An independent copy (cards, actions and blocks are immutable and shared)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.won = list(self.won)
        other.tricks_won = list(self.tricks_won)
        other.tricks = list(self.tricks)
        other.card_trick = dict(self.card_trick)
        other.plays = list(self.plays)
        other.events = list(self.events)
        other.actions = list(self.actions)
        other.tasks = [copy.copy(t) for t in self.tasks]
        other._task_by_card = {t.card.id: t for t in other.tasks}
        other.communications = list(self.communications)
        other.comm_used = list(self.comm_used)
        other.passes = dict(self.passes)
        other.cond_done = list(self.cond_done)
        other.task_cards = [copy.copy(t) for t in self.task_cards]
        other.roles = dict(self.roles)
        other.dummy_columns = [list(col) for col in self.dummy_columns]
        other._dummy_reveal = list(self._dummy_reveal)
        other.questions = [(q, dict(a)) for q, a in self.questions]
        other.steps = [step.clone() for step in self.steps]
        other._stack = list(self._stack)
        other._states = {kind: state.copy() for kind, state in self._states.items()}
        for clone_state in self.hooks.clone_state:
            clone_state(self, other)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._draw_rng = random.Random()
        other._draw_rng.setstate(self._draw_rng.getstate())
        return other

    # ------------------------------------------------------------------ queries
    def controller(self, seat: int) -> int:
        """The seat whose player decides for ``seat``: the commander decides for the dummy (JARVIS, whose rule
        set says ``dummy.played_by: commander``); every other seat for itself."""
        if seat == self.dummy_seat and self.commander is not None:
            return int(self.commander)
        return seat

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome:
        if self._outcome is None:
            return Outcome(IN_PROGRESS, self.current_block.describe(self))
        return self._outcome

    @property
    def to_act(self) -> int | None:
        """The seat whose action the game waits for (optional actions of other seats aside)."""
        if self._outcome is not None:
            return None
        return self.current_block.to_act(self)

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (or about to start)."""
        return len(self.tricks) + 1

    def hand(self, seat: int) -> list[Card]:
        return sorted(self.rules.deck.from_mask(self.hands[seat]), key=sort_key)

    def task_of(self, card: Card) -> Task | None:
        return self._task_by_card.get(card.id)

    def in_communication_window(self) -> bool:
        """Whether a seat may now act out of turn (communicate, signal, call the distress signal)."""
        return in_window(self)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now, required and optional."""
        if self._outcome is not None:
            return []
        block = self.current_block
        if seat is None:
            seat = block.to_act(self)  # self.to_act, without the property
            if seat is None:
                return []
        return block.legal(self, seat)

    def optional_actions(self, seat: int) -> list[Action]:
        """Actions ``seat`` may start now out of turn (communication, distress, ...; never required)."""
        out: list[Action] = []
        for optional in self.hooks.optional_in_trick if self.plays else self.hooks.optional:
            out.extend(optional(self, seat))
        return out

    def has_optional_actions(self, seat: int) -> bool:
        """``bool(optional_actions(seat))``, stopping at the first action found."""
        for optional in self.hooks.optional_in_trick if self.plays else self.hooks.optional:
            for _ in optional(self, seat):
                return True
        return False

    legal_play_mask = tricks_legal_play_mask  # the tricks block's rule, bound as a method (seat) -> mask

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> None:
        """Carry out ``action`` or raise :class:`IllegalAction` naming the rule it breaks."""
        if self._outcome is not None:
            raise IllegalAction("game-over", f"the game is over ({self._outcome.result}); no more actions")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("no-such-seat", f"there is no seat {action.seat} in a {self.n}-player game")
        block = self.current_block
        if block.takes_every_action:
            block.apply(self, action)
        else:
            try:
                handler = self._handlers[type(action)]
            except KeyError:
                raise IllegalAction("unknown-action", f"this rule set has no {action.type!r} action") from None
            handler(self, action)
        self.actions.append(action)

    # ------------------------------------------------------------------ views
    def view(self) -> EngineView:
        return EngineView(self)

    def observation(self, seat: int) -> Observation:
        return observe(self, seat)

    def events_for(self, seat: int) -> list[Event]:
        """The events as ``seat`` saw them: cards passed or drawn between two other seats are hidden."""
        out = []
        for e in self.events:
            if e.kind in ("pass", "draw") and e.card is not None and e.seat != seat:
                other = e.detail.rsplit(" ", 1)[-1]
                if not (other.isdigit() and int(other) == seat):
                    e = Event(e.kind, e.seat, None, e.detail)
            out.append(e)
        return out

    def distress_used(self) -> bool:
        return self.distress_direction is not None


__all__ = [
    "CHOOSE_MISSION",
    "DISTRESS_PASS",
    "DRAFT",
    "FAILURE",
    "FINISHED",
    "IN_PROGRESS",
    "OVER",
    "SETUP",
    "SUCCESS",
    "TRICKS",
    "Communication",
    "Deal",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "Phase",
    "Task",
    "Trick",
    "check_deal",
    "complete_deal",
    "deal_from_seed",
    "deal_from_strings",
    "first_dealer",
    "set_aside_count",
]
