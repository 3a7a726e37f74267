"""The read-only game view that conditions are evaluated against.

The engine implements :class:`View`; :class:`SimpleView` is a small concrete implementation for tests
(and for the engine's own tests). Seats are ints ``0..n-1`` in clockwise (playing) order; the player on
the *left* of seat ``s`` is the next one clockwise, ``(s + 1) % n``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from crewkit.cards import Card, Deck, Suit


@runtime_checkable
class TrickView(Protocol):
    """One completed trick. ``number`` is 1-based; ``plays`` are (seat, card) in playing order."""

    @property
    def number(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def plays(self) -> Sequence[tuple[int, Card]]: ...
    @property
    def winner(self) -> int: ...
    @property
    def winning_card(self) -> Card: ...
    @property
    def led_suit(self) -> Suit | None: ...


@runtime_checkable
class TaskView(Protocol):
    """One task: ``owner`` wins the trick containing ``card``. ``trick`` is the number of the trick
    that completed it (None while open); ``token`` is ``"1"``..``"5"``, ``"omega"``, ``">"``.. or None."""

    @property
    def card(self) -> Card: ...
    @property
    def owner(self) -> int | None: ...
    @property
    def token(self) -> str | None: ...
    @property
    def done(self) -> bool: ...
    @property
    def trick(self) -> int | None: ...


@runtime_checkable
class View(Protocol):
    """What a condition can see of a game in progress (read-only)."""

    @property
    def deck(self) -> Deck: ...
    def seats(self) -> Sequence[int]: ...
    def commander(self) -> int | None: ...
    def dealer(self) -> int | None: ...
    def roles(self) -> Mapping[str, int | None]:
        """Every role of the mission (``sick``) with its seat, None while not chosen yet."""
        ...

    def mode(self) -> str | None: ...
    def tricks(self) -> Sequence[TrickView]:
        """The completed tricks of this round, in order."""
        ...

    def total_tricks(self) -> int: ...
    def tricks_won(self, seat: int) -> int: ...
    def won_cards(self, seat: int) -> Sequence[Card]: ...
    def hand(self, seat: int) -> Sequence[Card]: ...
    def current_plays(self) -> Sequence[tuple[int, Card]]:
        """(seat, card) of the trick in progress, in playing order."""
        ...

    def trick_of(self, card: Card) -> TrickView | None:
        """The completed trick containing ``card`` (None if it is not in one)."""
        ...

    def tasks(self) -> Sequence[TaskView]: ...
    def left_of(self, seat: int) -> int: ...
    def right_of(self, seat: int) -> int: ...


@dataclass(frozen=True, slots=True)
class SimpleTrick:
    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    winning_card: Card
    led_suit: Suit | None


@dataclass(frozen=True, slots=True)
class SimpleTask:
    card: Card
    owner: int | None = None
    token: str | None = None
    done: bool = False
    trick: int | None = None


def trick_winner(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """Standard precedence: a lone special card, then the highest trump, then the highest led card."""
    if not plays:
        raise ValueError("a trick needs at least one play")
    specials = [p for p in plays if p[1].suit is None]
    if specials:
        return specials[0]
    trumps = [p for p in plays if p[1].is_trump]
    if trumps:
        return max(trumps, key=lambda p: p[1].rank)
    led = plays[0][1].suit
    return max((p for p in plays if p[1].suit == led), key=lambda p: p[1].rank)


@dataclass
class SimpleView:
    """A plain in-memory :class:`View`. Build one by hand or with :meth:`from_plays`."""

    deck: Deck
    n_players: int = 4
    commander_seat: int | None = 0
    dealer_seat: int | None = None
    role_seats: dict[str, int | None] = field(default_factory=dict)
    game_mode: str | None = None
    completed: list[SimpleTrick] = field(default_factory=list)
    total: int = 10
    hands: dict[int, list[Card]] = field(default_factory=dict)
    current: list[tuple[int, Card]] = field(default_factory=list)
    task_list: list[SimpleTask] = field(default_factory=list)

    @classmethod
    def from_plays(
        cls,
        deck: Deck,
        tricks: Iterable[Sequence[str]],
        *,
        n_players: int = 4,
        leader: int = 0,
        total: int | None = None,
        hands: Mapping[int, Iterable[str]] | None = None,
        current: Iterable[str] = (),
        tasks: Iterable[tuple[str, int | None, str | None]] = (),
        **kwargs: object,
    ) -> SimpleView:
        """Play whole tricks given as card strings in playing order; the first is led by ``leader``,
        each later one by the previous winner (standard winner rules: :func:`trick_winner`).

        ``current`` are the cards of the trick in progress; ``tasks`` are ``(card, owner, token)``: a
        task is done when its owner won its card.
        """
        done: list[SimpleTrick] = []
        lead = leader
        for i, names in enumerate(tricks, start=1):
            cards = [deck.card(n) for n in names]
            plays = tuple(((lead + k) % n_players, c) for k, c in enumerate(cards))
            seat, win = trick_winner(plays)
            done.append(SimpleTrick(i, lead, plays, seat, win, cards[0].suit if cards else None))
            lead = seat
        cur_cards = [deck.card(n) for n in current]
        cur = [((lead + k) % n_players, c) for k, c in enumerate(cur_cards)]
        view = cls(
            deck=deck,
            n_players=n_players,
            completed=done,
            total=total if total is not None else max(len(deck) // n_players, len(done)),
            hands={s: [deck.card(n) for n in cs] for s, cs in (hands or {}).items()},
            current=cur,
            **kwargs,  # type: ignore[arg-type]
        )
        task_objs = []
        for name, owner, token in tasks:
            card = deck.card(name)
            t = view.trick_of(card)
            ok = t is not None and owner is not None and t.winner == owner
            task_objs.append(SimpleTask(card, owner, token, ok, t.number if ok and t is not None else None))
        view.task_list = task_objs
        return view

    # --- View protocol
    def seats(self) -> Sequence[int]:
        return tuple(range(self.n_players))

    def commander(self) -> int | None:
        return self.commander_seat

    def dealer(self) -> int | None:
        return self.dealer_seat

    def roles(self) -> Mapping[str, int | None]:
        return self.role_seats

    def mode(self) -> str | None:
        return self.game_mode

    def tricks(self) -> Sequence[SimpleTrick]:
        return self.completed

    def total_tricks(self) -> int:
        return self.total

    def tricks_won(self, seat: int) -> int:
        return sum(1 for t in self.completed if t.winner == seat)

    def won_cards(self, seat: int) -> Sequence[Card]:
        return [c for t in self.completed if t.winner == seat for _, c in t.plays]

    def hand(self, seat: int) -> Sequence[Card]:
        return self.hands.get(seat, [])

    def current_plays(self) -> Sequence[tuple[int, Card]]:
        return self.current

    def trick_of(self, card: Card) -> SimpleTrick | None:
        for t in self.completed:
            for _, c in t.plays:
                if c == card:
                    return t
        return None

    def tasks(self) -> Sequence[SimpleTask]:
        return self.task_list

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n_players

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self.n_players
