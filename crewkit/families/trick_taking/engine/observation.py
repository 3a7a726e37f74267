"""What one seat may know: its own hand and the public table, nothing else.

Bots receive only an :class:`Observation`. It is a snapshot: later moves do not change it.

Construction is on the hot path of every simulation (one observation per decision), so the snapshot copies
only immutable pieces of the game (ints, tuples, frozen objects) and derives the rest (``hand``, ``hand_sizes``,
``tasks``, ``communications``) lazily on first access. The public attributes are read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from crewkit.cards import Card, Deck, Suit
from crewkit.engine.actions import Action
from crewkit.engine.phase import DISTRESS_PASS, DRAFT, TRICKS
from crewkit.families.trick_taking.engine.blocks.communication import Communicate, Signal
from crewkit.families.trick_taking.engine.blocks.distress import Distress, passes_made
from crewkit.families.trick_taking.engine.blocks.dummy import public_columns
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.blocks.rounds import MatchInfo, match_info
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.optional_state import optional_actions_of, optional_snapshot

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game, Trick
    from crewkit.families.trick_taking.engine.rules import Condition, Rules
    from crewkit.families.trick_taking.engine.taskcards import TaskCardInfo

OPTIONAL_TYPES: tuple[type[Action], ...] = (Communicate, Distress, HandTask, Signal)  # never required


@dataclass(frozen=True, slots=True)
class TaskInfo:
    card: Card
    token: str | None
    owner: int | None
    trick: int | None  # the trick that completed it

    @property
    def done(self) -> bool:
        return self.trick is not None


@dataclass(frozen=True, slots=True)
class CommunicationInfo:
    seat: int
    card: Card
    statement: str | None  # None under a dead zone (unless it is the observer's own)
    played: bool  # the token has turned red
    before_trick: int = 0  # the trick number it was made before (everybody saw when)


class Observation:
    """One seat's view of the game at one moment (see the module docstring).

    The table part (everything but the seat, its hand and its legal actions) is one shared, immutable
    snapshot (``_c``): the driver builds it once per moment and hands it to every seat it asks.
    """

    __slots__ = ("seat", "hand_mask", "_c", "_legal", "_required_part", "_shim", "_hand", "_hand_sizes", "_tasks",
                 "_communications", "_required", "_reason")

    seat: int
    hand_mask: int  # the own hand as a bitmask over ``rules.deck`` card ids
    # set by :func:`observe`; the lazy ones (unset until first read) by their properties
    _c: Table
    _legal: tuple[Action, ...]
    _required_part: tuple[Action, ...]
    _shim: Any
    _hand: tuple[Card, ...]
    _hand_sizes: tuple[int, ...]
    _tasks: tuple[TaskInfo, ...]
    _communications: tuple[CommunicationInfo, ...]
    _required: tuple[Action, ...]
    _reason: str

    # ------------------------------------------------------------------ table fields (shared snapshot)
    @property
    def players(self) -> int:
        return self._c.players

    @property
    def phase(self) -> str:
        return self._c.phase

    @property
    def commander(self) -> int | None:
        return self._c.commander

    @property
    def to_act(self) -> int | None:
        return self._c.to_act

    @property
    def leader(self) -> int:
        return self._c.leader

    @property
    def trick_number(self) -> int:
        return self._c.trick_number

    @property
    def total_tricks(self) -> int:
        return self._c.total_tricks

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return self._c.current_trick

    @property
    def led_suit(self) -> Suit | None:
        return self._c.led_suit

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return self._c.tricks

    @property
    def comm_used(self) -> tuple[int, ...]:
        return self._c.comm_used

    @property
    def distress_direction(self) -> str | None:
        return self._c.distress_direction

    @property
    def dead_zone(self) -> bool:
        return self._c.dead_zone

    @property
    def roles(self) -> tuple[tuple[str, int], ...]:
        return self._c.roles

    @property
    def hidden_tasks(self) -> int:
        """Task cards still face down (commander's decision / distribution)."""
        return self._c.hidden_tasks

    @property
    def outcome(self) -> str:
        return self._c.outcome

    @property
    def rules(self) -> Rules:
        """The compiled rules: public knowledge (deck, hand sizes, tokens, ...), no game state."""
        return self._c.rules

    @property
    def conditions(self) -> tuple[Condition, ...]:
        """The conditions this seat knows: the mission's, then the task cards' bound to their owners (a number
        kept secret is known to its owner only: another seat's secret prediction is left out)."""
        c = self._c
        return c.conditions if not c.secret_conditions else tuple(
            x for i, x in enumerate(c.conditions) if c.secret_conditions.get(i, self.seat) == self.seat)

    @property
    def passes_seen(self) -> tuple[tuple[int, int, Card], ...]:
        """The distress signal's passes (giver, receiver, card) this seat took part in (the others' are hidden)."""
        return tuple(p for p in self._c.passes if self.seat in (p[0], p[1]))

    @property
    def questions(self) -> tuple[tuple[str, tuple[tuple[int, str], ...]], ...]:
        """The setup's questions asked so far, in order, each with its answers as (seat, answer) (public)."""
        return self._c.questions

    @property
    def match(self) -> MatchInfo | None:
        """A match played in rounds (Hammer): chips, round, dealer, the round's mission and mode (public)."""
        return self._c.match

    @property
    def task_cards(self) -> tuple[TaskCardInfo, ...]:
        """The task cards with objectives drawn for the mission, in the order drawn (Mission Deep Sea)."""
        from crewkit.families.trick_taking.engine.taskcards import seen_cards

        return seen_cards(self._c.task_cards, self.seat)

    # ------------------------------------------------------------------ derived (lazy) fields
    # (unset slots raise AttributeError: the first access computes and stores the value)
    @property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action of this seat (required and optional), as ``Game.legal_actions(seat)``."""
        try:
            return self._legal
        except AttributeError:
            pass
        shim = self._shim
        lg = self._legal = self._required_part + tuple(optional_actions_of(shim, self.seat))
        return lg

    @property
    def reason(self) -> str:
        """The outcome's reason, or what the game waits for while it is in progress."""
        try:
            return self._reason
        except AttributeError:
            pass
        r = self._c.reason
        if isinstance(r, str):
            text = r
        else:
            phase, draft_turn, turn = r
            if phase == DRAFT:
                text = f"task draft, seat {draft_turn} to choose"
            elif phase == DISTRESS_PASS:
                text = "distress signal: cards being passed"
            else:
                text = f"trick {self.trick_number} of {self.total_tricks}, seat {turn} to play"
        self._reason = text
        return text

    @property
    def deck(self) -> Deck:
        return self.rules.deck

    @property
    def hand(self) -> tuple[Card, ...]:
        try:
            return self._hand
        except AttributeError:
            pass
        # deck order is suit order then rank, specials last: the same as cards.sort_key
        h = self._hand = tuple(self.rules.deck.from_mask(self.hand_mask))
        return h

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        try:
            return self._hand_sizes
        except AttributeError:
            pass
        s = self._hand_sizes = tuple(h.bit_count() for h in self._c.hands)
        return s

    @property
    def tasks(self) -> tuple[TaskInfo, ...]:
        try:
            return self._tasks
        except AttributeError:
            pass
        seat = self.seat
        own_secret = tuple(TaskInfo(*state) for owner, state in self._c.secret_tasks if owner == seat)
        t = self._tasks = tuple(TaskInfo(*state) for state in self._c.tasks) + own_secret
        return t

    @property
    def hidden_missions_of_others(self) -> int:
        """Face-down mission cards (or face-down tasks) that belong to other seats or to nobody yet."""
        return sum(1 for owner, _ in self._c.hidden_missions if owner != self.seat)

    @property
    def dummy_seat(self) -> int | None:
        """The dummy's seat (JARVIS), or None."""
        return self._c.dummy_seat

    @property
    def dummy_up(self) -> tuple[Card, ...]:
        """The dummy's face-up cards: public to every seat."""
        d = self._c.dummy_seat
        if d is None:
            return ()
        return tuple(self.rules.deck.from_mask(self._c.hands[d]))

    @property
    def dummy_columns(self) -> tuple[tuple[Card | None, int], ...]:
        """JARVIS's columns: per column its face-up card (or None) and how many lie face down (public)."""
        return self._c.dummy_columns

    @property
    def communications(self) -> tuple[CommunicationInfo, ...]:
        try:
            return self._communications
        except AttributeError:
            pass
        comms = self._c.communications
        played = 0
        if comms:
            for t in self.tricks:
                for _, card in t.plays:
                    played |= card.bit
            for _, card in self.current_trick:
                played |= card.bit
        seat = self.seat
        c = self._communications = tuple(
            CommunicationInfo(
                x.seat, x.card, None if (x.hidden and x.seat != seat) else x.statement, bool(played & x.card.bit),
                x.before_trick,
            )
            for x in comms
        )
        return c

    @property
    def required(self) -> tuple[Action, ...]:
        """The legal actions that are not optional (no Communicate, no Distress, no task handed on)."""
        try:
            return self._required
        except AttributeError:
            pass
        try:
            legal = self._legal
        except AttributeError:
            r = self._required = self._required_part
            return r
        r = self._required = tuple(a for a in legal if not isinstance(a, OPTIONAL_TYPES))
        return r

    @property
    def optional(self) -> tuple[Action, ...]:
        """The legal Communicate and Distress actions."""
        return tuple(a for a in self.legal if isinstance(a, OPTIONAL_TYPES))

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None

    def public_cards(self) -> set[Card]:
        """Cards of other seats this observation shows: played, communicated or task cards."""
        out = {c for t in self.tricks for c in t.cards}
        out |= {c for _, c in self.current_trick}
        out |= {c.card for c in self.communications}
        out |= {t.card for t in self.tasks}
        out |= set(self.dummy_up)
        return out

    def __repr__(self) -> str:
        return (
            f"Observation(seat={self.seat}, phase={str(self.phase)!r}, trick={self.trick_number}, "
            f"hand={[c.name for c in self.hand]}, legal={len(self.legal)})"
        )

    def to_json(self) -> dict[str, Any]:
        from crewkit.families.trick_taking.engine.observation_json import observation_json

        return observation_json(self)


_new = object.__new__


class Table(NamedTuple):
    """The part of an observation every seat shares at one moment (see :func:`table_snapshot`)."""

    players: int
    phase: Any  # a Phase (or a plug-in block's phase name)
    commander: int | None
    to_act: int | None
    leader: int
    trick_number: int
    total_tricks: int
    current_trick: tuple[tuple[int, Card], ...]
    led_suit: Suit | None
    tricks: tuple[Trick, ...]
    comm_used: tuple[int, ...]
    distress_direction: str | None
    dead_zone: bool
    roles: tuple[tuple[str, int], ...]
    hidden_tasks: int
    outcome: str
    rules: Rules
    reason: Any  # the outcome's reason, or (phase, draft turn, turn) to word lazily
    hands: tuple[int, ...]
    tasks: tuple[tuple[Any, ...], ...]  # (card, token, owner, trick) of the revealed tasks
    communications: tuple[Any, ...]
    optional_state: Any  # the frozen state optional actions are worked out from (a communication window)
    secret_tasks: tuple[tuple[int | None, tuple[Any, ...]], ...]  # (owner, task state): shown to the owner
    dummy_seat: int | None
    hidden_missions: tuple[tuple[int | None, str], ...]  # face-down mission cards by owner
    conditions: tuple[Condition, ...]  # Game.conditions: the mission's, then the bound task cards'
    secret_conditions: dict[int, int]  # index into conditions -> the seat that alone knows it (a secret number)
    task_cards: tuple[TaskCardInfo, ...]  # every task card as its owner sees it (see taskcards.seen_cards)
    # JARVIS's columns as every seat sees them: per column its face-up card (or None) and how many lie face down
    dummy_columns: tuple[tuple[Card | None, int], ...] = ()
    # the setup's questions in the order asked, each with the answers given so far (public): (text, ((seat, answer),))
    questions: tuple[tuple[str, tuple[tuple[int, str], ...]], ...] = ()
    # a match played in rounds (Hammer): the chips, the round and the dealer, public at the table; None otherwise
    match: MatchInfo | None = None
    passes: tuple[tuple[int, int, Card], ...] = ()  # the distress signal's (giver, receiver, card): passes_seen


def table_snapshot(game: Game, lazy_optional: bool = False) -> Table:
    """The part of every seat's observation that is the same for all seats (valid until the next move).

    With ``lazy_optional`` at a communication window it also holds the frozen state that optional actions
    are computed from, so that observations can work them out only when a bot asks.
    """
    from crewkit.families.trick_taking.engine.taskcards import table_cards

    rules = game.rules
    phase = game.phase
    done = game._outcome
    tricks = game.tricks
    plays = game.plays
    roles = game.roles
    if done is not None:
        outcome = done.result
        reason: Any = done.reason
    elif phase in (DRAFT, DISTRESS_PASS, TRICKS):
        outcome = "in-progress"
        reason = (phase, game.draft_turn, game.turn)
    else:
        o = game.outcome()
        outcome, reason = o.result, o.reason
    tasks = game.tasks
    shown = []
    hidden = False  # some task face down: then the secret tasks and face-down mission cards are worked out
    for t in tasks:
        if t.revealed:
            shown.append((t.card, t.token, t.owner, t.trick))
        else:
            hidden = True
    state = tuple(shown)
    comms = game.communications
    window = lazy_optional and phase == TRICKS and done is None and not plays
    return Table(
        game.n,
        phase,
        game.commander,
        game.to_act,
        game.leader,
        len(tricks) + 1,
        game.total_tricks,
        tuple(plays),
        game.led_suit,
        tuple(tricks),
        tuple(game.comm_used),
        game.distress_direction,
        rules.dead_zone,
        tuple(sorted(roles.items())) if roles else (),
        len(tasks) - len(state),
        outcome,
        rules,
        reason,
        tuple(game.hands),
        state,
        tuple(comms) if comms else (),
        optional_snapshot(game) if window else None,
        # secret tasks (Persian reading): shown to their owner only
        tuple((t.owner, (t.card, t.token, t.owner, t.trick)) for t in tasks
              if not t.revealed and t.owner is not None) if hidden else (),
        game.dummy_seat,
        # face-down mission cards by owner: one entry per secret mission card (a level-2 card names two tasks)
        tuple(sorted({(t.owner, t.mission or f"task:{t.card.id}") for t in tasks
                      if not t.revealed}, key=str)) if hidden else (),
        game.conditions,
        *(table_cards(game) if game.task_cards else ({}, ())),
        public_columns(game),
        tuple((q, tuple(a.items())) for q, a in game.questions) if game.questions else (),
        match_info(game),
        passes_made(game),
    )


def observe(
    game: Game,
    seat: int,
    legal: list[Action] | tuple[Action, ...] | None = None,
    *,
    lazy_optional: bool = False,
    table: Table | None = None,
) -> Observation:
    """Snapshot ``seat``'s view of ``game``.

    ``legal`` may pass ``game.legal_actions(seat)`` if already known. With ``lazy_optional`` (at a
    communication window) the optional actions (communications, distress) are worked out only if the bot
    reads ``legal``, from a frozen copy of the state they depend on. ``table`` may pass a
    :func:`table_snapshot` of the current moment to share between seats.
    """
    o: Any = _new(Observation)
    if table is None:
        table = table_snapshot(game, lazy_optional and legal is None)
    o.seat = seat
    o._c = table
    o.hand_mask = table.hands[seat]
    shim = table.optional_state
    if lazy_optional and legal is None and shim is not None:
        o._required_part = _required_plays(game, seat)
        o._shim = shim
    else:
        lg = o._legal = tuple(game.legal_actions(seat) if legal is None else legal)
        # outside a communication window nothing is optional (the Persian signal is offered during a trick)
        if table.phase != TRICKS or (table.current_trick and not any(isinstance(a, OPTIONAL_TYPES) for a in lg)):
            o._required = lg
    return o


def _required_plays(game: Game, seat: int) -> tuple[Action, ...]:
    if seat != game.turn:
        return ()
    table = game._play_actions  # the engine's shared Play objects
    plays = table[seat] if table is not None else [Play(seat, c) for c in game.rules.deck.cards]
    mask = game.legal_play_mask(seat)
    out = []
    while mask:
        low = mask & -mask
        out.append(plays[low.bit_length() - 1])
        mask ^= low
    return tuple(out)
