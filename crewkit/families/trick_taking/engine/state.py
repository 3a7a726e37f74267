"""The game's state objects: tricks, tasks, communications, outcomes, events and deals (plain data).

The phase machine (:mod:`crewkit.families.trick_taking.engine.game`) and the blocks
(:mod:`crewkit.families.trick_taking.engine.blocks`) read and change these; bots, the solver and the UI read
them through views and observations.
"""

from __future__ import annotations

from dataclasses import dataclass

from crewkit.cards import Card, Suit
from crewkit.families.trick_taking.engine.kernel import OMEGA


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


@dataclass(slots=True)
class CardTask:
    """A task card with an objective (Mission Deep Sea), drawn for the mission: who took it, the number it
    asked for, and where its condition is among the game's (``Game.conditions``) once bound."""

    id: str
    owner: int | None = None
    number: int | None = None  # the number named (a prediction card); None while not named or not asked
    cond: int | None = None  # index into Game.conditions once bound to its owner


@dataclass(frozen=True, slots=True)
class Communication:
    seat: int
    card: Card
    statement: str  # the true statement: top | bottom | only
    hidden: bool  # dead zone: the others do not learn the statement
    before_trick: int  # the trick number it was made before


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
    # task cards with objectives drawn for the mission (Mission Deep Sea), by id, in the order drawn
    task_cards: tuple[str, ...] = ()
    # the colour card drawn (and put back) to pick the communication mode of the attempt (unfamiliar terrain)
    mode_card: Card | None = None


def token_text(token: str | None) -> str:
    return "Ω" if token == OMEGA else str(token)


def statement_text(position: str, card: Card) -> str:
    suit = card.suit.name if card.suit is not None else ""
    return {
        "top": f"'{card} is my highest {suit}'",
        "bottom": f"'{card} is my lowest {suit}'",
        "only": f"'{card} is my only {suit}'",
    }.get(position, position)
