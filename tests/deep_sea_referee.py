"""An independent referee for Mission Deep Sea's task cards: each card's words written again, plainly, as a test
of a finished game's tricks, with the table rules (follow the suit led, submarines are trumps, the captain holds
submarine 4 and leads first, the winner of a trick leads the next) written again too.

Nothing of the engine is used: no condition language, no task-card deck, no trick block. A game is given as the
players' hands (``B3``: blue 3; ``S2``: submarine 2) and the cards played in order; the referee works out who
played each card, who won each trick and who led it, then judges the card's objective on the whole game. A game
the engine ended early (the card certain to be fulfilled or to fail before the hands ran out) is played to its
end in every way when few cards are left, else in many random legal ways, and the verdict must be the same in
each: a card the engine calls fulfilled that some legal end of the game fails is a disagreement.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Card = tuple[str, int]  # (suit letter, rank): B G Y P colours, S submarines
COLOURS = "BGYP"


def card(name: str) -> Card:
    return name[0], int(name[1:])


@dataclass(frozen=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def cards(self) -> list[Card]:
        return [c for _, c in self.plays]

    @property
    def winning_card(self) -> Card:
        return next(c for s, c in self.plays if s == self.winner)


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The highest submarine, else the highest card of the suit led."""
    led = plays[0][1][0]
    subs = [(c[1], s) for s, c in plays if c[0] == "S"]
    if subs:
        return max(subs)[1]
    return max((c[1], s) for s, c in plays if c[0] == led)[1]


def legal(hand: Sequence[Card], trick: Sequence[tuple[int, Card]]) -> list[Card]:
    if not trick:
        return list(hand)
    follow = [c for c in hand if c[0] == trick[0][1][0]]
    return follow or list(hand)


@dataclass
class Position:
    """The table after some plays: hands left, tricks done, the trick in progress."""

    n: int
    hands: list[list[Card]]
    tricks: list[Trick]
    current: list[tuple[int, Card]]
    to_play: int

    def play(self, c: Card) -> None:
        hand = self.hands[self.to_play]
        assert c in legal(hand, self.current), (self.to_play, c, hand, self.current)  # the script is legal
        hand.remove(c)
        self.current.append((self.to_play, c))
        if len(self.current) == self.n:
            winner = trick_winner(self.current)
            self.tricks.append(Trick(self.current[0][0], tuple(self.current), winner))
            self.current = []
            self.to_play = winner
        else:
            self.to_play = (self.to_play + 1) % self.n

    def over(self) -> bool:  # with 3 players one hand has a card more, never played
        return not self.current and not all(self.hands)

    def copy(self) -> Position:
        return Position(self.n, [list(h) for h in self.hands], list(self.tricks), list(self.current), self.to_play)


def start(hands: Sequence[str]) -> Position:
    cards = [[card(c) for c in h.split()] for h in hands]
    captain = next(s for s, h in enumerate(cards) if ("S", 4) in h)
    return Position(len(cards), cards, [], [], captain)


def replay(hands: Sequence[str], plays: str) -> Position:
    pos = start(hands)
    for name in plays.split():
        pos.play(card(name))
    return pos


# ---------------------------------------------------------------------------- the cards, from their words
@dataclass(frozen=True)
class Game:
    """A finished game as the objective reads it."""

    n: int
    tricks: tuple[Trick, ...]
    owner: int
    captain: int
    number: int | None

    def won_by(self, seat: int) -> list[Trick]:
        return [t for t in self.tricks if t.winner == seat]

    def count(self, seat: int) -> int:
        return len(self.won_by(seat))

    @property
    def mine(self) -> list[Trick]:
        return self.won_by(self.owner)

    @property
    def cards(self) -> list[Card]:
        return [c for t in self.mine for c in t.cards]

    def has(self, *names: str) -> bool:
        return all(card(n) in self.cards for n in names)

    def of_rank(self, rank: int) -> int:  # colour cards only: a number on a card means the colour cards
        return sum(1 for s, r in self.cards if r == rank and s != "S")

    def of_suit(self, suit: str) -> int:
        return sum(1 for s, _ in self.cards if s == suit)

    def wins(self, index: int) -> bool:
        return self.tricks[index].winner == self.owner

    def runs(self) -> list[int]:
        """Lengths of the owner's runs of consecutive tricks won."""
        return [len(list(g)) for won, g in itertools.groupby(t.winner == self.owner for t in self.tricks) if won]

    def others(self) -> list[int]:
        return [s for s in range(self.n) if s != self.owner]


def _won_with(rank: int) -> Callable[[Game], bool]:
    return lambda g: any(t.winning_card[0] != "S" and t.winning_card[1] == rank for t in g.mine)


def _holding_with(held: int, winning: int) -> Callable[[Game], bool]:
    """A trick that holds a colour ``held`` (another card than the winning one), won with a colour ``winning``."""
    def judge(g: Game) -> bool:
        for t in g.mine:
            w = t.winning_card
            if w[0] != "S" and w[1] == winning and any(c != w and c[0] != "S" and c[1] == held for c in t.cards):
                return True
        return False
    return judge


def _every(test: Callable[[Card], bool]) -> Callable[[Game], bool]:
    return lambda g: any(all(test(c) for c in t.cards) for t in g.mine)


def _sum(test: Callable[[int, int], bool]) -> Callable[[Game], bool]:
    return lambda g: any(test(sum(r for _, r in t.cards), g.n) for t in g.mine)


def _with_submarine(name: str) -> Callable[[Game], bool]:
    return lambda g: any(card(name) in t.cards and t.winning_card[0] == "S" for t in g.mine)


def _never_lead(suits: str) -> Callable[[Game], bool]:
    return lambda g: not any(t.leader == g.owner and t.plays[0][1][0] in suits for t in g.tricks)


def _balanced_trick(a: str, b: str) -> Callable[[Game], bool]:
    """As many cards of suit ``a`` as of ``b`` in a trick won, at least one of each (the card's footnote)."""
    return lambda g: any(sum(c[0] == a for c in t.cards) == sum(c[0] == b for c in t.cards) >= 1 for t in g.mine)


def _subs(g: Game) -> list[int]:
    return sorted(r for s, r in g.cards if s == "S")


OBJECTIVES: dict[str, Callable[[Game], bool]] = {
    "more-tricks-than-anyone": lambda g: all(g.count(g.owner) > g.count(p) for p in g.others()),
    "more-tricks-than-all-others": lambda g: g.count(g.owner) > sum(g.count(p) for p in g.others()),
    "fewer-tricks-than-anyone": lambda g: all(g.count(g.owner) < g.count(p) for p in g.others()),
    "more-tricks-than-captain": lambda g: g.count(g.owner) > g.count(g.captain),
    "fewer-tricks-than-captain": lambda g: g.count(g.owner) < g.count(g.captain),
    "as-many-tricks-as-captain": lambda g: g.count(g.owner) == g.count(g.captain),
    "trick-all-below-7": _every(lambda c: c[1] < 7),
    "trick-all-above-5": _every(lambda c: c[1] > 5),
    "win-with-a-6": _won_with(6),
    "win-with-a-5": _won_with(5),
    "win-with-a-3": _won_with(3),
    "win-a-5-with-a-7": _holding_with(5, 7),
    "win-an-8-with-a-4": _holding_with(8, 4),
    "win-a-6-with-a-6": _holding_with(6, 6),
    "win-with-a-2": _won_with(2),
    "win-pink-3": lambda g: g.has("P3"),
    "win-yellow-1": lambda g: g.has("Y1"),
    "win-blue-4": lambda g: g.has("B4"),
    "win-green-6": lambda g: g.has("G6"),
    "win-all-four-3s": lambda g: g.of_rank(3) == 4,
    "at-least-three-5s": lambda g: g.of_rank(5) >= 3,
    "at-least-three-9s": lambda g: g.of_rank(9) >= 3,
    "at-least-two-7s": lambda g: g.of_rank(7) >= 2,
    "win-all-four-9s": lambda g: g.of_rank(9) == 4,
    "exactly-three-6s": lambda g: g.of_rank(6) == 3,
    "exactly-two-9s": lambda g: g.of_rank(9) == 2,
    "win-blue-1-2-3": lambda g: g.has("B1", "B2", "B3"),
    "win-blue-6-yellow-7": lambda g: g.has("B6", "Y7"),
    "win-pink-5-yellow-6": lambda g: g.has("P5", "Y6"),
    "win-green-5-blue-8": lambda g: g.has("G5", "B8"),
    "win-blue-5-pink-8": lambda g: g.has("B5", "P8"),
    "win-pink-9-yellow-8": lambda g: g.has("P9", "Y8"),
    "win-pink-1-green-7": lambda g: g.has("P1", "G7"),
    "win-yellow-9-blue-7": lambda g: g.has("Y9", "B7"),
    "win-green-3-yellow-4-5": lambda g: g.has("G3", "Y4", "Y5"),
    "green-2-in-last-trick": lambda g: g.wins(-1) and card("G2") in g.tricks[-1].cards,
    "exactly-one-pink-one-green": lambda g: g.of_suit("P") == 1 and g.of_suit("G") == 1,
    "at-least-seven-yellow": lambda g: g.of_suit("Y") >= 7,
    "at-least-five-pink": lambda g: g.of_suit("P") >= 5,
    "exactly-two-green": lambda g: g.of_suit("G") == 2,
    "exactly-two-blue": lambda g: g.of_suit("B") == 2,
    "exactly-one-pink": lambda g: g.of_suit("P") == 1,
    "no-pink": lambda g: g.of_suit("P") == 0,
    "one-of-each-colour": lambda g: all(g.of_suit(s) >= 1 for s in COLOURS),
    "all-of-one-colour": lambda g: any(g.of_suit(s) == 9 for s in COLOURS),
    "trick-only-even": _every(lambda c: c[1] % 2 == 0),
    "trick-only-odd": _every(lambda c: c[1] % 2 == 1),
    "trick-sum-above": _sum(lambda total, n: total > {3: 23, 4: 28, 5: 31}[n]),
    "trick-sum-below": _sum(lambda total, n: total < {3: 8, 4: 12, 5: 16}[n]),
    "trick-sum-22-or-23": _sum(lambda total, n: total in (22, 23)),
    "exactly-one-submarine": lambda g: len(_subs(g)) == 1,
    "submarine-1-only": lambda g: _subs(g) == [1],
    "submarine-2-only": lambda g: _subs(g) == [2],
    "win-submarine-3": lambda g: 3 in _subs(g),
    "exactly-two-submarines": lambda g: len(_subs(g)) == 2,
    "exactly-three-submarines": lambda g: len(_subs(g)) == 3,
    "no-submarine": lambda g: not _subs(g),
    "pink-7-with-submarine": _with_submarine("P7"),
    "green-9-with-submarine": _with_submarine("G9"),
    "never-lead-pink-yellow-blue": _never_lead("PYB"),
    "never-lead-pink-green": _never_lead("PG"),
    "no-green": lambda g: g.of_suit("G") == 0,
    "no-yellow": lambda g: g.of_suit("Y") == 0,
    "no-pink-no-blue": lambda g: g.of_suit("P") == 0 and g.of_suit("B") == 0,
    "no-yellow-no-green": lambda g: g.of_suit("Y") == 0 and g.of_suit("G") == 0,
    "no-8-no-9": lambda g: g.of_rank(8) == 0 and g.of_rank(9) == 0,
    "no-9": lambda g: g.of_rank(9) == 0,
    "no-5": lambda g: g.of_rank(5) == 0,
    "no-1": lambda g: g.of_rank(1) == 0,
    "no-1-2-3": lambda g: g.of_rank(1) == g.of_rank(2) == g.of_rank(3) == 0,
    "none-of-first-4": lambda g: not any(g.wins(i) for i in range(4)),
    "none-of-first-3": lambda g: not any(g.wins(i) for i in range(3)),
    "none-of-first-5": lambda g: not any(g.wins(i) for i in range(5)),
    "no-tricks": lambda g: g.count(g.owner) == 0,
    "never-two-in-a-row": lambda g: all(r < 2 for r in g.runs()),
    "last-trick": lambda g: g.wins(-1),
    "first-three-tricks": lambda g: g.wins(0) and g.wins(1) and g.wins(2),
    "first-two-tricks": lambda g: g.wins(0) and g.wins(1),
    "first-trick": lambda g: g.wins(0),
    "first-and-last-trick": lambda g: g.wins(0) and g.wins(-1),
    "only-last-trick": lambda g: g.wins(-1) and g.count(g.owner) == 1,
    "only-first-trick": lambda g: g.wins(0) and g.count(g.owner) == 1,
    "exactly-one-trick": lambda g: g.count(g.owner) == 1,
    "exactly-two-tricks": lambda g: g.count(g.owner) == 2,
    "two-in-a-row": lambda g: any(r >= 2 for r in g.runs()),
    "three-in-a-row": lambda g: any(r >= 3 for r in g.runs()),
    "exactly-four-tricks": lambda g: g.count(g.owner) == 4,
    "exactly-three-in-a-row": lambda g: g.runs() == [3],
    "exactly-two-in-a-row": lambda g: g.runs() == [2],
    "predicted-tricks-shown": lambda g: g.count(g.owner) == g.number,
    "predicted-tricks-secret": lambda g: g.count(g.owner) == g.number,
    "as-many-pink-as-yellow": lambda g: g.of_suit("P") == g.of_suit("Y"),
    "green-as-yellow-in-a-trick": _balanced_trick("G", "Y"),
    "pink-as-blue-in-a-trick": _balanced_trick("P", "B"),
    "more-yellow-than-blue": lambda g: g.of_suit("Y") > g.of_suit("B"),
    "more-pink-than-green": lambda g: g.of_suit("P") > g.of_suit("G"),
}


def _finishes(pos: Position, rng: random.Random, every_below: int, samples: int) -> list[Position]:
    """Ends of the game from ``pos``: every legal one when at most ``every_below`` cards are left, else
    ``samples`` random legal ones."""
    left = sum(len(h) for h in pos.hands)
    if left <= every_below:
        out: list[Position] = []

        def walk(p: Position) -> None:
            if p.over():
                out.append(p)
                return
            for c in legal(p.hands[p.to_play], p.current):
                q = p.copy()
                q.play(c)
                walk(q)

        walk(pos)
        return out
    ends = []
    for _ in range(samples):
        p = pos.copy()
        while not p.over():
            p.play(rng.choice(legal(p.hands[p.to_play], p.current)))
        ends.append(p)
    return ends


def judge(card_id: str, hands: Sequence[str], plays: str, owner: int, number: int | None,
          samples: int = 200) -> set[bool]:
    """The verdicts (True: fulfilled) of card ``card_id`` over the ends of the game the script played: one
    verdict when the script ran to the end or every end agrees, both when some legal end disagrees."""
    pos = replay(hands, plays)
    captain = start(hands).to_play
    objective = OBJECTIVES[card_id]
    ends = _finishes(pos, random.Random(f"{card_id}:{plays}"), 8, samples)
    return {objective(Game(p.n, tuple(p.tricks), owner, captain, number)) for p in ends}
