"""What one seat may know: its own hand and the public table, nothing else.

Bots receive only an :class:`Observation`. It is a snapshot: later moves do not change it.

Construction is on the hot path of every simulation (one observation per decision), so the snapshot
copies only immutable pieces of the game (ints, tuples, frozen objects) and derives the rest (``hand``,
``hand_sizes``, ``tasks``, ``communications``) lazily on first access. The public attributes are those of
the former frozen dataclass; treat them as read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Card, Deck, Suit
from crewkit.engine.actions import Action, Communicate, Distress, Play

if TYPE_CHECKING:
    from crewkit.engine.game import Game, Trick
    from crewkit.engine.rules import Rules

from crewkit.engine import actions as _actions

_OPTIONAL_TYPES: tuple[type[Action], ...] = tuple(
    t for t in (Communicate, Distress, _actions.HandTask, _actions.Signal) if isinstance(t, type)
)


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


class Observation:
    """One seat's view of the game at one moment (see the module docstring).

    The table part (everything but the seat, its hand and its legal actions) is one shared, immutable
    snapshot (``_c``): the driver builds it once per moment and hands it to every seat it asks.
    """

    __slots__ = (
        "seat",
        "hand_mask",  # the own hand as a bitmask over ``rules.deck`` card ids
        "_c",
        "_legal",
        "_required_part",
        "_shim",
        "_hand",
        "_hand_sizes",
        "_tasks",
        "_communications",
        "_required",
        "_reason",
    )

    seat: int
    hand_mask: int
    _c: tuple[Any, ...]  # table_snapshot(): one entry per field, read through the properties below
    _legal: tuple[Action, ...]
    _required_part: tuple[Action, ...]
    _shim: _OptionalSnapshot
    _hand: tuple[Card, ...]
    _hand_sizes: tuple[int, ...]
    _tasks: tuple[TaskInfo, ...]
    _communications: tuple[CommunicationInfo, ...]
    _required: tuple[Action, ...]
    _reason: str

    # ------------------------------------------------------------------ table fields (shared snapshot)
    @property
    def players(self) -> int:
        return self._c[0]

    @property
    def phase(self) -> str:
        return self._c[1]

    @property
    def commander(self) -> int | None:
        return self._c[2]

    @property
    def to_act(self) -> int | None:
        return self._c[3]

    @property
    def leader(self) -> int:
        return self._c[4]

    @property
    def trick_number(self) -> int:
        return self._c[5]

    @property
    def total_tricks(self) -> int:
        return self._c[6]

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return self._c[7]

    @property
    def led_suit(self) -> Suit | None:
        return self._c[8]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return self._c[9]

    @property
    def comm_used(self) -> tuple[int, ...]:
        return self._c[10]

    @property
    def distress_direction(self) -> str | None:
        return self._c[11]

    @property
    def dead_zone(self) -> bool:
        return self._c[12]

    @property
    def roles(self) -> tuple[tuple[str, int], ...]:
        return self._c[13]

    @property
    def hidden_tasks(self) -> int:
        """Task cards still face down (commander's decision / distribution)."""
        return self._c[14]

    @property
    def outcome(self) -> str:
        return self._c[15]

    @property
    def rules(self) -> Rules:
        """The compiled rules: public knowledge (deck, hand sizes, tokens, ...), no game state."""
        return self._c[16]

    # ------------------------------------------------------------------ derived (lazy) fields
    # (unset slots raise AttributeError: the first access computes and stores the value)
    @property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action of this seat (required and optional), as ``Game.legal_actions(seat)``."""
        try:
            return self._legal
        except AttributeError:
            pass
        from crewkit.engine.game import Game

        lg = self._legal = self._required_part + tuple(Game.optional_actions(self._shim, self.seat))  # type: ignore[arg-type]
        return lg

    @property
    def reason(self) -> str:
        """The outcome's reason, or what the game waits for while it is in progress."""
        try:
            return self._reason
        except AttributeError:
            pass
        r = self._c[_REASON]
        if isinstance(r, str):
            text = r
        else:
            phase, draft_turn, turn = r
            if phase == "draft":
                text = f"task draft, seat {draft_turn} to choose"
            elif phase == "distress-pass":
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
        s = self._hand_sizes = tuple(h.bit_count() for h in self._c[_HANDS])
        return s

    @property
    def tasks(self) -> tuple[TaskInfo, ...]:
        try:
            return self._tasks
        except AttributeError:
            pass
        seat = self.seat
        own_secret = tuple(TaskInfo(*state) for owner, state in self._c[_SECRET] if owner == seat)
        t = self._tasks = tuple(TaskInfo(*state) for state in self._c[_TASKS]) + own_secret
        return t

    @property
    def hidden_missions_of_others(self) -> int:
        """Face-down mission cards (or face-down tasks) that belong to other seats or to nobody yet."""
        return sum(1 for owner, _ in self._c[_HIDDEN_MISSIONS] if owner != self.seat)

    @property
    def dummy_seat(self) -> int | None:
        """The dummy's seat (JARVIS), or None."""
        return self._c[_DUMMY]

    @property
    def dummy_up(self) -> tuple[Card, ...]:
        """The dummy's face-up cards: public to every seat."""
        d = self._c[_DUMMY]
        if d is None:
            return ()
        return tuple(self.rules.deck.from_mask(self._c[_HANDS][d]))

    @property
    def communications(self) -> tuple[CommunicationInfo, ...]:
        try:
            return self._communications
        except AttributeError:
            pass
        comms = self._c[_COMMS]
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
                x.seat, x.card, None if (x.hidden and x.seat != seat) else x.statement, bool(played & x.card.bit)
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
        r = self._required = tuple(a for a in legal if not isinstance(a, _OPTIONAL_TYPES))
        return r

    @property
    def optional(self) -> tuple[Action, ...]:
        """The legal Communicate and Distress actions."""
        return tuple(a for a in self.legal if isinstance(a, _OPTIONAL_TYPES))

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
            f"Observation(seat={self.seat}, phase={self.phase!r}, trick={self.trick_number}, "
            f"hand={[c.name for c in self.hand]}, legal={len(self.legal)})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "hand": [c.name for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "commander": self.commander,
            "to_act": self.to_act,
            "trick_number": self.trick_number,
            "current_trick": [{"seat": s, "card": c.name} for s, c in self.current_trick],
            "tricks": [
                {"number": t.number, "leader": t.leader, "winner": t.winner,
                 "cards": [{"seat": s, "card": c.name} for s, c in t.plays]}
                for t in self.tricks
            ],
            "tasks": [
                {"card": t.card.name, "token": t.token, "owner": t.owner, "trick": t.trick} for t in self.tasks
            ],
            "hidden_tasks": self.hidden_tasks,
            "dummy": None if self.dummy_seat is None else {
                "seat": self.dummy_seat, "face_up": [c.name for c in self.dummy_up]},
            "communications": [
                {"seat": c.seat, "card": c.card.name, "statement": c.statement, "played": c.played}
                for c in self.communications
            ],
            "distress": self.distress_direction,
            "legal": [a.to_json() for a in self.legal],
            "outcome": self.outcome,
            "reason": self.reason,
        }


_new = object.__new__


_REASON = 17
_HANDS = 18
_TASKS = 19
_COMMS = 20
_SHIM = 21
_SECRET = 22
_DUMMY = 23
_HIDDEN_MISSIONS = 24


def table_snapshot(game: Game, lazy_optional: bool = False) -> tuple[Any, ...]:
    """The part of every seat's observation that is the same for all seats (valid until the next move).

    With ``lazy_optional`` at a communication window it also holds the frozen state that optional actions
    are computed from, so that observations can work them out only when a bot asks.
    """
    rules = game.rules
    phase = game.phase
    done = game._outcome
    tricks = game.tricks
    plays = game.plays
    roles = game.roles
    if done is not None:
        outcome = done.result
        reason: Any = done.reason
    elif phase in ("draft", "distress-pass", "tricks"):
        outcome = "in-progress"
        reason = (phase, game.draft_turn, game.turn)
    else:
        o = game.outcome()
        outcome, reason = o.result, o.reason
    try:
        state = tuple([(t.card, t.token, t.owner, t.trick) for t in game.tasks if t.revealed])
    except AttributeError:
        state = tuple([(t.card, t.token, t.owner, t.trick) for t in game.tasks])
    comms = game.communications
    window = lazy_optional and phase == "tricks" and done is None and not plays
    return (
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
        len(game.tasks) - len(state),
        outcome,
        rules,
        reason,
        tuple(game.hands),
        state,
        tuple(comms) if comms else (),
        _optional_snapshot(game) if window else None,
        # secret tasks (Persian reading): shown to their owner only
        tuple((t.owner, (t.card, t.token, t.owner, t.trick)) for t in game.tasks
              if not getattr(t, "revealed", True) and t.owner is not None),
        getattr(game, "dummy_seat", None),
        # face-down mission cards by owner: one entry per secret mission card (a level-2 card names two tasks)
        tuple(sorted({(t.owner, getattr(t, "mission", None) or f"task:{t.card.id}") for t in game.tasks
                      if not getattr(t, "revealed", True)}, key=str)),
    )


def observe(
    game: Game,
    seat: int,
    legal: list[Action] | tuple[Action, ...] | None = None,
    *,
    lazy_optional: bool = False,
    table: tuple[Any, ...] | None = None,
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
    o.hand_mask = table[_HANDS][seat]
    shim = table[_SHIM]
    if lazy_optional and legal is None and shim is not None:
        o._required_part = _required_plays(game, seat)
        o._shim = shim
    else:
        lg = o._legal = tuple(game.legal_actions(seat) if legal is None else legal)
        # outside a communication window nothing is optional (the Persian signal is offered during a trick)
        if table[1] != "tricks" or (table[7] and not any(isinstance(a, _OPTIONAL_TYPES) for a in lg)):
            o._required = lg
    return o


def _required_plays(game: Game, seat: int) -> tuple[Action, ...]:
    if seat != game.turn:
        return ()
    table = getattr(game, "_play_actions", None)  # the engine's shared Play objects, if it has them
    plays = table[seat] if table is not None else [Play(seat, c) for c in game.rules.deck.cards]
    mask = game.legal_play_mask(seat)
    out = []
    while mask:
        low = mask & -mask
        out.append(plays[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


# State that Game.optional_actions reads and that later moves mutate in place: copied for the snapshot.
_MUTABLE = ("hands", "comm_used", "communications", "tricks", "plays", "roles", "passes", "tasks")


class _OptionalSnapshot:
    """A frozen copy of a game's state, enough to run ``Game.optional_actions`` on it (not a game)."""

    def __getattr__(self, name: str) -> Any:  # the Game's methods and properties, bound to this snapshot
        from crewkit.engine.game import Game

        attr = getattr(Game, name)
        get = getattr(attr, "__get__", None)
        return get(self, type(self)) if get is not None else attr


def _optional_snapshot(game: Game) -> Any:
    shim = _new(_OptionalSnapshot)
    d = game.__dict__.copy()
    for name in _MUTABLE:
        v = d.get(name)
        if type(v) is list:
            d[name] = tuple(v)
        elif type(v) is dict:
            d[name] = v.copy()
    shim.__dict__ = d
    return shim
