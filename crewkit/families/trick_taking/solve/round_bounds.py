"""Quick bounds on a player's chips in a penalty round, from the tricks and cards left (the adversarial search's
pruning, :mod:`crewkit.families.trick_taking.solve.adversarial` and its C twin).

The mission card's penalty formula is read, where it has this shape, as a sum over the round: a constant, a
weight per card the player won (``count(c in cards_won(p): <a test of c's suit or rank>)``, ``(k if won_by(blue
7) == p else 0)``) and a weight per trick the player won (``tricks_won(p)``, ``(k if first_trick.winner == p
else 0)``, the last trick likewise). Then a position's chips for a player lie between what the cards and tricks
already won give and what the cards and tricks left could add at best and at worst (each left card or trick
to the player, to another player, or to nobody when the round is settled early); the hidden mission's payment
is added where it can still be achieved (a test of ``tricks_won(p) == total_tricks`` or ``all(c in <cards>:
won_by(c) == p)``: not once another player took a trick or one of those cards; any other test: always). A
formula of any other shape, the hidden payment that *replaces* the score, or a challenge: no bounds (the
search is exact without them, only slower).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from crewkit.cards import Card, Deck
from crewkit.dsl import ast as A


@dataclass(frozen=True)
class Linear:
    """A player's score as const + sum of card weights (cards they won) + trick weights (tricks they won)."""

    const: int
    cards: tuple[int, ...]  # per card id
    tricks: tuple[int, ...]  # per trick (0-based)

    def plus(self, o: Linear, sign: int = 1) -> Linear:
        return Linear(self.const + sign * o.const, tuple(a + sign * b for a, b in zip(self.cards, o.cards, strict=True)),
                      tuple(a + sign * b for a, b in zip(self.tricks, o.tricks, strict=True)))

    def times(self, k: int) -> Linear:
        return Linear(self.const * k, tuple(a * k for a in self.cards), tuple(a * k for a in self.tricks))

    @property
    def constant(self) -> bool:
        return not any(self.cards) and not any(self.tricks)


class _Shape(Exception):
    """The formula is not of the shape read."""


@dataclass(frozen=True)
class Bounds:
    """What :func:`bounds_model` read: the score, and which cards' capture (or every trick) the hidden mission
    needs (``hidden``: 0 no hidden mission, 1 every trick, 2 every card of ``hidden_cards``, 3 unknown)."""

    score: Linear
    hidden: int
    hidden_cards: int

    @cached_property
    def card_items(self) -> list[tuple[int, int]]:
        return [(c, w) for c, w in enumerate(self.score.cards) if w]

    @cached_property
    def trick_items(self) -> list[tuple[int, int]]:
        return [(t, w) for t, w in enumerate(self.score.tricks) if w]


def bounds_model(mission: Any, deck: Deck, total: int, mode: str | None, hidden_payment: str) -> Bounds | None:
    """The model of ``mission``'s penalty scoring the bounds read, or None (no bounds)."""
    trees: tuple[Any, ...] = getattr(mission, "trees", ())
    if mode == "challenge" or len(trees) != 5 or trees[0] is None:
        return None
    score_tree, settled, hidden_tree = trees[0], trees[1], trees[2]
    reader = _Reader(deck.cards, total, last_ok=settled is None)
    try:
        score = reader.linear(score_tree)
    except _Shape:
        return None
    if hidden_tree is None:
        return Bounds(score, 0, 0)
    if hidden_payment != "adds":
        return None
    kind, cards = _hidden_shape(hidden_tree, deck)
    return Bounds(score, kind, cards)


class _Reader:
    def __init__(self, cards: Sequence[Card], total: int, last_ok: bool) -> None:
        self.cards = cards
        self.total = total
        self.last_ok = last_ok  # the last trick is the round's last (no early settlement)
        self.zero = Linear(0, (0,) * len(cards), (0,) * total)

    def const(self, k: int) -> Linear:
        return Linear(k, self.zero.cards, self.zero.tricks)

    def linear(self, e: A.Expr) -> Linear:
        if isinstance(e, A.Int):
            return self.const(e.value)
        if isinstance(e, A.Unary) and e.op == "-":
            return self.linear(e.operand).times(-1)
        if isinstance(e, A.Binary) and e.op in ("+", "-"):
            return self.linear(e.left).plus(self.linear(e.right), 1 if e.op == "+" else -1)
        if isinstance(e, A.Binary) and e.op == "*":
            x, y = self.linear(e.left), self.linear(e.right)
            if x.constant:
                return y.times(x.const)
            if y.constant:
                return x.times(y.const)
            raise _Shape
        if isinstance(e, A.Call) and e.func == "tricks_won" and _is_p(e.args):
            return Linear(0, self.zero.cards, (1,) * self.total)
        if (isinstance(e, A.Quant) and e.kind == "count" and isinstance(e.source, A.Call)
                and e.source.func == "cards_won" and _is_p(e.source.args)):
            return Linear(0, tuple(int(_card_test(e.body, e.var, c)) for c in self.cards), self.zero.tricks)
        if isinstance(e, A.Conditional) and isinstance(e.other, A.Int) and e.other.value == 0:
            k = self.linear(e.then)
            if not k.constant:
                raise _Shape
            return self.won_by_p(e.cond).times(k.const)
        raise _Shape

    def won_by_p(self, cond: A.Expr) -> Linear:
        """``X == p`` where X is who won a named card, the first trick or the last: 1 per such card or trick."""
        if not isinstance(cond, A.Compare) or cond.op != "==":
            raise _Shape
        x = cond.left if _is_p((cond.right,)) else cond.right if _is_p((cond.left,)) else None
        if isinstance(x, A.Call) and x.func == "won_by" and len(x.args) == 1 and isinstance(x.args[0], A.CardLit):
            lit = x.args[0]
            hits = [c.id for c in self.cards if c.suit is not None and c.suit.name == lit.suit and c.rank == lit.rank]
            if len(hits) != 1:
                raise _Shape
            cards = [0] * len(self.cards)
            cards[hits[0]] = 1
            return Linear(0, tuple(cards), self.zero.tricks)
        if isinstance(x, A.Field) and x.name == "winner" and isinstance(x.obj, A.Name):
            tricks = [0] * self.total
            if x.obj.name == "first_trick":
                tricks[0] = 1
            elif x.obj.name == "last_trick" and self.last_ok:
                tricks[-1] = 1
            else:
                raise _Shape
            return Linear(0, self.zero.cards, tuple(tricks))
        raise _Shape


def _is_p(args: Sequence[A.Expr]) -> bool:
    return len(args) == 1 and isinstance(args[0], A.Name) and args[0].name == "p"


def _card_test(e: A.Expr, var: str, card: Card) -> bool:
    """A test of the card ``var`` by its suit or rank only (and, or, not of comparisons), for ``card``."""
    if isinstance(e, A.Binary) and e.op in ("and", "or"):
        x, y = _card_test(e.left, var, card), _card_test(e.right, var, card)
        return (x and y) if e.op == "and" else (x or y)
    if isinstance(e, A.Unary) and e.op == "not":
        return not _card_test(e.operand, var, card)
    if isinstance(e, A.Compare) and e.op in ("==", "!="):
        left, right = e.left, e.right
        if not (isinstance(left, A.Field) and isinstance(left.obj, A.Name) and left.obj.name == var):
            left, right = right, left
        if not (isinstance(left, A.Field) and isinstance(left.obj, A.Name) and left.obj.name == var):
            raise _Shape
        if left.name == "suit" and isinstance(right, A.Name):
            same = card.suit is not None and card.suit.name == right.name  # a suitless card's suit is none
        elif left.name == "rank" and isinstance(right, A.Int):
            same = card.rank == right.value
        else:
            raise _Shape
        return same if e.op == "==" else not same
    raise _Shape


def _hidden_shape(e: A.Expr, deck: Deck) -> tuple[int, int]:
    """(kind, cards) of a hidden mission's test (see :class:`Bounds`)."""
    if (isinstance(e, A.Compare) and e.op == "==" and isinstance(e.left, A.Call) and e.left.func == "tricks_won"
            and _is_p(e.left.args) and isinstance(e.right, A.Name) and e.right.name == "total_tricks"):
        return 1, 0
    if (isinstance(e, A.Quant) and e.kind == "all" and isinstance(e.source, A.Call) and len(e.source.args) == 1
            and isinstance(e.body, A.Compare) and e.body.op == "=="):
        body, src, arg = e.body, e.source, e.source.args[0]
        won = body.left if _is_p((body.right,)) else None
        if (isinstance(won, A.Call) and won.func == "won_by" and len(won.args) == 1
                and isinstance(won.args[0], A.Name) and won.args[0].name == e.var):
            cards = 0
            if src.func == "cards_of" and isinstance(arg, A.Name) and deck.has_suit(arg.name):
                suit = deck.suit(arg.name)
                cards = sum(c.bit for c in deck.cards if c.suit == suit)
            elif src.func == "cards_of_rank" and isinstance(arg, A.Int):
                cards = sum(c.bit for c in deck.cards if c.rank == arg.value)
            if cards:  # all of no card: everyone achieves it
                return 2, cards
    return 3, 0


def chip_bounds(model: Bounds, seat: int, n: int, dealer: int, scale: int, base_other: bool, hidden_pay: int,
                won: Sequence[int], winners: Sequence[int]) -> tuple[int, int]:
    """Bounds (at least, at most) on ``seat``'s chip change in the search's units at a position of the round:
    ``won`` each seat's cards, ``winners`` the tricks' winners so far."""
    other = -scale // (n - 1) if base_other else 0  # what another's score costs the seat, per chip
    sc = model.score
    lo = hi = sc.const * (scale + (n - 1) * other)
    for c, w in model.card_items:
        bit = 1 << c
        for q, mask in enumerate(won):
            if mask & bit:
                v = w * (scale if q == seat else other)
                lo += v
                hi += v
                break
        else:
            lo += min(0, w * scale, w * other)
            hi += max(0, w * scale, w * other)
    done = len(winners)
    for t, w in model.trick_items:
        if t < done:
            v = w * (scale if winners[t] == seat else other)
            lo += v
            hi += v
        else:
            lo += min(0, w * scale, w * other)
            hi += max(0, w * scale, w * other)
    if model.hidden:
        others = 0  # others who can still achieve it (of every trick, or every card of a set, at most one)
        for q in range(n):
            if q == dealer:
                continue
            if model.hidden == 1:
                possible = all(x == q for x in winners)
            elif model.hidden == 2:
                taken = 0
                for r, w in enumerate(won):
                    if r != q:
                        taken |= w
                possible = not taken & model.hidden_cards
            else:
                possible = True
            if possible:
                if q == seat:
                    hi += hidden_pay * (n - 1) * scale
                else:
                    others += 1
        lo -= hidden_pay * scale * (min(others, 1) if model.hidden in (1, 2) else others)
    return lo, hi
