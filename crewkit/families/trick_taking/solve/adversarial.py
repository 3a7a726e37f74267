"""An adversarial double-dummy search of one round of a match played in rounds (Hammer), every hand known.

The cooperative solver asks whether a crew playing together can reach one goal; a Hammer round has no such
goal. This search plays each side for itself:

- **challenge mode** (:meth:`RoundSearch.forceable`): the dealer against the other three. A position's value
  is whether the dealer can force the bet's success from it, whatever the others play: the dealer's plays are
  an OR, the others' an AND (a boolean search prunes well).
- **penalty mode** (:meth:`RoundSearch.guarantee`): every player scores for themselves, so there is no single
  opponent. A player is judged by the *paranoid* value: the most chips they can guarantee in the round if the
  other three play against them (the player maximises their own chip change, the others minimise it). With no
  shared goal, the guarantee is the part of the result a player's own plays control: what the others do can
  only give them more.

The state is compact (hands and won cards as bitmasks, the trick under way as a tuple): legal plays and the
trick's winner come from the rules kernel the engine uses (:func:`follow_mask`, :func:`trick_winner` with the
game's own tables and free-card masks), and a round's end and chip changes from the engine's own rule,
:func:`round_verdict`, evaluated on a view of the search state (the mission cards' formulas as the rule set
gives them). ``tests/solve/test_adversarial.py`` checks the values against a brute-force minimax through the
engine itself.

Search: alpha-beta (numeric values with lower/upper bounds in the table) with a transposition table; winning
plays first. The table key is the hands, the trick under way, each seat's won cards and the sequence of trick
winners: the round's scoring reads the past through who won which cards and which tricks (every Hammer
mission card does). A node budget bounds each question: a position not decided within it is undecided
(None), never guessed. Table entries are stored only for nodes searched to the end, so they stay valid
after a search runs out of budget and are reused by later questions on the same round.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from crewkit.cards import Card, mask_ids
from crewkit.families.trick_taking.engine.blocks.rounds import match_of, round_verdict
from crewkit.families.trick_taking.engine.blocks.tricks import Play, fast_tables
from crewkit.families.trick_taking.engine.game import TRICKS, Game, Trick
from crewkit.families.trick_taking.engine.kernel import follow_mask, trick_winner

#: the default budget of one question, in searched nodes (plays)
MAX_NODES = 200_000

Value = Fraction | int
#: below the smallest difference of two chip values (thirds at the finest: a share of three other players)
EPSILON = Fraction(1, 1_000_000)


class BudgetExceeded(Exception):
    """The question's node budget ran out: its answer is undecided."""


class _View:
    """The engine's view surface (``crewkit.dsl.view.View``) over the search state, for the mission formulas."""

    __slots__ = ("_s", "deck")

    def __init__(self, search: RoundSearch) -> None:
        self._s = search
        self.deck = search.deck

    def seats(self) -> Sequence[int]:
        return range(self._s.n)

    def commander(self) -> int | None:
        return self._s.dealer

    def dealer(self) -> int | None:
        return self._s.dealer

    def role(self, name: str) -> int | None:
        return None

    def roles(self) -> dict[str, int | None]:
        return {}

    def trick_of(self, card: Card) -> Trick | None:
        return self._s.card_trick.get(card.id)

    def mode(self) -> str | None:
        return self._s.mode

    def tricks(self) -> Sequence[Trick]:
        return self._s.tricks

    def total_tricks(self) -> int:
        return self._s.total

    def tricks_won(self, seat: int) -> int:
        return self._s.tricks_won[seat]

    def won_cards(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._s.won[seat])

    def hand(self, seat: int) -> Sequence[Card]:
        return self.deck.from_mask(self._s.hands[seat])

    def current_plays(self) -> Sequence[tuple[int, Card]]:
        cards = self._s.cards
        return [(s, cards[c]) for s, c in self._s.plays]

    def tasks(self) -> Sequence[Any]:
        return ()

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self._s.n

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self._s.n


def sum_masks(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


_CARD = r"\b({suits})\s+(\d+)\b"
_RANK = re.compile(r"\brank\s*==\s*(\d+)|\bcards_of_rank\s*\(\s*(\d+)\s*\)")
_SUIT_WORDS = frozenset("if else cards_won won_by cards_of c suit count".split())


def card_classes(texts: Sequence[str], cards: Sequence[Card], suits: Sequence[str]) -> list[int] | None:
    """Which cards the round's scoring formulas can tell apart, read from their texts (conservatively): a class
    per card (two cards of one suit and class, next to each other among the cards left, are equivalent in the
    search), or None when the texts read cards in a way this reading does not know (no merging then).

    Known: words that cannot tell two cards of one suit apart (the cooperative solver's list, suits, who won
    which card), a card named (``blue 7``: a class of its own) and a rank compared for equality (``c.rank == 5``,
    ``cards_of_rank(5)``: that rank's cards in their own class)."""
    from crewkit.families.trick_taking.solve.scope import conditions_merge_safe

    named: set[tuple[str, int]] = set()
    ranks: set[int] = set()
    card_re = re.compile(_CARD.format(suits="|".join(re.escape(s) for s in suits)))
    rest = []
    for text in texts:
        named |= {(m.group(1), int(m.group(2))) for m in card_re.finditer(text)}
        text = card_re.sub(" ", text)
        ranks |= {int(m.group(1) or m.group(2)) for m in _RANK.finditer(text)}
        rest.append(_RANK.sub(" ", text))
    if not conditions_merge_safe(rest, [*_SUIT_WORDS, *suits]):
        return None
    out = []
    for c in cards:
        if c.suit is not None and (c.suit.name, c.rank) in named:
            out.append(1000 + c.id)
        elif c.rank in ranks:
            out.append(1)
        else:
            out.append(0)
    return out


def in_round(game: Game) -> bool:
    """Whether ``game`` is a position this search judges: a match's round with its tricks under way."""
    m = match_of(game)
    return m is not None and m.round_mission is not None and game.phase == TRICKS and not game.is_over()


class RoundSearch:
    """Questions on the positions of one round of a match (the same round: the tables are shared)."""

    def __init__(self, game: Game) -> None:
        if not in_round(game):
            raise ValueError("not a position of a round's tricks")
        m = match_of(game)
        assert m is not None and m.round_mission is not None
        rules = game.rules
        self.deck = rules.deck
        self.cards: tuple[Card, ...] = self.deck.cards
        self.n = game.n
        self.dealer: int = game.dealer  # type: ignore[assignment]
        self.mode = game.mode
        self.mission = m.round_mission
        self.scoring = game.scoring
        self.total = game.total_tricks
        self.strengths = fast_tables(rules).strengths
        self.suit_masks = rules.suit_masks if rules.must_follow else tuple(0 for _ in rules.suit_masks)
        self.next_card = rules.special_lead == "next-card"
        self.suit_of = tuple(c.suit.index if c.suit is not None else -1 for c in self.cards)
        self.free, self.not_first, self.not_last = game._free_mask, game._free_not_first, game._free_not_last
        self.view = _View(self)
        self.history = [[0] * len(self.cards) for _ in range(self.n)]  # cut-offs by seat and card: tried first
        self.classes = card_classes(self.mission.texts, self.cards, [x.name for x in self.deck.suits])
        self.higher = tuple(tuple(sorted((d.id for d in self.cards if d.suit is not None and d.suit == c.suit
                                          and d.rank > c.rank), key=lambda i: self.cards[i].rank))
                            for c in self.cards)
        self.nodes = 0
        self.limit = 0
        self.deadline: float | None = None  # perf_counter() time after which every question is undecided
        self.forced: dict[tuple[Any, ...], bool] = {}  # challenge: can the dealer force success?
        self.bounds: dict[int, dict[tuple[Any, ...], tuple[Value | None, Value | None]]] = {}
        self.round = m.round
        self.load(game)

    # -- the state ----------------------------------------------------------------------------------------

    def load(self, game: Game) -> None:
        """Set the search state to ``game``'s position (a position of the same round)."""
        if not in_round(game) or match_of(game).round != self.round:  # type: ignore[union-attr]
            raise ValueError("not a position of this round's tricks")
        self.hands = list(game.hands)
        self.plays: tuple[tuple[int, int], ...] = tuple((s, c.id) for s, c in game.plays)
        self.led = game.led_suit.index if game.led_suit is not None else -1
        self.turn: int = game.turn
        self.tricks: list[Trick] = list(game.tricks)
        self.winners: tuple[int, ...] = tuple(t.winner for t in game.tricks)
        self.won = list(game.won)
        self.tricks_won = list(game.tricks_won)
        self.card_trick: dict[int, Trick] = dict(game.card_trick)

    def key(self) -> tuple[Any, ...]:
        return (*self.hands, self.plays, self.winners, *self.won)

    def legal(self) -> int:
        """The legal plays of the seat to play, as a mask (the engine's ``legal_play_mask`` on this state)."""
        hand = self.hands[self.turn]
        legal = follow_mask(hand, self.suit_masks[self.led] if self.led >= 0 else 0, self.free)
        if self.free:
            number = len(self.tricks) + 1
            forbidden = (self.not_first if number == 1 else 0) | (self.not_last if number == self.total else 0)
            if forbidden and legal & ~forbidden:
                legal &= ~forbidden
        return legal

    def ordered(self, legal: int) -> list[int]:
        """The legal card ids, plays that would win the trick now first (strongest first), then the lowest;
        of equivalent cards (see :func:`card_classes`) only the highest."""
        ids = mask_ids(legal)
        if self.classes is not None:
            present = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3] if self.n == 4 else \
                sum_masks(self.hands)
            for _, c in self.plays:
                present |= 1 << c
            hand = self.hands[self.turn]
            cls = self.classes
            kept = []
            for c in ids:
                for h in self.higher[c]:
                    if present >> h & 1:
                        if hand >> h & 1 and cls[h] == cls[c]:
                            break  # an equivalent higher card of the same hand stands for c
                        kept.append(c)
                        break
                else:
                    kept.append(c)
            ids = kept
        if not self.plays:
            return sorted(ids, key=lambda c: -self.cards[c].rank)
        row = self.strengths[self.led + 1] if self.led >= 0 else None
        best = max((row[c] if row is not None else 0) for _, c in self.plays) if row is not None else 0

        def rank(c: int) -> tuple[int, int]:
            if self.suit_of[c] < 0:
                return (0, 0)
            s = row[c] if row is not None else 0
            return (0, -s) if s > best else (1, self.cards[c].rank)

        return sorted(ids, key=rank)

    def play(self, cid: int) -> tuple[Any, ...]:
        """Play ``cid`` for the seat to play; returns what :meth:`undo` needs (the state before), and sets
        :attr:`verdict` to the round's settlement if this play ended it."""
        saved = (self.plays, self.led, self.turn)
        seat = self.turn
        self.hands[seat] &= ~(1 << cid)
        leads = not self.plays
        self.plays = (*self.plays, (seat, cid))
        if self.led < 0 and self.suit_of[cid] >= 0 and (leads or self.next_card):
            self.led = self.suit_of[cid]
        self.verdict: tuple[str, str, list[Fraction]] | None = None
        if len(self.plays) < self.n:
            self.turn = (seat + 1) % self.n
            return saved
        plays = self.plays
        w = trick_winner([c for _, c in plays], self.strengths[self.led + 1])
        winner, wcard = plays[w]
        cards = self.cards
        number = len(self.tricks) + 1
        trick = Trick(number, plays[0][0], tuple((s, cards[c]) for s, c in plays), winner, cards[wcard],
                      self.deck.suits[self.led] if self.led >= 0 else None)
        mask = 0
        for _, c in plays:
            mask |= 1 << c
            self.card_trick[c] = trick
        self.tricks.append(trick)
        self.winners = (*self.winners, winner)
        self.won[winner] |= mask
        self.tricks_won[winner] += 1
        self.plays, self.led, self.turn = (), -1, winner
        self.verdict = round_verdict(self.scoring, self.mission, self.mode, self.view, number, self.total, self.n,
                                     self.dealer)
        return saved

    def undo(self, cid: int, saved: tuple[Any, ...]) -> None:
        plays, led, turn = saved
        seat = turn
        if not self.plays:  # the play ended a trick: take it back
            trick = self.tricks.pop()
            self.winners = self.winners[:-1]
            mask = 0
            for _, c in trick.plays:
                mask |= c.bit
                del self.card_trick[c.id]
            self.won[trick.winner] &= ~mask
            self.tricks_won[trick.winner] -= 1
        self.hands[seat] |= 1 << cid
        self.plays, self.led, self.turn = plays, led, turn

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise BudgetExceeded
        if self.deadline is not None and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise BudgetExceeded

    # -- challenge: can the dealer force the bet's success? -------------------------------------------------

    def forceable(self, game: Game | None = None, max_nodes: int = MAX_NODES) -> bool | None:
        """Whether the dealer can force the challenge's success from ``game``'s position (default: the loaded
        one) whatever the others play; None when the budget ran out first."""
        if self.mode != "challenge":
            raise ValueError("forceable() judges a challenge round")
        if game is not None:
            self.load(game)
        self.limit = self.nodes + max_nodes
        try:
            return self._force()
        except BudgetExceeded:
            return None

    def _force(self) -> bool:
        key = self.key()
        hit = self.forced.get(key)
        if hit is not None:
            return hit
        self._count()
        dealer_moves = self.turn == self.dealer
        result = not dealer_moves
        hist = self.history[self.turn]
        moves = self.ordered(self.legal())
        moves.sort(key=lambda c: -hist[c])
        for cid in moves:
            saved = self.play(cid)
            try:
                v = self.verdict[0] == "success" if self.verdict is not None else self._force()
            finally:
                self.undo(cid, saved)
            if v == dealer_moves:
                result = v
                hist[cid] += 1
                break
        self.forced[key] = result
        return result

    # -- penalty: the chips a player can guarantee --------------------------------------------------------

    def guarantee(self, seat: int, game: Game | None = None, max_nodes: int = MAX_NODES) -> Value | None:
        """The most chips ``seat`` can guarantee in the round from ``game``'s position (default: the loaded one)
        if the other three play against it (the paranoid value); None when the budget ran out first."""
        if game is not None:
            self.load(game)
        self.limit = self.nodes + max_nodes
        try:
            return self._mtd(seat)
        except BudgetExceeded:
            return None

    def _mtd(self, seat: int) -> Value:
        """MTD(f): null-window tests ("at least v?") that close in on the value, the table keeping the bounds
        each test proved (far fewer nodes than one search with an open window)."""
        lo: Value | None = None
        hi: Value | None = None
        guess: Value = 0
        while lo is None or hi is None or lo < hi:
            beta = guess if lo is None or guess > lo else lo + EPSILON
            guess = self._value(seat, beta - EPSILON, beta)
            if guess < beta:
                hi = guess
            else:
                lo = guess
            if lo is not None and hi is not None and lo >= hi:
                break
        assert lo is not None
        return lo

    def at_least(self, seat: int, target: Value, game: Game | None = None,
                 max_nodes: int = MAX_NODES) -> bool | None:
        """Whether ``seat`` can guarantee at least ``target`` chips from the position; None: undecided."""
        if game is not None:
            self.load(game)
        self.limit = self.nodes + max_nodes
        try:
            return self._value(seat, target - EPSILON, target) >= target
        except BudgetExceeded:
            return None

    def _leaf(self, seat: int) -> Value:
        assert self.verdict is not None
        d = self.verdict[2][seat]
        return int(d) if d.denominator == 1 else d

    def _value(self, seat: int, alpha: Value | None, beta: Value | None) -> Value:
        """Fail-soft alpha-beta on ``seat``'s chip change (None: an open bound)."""
        table = self.bounds.setdefault(seat, {})
        key = self.key()
        lo, hi = table.get(key, (None, None))
        if lo is not None and hi is not None and lo == hi:
            return lo
        if lo is not None and beta is not None and lo >= beta:
            return lo
        if hi is not None and alpha is not None and hi <= alpha:
            return hi
        a = alpha if lo is None or (alpha is not None and alpha >= lo) else lo
        b = beta if hi is None or (beta is not None and beta <= hi) else hi
        a0, b0 = a, b
        self._count()
        maximise = self.turn == seat
        best: Value | None = None
        hist = self.history[self.turn]
        moves = self.ordered(self.legal())
        moves.sort(key=lambda c: -hist[c])
        for cid in moves:
            saved = self.play(cid)
            try:
                v = self._leaf(seat) if self.verdict is not None else self._value(seat, a, b)
            finally:
                self.undo(cid, saved)
            if maximise:
                if best is None or v > best:
                    best = v
                if a is None or v > a:
                    a = v
            else:
                if best is None or v < best:
                    best = v
                if b is None or v < b:
                    b = v
            if a is not None and b is not None and a >= b:
                hist[cid] += 1
                break
        assert best is not None  # a seat to play always has a card
        if a0 is not None and best <= a0:
            table[key] = (lo, best)
        elif b0 is not None and best >= b0:
            table[key] = (best, hi)
        else:
            table[key] = (best, best)
        return best

    # -- lines ------------------------------------------------------------------------------------------------

    def forcing_play(self, max_nodes: int = MAX_NODES) -> tuple[int | None, bool]:
        """At a dealer's turn of a position the dealer can force: a play that keeps it forceable (None: none
        decided within the budget) and whether every play was decided."""
        for cid in self.ordered(self.legal()):
            saved = self.play(cid)
            try:
                if self.verdict is not None:
                    ok: bool | None = self.verdict[0] == "success"
                else:
                    self.limit = self.nodes + max_nodes
                    try:
                        ok = self._force()
                    except BudgetExceeded:
                        ok = None
            finally:
                self.undo(cid, saved)
            if ok:
                return cid, True
        return None, False

    def forcing_line(self, max_nodes: int = MAX_NODES) -> list[Play]:
        """From a forceable position (the loaded one): the dealer's forcing plays against the others' plays
        (each the first in the search's order), to the round's end; shorter if the budget ran out."""
        line: list[Play] = []
        stack: list[tuple[int, tuple[Any, ...]]] = []
        try:
            while True:
                seat = self.turn
                if seat == self.dealer:
                    cid, _ = self.forcing_play(max_nodes)
                    if cid is None:
                        break
                else:
                    cid = self.ordered(self.legal())[0]
                line.append(Play(seat, self.cards[cid]))
                stack.append((cid, self.play(cid)))
                if self.verdict is not None:
                    break
        finally:
            for cid, saved in reversed(stack):
                self.undo(cid, saved)
        return line

    def keeping_play(self, seat: int, target: Value, max_nodes: int = MAX_NODES) -> int | None:
        """At ``seat``'s turn: a play after which ``seat`` still guarantees ``target`` (None: none decided)."""
        for cid in self.ordered(self.legal()):
            saved = self.play(cid)
            try:
                if self.verdict is not None:
                    ok: bool | None = self._leaf(seat) >= target
                else:
                    self.limit = self.nodes + max_nodes
                    try:
                        ok = self._value(seat, target - EPSILON, target) >= target
                    except BudgetExceeded:
                        ok = None
            finally:
                self.undo(cid, saved)
            if ok:
                return cid
        return None
