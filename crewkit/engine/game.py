"""The game: one attempt at one mission under one rule set, driven by actions.

A phase machine: ``draft`` (task assignment), ``distress-pass`` (every seat passes a card at once),
``tricks`` (communication windows between tricks, then the cards), ``over``. Hands, piles and legal
plays are bitmasks over the deck's card ids.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from crewkit.cards import Card, Suit, mask_ids, sort_key
from crewkit.engine.actions import (
    Action,
    Answer,
    ChooseMission,
    Communicate,
    Distress,
    HandTask,
    PassCard,
    Play,
    Signal,
    TakeTask,
)
from crewkit.engine.errors import DealerError, IllegalAction, SetupError
from crewkit.engine.kernel import (
    ARROW_TOO_EARLY,
    LAST_TOO_EARLY,
    NUMBER_OUT_OF_TURN,
    deck_strength_table,
    follow_mask,
    token_kinds,
    token_violation,
    trick_winner,
)
from crewkit.engine.rules import OMEGA, Rules

CHOOSE_MISSION = "choose-mission"
SETUP = "setup"
DRAFT = "draft"
DISTRESS_PASS = "distress-pass"
TRICKS = "tricks"
OVER = "over"

FINISHED = "finished"  # a competitive game played to its end: the winner is in the reason
SUCCESS = "success"
FAILURE = "failure"
IN_PROGRESS = "in-progress"


@dataclass(frozen=True, slots=True)
class Trick:
    number: int  # 1-based
    leader: int
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    winner: int
    winning_card: Card
    led_suit: Suit | None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.plays)


@dataclass(slots=True)
class Task:
    card: Card
    token: str | None
    owner: int | None = None
    trick: int | None = None  # number of the trick that completed it
    revealed: bool = True  # False while face down (commander's decision / distribution) or secret
    number: int | None = None  # a secret mission card's number (Persian reading)
    mission: str | None = None  # the secret mission card's id

    @property
    def done(self) -> bool:
        return self.trick is not None


@dataclass(frozen=True, slots=True)
class Communication:
    seat: int
    card: Card
    statement: str  # the true statement: top | bottom | only
    hidden: bool  # dead zone: the others do not learn the statement
    before_trick: int  # the trick number it was made before


@dataclass(frozen=True, slots=True)
class Outcome:
    result: str  # success | failure | in-progress
    reason: str
    trick: int | None = None

    def __str__(self) -> str:
        return f"{self.result}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in order; the TUI and replay render these."""

    kind: str  # deal, commander, task-revealed, task-taken, communicate, distress, pass, play, trick, task-done, outcome
    seat: int | None = None
    card: Card | None = None
    detail: str = ""


@dataclass(frozen=True)
class Deal:
    """The random part of a game, fixed: hands (seat 0 first), cards set aside, task cards in order."""

    hands: tuple[tuple[Card, ...], ...]
    tasks: tuple[Card, ...]
    set_aside: tuple[Card, ...] = ()
    # the dummy seat (JARVIS): its card columns, bottom card first; its seat is the last one until moved
    dummy_columns: tuple[tuple[Card, ...], ...] = ()
    # secret mission cards per seat (Persian reading): mission ids
    secret: tuple[tuple[str, ...], ...] = ()


def deal_from_seed(rules: Rules, rng: random.Random) -> Deal:
    cards = [c for c in rules.deck.cards if not c.bit & rules.undealt_mask]
    columns: list[tuple[Card, ...]] = []
    if rules.hold_out is not None:
        cards.remove(rules.hold_out)
    rng.shuffle(cards)
    if rules.dummy is not None:
        d = rules.dummy
        height = d.face_down + d.face_up
        take, cards = cards[: d.cards], cards[d.cards :]
        columns = [tuple(take[i * height:(i + 1) * height]) for i in range(d.columns)]
    if rules.hold_out is not None:  # shuffled back into what is left before the players' deal
        cards.append(rules.hold_out)
        rng.shuffle(cards)
    aside = cards[: rules.set_aside]
    rest = cards[rules.set_aside :]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    seat = 0
    for card in rest:
        # one card at a time clockwise from seat 0, skipping full hands (3 players: 14/13/13)
        tries = 0
        while len(hands[seat]) >= rules.hand_sizes[seat] and tries < rules.players:
            seat = (seat + 1) % rules.players
            tries += 1
        if tries >= rules.players:
            aside.append(card)
            continue
        hands[seat].append(card)
        seat = (seat + 1) % rules.players
    if rules.secret is not None:
        return _secret_deal(rules, rng, hands, aside, columns)
    tasks = rules.fixed_tasks or tuple(rng.sample(rules.task_pool, rules.task_count))
    if rules.dummy is not None:
        hands.append([c for col in columns for c in col])
    return Deal(tuple(tuple(h) for h in hands), tuple(tasks), tuple(aside), tuple(columns))


def _secret_deal(rules: Rules, rng: random.Random, hands: list[list[Card]], aside: list[Card],
                 columns: list[tuple[Card, ...]]) -> Deal:
    """Deal the secret mission cards; with the ``redeal`` reading, redeal until every needed card is in a hand."""
    spec = rules.secret
    assert spec is not None
    need = spec.per_player * rules.players
    if need > len(spec.cards):
        raise SetupError(f"{need} secret mission cards are needed but only {len(spec.cards)} exist")
    for _ in range(1000):
        chosen = rng.sample(spec.cards, need)
        held = {c.id for h in hands for c in h}
        if spec.set_aside_needed != "redeal" or all(c.id in held for s in chosen for c in s.cards):
            break
        cards = [c for h in hands for c in h] + aside
        rng.shuffle(cards)
        aside = cards[: rules.set_aside]
        rest = cards[rules.set_aside:]
        hands = [rest[i::rules.players][: rules.hand_sizes[i]] for i in range(rules.players)]
    per_seat = tuple(tuple(s.id for s in chosen[i * spec.per_player:(i + 1) * spec.per_player])
                     for i in range(rules.players))
    tasks = tuple(c for s in chosen for c in s.cards)
    return Deal(tuple(tuple(h) for h in hands), tasks, tuple(aside), tuple(columns), per_seat)


class Game:
    """One attempt of a mission. Create with :meth:`new`; drive with :meth:`apply`."""

    def __init__(self, rules: Rules, deal: Deal, seed: str, rng: random.Random, dealer: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.deal = deal
        self._rng = rng
        n = rules.seats
        self.n = n
        deck = rules.deck
        self.hands: list[int] = [deck.mask(h) for h in deal.hands]
        # dummy seat: its hand holds only the face-up cards; the columns keep the rest
        self.dummy_seat: int | None = None
        self.dummy_columns: list[list[Card]] = []
        self._dummy_reveal: list[int] = []  # columns whose next card turns up when the trick ends
        if rules.dummy is not None:
            self.dummy_seat = n - 1
            self.dummy_columns = [list(col) for col in deal.dummy_columns]
            self.hands[self.dummy_seat] = deck.mask(col[-1] for col in self.dummy_columns if col)
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
        if rules.secret is not None:
            self._assign_secret_tasks(deal)
        self._task_by_card: dict[int, Task] = {t.card.id: t for t in self.tasks}
        self.tasks_done = 0
        self.communications: list[Communication] = []
        self.comm_used: list[int] = [0] * n
        self.distress_direction: str | None = None
        self.passes: dict[int, Card] = {}
        self.cond_done: list[bool] = [False] * len(rules.conditions)
        self.roles: dict[str, int] = {}
        self.questions: list[tuple[str, dict[int, str]]] = []  # public: question and answers by seat
        self.gold_frame_used = False
        # in-game randomness (mission 12's draws), independent of the deal; seeded only where needed
        self._draw_rng = random.Random(f"crewkit:{seed}:draws") if rules.draws else random.Random(0)
        self._outcome: Outcome | None = None
        self.spec: Any = None  # the GameSpec (names) when created through crewkit.engine.setup
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
        if rules.secret is not None:
            self.commander = self._secret_commander()
        self.dealer: int | None = None
        self.leader = self._first_leader()
        self.turn = self.leader

        self.events.append(Event("deal", detail=f"{n} players"))
        if self.commander is not None:
            self.events.append(Event("commander", self.commander, rules.commander_card))
        hidden_tasks = rules.assignment in ("commander-decision", "commander-distribution") or rules.secret is not None
        for t in self.tasks:
            t.revealed = not hidden_tasks
            if t.revealed:
                self.events.append(Event("task-revealed", None, t.card, t.token or ""))

        from crewkit.engine.steps import make_step

        self.steps = [make_step(spec) for spec in rules.setup_steps]
        self.step_index = 0
        self.draft_turn = -1
        self.phase = SETUP

        # per-card lookups for the hot path, shared by every game of these rules
        fast = _fast_tables(rules)
        self._cards = deck.cards
        self._play_actions = fast.play_actions
        self._strengths = fast.strengths
        self._free_mask, self._free_not_first, self._free_not_last = fast.free_masks
        self._task_mask = deck.mask(t.card for t in self.tasks)
        self.scoring = rules.scoring
        self.signal_trick: int = 0  # the trick number in which the last signal was given
        self._pending_signal: tuple[int, Card, int] | None = None  # must be won in this trick (a reading)
        if self.scoring is not None:
            self._start_match(dealer)
            return
        if dealer is not None:
            raise DealerError(f"a first dealer (seat {dealer}) is named, but rule set {rules.ruleset_name} has no dealer")
        self._advance_steps()
        if rules.secret is not None and rules.secret.set_aside_needed == "fail-at-once":
            held = 0
            for h in self.hands:
                held |= h
            lost = [t for t in self.tasks if not held & t.card.bit]
            if lost:
                t = lost[0]
                self._fail(f"failed before trick 1: {t.card}, needed by mission card {t.number} (seat {t.owner}), "
                           "was set aside", None)

    def _first_leader(self) -> int:
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

    # ------------------------------------------------------------------ secret mission cards (Persian reading)
    def _assign_secret_tasks(self, deal: Deal) -> None:
        spec = self.rules.secret
        assert spec is not None
        by_id = {c.id: c for c in spec.cards}
        self.tasks = []
        for seat, ids in enumerate(deal.secret):
            for mid in ids:
                card = by_id.get(mid)
                if card is None:
                    raise SetupError(f"unknown secret mission card {mid!r}")
                for c in card.cards:
                    self.tasks.append(Task(c, None, seat, None, False, card.number, mid))

    def _secret_commander(self) -> int:
        spec = self.rules.secret
        assert spec is not None
        numbers = [(t.number or 0, t.owner or 0) for t in self.tasks]
        if spec.commander in ("one-else-highest", "one-else-lowest"):
            for number, owner in numbers:
                if number == spec.commander_number:
                    return owner
            pick = max if spec.commander == "one-else-highest" else min
        else:
            pick = max if spec.commander == "highest" else min
        return pick(numbers)[1]

    # ------------------------------------------------------------------ rounds (competitive games)
    def _start_match(self, dealer: int | None) -> None:
        from fractions import Fraction

        sc = self.scoring
        self.round = 1
        self.chips = [Fraction(sc.chips_start)] * self.n
        self.round_results: list[Any] = []
        self.round_tricks: list[list[Trick]] = []
        self.mode: str | None = None
        self.round_mission: Any = None
        self.first_dealer = first_dealer(self.rules, self.seed, dealer)
        self.dealer = self.first_dealer
        self._begin_round()

    def _begin_round(self) -> None:
        self.leader = self.turn = self.dealer  # type: ignore[assignment]
        if self.rules.commander_is_dealer:
            self.commander = self.dealer
        self.mode = None
        self.round_mission = None
        self.phase = CHOOSE_MISSION
        self.events.append(Event("round", self.dealer, None, f"round {self.round}, dealer seat {self.dealer}"))

    def _choose_mission_actions(self, seat: int) -> list[Action]:
        if seat != self.dealer:
            return []
        out: list[Action] = []
        for m in self.scoring.missions:
            for mode in self.scoring.modes:
                if mode == "challenge" and not m.has_challenge:
                    continue
                out.append(ChooseMission(seat, m.id, mode))
        return out

    def _apply_choose_mission(self, a: ChooseMission) -> None:
        if self.phase != CHOOSE_MISSION:
            raise IllegalAction("not-choosing", "the mission is chosen only at the start of a round")
        if a.seat != self.dealer:
            raise IllegalAction("not-dealer", f"seat {a.seat} cannot choose the mission: the dealer is seat {self.dealer}")
        mission = self.scoring.mission(a.mission)
        if mission is None:
            known = ", ".join(m.id for m in self.scoring.missions)
            raise IllegalAction("no-such-mission", f"there is no mission {a.mission!r}; missions: {known}")
        if a.mode not in self.scoring.modes or (a.mode == "challenge" and not mission.has_challenge):
            raise IllegalAction("bad-mode", f"{mission.title} cannot be played in {a.mode} mode")
        self.mode = a.mode
        self.round_mission = mission
        fast = _fast_tables(self.rules)
        self._free_mask, self._free_not_first, self._free_not_last = fast.free_masks
        if a.mode == "challenge":
            if self.scoring.challenge_adds is not None:
                self.hands[self.dealer] |= self.scoring.challenge_adds.bit  # type: ignore[index]
            self._free_not_first |= mission.challenge_not_first
            self._free_not_last |= mission.challenge_not_last
        sizes = [h.bit_count() for h in self.hands]
        self.total_tricks = min(sizes)
        self.leader = self.turn = self._first_leader()
        self.phase = TRICKS
        self.events.append(Event("mission", a.seat, None, f"{mission.title} ({a.mode})"))

    def _settle_round_if_decided(self, trick: Trick) -> None:
        from crewkit.engine.scoring import apply_deltas, challenge_deltas, penalty_deltas

        sc = self.scoring
        mission = self.round_mission
        view = self.view()
        last = trick.number >= self.total_tricks
        result = None
        if self.mode == "challenge":
            if mission.challenge_fail is not None and mission.challenge_fail(view, {}):
                result, reason = "failure", f"the dealer's challenge failed in trick {trick.number}"
            elif mission.challenge_success(view, {}) and (sc.settle_early or last):
                result, reason = "success", f"the dealer's challenge succeeded by trick {trick.number}"
            elif last:
                result, reason = "failure", "the dealer's challenge was not met when the hands ran out"
            if result is None:
                return
            if not sc.settle_early and not last:
                return
            deltas = challenge_deltas(mission, result == "success", self.n, self.dealer)  # type: ignore[arg-type]
            if sc.others_score_in_challenge:
                others = [p for p in range(self.n) if p != self.dealer]
                extra = penalty_deltas(sc, mission, view, self.n, self.dealer, only=others)  # type: ignore[arg-type]
                deltas = [a + b for a, b in zip(deltas, extra, strict=True)]
        else:
            # seed 001: when the score is fixed before the hands run out, scoring happens at once
            settled = (not last and sc.settle_early and mission.penalty_settled is not None
                       and mission.penalty_settled(view, {}))
            if not last and not settled:
                return
            result, reason = "scored", f"penalty mode scored after trick {trick.number}"
            if settled:
                reason += " (no later trick can change the score)"
            deltas = penalty_deltas(sc, mission, view, self.n, self.dealer)  # type: ignore[arg-type]
        self._end_round(result, reason, deltas, trick.number, apply_deltas)

    def _end_round(self, result: str, reason: str, deltas: Sequence[Any], tricks: int, apply: Any) -> None:
        from crewkit.engine.scoring import RoundResult, chip_text

        sc = self.scoring
        self.chips = apply(sc, self.chips, deltas)
        res = RoundResult(self.round, self.dealer, self.round_mission.id, self.mode, result, reason,  # type: ignore[arg-type]
                          tuple(deltas), tuple(self.chips), tricks)
        self.round_results.append(res)
        self.round_tricks.append(list(self.tricks))
        self.events.append(Event("round-end", self.dealer, None,
                                 f"round {self.round}: {reason}; chips " + ", ".join(chip_text(c) for c in self.chips)))
        broke = sc.cannot_pay == "game-ends" and any(c < 0 for c in self.chips)
        if self.round >= sc.rounds or broke:
            best = max(self.chips)
            winners = [s for s, c in enumerate(self.chips) if c == best]
            who = " and ".join(f"seat {s}" for s in winners)
            why = "" if not broke else " (a player could not pay)"
            verb = "wins" if len(winners) == 1 else "share the win"
            self._outcome = Outcome(FINISHED, f"{who} {verb} with {chip_text(best)} chips after round {self.round}{why}", tricks)
            self.phase = OVER
            self.events.append(Event("outcome", None, None, self._outcome.reason))
            return
        self.round += 1
        self.dealer = (self.dealer + sc.rotation) % self.n  # type: ignore[operator]
        rng = random.Random(f"crewkit:{self.seed}:round{self.round}")
        deal = deal_from_seed(self.rules, rng)
        deck = self.rules.deck
        self.hands = [deck.mask(h) for h in deal.hands]
        self.won = [0] * self.n
        self.tricks_won = [0] * self.n
        self.tricks = []
        self.card_trick = {}
        self.plays = []
        self.led_suit = None
        self._begin_round()

    # ------------------------------------------------------------------ setup steps
    def _advance_steps(self) -> None:
        """Start steps until one waits for an action; then the draft or the tricks."""
        while self.step_index < len(self.steps):
            if not self.steps[self.step_index].start(self):
                return
            self.step_index += 1
        if self.tasks and any(t.owner is None for t in self.tasks) and self.rules.assignment == "draft":
            self.phase = DRAFT
            start = {"commander": self.commander, "dealer": self.dealer}.get(self.rules.draft_start)
            self.draft_turn = self.leader if start is None else start
        else:
            self.phase = TRICKS
            self.draft_turn = -1

    @property
    def current_step(self) -> Any:
        return self.steps[self.step_index] if self.phase == SETUP and self.step_index < len(self.steps) else None

    def move_dummy(self, where: int) -> None:
        """Seat the dummy at ``where``; the real players keep their clockwise order (setup only)."""
        old = self.dummy_seat
        if old is None or where == old:
            return
        order = [s for s in range(self.n) if s != old]
        order.insert(where, old)  # order[new seat] = old seat
        new_of = {o: i for i, o in enumerate(order)}
        self.hands = [self.hands[o] for o in order]
        self.dummy_seat = where
        if self.commander is not None:
            self.commander = new_of[self.commander]
        self.leader = new_of[self.leader]
        self.turn = new_of[self.turn]
        self.roles = {r: new_of[s] for r, s in self.roles.items()}
        # what was logged so far names the old seats: renumber it
        self.events = [Event(e.kind, new_of[e.seat] if e.seat is not None else None, e.card, e.detail)
                       for e in self.events]
        for t in self.tasks:
            if t.owner is not None:
                t.owner = new_of[t.owner]
        self.events.append(Event("dummy-seat", where, None, f"the dummy sits in seat {where}"))

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
        """An independent copy (cards and actions are immutable and shared)."""
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
        other.roles = dict(self.roles)
        other.dummy_columns = [list(col) for col in self.dummy_columns]
        if self.scoring is not None:
            other.chips = list(self.chips)
            other.round_results = list(self.round_results)
            other.round_tricks = [list(ts) for ts in self.round_tricks]
        other._dummy_reveal = list(self._dummy_reveal)
        other.questions = [(q, dict(a)) for q, a in self.questions]
        other.steps = [step.clone() for step in self.steps]
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._draw_rng = random.Random()
        other._draw_rng.setstate(self._draw_rng.getstate())
        return other

    # ------------------------------------------------------------------ queries
    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome:
        if self._outcome is None:
            return Outcome(IN_PROGRESS, self._progress_text())
        return self._outcome

    def _progress_text(self) -> str:
        if self.phase == SETUP:
            step = self.current_step
            return f"setup: {step.describe() if step else ''}"
        if self.phase == DRAFT:
            return f"task draft, seat {self.draft_turn} to choose"
        if self.phase == CHOOSE_MISSION:
            return f"round {self.round}: the dealer (seat {self.dealer}) chooses a mission card"
        if self.phase == DISTRESS_PASS:
            return "distress signal: cards being passed"
        return f"trick {len(self.tricks) + 1} of {self.total_tricks}, seat {self.turn} to play"

    @property
    def to_act(self) -> int | None:
        """The seat whose action the game waits for (optional actions of other seats aside)."""
        if self._outcome is not None:
            return None
        if self.phase == SETUP:
            return self.steps[self.step_index].to_act(self)
        if self.phase == CHOOSE_MISSION:
            return self.dealer
        if self.phase == DRAFT:
            return self.draft_turn
        if self.phase == DISTRESS_PASS:
            for i in range(self.n):
                seat = (self.leader + i) % self.n
                if seat not in self.passes:
                    return seat
        return self.turn

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (or about to start)."""
        return len(self.tricks) + 1

    def hand(self, seat: int) -> list[Card]:
        return sorted(self.rules.deck.from_mask(self.hands[seat]), key=sort_key)

    def task_of(self, card: Card) -> Task | None:
        return self._task_by_card.get(card.id)

    def in_communication_window(self) -> bool:
        if self.phase != TRICKS or self._outcome is not None:
            return False
        if self.rules.comm_window == "after-first-card":  # signals in a trick; a distress signal before trick 1
            return 0 < len(self.plays) < self.n or self._distress_allowed()
        return not self.plays

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now, required and optional."""
        if self._outcome is not None:
            return []
        if seat is None:
            seat = self.to_act
            if seat is None:
                return []
        out: list[Action] = []
        if self.phase == SETUP:
            return self.steps[self.step_index].legal(self, seat)
        if self.phase == CHOOSE_MISSION:
            return self._choose_mission_actions(seat)
        if self.phase == DRAFT:
            if seat == self.draft_turn:
                out = [TakeTask(seat, t.card) for t in self.tasks if t.owner is None]
            return out
        if self.phase == DISTRESS_PASS:
            if seat not in self.passes:
                cards = self._cards
                m = self.hands[seat] & ~self.rules.distress_excluded_mask
                out = [PassCard(seat, cards[i]) for i in mask_ids(m)]
            return out
        if seat == self.turn:
            plays = self._play_actions[seat]
            out = [plays[i] for i in mask_ids(self.legal_play_mask(seat))]
        out.extend(self.optional_actions(seat))
        return out

    def optional_actions(self, seat: int) -> list[Action]:
        """Communication and distress that ``seat`` may start now (never required)."""
        return list(self._optional_actions(seat))

    def has_optional_actions(self, seat: int) -> bool:
        """``bool(optional_actions(seat))`` without building them all: the same generator, stopped at the first."""
        return next(self._optional_actions(seat), None) is not None

    def _optional_actions(self, seat: int) -> Iterator[Action]:
        if self.rules.comm_window == "after-first-card":
            if self._signal_open(seat):
                yield from (Signal(seat, c) for c in self.rules.deck.from_mask(self.hands[seat]))
            elif self.phase == TRICKS and self._outcome is None and self._distress_allowed():
                yield from (Distress(seat, d) for d in self.rules.distress_directions)
            return
        if self.phase != TRICKS or self._outcome is not None or self.plays:
            return
        if self._distress_allowed():
            yield from (Distress(seat, d) for d in self.rules.distress_directions)
        if self._gold_frame_open():
            cards = [t.card for t in self.tasks if t.owner == seat]
            yield from (HandTask(seat, c, p) for c in cards for p in range(self.n) if p != seat)
        if self._communication_open(seat):
            cards = self._cards
            for i in mask_ids(self.hands[seat] & ~self.rules.comm_excluded_mask):
                statements = self._true_statements(seat, cards[i])
                if not statements:
                    continue
                if self.rules.dead_zone:
                    yield Communicate(seat, cards[i], None)
                else:
                    yield from (Communicate(seat, cards[i], st) for st in statements)

    def legal_play_mask(self, seat: int) -> int:
        led = self.led_suit
        legal = follow_mask(self.hands[seat], self.rules.suit_masks[led.index] if led is not None and self.rules.must_follow
                            else 0, self._free_mask)
        forbidden = 0
        if self._free_mask:
            number = len(self.tricks) + 1
            if number == 1:
                forbidden |= self._free_not_first
            if number == self.total_tricks:
                forbidden |= self._free_not_last
        if forbidden and legal & ~forbidden:
            legal &= ~forbidden
        return legal

    def _distress_allowed(self) -> bool:
        r = self.rules
        return (
            r.distress_enabled
            and self.distress_direction is None
            and not self.tricks
            and not self.plays
            and not self.communications
        )

    def _signal_open(self, seat: int) -> bool:
        r = self.rules
        return (
            r.comm_enabled
            and self.phase == TRICKS
            and self._outcome is None
            and 0 < len(self.plays) < self.n
            and (r.comm_who == "all" or seat == self.commander)
            and self.comm_used[seat] < r.comm_per_player
            and (r.comm_per_trick is None or self.signal_trick != self.trick_number)
        )

    def _apply_signal(self, a: Signal) -> None:
        r = self.rules
        if r.comm_window != "after-first-card" or not r.comm_enabled:
            raise IllegalAction("no-signal", "this rule set has no in-trick signal")
        if r.comm_who == "commander" and a.seat != self.commander:
            raise IllegalAction("not-commander", f"only the commander (seat {self.commander}) may signal")
        if self.phase != TRICKS or not self.plays:
            raise IllegalAction("signal-closed", "a signal is only possible after the first card of a trick")
        if self.comm_used[a.seat] >= r.comm_per_player:
            raise IllegalAction("already-signalled", f"seat {a.seat} has already signalled this game")
        if r.comm_per_trick is not None and self.signal_trick == self.trick_number:
            raise IllegalAction("signal-this-trick", f"there was already a signal in trick {self.trick_number}")
        if not self.hands[a.seat] & a.card.bit:
            raise IllegalAction("card-not-in-hand", f"seat {a.seat} does not hold {a.card}")
        self.comm_used[a.seat] += 1
        self.signal_trick = self.trick_number
        self.communications.append(Communication(a.seat, a.card, "signal", False, self.trick_number))
        if r.comm_must_win_same_trick:
            self._pending_signal = (a.seat, a.card, self.trick_number)
        self.events.append(Event("signal", a.seat, a.card, f"trick {self.trick_number}"))

    def _gold_frame_open(self) -> bool:
        return self.rules.gold_frame and not self.gold_frame_used and not self.tricks and self.phase == TRICKS

    def _communication_open(self, seat: int) -> bool:
        r = self.rules
        if not r.comm_enabled or self.comm_used[seat] >= r.comm_per_player:
            return False
        if r.comm_barred_roles and any(self.roles.get(role) == seat for role in r.comm_barred_roles):
            return False
        if seat == self.dummy_seat and r.dummy is not None and not r.dummy.communicates:
            return False
        if r.disruption is not None and len(self.tricks) + 1 < r.disruption:
            return False
        return True

    def _true_statements(self, seat: int, card: Card) -> tuple[str, ...]:
        assert card.suit is not None
        same = self.hands[seat] & self.rules.suit_masks[card.suit.index]
        allowed = self.rules.comm_statements
        if same == card.bit:
            if self.rules.comm_singleton_only:
                return ("only",) if "only" in allowed else ()
            return tuple(s for s in ("top", "bottom", "only") if s in allowed)
        out = []
        if same >> (card.id + 1) == 0 and "top" in allowed:
            out.append("top")
        if same & (card.bit - 1) == 0 and "bottom" in allowed:
            out.append("bottom")
        return tuple(out)

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> None:
        """Carry out ``action`` or raise :class:`IllegalAction` naming the rule it breaks."""
        if self._outcome is not None:
            raise IllegalAction("game-over", f"the game is over ({self._outcome.result}); no more actions")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("no-such-seat", f"there is no seat {action.seat} in a {self.n}-player game")
        kind = type(action)
        if self.phase == SETUP:
            self._apply_step(action)
        elif kind is Play:
            self._apply_play(action)  # type: ignore[arg-type]
        elif kind is TakeTask:
            self._apply_take_task(action)  # type: ignore[arg-type]
        elif kind is Communicate:
            self._apply_communicate(action)  # type: ignore[arg-type]
        elif kind is Distress:
            self._apply_distress(action)  # type: ignore[arg-type]
        elif kind is PassCard:
            self._apply_pass(action)  # type: ignore[arg-type]
        elif kind is HandTask:
            self._apply_hand_task(action)  # type: ignore[arg-type]
        elif kind is Signal:
            self._apply_signal(action)  # type: ignore[arg-type]
        elif kind is ChooseMission and self.scoring is not None:
            self._apply_choose_mission(action)  # type: ignore[arg-type]
        else:
            raise IllegalAction("unknown-action", f"this rule set has no {action.type!r} action")
        self.actions.append(action)

    def _apply_step(self, action: Action) -> None:
        step = self.steps[self.step_index]
        expected = step.to_act(self)
        if action.seat != expected:
            raise IllegalAction(
                "not-your-turn", f"seat {action.seat} cannot act now: {step.describe()} waits for seat {expected}"
            )
        if step.apply(self, action):
            self.events.append(Event("step-done", action.seat, None, step.describe()))
            self.step_index += 1
            self._advance_steps()
        if isinstance(action, Answer):
            self.events.append(Event("answer", action.seat, None, action.answer))

    def _apply_hand_task(self, a: HandTask) -> None:
        if not self.rules.gold_frame:
            raise IllegalAction("no-gold-frame", "handing a task on is only allowed with 5 players on gold-frame missions")
        if self.gold_frame_used:
            raise IllegalAction("gold-frame-used", "a task was already handed on this attempt (only one is allowed)")
        if self.phase != TRICKS or self.tricks or self.plays:
            raise IllegalAction("gold-frame-closed", "a task can only be handed on before the first trick")
        task = self._task_by_card.get(a.card.id)
        if task is None or task.owner != a.seat:
            raise IllegalAction("not-your-task", f"seat {a.seat} has no task {a.card} to hand on")
        if a.player == a.seat or not 0 <= a.player < self.n:
            raise IllegalAction("bad-player", f"seat {a.seat} must hand the task to another player")
        task.owner = a.player
        self.gold_frame_used = True
        self.events.append(Event("task-handed", a.seat, a.card, f"to seat {a.player}"))

    def _apply_take_task(self, a: TakeTask) -> None:
        if self.phase != DRAFT:
            raise IllegalAction("not-drafting", "tasks can only be taken during the task draft")
        if a.seat != self.draft_turn:
            raise IllegalAction(
                "not-your-turn", f"seat {a.seat} cannot take a task now: it is seat {self.draft_turn}'s choice"
            )
        task = self._task_by_card.get(a.card.id)
        if task is None:
            raise IllegalAction("no-such-task", f"{a.card} is not among this mission's tasks")
        if task.owner is not None:
            raise IllegalAction("task-taken", f"the {a.card} task was already taken by seat {task.owner}")
        task.owner = a.seat
        self.events.append(Event("task-taken", a.seat, a.card, task.token or ""))
        if all(t.owner is not None for t in self.tasks):
            self.phase = TRICKS
            self.draft_turn = -1
        else:
            self.draft_turn = (self.draft_turn + 1) % self.n

    def _apply_communicate(self, a: Communicate) -> None:
        r = self.rules
        if self.phase != TRICKS:
            raise IllegalAction(
                "communication-closed", "communication is only possible after the tasks are distributed"
            )
        if not r.comm_enabled:
            raise IllegalAction("no-communication", "this rule set has no communication")
        if self.plays:
            raise IllegalAction(
                "communication-closed",
                f"seat {a.seat} cannot communicate during trick {self.trick_number}: only between tricks",
            )
        if self.comm_used[a.seat] >= r.comm_per_player:
            raise IllegalAction("already-communicated", f"seat {a.seat} has already communicated this attempt")
        barred = [role for role in r.comm_barred_roles if self.roles.get(role) == a.seat]
        if barred:
            raise IllegalAction("barred-from-communicating",
                                f"seat {a.seat} is the {barred[0]} and may not communicate in this mission")
        if a.seat == self.dummy_seat and r.dummy is not None and not r.dummy.communicates:
            raise IllegalAction("dummy-cannot-communicate", f"the dummy (seat {a.seat}) does not communicate")
        if r.disruption is not None and self.trick_number < r.disruption:
            raise IllegalAction(
                "disruption",
                f"disruption: nobody may communicate before trick {r.disruption} (now before trick {self.trick_number})",
            )
        if not self.hands[a.seat] & a.card.bit:
            raise IllegalAction("card-not-in-hand", f"seat {a.seat} does not hold {a.card}")
        if a.card.bit & r.comm_excluded_mask:
            raise IllegalAction("cannot-communicate-card", f"{a.card} cannot be communicated (only colour cards)")
        statements = self._true_statements(a.seat, a.card)
        if r.dead_zone:
            if a.position is not None:
                raise IllegalAction(
                    "dead-zone", "dead zone: the statement stays hidden; communicate the card without a position"
                )
            if not statements:
                raise IllegalAction(
                    "false-statement",
                    f"{a.card} is neither the highest, the lowest nor the only {a.card.suit} card of seat {a.seat}",
                )
            statement = statements[0]
        else:
            if a.position is None:
                raise IllegalAction("missing-position", "say top, bottom or only when communicating")
            if a.position not in statements:
                raise IllegalAction(
                    "false-statement",
                    f"seat {a.seat} cannot say {a.position} for {a.card}: {_statement_text(a.position, a.card)} is false"
                    + (f" (true: {', '.join(statements)})" if statements else ""),
                )
            statement = a.position
        self.comm_used[a.seat] += 1
        self.communications.append(Communication(a.seat, a.card, statement, r.dead_zone, self.trick_number))
        self.events.append(Event("communicate", a.seat, a.card, "hidden" if r.dead_zone else statement))

    def _apply_distress(self, a: Distress) -> None:
        r = self.rules
        if not r.distress_enabled:
            raise IllegalAction("no-distress", "this rule set has no distress signal")
        if self.distress_direction is not None:
            raise IllegalAction("distress-used", "the distress signal was already used")
        if self.phase != TRICKS or self.tricks or self.plays or self.communications:
            raise IllegalAction(
                "distress-too-late",
                "the distress signal is only possible after the task draft and before any communication and any trick",
            )
        if a.direction not in r.distress_directions:
            raise IllegalAction("bad-direction", f"cards can be passed {' or '.join(r.distress_directions)}")
        self.distress_direction = a.direction
        self.phase = DISTRESS_PASS
        self.passes = {}
        self.events.append(Event("distress", a.seat, None, a.direction))
        for seat in range(self.n):  # a seat with nothing passable passes nothing
            if not self.hands[seat] & ~r.distress_excluded_mask:
                self.passes[seat] = None  # type: ignore[assignment]
        if self.dummy_seat is not None and r.dummy is not None and not r.dummy.passes_in_distress:
            self.passes[self.dummy_seat] = None  # type: ignore[assignment]

    def _apply_pass(self, a: PassCard) -> None:
        r = self.rules
        if self.phase != DISTRESS_PASS:
            raise IllegalAction("not-passing", "cards are passed only right after the distress signal")
        if a.seat in self.passes:
            raise IllegalAction("already-passed", f"seat {a.seat} has already chosen a card to pass")
        if not self.hands[a.seat] & a.card.bit:
            raise IllegalAction("card-not-in-hand", f"seat {a.seat} does not hold {a.card}")
        if a.card.bit & r.distress_excluded_mask:
            raise IllegalAction("cannot-pass-card", f"{a.card} cannot be passed: only colour cards, never a rocket")
        self.passes[a.seat] = a.card
        if len(self.passes) == self.n:
            step = 1 if self.distress_direction == "left" else -1
            for seat, card in self.passes.items():  # all at once
                if card is not None:
                    self.hands[seat] &= ~card.bit
                    if seat == self.dummy_seat:  # a face-up dummy card leaves its column: the one below turns up
                        self._dummy_played(card, reveal_now=True)
            for seat, card in self.passes.items():
                if card is not None:
                    target = (seat + step) % self.n
                    if target == self.dummy_seat and not (self.rules.dummy and self.rules.dummy.passes_in_distress):
                        target = (target + step) % self.n  # the dummy is skipped: the next real player
                    self.hands[target] |= card.bit
                    self.events.append(Event("pass", seat, card, f"to seat {target}"))
            self.phase = TRICKS

    def _apply_play(self, a: Play) -> None:
        if self.phase != TRICKS:
            if self.phase == DRAFT:
                raise IllegalAction("not-playing", "cards are played only after the task draft")
            if self.phase == CHOOSE_MISSION:
                raise IllegalAction("not-playing", f"round {self.round} has not started: the dealer (seat "
                                                   f"{self.dealer}) chooses its mission card first")
            raise IllegalAction("not-playing", "cards are played only after every seat has passed its card")
        seat = a.seat
        card = a.card
        if seat != self.turn:
            raise IllegalAction("not-your-turn", f"seat {seat} cannot play now: it is seat {self.turn}'s turn")
        hand = self.hands[seat]
        if not hand & card.bit:
            raise IllegalAction("card-not-in-hand", f"seat {seat} does not hold {card}")
        if not self.legal_play_mask(seat) & card.bit:
            raise IllegalAction(*self._why_illegal(seat, card))
        self.hands[seat] = hand & ~card.bit
        if seat == self.dummy_seat:
            self._dummy_played(card)
        # the lead sets the colour to follow; after a led special card (Hammer's 10) the next coloured card sets it,
        # unless the rule is ``no-suit`` (then that trick has no colour to follow). Tested before the append.
        leads = not self.plays
        self.plays.append((seat, card))
        if self.led_suit is None and card.suit is not None and (leads or self.rules.special_lead == "next-card"):
            self.led_suit = card.suit
        self.events.append(Event("play", seat, card))
        if len(self.plays) == self.n:
            self._finish_trick()
        else:
            self.turn = (seat + 1) % self.n
            if self.rules.conditions:
                self._check_conditions("after-play")

    def _dummy_played(self, card: Card, reveal_now: bool = False) -> None:
        for i, col in enumerate(self.dummy_columns):
            if col and col[-1] is card:
                col.pop()
                if col:
                    if reveal_now or (self.rules.dummy is not None and self.rules.dummy.reveal == "immediately"):
                        self.hands[self.dummy_seat] |= col[-1].bit  # type: ignore[index]
                        self.events.append(Event("dummy-reveal", self.dummy_seat, col[-1]))
                    else:
                        self._dummy_reveal.append(i)
                return

    def _reveal_dummy_cards(self) -> None:
        """Face-down dummy cards turn up only once the trick in which the card above them was played is over."""
        for i in self._dummy_reveal:
            col = self.dummy_columns[i]
            if col:
                self.hands[self.dummy_seat] |= col[-1].bit  # type: ignore[index]
                self.events.append(Event("dummy-reveal", self.dummy_seat, col[-1]))
        self._dummy_reveal = []

    def _why_illegal(self, seat: int, card: Card) -> tuple[str, str]:
        number = len(self.tricks) + 1
        if card.bit & self._free_not_first and number == 1:
            return "not-in-first-trick", f"{card} may not be played in the first trick"
        if card.bit & self._free_not_last and number == self.total_tricks:
            return "not-in-last-trick", f"{card} may not be played in the last trick"
        led = self.led_suit
        if led is not None:
            held = self.rules.deck.from_mask(self.hands[seat] & self.rules.suit_masks[led.index])
            if held:
                return "must-follow", f"seat {seat} must follow {led}: holds {held[0]}"
        return "illegal-play", f"seat {seat} may not play {card} now"

    # ------------------------------------------------------------------ trick resolution
    def _finish_trick(self) -> None:
        plays = tuple(self.plays)
        led = self.led_suit
        best = plays[trick_winner([c.id for _, c in plays], self._strengths[led.index + 1 if led is not None else 0])]
        winner, winning_card = best
        number = len(self.tricks) + 1
        trick = Trick(number, self.leader, plays, winner, winning_card, led)
        self.tricks.append(trick)
        for _, c in plays:
            self.card_trick[c.id] = trick
        mask = 0
        for _, c in plays:
            mask |= c.bit
        self.won[winner] |= mask
        self.tricks_won[winner] += 1
        self.plays = []
        self.led_suit = None
        self.leader = winner
        self.turn = winner
        self.events.append(Event("trick", winner, winning_card, f"trick {number}"))
        if self._dummy_reveal:  # after the trick's own event: the log reads "wins trick 3", then "turns up"
            self._reveal_dummy_cards()
        if self.scoring is not None:
            self._settle_round_if_decided(trick)
            return
        if self._pending_signal is not None:
            seat, card, number_ = self._pending_signal
            self._pending_signal = None
            if not mask & card.bit or winner != seat:
                self._fail(f"failed in trick {number}: the signalled {card} was not won by seat {seat} in that trick",
                           number)
                return
        if mask & self._task_mask:
            self._score_tasks(trick, mask)
            if self._outcome is not None:
                return
        if self.rules.conditions:
            self._check_conditions("after-trick")
            if self._outcome is not None:
                return
        self._check_end(trick)
        if self._outcome is None and self.rules.draws:
            for after, source in self.rules.draws:
                if after == number:
                    self._draw_from_neighbours(source)

    def _draw_from_neighbours(self, source: str) -> None:
        """Every seat at once draws one random card from the hand of its right (or left) neighbour.

        A dummy seat (JARVIS) takes part as ``dummy.draws`` says: a card drawn from it is one of its face-up cards
        (``face-up``) or any of its cards (``any-card``), and a card it draws is laid face up in a column of its
        own; with ``skipped`` it neither draws nor is drawn from (the real players draw from each other)."""
        step = -1 if source == "right" else 1
        dummy = self.rules.dummy
        skip = self.dummy_seat if dummy is not None and dummy.draws == "skipped" else None
        seats = [s for s in range(self.n) if s != skip]
        drawn: list[tuple[int, int, Card]] = []
        for i, seat in enumerate(seats):
            giver = seats[(i + step) % len(seats)]
            mask = self.hands[giver]
            if giver == self.dummy_seat and dummy is not None and dummy.draws == "any-card":
                mask |= self.rules.deck.mask(c for col in self.dummy_columns for c in col)
            cards = self.rules.deck.from_mask(mask)
            if cards:
                drawn.append((seat, giver, self._draw_rng.choice(cards)))
        for _seat, giver, card in drawn:
            self.hands[giver] &= ~card.bit
            if giver == self.dummy_seat:
                self._dummy_lost(card)
        for seat, giver, card in drawn:
            self.hands[seat] |= card.bit
            if seat == self.dummy_seat:
                self.dummy_columns.append([card])
            self.events.append(Event("draw", seat, card, f"from seat {giver}"))

    def _dummy_lost(self, card: Card) -> None:
        """A card leaves the dummy's columns other than by being played; the card under it turns up at once."""
        for col in self.dummy_columns:
            if card in col:
                on_top = col[-1] is card
                col.remove(card)
                if on_top and col:
                    self.hands[self.dummy_seat] |= col[-1].bit  # type: ignore[index]
                    self.events.append(Event("dummy-reveal", self.dummy_seat, col[-1]))
                return

    def _score_tasks(self, trick: Trick, mask: int) -> None:
        before = self.tasks_done
        completed: list[Task] = []
        for task in self.tasks:
            if task.card.bit & mask:
                if task.owner != trick.winner:
                    owner = "nobody" if task.owner is None else f"seat {task.owner}"
                    self._fail(
                        f"failed in trick {trick.number}: {task.card} won by seat {trick.winner}, task of {owner}",
                        trick.number,
                    )
                    return
                task.trick = trick.number
                completed.append(task)
                if not task.revealed and (self.rules.secret is None or self.rules.secret.reveal_when_done):
                    # a secret mission card is shown once done (``tasks.secret.reveal_when_done``)
                    task.revealed = True
                    self.events.append(Event("task-revealed", task.owner, task.card, f"mission {task.number}"))
                self.events.append(Event("task-done", task.owner, task.card, f"trick {trick.number}"))
        self.tasks_done = after = before + len(completed)
        if self.rules.order_by_number and completed:
            for task in completed:
                for other in self.tasks:
                    if other.number is not None and task.number is not None and other.number < task.number \
                            and not other.done:
                        self._fail(
                            f"failed in trick {trick.number}: mission card {task.number} ({task.card}, seat {task.owner}) "
                            f"was completed before mission card {other.number} ({other.card}, seat {other.owner})",
                            trick.number,
                        )
                        return
        if not any(t.token for t in self.tasks):
            return
        # token order: tasks completed in one trick count as simultaneous (crewkit.engine.kernel judges it)
        tasks = self.tasks
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
        self._fail_order(trick, task, why)

    def _fail_order(self, trick: Trick, task: Task, why: str) -> None:
        self._fail(
            f"failed in trick {trick.number}: task order broken by {task.card} (token {_token_text(task.token)}, "
            f"seat {task.owner}): {why}",
            trick.number,
        )

    def _check_conditions(self, when: str) -> None:
        view = self.view()
        for i, cond in enumerate(self.rules.conditions):
            if self.cond_done[i]:
                continue
            if cond.check != when and not (when == "after-trick" and cond.check == "after-play"):
                continue
            if cond.fail_if is not None and cond.fail_if(view, {}):
                number = len(self.tricks) if when == "after-trick" else len(self.tricks) + 1
                if cond.render_reason is not None:  # compiled with the file and condition for its errors
                    reason = cond.render_reason(view, {})
                else:
                    from crewkit.dsl import render_template

                    reason = render_template(cond.reason, view, {})
                self._fail(f"failed in trick {number}: {reason}", number)
                return
            if cond.done_if is not None and cond.done_if(view, {}):
                self.cond_done[i] = True

    def _check_end(self, trick: Trick) -> None:
        last = trick.number >= self.total_tricks
        conds_done = all(
            d or (last and c.done_if is None) for d, c in zip(self.cond_done, self.rules.conditions, strict=True)
        )
        if self.tasks_done == len(self.tasks) and conds_done:
            if self.tasks or last or self.rules.conditions:
                self._succeed(trick)
                return
        if last:
            undone = [t for t in self.tasks if not t.done]
            if undone:
                names = ", ".join(f"{t.card} (seat {t.owner})" for t in undone)
                self._fail(f"failed after trick {trick.number}: the hands ran out with tasks undone: {names}", trick.number)
            else:
                open_conds = [c.id for d, c in zip(self.cond_done, self.rules.conditions, strict=True) if not d]
                self._fail(
                    f"failed after trick {trick.number}: the hands ran out before {', '.join(open_conds)} was fulfilled",
                    trick.number,
                )

    def _succeed(self, trick: Trick) -> None:
        if self.tasks:
            reason = (
                f"all {len(self.tasks)} tasks done by trick {trick.number}"
                if len(self.tasks) > 1
                else f"the task was done in trick {trick.number}"
            )
        else:
            reason = f"every condition fulfilled by trick {trick.number}"
        self._outcome = Outcome(SUCCESS, reason, trick.number)
        self.phase = OVER
        self.events.append(Event("outcome", None, None, f"success: {reason}"))

    def _fail(self, reason: str, trick: int | None) -> None:
        self._outcome = Outcome(FAILURE, reason, trick)
        self.phase = OVER
        self.events.append(Event("outcome", None, None, f"failure: {reason}"))

    # ------------------------------------------------------------------ views
    def view(self) -> Any:
        from crewkit.engine.view import EngineView

        return EngineView(self)

    def observation(self, seat: int) -> Any:
        from crewkit.engine.observation import observe

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


@dataclass(frozen=True, slots=True)
class _FastTables:
    play_actions: tuple[tuple[Play, ...], ...]  # [seat][card id]
    strengths: tuple[tuple[int, ...], ...]  # kernel.strength_table: [led suit + 1][card id]
    free_masks: tuple[int, int, int]  # all free cards, those barred from trick 1, from the last trick


_FAST: dict[int, tuple[Rules, _FastTables]] = {}


def _fast_tables(rules: Rules) -> _FastTables:
    hit = _FAST.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    deck = rules.deck
    tables = _FastTables(
        play_actions=tuple(tuple(Play(s, c) for c in deck.cards) for s in range(rules.seats)),
        strengths=deck_strength_table(deck, rules.precedence),
        free_masks=(
            deck.mask(fc.card for fc in rules.free_cards),
            deck.mask(fc.card for fc in rules.free_cards if fc.not_first),
            deck.mask(fc.card for fc in rules.free_cards if fc.not_last),
        ),
    )
    if len(_FAST) > 256:
        _FAST.clear()
    _FAST[id(rules)] = (rules, tables)
    return tables


def first_dealer(rules: Rules, seed: str, named: int | None = None) -> int:
    """The first round's dealer: drawn from the seed (``dealer_start: random``), seat 0 (``seat-0``) or chosen by
    the players (``chosen``: the named seat, seat 0 unless named).

    A named dealer the rule set does not allow raises :class:`SetupError` saying why."""
    n = rules.seats
    if named is not None and not 0 <= named < n:
        raise DealerError(f"the first dealer is seat {named}, but a {n}-player game has seats 0 to {n - 1}")
    start = rules.scoring.dealer_start
    if start == "seat-0" and named not in (None, 0):
        raise DealerError(f"the first dealer is seat {named}, but under dealer_start: seat-0 seat 0 deals first")
    if start != "random":
        return named or 0
    drawn = random.Random(f"crewkit:{seed}:dealer").randrange(n)
    if named is not None and named != drawn:
        # name the reading that lets the players choose, if the rule set has one
        choose = next((f"{r.get('id')}={name}" for r in rules.raw_ruleset.get("readings") or []
                       for name, opt in (r.get("options") or {}).items()
                       if ((opt or {}).get("overrides") or {}).get("rounds", {}).get("dealer_start") == "chosen"), None)
        current = next((f"{rid}={opt}" for rid, opt in rules.readings.items()
                        if choose and rid == choose.split("=")[0]), "dealer_start: random")
        raise DealerError(f"the first dealer is seat {named}, but under {current} the first dealer is drawn from the "
                         f"seed ({seed!r} draws seat {drawn})"
                         + (f"; the reading {choose} lets the players choose" if choose else ""))
    return drawn


def set_aside_count(rules: Rules) -> int:
    """Cards a full deal sets aside: the rule set's ``set_aside`` plus what the hands and the dummy leave over
    (``deal_from_seed`` sets those aside too). The sizes come from the compiled rules (one arithmetic)."""
    dealt = len(rules.deck) - rules.undealt_mask.bit_count()
    return dealt - sum(rules.hand_sizes) - (rules.dummy.cards if rules.dummy is not None else 0)


def check_deal(rules: Rules, deal: Deal, partial: bool = False) -> Deal:
    """Refuse an explicit deal that this rule set cannot deal; return it with the dummy's hand filled in.

    Checked: the number of hands, each seat's hand size, the cards set aside, the dummy's columns (count, height,
    the held-out card), cards the rule set never deals, and every card in one place only. ``partial``: a hand-made
    position with smaller hands (solver tests, puzzles); everything but the sizes is still checked."""
    name = rules.ruleset_name
    players = rules.players
    if rules.dummy is not None:
        d = rules.dummy
        if len(deal.dummy_columns) != d.columns:
            raise SetupError(f"the deal gives the dummy {len(deal.dummy_columns)} columns; rule set {name} "
                             f"gives it {d.columns}")
        height = d.face_down + d.face_up
        for i, col in enumerate(deal.dummy_columns):
            if len(col) != height and not partial:
                raise SetupError(f"dummy column {i} has {len(col)} cards; rule set {name} gives each column "
                                 f"{d.face_down} face down and {d.face_up} face up")
            if rules.hold_out is not None and rules.hold_out in col:
                raise SetupError(f"{rules.hold_out} is in dummy column {i}, but rule set {name} holds it out of "
                                 "the dummy's cards")
        columns = tuple(c for col in deal.dummy_columns for c in col)
        if len(deal.hands) == rules.seats and set(deal.hands[-1]) != set(columns):
            raise SetupError("the dummy's hand (the last one) is not the cards of its columns")
        if len(deal.hands) == players:
            deal = Deal((*deal.hands, columns), deal.tasks, deal.set_aside, deal.dummy_columns, deal.secret)
    elif deal.dummy_columns:
        raise SetupError(f"the deal has dummy columns but rule set {name} has no dummy seat")
    if len(deal.hands) != rules.seats:
        raise SetupError(f"the deal has {len(deal.hands)} hands for {players} players")
    where: dict[int, str] = {}

    def place(card: Card, here: str) -> None:
        if card.id in where:
            twice = f"{here} twice" if where[card.id] == here else f"{where[card.id]} and {here}"
            raise SetupError(f"{card} is in the deal twice: {twice}")
        if card.bit & rules.undealt_mask:
            raise SetupError(f"{card} is {here}, but rule set {name} never deals it")
        where[card.id] = here

    for seat in range(players):
        hand = deal.hands[seat]
        for card in hand:
            place(card, f"dealt to seat {seat}")
        want = rules.hand_sizes[seat]
        if len(hand) != want and not (partial and len(hand) < want):
            raise SetupError(f"seat {seat} is dealt {len(hand)} cards; rule set {name} deals {want} to seat "
                             f"{seat} with {players} players")
    for i, col in enumerate(deal.dummy_columns):
        for card in col:
            place(card, f"in dummy column {i}")
    for card in deal.set_aside:
        place(card, "set aside")
    aside = set_aside_count(rules)
    if len(deal.set_aside) != aside and not (partial and len(deal.set_aside) < aside):
        raise SetupError(f"the deal sets {len(deal.set_aside)} cards aside; rule set {name} sets {aside} aside "
                         f"with {players} players")
    if not any(deal.hands):
        raise SetupError("the deal gives no cards")
    return deal


def complete_deal(rules: Rules, deal: Deal, rng: random.Random, partial: bool = False) -> Deal:
    """Check an explicit deal (:func:`check_deal`) and fill in what it leaves open (tasks) from the seeded RNG."""
    deal = check_deal(rules, deal, partial)
    if rules.secret is not None:
        by_id = {c.id: c for c in rules.secret.cards}
        if len(deal.secret) != rules.players or any(len(ids) != rules.secret.per_player for ids in deal.secret):
            raise SetupError(f"the deal must give each of the {rules.players} players "
                             f"{rules.secret.per_player} secret mission card(s)")
        unknown = [i for ids in deal.secret for i in ids if i not in by_id]
        if unknown:
            raise SetupError(f"unknown secret mission card {unknown[0]!r}")
        tasks = tuple(c for ids in deal.secret for i in ids for c in by_id[i].cards)
        return Deal(deal.hands, tasks, deal.set_aside, deal.dummy_columns, deal.secret)
    tasks = deal.tasks
    if not tasks and rules.task_count:
        tasks = rules.fixed_tasks or tuple(rng.sample(rules.task_pool, rules.task_count))
    if len(tasks) != rules.task_count:
        raise SetupError(f"the deal reveals {len(tasks)} tasks; the mission has {rules.task_count}")
    pool = {c.id for c in rules.task_pool}
    for t in tasks:
        if t.id not in pool:
            raise SetupError(f"{t} has no task card in this rule set")
    if len({t.id for t in tasks}) != len(tasks):
        raise SetupError("the deal reveals the same task twice")
    return Deal(deal.hands, tuple(tasks), deal.set_aside, deal.dummy_columns, deal.secret)



def _token_text(token: str | None) -> str:
    return "Ω" if token == OMEGA else str(token)


def _statement_text(position: str, card: Card) -> str:
    suit = card.suit.name if card.suit is not None else ""
    return {
        "top": f"'{card} is my highest {suit}'",
        "bottom": f"'{card} is my lowest {suit}'",
        "only": f"'{card} is my only {suit}'",
    }.get(position, position)


def deal_from_strings(rules: Rules, hands: Sequence[Sequence[str]], tasks: Sequence[str] = (),
                      set_aside: Sequence[str] = ()) -> Deal:
    """A deal from card names, checked against the rule set (:func:`check_deal`; raises :class:`SetupError`)."""
    deck = rules.deck
    deal = Deal(tuple(tuple(deck.card(c) for c in h) for h in hands), tuple(deck.card(t) for t in tasks),
                tuple(deck.card(c) for c in set_aside))
    check_deal(rules, deal)
    return deal


__all__ = [
    "Communication",
    "Deal",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "Task",
    "Trick",
    "deal_from_strings",
]
