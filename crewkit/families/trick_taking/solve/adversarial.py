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

Search: alpha-beta with a transposition table (boolean for the challenge; for the guarantee, MTD(f): null-window
tests "at least v?" with lower/upper bounds in the table), winning plays first, then the plays that cut the
search off before (history heuristic, a cut-off weighed by the square of the tricks left). The table key is
exact (hands, the trick under way, each seat's won cards, the sequence of trick winners: the round's scoring
reads the past through who won which cards and which tricks, as every Hammer mission card does). Where the mission's formulas cannot tell two cards of one suit
apart (:func:`card_classes` reads their texts: a named card or a rank compared for equality keeps its own class),
adjacent equal cards of one hand are tried once, and at a trick's start the key is relative (who holds the
remaining cards of each suit in rank order, with their class; how many cards of each class each seat won).

In penalty mode, where the mission's penalty formula is a sum of weights per card and per trick a player won
(:mod:`crewkit.families.trick_taking.solve.round_bounds`, every bundled mission card), a null-window test is
answered at once when the cards and tricks left cannot bring the player's chips across it.

The questions run in C when the library is there (:mod:`crewkit.families.trick_taking.solve.adversarial_native`:
the same nodes in the same order, the same answers, about 30 times faster per play), else in Python. A node
budget (and an optional deadline) bounds each question, the same plays in either: a position not decided
within it is undecided (None), never guessed. Table entries are stored only for nodes searched to the end, so they stay valid after a
search runs out of budget and are reused by later questions on the same round (the review asks about every
position of a round, from its end back to its start).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from crewkit.cards import Card, mask_ids
from crewkit.families.trick_taking.engine.blocks.rounds import match_of, round_verdict
from crewkit.families.trick_taking.engine.blocks.tricks import Play, fast_tables
from crewkit.families.trick_taking.engine.game import TRICKS, Game, Trick
from crewkit.families.trick_taking.engine.kernel import follow_mask, trick_winner
from crewkit.families.trick_taking.solve.round_bounds import bounds_model, chip_bounds
from crewkit.families.trick_taking.solve.round_view import RoundView, card_classes, sum_masks

#: the default budget of one question, in searched nodes (plays): about 5 s of the C search here (1.5-2 million
#: plays a second; the Python search, about 30 times slower, is bounded by a review's seconds first)
MAX_NODES = 10_000_000

Value = Fraction | int
Bound = Fraction | int | float  # a window's bound (a value, or a value less EPSILON)
#: the null window's width in the search's units (chips times :attr:`RoundSearch.scale`, integers when every
#: chip change is a multiple of 1/scale; any width works, a smaller one than the values' spacing is fastest)
EPSILON = 0.5


class BudgetExceeded(Exception):
    """The question's node budget ran out: its answer is undecided."""


def in_round(game: Game) -> bool:
    """Whether ``game`` is a position this search judges: a match's round with its tricks under way."""
    m = match_of(game)
    return m is not None and m.round_mission is not None and game.phase == TRICKS and not game.is_over()


class RoundSearch:
    """Questions on the positions of one round of a match (the same round: the tables are shared)."""

    def __init__(self, game: Game, native: bool | None = None) -> None:
        """``native``: None or True, the C search when crewkit has it (compiled at the first question if need be;
        a caller within :func:`crewkit.nativelib.without_waiting`, the table's first answer, gets Python until it
        is ready); False, Python only. Either way the same answers within the same budget."""
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
        self.view = RoundView(self)
        self.scale = max(1, self.n - 1)  # chip changes are shares of the other players' at the finest
        self.found: tuple[Value | None, Value | None] = (None, None)  # guarantee(): bounds of an undecided value
        self.history = [[0] * len(self.cards) for _ in range(self.n)]  # cut-offs by seat and card: tried first
        self.classes = card_classes(self.mission.texts, self.cards, [x.name for x in self.deck.suits])
        self.higher = tuple(tuple(sorted((d.id for d in self.cards if d.suit is not None and d.suit == c.suit
                                          and d.rank > c.rank), key=lambda i: self.cards[i].rank))
                            for c in self.cards)
        # the relative key (see key()): card labels, and the groups of cards the formulas cannot tell apart
        self.groups: list[int] | None = None
        self.by_suit = [sorted((c.id for c in self.cards if c.suit == suit), key=lambda i: self.cards[i].rank)
                        for suit in self.deck.suits] + [[c.id for c in self.cards if c.suit is None]]
        self.label = [0] * len(self.cards)
        self.rank_order = [c for order in self.by_suit for c in order]
        self.suit_masks_all = [sum_masks([1 << c for c in order]) for order in self.by_suit]
        self.suit_memo: dict[tuple[int, ...], tuple[int, ...]] = {}
        if self.classes is not None:
            groups: dict[tuple[int, int], int] = {}
            for c in self.cards:
                kind = (c.suit.index if c.suit is not None else 100 + c.id,
                        self.classes[c.id] if c.suit is not None else 0)
                groups[kind] = groups.get(kind, 0) | c.bit
                self.label[c.id] = self.classes[c.id] if c.suit is not None else c.id
            self.groups = list(groups.values())
        self.nodes = 0
        self.limit = 0
        self.deadline: float | None = None  # perf_counter() time after which every question is undecided
        self.forced: dict[tuple[Any, ...], bool] = {}  # challenge: can the dealer force success?
        self.bounds: dict[int, dict[tuple[Any, ...], tuple[Value | None, Value | None]]] = {}
        self.round = m.round
        self.want_native = native
        # quick bounds on a player's chips from the cards and tricks left (penalty rounds of the shape read)
        self.model = bounds_model(self.mission, self.deck, self.total, self.mode, self.scoring.hidden_payment)
        self.base_other = self.scoring.base_paid_by == "other-players"
        self._native: Any = None  # the C search (adversarial_native.NativeRound), once asked for; False: none
        self.native_why = ""
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
        if self.plays or self.groups is None:
            return (*self.hands, self.plays, self.winners, *self.won)
        # a trick's start, cards the formulas cannot tell apart: the relative key (who holds the remaining
        # cards of each suit in rank order, with their class; how many of each group each seat won)
        hands = self.hands
        memo = self.suit_memo
        rel = []
        for m in self.suit_masks_all:
            part = tuple(h & m for h in hands)
            hit = memo.get(part)
            if hit is None:
                hit = memo[part] = self._suit_pattern(part)
            rel.append(hit)
        won = [(w & g).bit_count() for w in self.won for g in self.groups]
        return (self.turn, *rel, *won, self.winners)

    def _suit_pattern(self, part: tuple[int, ...]) -> tuple[int, ...]:
        """Who holds the cards of one suit left (``part``: each hand's), in rank order, with their labels."""
        out = []
        for c in self.rank_order:
            bit = 1 << c
            for seat, h in enumerate(part):
                if h & bit:
                    out.append(seat * 4096 + self.label[c])
                    break
        return tuple(out)

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

    # -- the C search -------------------------------------------------------------------------------------

    def native(self) -> Any:
        """The C search of this round (:mod:`adversarial_native`), or None: Python searches (then
        :attr:`native_why` says why)."""
        if self._native is None:
            if self.want_native is False:
                self._native, self.native_why = False, "the Python search was asked for"
                return None
            from crewkit.families.trick_taking.solve import adversarial_native as an

            lib = an.LIBRARY.load()  # waits for a compilation, but for a caller within without_waiting
            if lib is None:
                if an.LIBRARY.ready:
                    self._native, self.native_why = False, an.LIBRARY.status()
                else:
                    self.native_why = "the C search is being compiled"
                return None
            cfg, why = an.config(self)
            if cfg is None:
                self._native, self.native_why = False, why
                return None
            try:
                self._native = an.NativeRound(lib, cfg)
            except OSError as e:
                self._native, self.native_why = False, str(e)
                return None
        return self._native or None

    def position(self) -> list[int]:
        """The loaded position in the layout the C search reads."""
        out = list(self.hands)
        out.append(len(self.plays))
        for seat, c in self.plays:
            out += [seat, c]
        out += [self.led, self.turn, len(self.tricks)]
        for t in self.tricks:
            out += [t.leader, t.winner, t.winning_card.id, len(t.plays)]
            for seat, card in t.plays:
                out += [seat, card.id]
        return out

    def _seconds(self) -> float:
        return -1.0 if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def _native_call(self, call: Any) -> Any:
        """Run a question in C; None when C cannot answer it (a formula's error there: Python from now on)."""
        from crewkit.families.trick_taking.solve import adversarial_native as an

        nat = self.native()
        if nat is None:
            return None
        before = nat.nodes
        r, v = call(nat, self.position(), max(0, self.limit - self.nodes))
        self.nodes += nat.nodes - before
        if r == an.OK:
            return v
        if r == an.ERROR:
            self._native, self.native_why = False, "a formula raised an error in the C search"
            return None
        raise BudgetExceeded

    def _test(self, seat: int, alpha: Bound | None, beta: Bound | None) -> Value:
        """``seat``'s fail-soft value in the window (:meth:`_value`), in C when it can."""
        if self.native() is not None:
            import math

            from crewkit.families.trick_taking.solve.adversarial_native import INF

            a = -INF if alpha is None else math.floor(alpha)
            b = INF if beta is None else math.ceil(beta)
            v = self._native_call(lambda nat, pos, budget: nat.value(pos, seat, a, b, budget, self._seconds()))
            if v is not None:
                return int(v)
        return self._value(seat, alpha, beta)

    def _test_force(self) -> bool:
        """:meth:`_force`, in C when it can."""
        if self.native() is not None:
            v = self._native_call(lambda nat, pos, budget: nat.force(pos, budget, self._seconds()))
            if v is not None:
                return bool(v)
        return self._force()

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
            return self._test_force()
        except BudgetExceeded:
            return None

    def _moves(self) -> list[int]:
        """The legal plays of the seat to act, the ones that caused cut-offs before for it first."""
        hist = self.history[self.turn]
        moves = self.ordered(self.legal())
        moves.sort(key=lambda c: -hist[c])
        return moves

    def _force(self) -> bool:
        key = self.key()
        hit = self.forced.get(key)
        if hit is not None:
            return hit
        self._count()
        dealer_moves = self.turn == self.dealer
        result = not dealer_moves
        hist = self.history[self.turn]  # a play that cuts off counts for this seat
        moves = self._moves()
        for cid in moves:
            saved = self.play(cid)
            try:
                v = self.verdict[0] == "success" if self.verdict is not None else self._force()
            finally:
                self.undo(cid, saved)
            if v == dealer_moves:
                result = v
                hist[cid] += (self.total - len(self.tricks)) ** 2  # a cut-off higher up weighs more
                break
        self.forced[key] = result
        return result

    # -- penalty: the chips a player can guarantee --------------------------------------------------------

    def guarantee(self, seat: int, game: Game | None = None, max_nodes: int = MAX_NODES,
                  guess: Value = 0) -> Value | None:
        """The most chips ``seat`` can guarantee in the round from ``game``'s position (default: the loaded one)
        if the other three play against it (the paranoid value); None when the budget ran out first (then
        :attr:`found` holds the bounds its tests proved, at least / at most, None where unknown). ``guess``:
        where the search starts looking (a neighbouring position's value saves tests)."""
        if game is not None:
            self.load(game)
        self.limit = self.nodes + max_nodes
        self.found = (None, None)
        try:
            return self._chips(self._mtd(seat, self._units(guess)))
        except BudgetExceeded:
            lo, hi = self.found
            self.found = (None if lo is None else self._chips(lo), None if hi is None else self._chips(hi))
            return None

    def _units(self, chips: Value) -> Value:
        """Chips in the search's units (integers where the chip changes are multiples of 1/scale: fast)."""
        v = Fraction(chips) * self.scale
        return v.numerator if v.denominator == 1 else v

    def _chips(self, units: Value) -> Value:
        v = Fraction(units) / self.scale
        return v.numerator if v.denominator == 1 else v

    def _mtd(self, seat: int, guess: Value) -> Value:
        """MTD(f): null-window tests ("at least v?") that close in on the value, the table keeping the bounds
        each test proved (far fewer nodes than one search with an open window)."""
        lo: Value | None = None
        hi: Value | None = None
        while lo is None or hi is None or lo < hi:
            beta = guess if lo is None or guess > lo else lo + EPSILON
            guess = self._test(seat, beta - EPSILON, beta)
            if guess < beta:
                hi = guess
            else:
                lo = guess
            self.found = (lo, hi)  # what the tests so far proved, if the budget runs out before the value
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
            t = self._units(target)
            return self._test(seat, t - EPSILON, t) >= t
        except BudgetExceeded:
            return None

    def _leaf(self, seat: int) -> Value:
        """``seat``'s chip change when the round was settled, in the search's units."""
        assert self.verdict is not None
        return self._units(self.verdict[2][seat])

    def _value(self, seat: int, alpha: Bound | None, beta: Bound | None) -> Value:
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
        if self.model is not None:  # the chips the cards and tricks left can still bring settle the test
            blo, bhi = chip_bounds(self.model, seat, self.n, self.dealer, self.scale, self.base_other,
                                   self.mission.hidden_payment, self.won, self.winners)
            if alpha is not None and bhi <= alpha:
                return bhi
            if beta is not None and blo >= beta:
                return blo
        self._count()
        maximise = self.turn == seat
        best: Value | None = None
        hist = self.history[self.turn]  # a play that cuts off counts for this seat
        moves = self._moves()
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
                hist[cid] += (self.total - len(self.tricks)) ** 2  # a cut-off higher up weighs more
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
                        ok = self._test_force()
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
                    ok: bool | None = self._leaf(seat) >= self._units(target)
                else:
                    self.limit = self.nodes + max_nodes
                    try:
                        t = self._units(target)
                        ok = self._test(seat, t - EPSILON, t) >= t
                    except BudgetExceeded:
                        ok = None
            finally:
                self.undo(cid, saved)
            if ok:
                return cid
        return None
