"""What one seat may know: its own hand and the public table, nothing else.

Bots receive only an :class:`Observation`. It is a snapshot: later moves do not change it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Card, Suit, sort_key
from crewkit.engine.actions import Action

if TYPE_CHECKING:
    from crewkit.engine.game import Game, Trick


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


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    players: int
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    commander: int | None
    to_act: int | None
    leader: int
    trick_number: int
    total_tricks: int
    current_trick: tuple[tuple[int, Card], ...]
    led_suit: Suit | None
    tricks: tuple[Trick, ...]
    tasks: tuple[TaskInfo, ...]
    communications: tuple[CommunicationInfo, ...]
    comm_used: tuple[int, ...]
    distress_direction: str | None
    dead_zone: bool
    legal: tuple[Action, ...]
    roles: tuple[tuple[str, int], ...]
    outcome: str
    reason: str

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
            "communications": [
                {"seat": c.seat, "card": c.card.name, "statement": c.statement, "played": c.played}
                for c in self.communications
            ],
            "distress": self.distress_direction,
            "legal": [a.to_json() for a in self.legal],
            "outcome": self.outcome,
            "reason": self.reason,
        }


def observe(game: Game, seat: int) -> Observation:
    played = 0
    for t in game.tricks:
        for _, c in t.plays:
            played |= c.bit
    for _, c in game.plays:
        played |= c.bit
    comms = tuple(
        CommunicationInfo(
            c.seat, c.card, None if (c.hidden and c.seat != seat) else c.statement, bool(played & c.card.bit)
        )
        for c in game.communications
    )
    outcome = game.outcome()
    return Observation(
        seat=seat,
        players=game.n,
        phase=game.phase,
        hand=tuple(sorted(game.rules.deck.from_mask(game.hands[seat]), key=sort_key)),
        hand_sizes=tuple(h.bit_count() for h in game.hands),
        commander=game.commander,
        to_act=game.to_act,
        leader=game.leader,
        trick_number=game.trick_number,
        total_tricks=game.total_tricks,
        current_trick=tuple(game.plays),
        led_suit=game.led_suit,
        tricks=tuple(game.tricks),
        tasks=tuple(TaskInfo(t.card, t.token, t.owner, t.trick) for t in game.tasks),
        communications=comms,
        comm_used=tuple(game.comm_used),
        distress_direction=game.distress_direction,
        dead_zone=game.rules.dead_zone,
        legal=tuple(game.legal_actions(seat)),
        roles=tuple(sorted(game.roles.items())),
        outcome=outcome.result,
        reason=outcome.reason,
    )
