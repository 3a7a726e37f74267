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
    t for t in (Communicate, Distress, getattr(_actions, "HandTask", None)) if isinstance(t, type)
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
    """One seat's view of the game at one moment (see the module docstring)."""

    __slots__ = (
        "seat",
        "players",
        "phase",
        "commander",
        "to_act",
        "leader",
        "trick_number",
        "total_tricks",
        "current_trick",
        "led_suit",
        "tricks",
        "comm_used",
        "distress_direction",
        "dead_zone",
        "_legal",
        "_required_part",
        "_shim",
        "roles",
        "hidden_tasks",
        "outcome",
        "_reason",
        "rules",
        "hand_mask",
        "_hands",
        "_task_state",
        "_comms",
        "_hand",
        "_hand_sizes",
        "_tasks",
        "_communications",
        "_required",
    )

    seat: int
    players: int
    phase: str
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
    hidden_tasks: int  # task cards still face down (commander's decision / distribution)
    outcome: str
    rules: Rules  # the compiled rules: public knowledge (deck, hand sizes, tokens, ...), no game state
    hand_mask: int  # the own hand as a bitmask over ``rules.deck`` card ids

    # ------------------------------------------------------------------ derived (lazy) fields
    @property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action of this seat (required and optional), as ``Game.legal_actions(seat)``."""
        lg = self._legal
        if lg is None:
            from crewkit.engine.game import Game

            lg = self._legal = self._required_part + tuple(Game.optional_actions(self._shim, self.seat))  # type: ignore[arg-type]
            self._shim = None
        return lg

    @property
    def deck(self) -> Deck:
        return self.rules.deck

    @property
    def reason(self) -> str:
        """The outcome's reason, or what the game waits for while it is in progress."""
        r = self._reason
        if isinstance(r, str):
            return r
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
    def hand(self) -> tuple[Card, ...]:
        h = self._hand
        if h is None:
            # deck order is suit order then rank, specials last: the same as cards.sort_key
            h = self._hand = tuple(self.rules.deck.from_mask(self.hand_mask))
        return h

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        s = self._hand_sizes
        if s is None:
            s = self._hand_sizes = tuple(h.bit_count() for h in self._hands)
        return s

    @property
    def tasks(self) -> tuple[TaskInfo, ...]:
        t = self._tasks
        if t is None:
            t = self._tasks = tuple(TaskInfo(*state) for state in self._task_state)
        return t

    @property
    def communications(self) -> tuple[CommunicationInfo, ...]:
        c = self._communications
        if c is None:
            played = 0
            if self._comms:
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
                for x in self._comms
            )
        return c

    @property
    def required(self) -> tuple[Action, ...]:
        """The legal actions that are not optional (no Communicate, no Distress)."""
        r = self._required
        if r is None:
            if self._legal is None:
                r = self._required = self._required_part
            else:
                r = self._required = tuple(a for a in self._legal if not isinstance(a, _OPTIONAL_TYPES))
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


def observe(
    game: Game, seat: int, legal: list[Action] | tuple[Action, ...] | None = None, *, lazy_optional: bool = False
) -> Observation:
    """Snapshot ``seat``'s view of ``game``.

    ``legal`` may pass ``game.legal_actions(seat)`` if already known. With ``lazy_optional`` (only at a
    communication window), the optional actions (communications, distress) are worked out only if the bot
    reads ``legal``, from a private snapshot of the state they depend on.
    """
    o: Any = _new(Observation)
    rules = game.rules
    phase = game.phase
    done = game._outcome
    o.seat = seat
    o.players = game.n
    o.phase = phase
    o.commander = game.commander
    o.to_act = game.to_act
    o.leader = game.leader
    tricks = game.tricks
    o.trick_number = len(tricks) + 1
    o.total_tricks = game.total_tricks
    plays = game.plays
    o.current_trick = tuple(plays)
    o.led_suit = game.led_suit
    o.tricks = tuple(tricks)
    o.comm_used = tuple(game.comm_used)
    o.distress_direction = game.distress_direction
    o.dead_zone = rules.dead_zone
    if lazy_optional and legal is None and phase == "tricks" and done is None and not plays:
        o._legal = None
        o._required_part = _required_plays(game, seat)
        o._shim = _optional_snapshot(game)
    else:
        o._legal = tuple(game.legal_actions(seat) if legal is None else legal)
        o._shim = None
    roles = game.roles
    o.roles = tuple(sorted(roles.items())) if roles else ()
    if done is not None:
        o.outcome = done.result
        o._reason = done.reason
    elif phase in ("draft", "distress-pass", "tricks"):
        o.outcome = "in-progress"
        o._reason = (phase, game.draft_turn, game.turn)
    else:
        outcome = game.outcome()
        o.outcome = outcome.result
        o._reason = outcome.reason
    o.rules = rules
    hands = game.hands
    o.hand_mask = hands[seat]
    o._hands = tuple(hands)
    try:
        state = tuple([(t.card, t.token, t.owner, t.trick) for t in game.tasks if t.revealed])
    except AttributeError:
        state = tuple([(t.card, t.token, t.owner, t.trick) for t in game.tasks])
    o._task_state = state
    o.hidden_tasks = len(game.tasks) - len(state)
    comms = game.communications
    o._comms = tuple(comms) if comms else ()
    o._hand = None
    o._hand_sizes = None
    o._tasks = None
    o._communications = None
    o._required = None
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
