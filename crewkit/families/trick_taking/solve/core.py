"""The fast core of the solver: a depth-first search over card plays on bitmasks.

The crew is one team with perfect information here, so the search is a plain OR search: a position is
winnable when *some* play leads to a winnable position. The core copies the engine's trick logic (legal
plays, trick winner, tasks and task tokens, end of the game, neighbour draws) onto bitmasks and evaluates
the mission's compiled conditions through :class:`SearchView`, a read-only view with the engine's
``EngineView`` surface over the search state. A line it finds is always replayed through the engine by
:func:`crewkit.families.trick_taking.solve.solver.solve` before it is reported.

Speed:

- **Transposition table** of positions proved lost, keyed at trick boundaries. Without conditions, draws or
  a dummy seat the key is *relative*: per suit, who holds each remaining card in rank order (task cards
  marked by task), plus the leader; two positions with the same key are the same game up to renaming
  ranks. Otherwise the key holds the hands, the done tasks, the condition state and a history summary
  (see ``history`` below). The relative key is memoised twice: per absolute position (leader, open tasks,
  hands) and per suit (the suit's slice of every hand and of the open tasks).
- **Lean trick ends**: without conditions, draws or task tokens, the end of a trick updates only what the
  search reads (open tasks, leader, remaining cards), not the won cards and trick history.
- **Equivalent cards merged**: adjacent remaining cards of one suit in one hand (no card of another seat or
  on the table between them, neither an open task card) are interchangeable: only one is tried. Missions
  whose conditions can tell ranks or cards apart switch merging off.
- **Move ordering**: plays that give a task card to its owner first, low cards before high ones otherwise. With
  an open goal (see :meth:`TrickSearch._goal`) the goal's order in :meth:`TrickSearch._moves`: a play that leaves
  a goal card winning the trick, a goal card led that every other hand can stay under
  (:meth:`TrickSearch._goal_lead_holds`), a play that hands the trick to the owner of the next numbered task
  holding its card (:meth:`TrickSearch._gives_lead`) before the rest; a hand's last card above its own task card
  another hand holds (:meth:`TrickSearch._task_keepers`) late, and a goal card that cannot win last (but before
  those, one led that a hand can only overtake with a goal card of its own). Order only: the verdicts are the same,
  the plays to reach them are not.
- **Early cut-offs**: a play is skipped when the trick already has task cards of two owners, or an
  owner who has played is no longer winning a trick holding their task card; the engine's own failures
  (task won by another seat, broken token order, broken condition) end a branch at once.
- **Bounds at trick starts**: too few tricks left for the open tasks (:meth:`TrickSearch._too_few_tricks`,
  with :meth:`TrickSearch._low_card_bound`: an owner holding the lowest card of a suit as its task must take
  its tasks of that suit from other hands under its own higher cards or on tricks of other suits) and an order
  cycle of self-won tasks (:meth:`TrickSearch._doomed`) prove a position lost without search.
- **The guard** (missions with conditions): the card-blind conditions (those that read only who won which
  trick), all of them or those among others that read cards, as an automaton over trick winners
  (:meth:`TrickSearch.winner_automaton`). Every winning line follows it, so a winner it forbids cuts the play,
  and a seat that surely wins more of the tricks left than it allows (trumps no other hand beats, which the
  seat must play: :meth:`TrickSearch.sure_wins`) proves the position lost before a card is tried ("the
  commander wins no trick" while holding rocket 4 at 4 players).

**Free drafts**: a game in its draft phase (no draws; conditions only if they read trick winners alone, never a
task) is searched as it stands: the undrafted
tasks have no owner yet, and the seat that wins a trick takes the undrafted task cards in it, within the
number of tasks the draft gives each seat (``quota_left``, part of the table key). A line that wins this way
is a draft plus a game: each seat takes exactly its number of tasks (the quotas add up to the tasks), and
:attr:`TrickSearch.free_owners` (read off the line) gives the take-task actions the solver replays through
the engine. Cut-offs for undrafted cards: a trick's undrafted cards must go to a seat with room for them
(one yet to play that can still win it, or the current winner). Bounds at trick starts: a seat with ``q``
tasks to take needs ``ceil(q / n)`` more tricks, the open task cards of one hand a trick each, and
:meth:`TrickSearch._sweeps` (the leader wins every trick left while another seat still must take a task).
:meth:`TrickSearch.run_split` searches each first play side by side with growing budgets.

**The C search**: for positions without draws, suitless or free cards, :meth:`TrickSearch.run` hands the search
to ``_native.c``; with neighbour draws and no conditions, each trick start after the last draw (a plain deal from
there) goes to it (:meth:`TrickSearch._after_draws`, its plays counting 1/``native_weight`` in ``nodes``) (see :mod:`crewkit.families.trick_taking.solve.native`), which mirrors this file's trick search
node for node: same verdicts, node counts and lines, about fifty times faster. Mission conditions go with it:
card-blind ones as the winner automaton, any other shape the fast bot's condition program
(:mod:`crewkit.families.trick_taking.bots.condcode`) reads, evaluated by its C evaluator. With those, the C
table is keyed by the history summary below (node for node this file), or, when the conditions read the past
only through quantifiers over the tricks whose bodies read their own trick, by those quantifiers' values
(``native.history_digest``: exact, fewer nodes). A change to the search here must be made there too;
``tests/solve/test_native.py`` and ``tests/solve/test_native_conditions.py`` compare the two.

Beside this file: :mod:`crewkit.families.trick_taking.solve.view` (the conditions' view of the search state),
:mod:`crewkit.families.trick_taking.solve.automaton` (the guard),
:mod:`crewkit.families.trick_taking.solve.reasons` (a loss proved by a bound, in words) and
:mod:`crewkit.families.trick_taking.solve.scope` (when cards merge, when a draft is searched free).

History summary (games with conditions): conditions may read the whole history, but a position's future
is assumed to depend on the past only through each seat's number of tricks, won cards and cards it won
tricks *with*, plus each condition's latched ``done`` state. Verdicts on past events are delivered at once
by ``fail_if``, so a position still alive has passed them. This holds for every bundled mission; use
``history="full"`` for conditions that look further back (the key then holds the whole sequence of tricks).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from crewkit.cards import Card, mask_ids
from crewkit.families.trick_taking.engine.game import Game, Task, Trick
from crewkit.families.trick_taking.engine.kernel import deck_strength_table, token_kinds, token_violation
from crewkit.families.trick_taking.engine.rules import ARROWS, NUMBERED, OMEGA
from crewkit.families.trick_taking.solve import goal_counts
from crewkit.families.trick_taking.solve.automaton import (
    AUTOMATON_CAP,
    NO_LIMIT,
    WinnerAutomaton,
    winner_automaton,
)
from crewkit.families.trick_taking.solve.reasons import root_loss, seat_words, token_out_of_reach
from crewkit.families.trick_taking.solve.scope import conditions_merge_safe, draft_conditions_ok, draft_quotas
from crewkit.families.trick_taking.solve.view import SearchView


class SearchAborted(Exception):
    """The node budget or the deadline ran out."""


class Unsupported(Exception):
    """The position uses a rule the core does not model (the caller falls back to the engine search)."""





def _goal_fits(cands: list[tuple[int, int]], t: int, left: int, need: int, used: int, prev: int) -> bool:
    """Can ``need`` goal wins take distinct tricks from ``t`` to ``left``, each card (earliest trick, holder) at
    or after its earliest, a card that wins only a trick it leads right after a goal win by its own holder
    (``prev``: the holder of a goal card winning trick ``t - 1``, else -1)? (TrickSearch._goal_out_of_reach)"""
    if not need:
        return True
    if left - t + 1 < need:
        return False
    for i, (e, hold) in enumerate(cands):
        if (used >> i) & 1 or e > t or (hold >= 0 and prev >= 0 and hold != prev):
            continue
        if _goal_fits(cands, t + 1, left, need - 1, used | (1 << i), hold if hold >= 0 else -2 - hold):
            return True
    return _goal_fits(cands, t + 1, left, need, used, -1)


class TrickSearch:
    """Search the trick phase of ``game`` (a position in the ``tricks`` phase, possibly mid-trick).

    ``run()`` returns True (a winning line is in :attr:`line`, as ``(seat, card id)`` pairs), False (no
    line wins), or raises :class:`SearchAborted` when ``max_nodes`` or ``deadline`` is reached. The table
    of lost positions survives an abort, so calling ``run()`` again with a larger budget resumes cheaply.
    """

    MAX_TABLE = 3_000_000

    def __init__(self, game: Game, *, merge: bool | None = None, history: str = "summary",
                 use_table: bool = True, native: bool | None = None,
                 quotas: Sequence[int] | None = None, compile_conditions: bool = True, digest: bool = True) -> None:
        # ``digest``: the C search keys positions with conditions by what they read of the past when that is a few
        # values (native.history_digest: exact, fewer nodes); False: by the history summary, node for node the
        # Python search
        # a game in its draft phase is searched as a free draft (see the module's docstring); ``quotas``
        # overrides how many of the undrafted tasks each seat takes (a gold-frame hand-over moves one) (or a
        # commander's distribution at its start: the setup phase with quotas, see
        # crewkit.families.trick_taking.solve.solver)
        self.draft = not game.is_over() and (game.phase == "draft" or (game.phase == "setup" and quotas is not None))
        self._quotas = None if quotas is None else list(quotas)
        if self._quotas is not None and (not self.draft or len(self._quotas) != game.n or min(self._quotas) < 0
                                         or sum(self._quotas) != sum(t.owner is None for t in game.tasks)):
            raise ValueError("quotas are per seat and add up to the undrafted tasks of a game in its draft")
        if (game.phase != "tricks" and not self.draft) or game.is_over():
            raise ValueError(f"the trick search needs a game in its tricks or draft phase, not {str(game.phase)!r}")
        if game.dummy_seat is not None:
            raise Unsupported("the dummy seat (JARVIS) is searched by the engine-driven search")
        rules = game.rules
        if self.draft and (rules.draws or not draft_conditions_ok(game.conditions, list(rules.roles) + list(game.roles))):
            raise Unsupported("a free draft with mission conditions that read cards, or with draws, is searched "
                              "assignment by assignment")
        deck = rules.deck
        self.game = game
        self.deck = deck
        self.cards: tuple[Card, ...] = deck.cards
        self.n = game.n
        self.commander = game.commander
        self.dealer = game.dealer
        self.roles: dict[str, int] = dict(game.roles)
        self.mode = game.mode
        self.total = game.total_tricks
        self.must_follow = rules.must_follow
        self.suit_masks = rules.suit_masks
        cards = deck.cards
        nsuits = len(deck.suits)
        self.card_suit = [c.suit.index if c.suit is not None else -1 for c in cards]
        self.card_rank = [c.rank for c in cards]
        # power[led + 1][card]: strength of the card in a trick led in ``led`` (0: it cannot win): the
        # kernel's table, the one the engine judges tricks by
        # (crewkit.families.trick_taking.engine.kernel.strength_table)
        self.power = [list(row) for row in deck_strength_table(deck, rules.precedence)]
        self.order_rank = [c.rank + (30 if c.suit is None or c.suit.trump else 0) for c in cards]
        self.free_mask = deck.mask(fc.card for fc in rules.free_cards)
        self.free_not_first = deck.mask(fc.card for fc in rules.free_cards if fc.not_first)
        self.free_not_last = deck.mask(fc.card for fc in rules.free_cards if fc.not_last)
        self.special_mask = deck.mask(c for c in cards if c.suit is None)
        self.card_suit_mask = [rules.suit_masks[s] if s >= 0 else (1 << i) for i, s in enumerate(self.card_suit)]
        # suits as contiguous id ranges in rank order (the usual deck): relative keys and merging need it
        spans: list[tuple[int, int]] = []
        contiguous = True
        for si in range(nsuits):
            ids = [c.id for c in cards if c.suit is not None and c.suit.index == si]
            ranks = [cards[i].rank for i in ids]
            if not ids or ids != list(range(ids[0], ids[0] + len(ids))) or ranks != sorted(ranks) or len(ids) > 16:
                contiguous = False
                continue
            spans.append((ids[0], (1 << len(ids)) - 1))
        self.spans = spans
        self.contiguous = contiguous

        # conditions the search checks natively (crewkit/families/trick_taking/solve/compiled.py): cards that
        # must be won by one seat become extra tasks (``_pseudo``, after the real ones); the rest stay DSL
        # conditions
        self._pseudo: list[tuple[Card, int]] = []
        # the game's conditions: the mission's, then the task cards' bound to their owners (Mission Deep Sea)
        self._cond_index = list(range(len(game.conditions)))
        self.compiled_conditions: list[tuple[str, str]] = []
        self._cond_why: dict[str, str] = {}  # condition id -> why it was not compiled
        self.late_win = False  # a compiled condition is done only when the hands run out (see compiled.py)
        self.compile_switched_off = bool(game.conditions) and not compile_conditions
        self.nreal = len(game.tasks)
        self._claims: dict[int, int] = {}  # compiled.CompiledConditions.claims
        if game.conditions and compile_conditions:
            self._compile_conditions(game)
        self.conditions = tuple(game.conditions[i] for i in self._cond_index)

        self._reset_position()

        # tasks
        self.task_objs = self._task_list()
        self.ntasks = len(self.task_objs)
        self.task_of_card = [-1] * len(cards)
        self.owner_of_card = [-1] * len(cards)
        for i, t in enumerate(self.task_objs):
            self.task_of_card[t.card.id] = i
            self.owner_of_card[t.card.id] = t.owner if t.owner is not None else -1
        # claimed cards (not tasks): a trick holding one must go to its seat, as a task's (_moves, _end_trick_owned)
        self.claimed = 0
        for cid, who in self._claims.items():
            self.claimed |= 1 << cid
            self.owner_of_card[cid] = who
        self.numbered = [(i, int(t.token)) for i, t in enumerate(self.task_objs) if t.token in NUMBERED]
        self.omegas = [i for i, t in enumerate(self.task_objs) if t.token == OMEGA]
        self.arrows = [(i, ARROWS.index(t.token)) for i, t in enumerate(self.task_objs) if t.token in ARROWS]
        self.has_tokens = bool(self.numbered or self.omegas or self.arrows)
        self.token_kind, self.token_k = token_kinds([t.token for t in self.task_objs])
        # free draft: the cards of the tasks nobody has taken yet (their owner is whoever wins them)
        self.undrafted = sum(t.card.bit for t in self.task_objs if t.owner is None and not t.done) if self.draft else 0

        # conditions (those not compiled)
        self.after_play = [i for i, c in enumerate(self.conditions) if c.check == "after-play"]
        # a goal of the conditions (condshapes.match_tricks_won_by_cards): tricks to be won by a card of a set;
        # plays that make such a card win are tried first while that condition is not done (order only)
        self.goal_mask, self.goal_cond, self.goal_k = self._goal()
        nsl = len(deck.suits)
        # cards weak (power 0) in every led suit but their own: such a goal card wins only a trick it leads
        # when no other hand holds a weaker card of its suit (see _goal_out_of_reach)
        self.lead_only = sum(1 << c for c in range(len(cards)) if self.card_suit[c] >= 0 and all(
            self.power[led + 1][c] == 0 for led in range(nsl) if led != self.card_suit[c]))
        self.all_conditions = list(range(len(self.conditions)))
        self.view = SearchView(self)
        roles = list(rules.roles) + list(self.roles)
        from crewkit.families.trick_taking.solve.compiled import conditions_card_blind, counts_only

        # conditions that read only trick winners: relative keys with each seat's tricks (see _key), merging
        # (checked after each trick only: an after-play check would see a trick's state half-way)
        self.card_blind = bool(self.conditions) and compile_conditions and history == "summary" and all(
            c.check != "after-play" for c in self.conditions) and conditions_card_blind(self.conditions, roles)
        # card-blind conditions that read no trick (only counts): positions with the same counts are alike
        self.blind_counts = self.card_blind and counts_only(self.conditions, roles)
        # card-blind verdicts per sequence of trick winners: (mask of allowed winners, per winner (alive,
        # conditions newly done)) for the trick after that sequence (see _winner_verdicts)
        self._wmemo: dict[tuple[int, ...], tuple[int, tuple[tuple[bool, tuple[int, ...]], ...]]] = {}
        self._wmemo_subset: dict[tuple[int, ...], dict[tuple[int, ...], Any]] = {}
        if merge is None and self.card_blind:
            merge = True
        if merge is None:
            merge = not self.conditions or conditions_merge_safe(
                [c.fail_text for c in self.conditions] + [c.done_text for c in self.conditions], roles
            )
        self.merge = bool(merge) and contiguous
        if history not in ("summary", "full"):
            raise ValueError("history is 'summary' or 'full'")
        self.history = history

        # neighbour draws (mission 12): fixed by the game's seed, so known to a perfect-information search
        self.draws = tuple(rules.draws)
        self._draw_states: dict[int, Any] = {}
        if self.draws:
            rng = game._draw_rng
            if rng is None:
                raise Unsupported("neighbour draws without the engine's draw generator")
            pending = [j for j, (after, _) in enumerate(self.draws) if after > self.ntricks]
            if pending:
                self._draw_states[pending[0]] = rng.getstate()
        self.relative = (not self.conditions or self.card_blind) and not self.draws and contiguous
        # the self-won task order check (see _doomed): standard trick rules, hands that only shrink
        self.order_cards = deck.mask(c for c in cards if c.suit is not None and not c.suit.trump)
        self.lower_mask = [
            deck.mask(d for d in cards if d.suit is not None and d.suit is c.suit and d.rank < c.rank) for c in cards
        ]
        self.higher_mask = [
            (self.card_suit_mask[cid] & ~((2 << cid) - 1)) if self.card_suit[cid] >= 0 else 0
            for cid in range(len(cards))
        ]
        self.check_order_after_draws = (
            self.must_follow and not self.free_mask and "led" in rules.precedence and not self.special_mask
        )
        self.check_order = self.check_order_after_draws and not self.draws
        # beaters[c]: the cards that beat c in a trick c leads (the free-draft sweep bound, see _sweeps)
        self.beaters = [
            sum(1 << d for d in range(len(cards)) if self.power[self.card_suit[c] + 1][d] > self.power[self.card_suit[c] + 1][c])
            if self.card_suit[c] >= 0 else 0
            for c in range(len(cards))
        ] if self.draft else []
        self.use_table = use_table
        # no conditions and no draws: the won cards and trick history are never read
        self.plain = not self.conditions and not self.draws
        self.plain_fast = self.plain and not self.has_tokens
        # played_tab[leader][pos]: the seats that have played once seat leader + pos has played
        self.played_tab = [
            [sum(1 << ((lead + j) % self.n) for j in range(pos + 1)) for pos in range(self.n)]
            for lead in range(self.n)
        ]

        # card-blind conditions as a minimal automaton over trick winners (see winner_automaton): lets the C
        # search take them; None when they are not card-blind or have too many winner sequences
        self.automaton: WinnerAutomaton | None = None
        if self.card_blind and native is not False and use_table and not self.draws:
            from crewkit.families.trick_taking.solve import native as native_lib

            if native_lib.load() is not None:  # only the C search reads it
                self.automaton = self.winner_automaton()
        # the guard: the card-blind conditions (all of them, or those among others that read cards) as an
        # automaton over trick winners, followed by the Python search too: a winner it forbids cuts the play,
        # and a seat made to win more tricks than it allows (it holds cards nobody can beat) proves the
        # position lost (_sure_wins); None without card-blind conditions or with too many winner sequences
        from crewkit.families.trick_taking.solve.compiled import card_blind

        blind = tuple(i for i, c in enumerate(self.conditions)
                      if card_blind(c.fail_expr, roles) and card_blind(c.done_expr, roles))
        self.guard: WinnerAutomaton | None = None
        if blind and compile_conditions and history == "summary" and use_table and not self.draws:
            whole = len(blind) == len(self.conditions)
            if self.automaton is not None and whole:
                self.guard = self.automaton
            elif whole or counts_only([self.conditions[i] for i in blind], roles):
                # beside conditions that read cards, only conditions that read counts (tricks won, trick
                # numbers): sequences with the same counts merge as it is built, so it is small and cheap; others
                # (mission 41's "no trick between the first and the last") would try thousands of sequences
                # and fail at the cap, at more cost than the search they would guard
                self.guard = self.winner_automaton(which=blind)
        self._gmemo: dict[tuple[int, ...], int | None] = {}
        # the sure-win bound (see _sure_wins): standard trick rules, cards with a strength in every led suit
        self.check_sure = self.guard is not None and not self.special_mask and not self.free_mask
        nsl = len(deck.suits)
        # cards that win any trick they are played in unless a card of the mask beats them: strong in every led
        # suit (a trump); beats_any[c]: the cards stronger than c in some led suit
        self.trumplike = sum(1 << c for c in range(len(cards))
                             if all(self.power[led + 1][c] > 0 for led in range(nsl)))
        self.beats_any = [
            sum(1 << d for d in range(len(cards))
                if any(self.power[led + 1][d] > self.power[led + 1][c] for led in range(nsl)))
            if (self.trumplike >> c) & 1 else 0
            for c in range(len(cards))
        ]
        # the goal's count bound (goal_counts.py): per suit and hand, over the whole rest of the round
        self.goal_counts = goal_counts.applies(self)
        self.not_above = goal_counts.not_above(self) if self.goal_counts else []
        self.goal_task_tricks = True  # its step 6 (False: the bound as before it, for tests; Python only)
        self.goal_free_leaders = True  # its step 7 (likewise)
        # the goal order's rules for leads that hold a goal trick, a task's last cover and the next task's lead (see
        # _moves; False: the order as before them, for tests; Python only)
        self.goal_move_order = True
        self.dead: set[Any] = set()
        self._suit_memo: dict[int, int] = {}
        self._rel_memo: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.line: list[tuple[int, int]] = []
        self.free_owners: dict[int, int] = {}  # free draft, after a win: card id -> the seat that takes the task
        self.nodes = 0
        # the C search (crewkit/families/trick_taking/solve/native.py) for plain positions: same nodes, same
        # order, faster
        self._native: Any = None
        self.native_error = False  # a condition raised an error in the C search: Python took over
        self.use_native = native is not False
        self.digest = digest
        self.program_why = ""  # why the C search does not evaluate the conditions (native.condition_program)
        # neighbour draws: once the last draw is made the rest is a plain deal, which the C search takes from
        # each trick start after it (_after_draws); its plays count 1/native_weight in ``nodes`` (the solver
        # sets the weight: one budget in plays of the Python search)
        self._after_native: Any = None
        self.native_weight = 1
        self.native_plays = 0  # plays tried by the C search after the draws
        self._native_carry = 0
        if native is not False:
            from crewkit.families.trick_taking.solve import native as native_mod

            if native_mod.fits_after_draws(self):
                lib = native_mod.load()
                if lib is not None:
                    try:
                        self._after_native = native_mod.NativeSearch(lib, self, after_draws=True)
                    except OSError:
                        self._after_native = None
            lib = native_mod.load() if native_mod.fits(self) else None
            if lib is not None:
                try:
                    self._native = native_mod.NativeSearch(lib, self)
                except OSError:
                    self._native = None
            if native and self._native is None:
                raise Unsupported(f"the C search cannot take this position ({native_mod.status()})")
        self.max_nodes: int | None = None
        self._only = -1
        # run_split: (first budget, growth, the trick whose leads are split too) while it runs (_play_split)
        self._split: tuple[int, int, int] | None = None
        self.deadline: float | None = None
        self._next_check = 0
        self.remaining = 0
        self.table = 0

    def _reset_position(self) -> None:
        """(Re)load the position from the game: after an aborted run the search state is stale."""
        game = self.game
        n = self.n
        self.hands = list(game.hands)
        self.won = list(game.won)
        self.tricks_won = list(game.tricks_won)
        self.winmask = [0] * n  # cards each seat won a trick with
        for t in game.tricks:
            self.winmask[t.winner] |= t.winning_card.bit
        self.leader = game.leader
        self.plays: list[tuple[int, int]] = [(s, c.id) for s, c in game.plays]
        self.led = game.led_suit.index if game.led_suit is not None else -1
        self.ntricks = len(game.tricks)

        self.task_objs = self._task_list()
        self.open_tasks = 0  # mask of the cards of open tasks
        self.ndone = 0
        for task in self.task_objs:
            if task.done:
                self.ndone += 1
            else:
                self.open_tasks |= task.card.bit
        self.cond_done = [game.cond_done[i] for i in self._cond_index]
        # free draft: how many more tasks each seat takes (the draft goes round from draft_turn)
        self.quota_left = [0] * n
        if self._quotas is not None:
            self.quota_left = list(self._quotas)
        elif self.draft:
            self.quota_left = draft_quotas(game)
        self.trick_objs: list[Trick] = list(game.tricks)
        self._seq: tuple[int, ...] = tuple(t.winner for t in game.tricks)  # the winner of each trick so far
        self.trick_by_card: dict[int, Trick] = {c.id: t for t in game.tricks for _, c in t.plays}
        self.remaining = 0
        self.table = 0

    def _compile_conditions(self, game: Game) -> None:
        """Compile what :mod:`crewkit.families.trick_taking.solve.compiled` recognises; set ``_pseudo`` and
        ``_cond_index``."""
        from crewkit.families.trick_taking.solve.compiled import compile_conditions

        hands = 0
        for h in game.hands:
            hands |= h
        for _, c in game.plays:
            hands |= c.bit  # on the table, not yet won: still to be won like a card in hand
        real = {t.card.id: t.owner for t in game.tasks}
        roles = list(game.rules.roles) + list(self.roles)
        # hands with more cards than their seat will still play (3 players): one of their cards stays unplayed
        left = game.total_tricks - len(game.tricks)
        played_now = {seat for seat, _ in game.plays}
        spare = 0
        for seat, h in enumerate(game.hands):
            if h.bit_count() > left - (1 if seat in played_now else 0):
                spare |= h
        cc = compile_conditions(game.conditions, SearchView(self), roles, hands_mask=hands, won=game.won,
                                task_owner={cid: o for cid, o in real.items()},
                                tokens=any(t.token is not None for t in game.tasks), spare=spare)
        conds = game.conditions
        self._cond_why = {conds[i].id: why for i, why in cc.why.items()}
        self._claims = cc.claims
        if not cc.compiled:
            return
        self.late_win = cc.late
        cards = self.cards
        self._pseudo = [(cards[cid], o) for cid, o in sorted(cc.card_owner.items()) if cid not in real]
        self._cond_index = cc.remaining
        self.compiled_conditions = cc.compiled

    def _goal(self) -> tuple[int, int, int]:
        """(cards, index of its condition, K) of the first condition "at least K tricks won by a card of a set"
        or "the last trick won by a card of a set" (K = 1, :attr:`goal_last`); (0, -1, 0) when none."""
        from crewkit.families.trick_taking.condshapes import (
            goal_cards,
            match_last_trick_won_by_cards,
            match_tricks_won_by_cards,
        )

        self.goal_last = False  # the goal is the round's last trick (match_last_trick_won_by_cards), K = 1
        for i, c in enumerate(self.conditions):
            shape = match_tricks_won_by_cards(getattr(c, "done_expr", None))
            if shape is not None:
                mask = goal_cards(shape[0], self.deck)
                if mask:
                    return mask, i, shape[1]
            pred = match_last_trick_won_by_cards(getattr(c, "fail_expr", None))
            if pred is not None:
                mask = goal_cards(pred, self.deck)
                if mask:
                    self.goal_last = True
                    return mask, i, 1
        return 0, -1, 0

    def condition_paths(self) -> list[dict[str, str]]:
        """How the search checks each mission condition: ``compiled`` (a native check, see
        :mod:`crewkit.families.trick_taking.solve.compiled`), ``winners`` (card-blind: evaluated once per
        sequence of trick winners), ``program`` (any other shape, translated by
        :mod:`crewkit.families.trick_taking.bots.condcode` and evaluated at every trick or play in the C search)
        or ``dsl`` (evaluated through the DSL at every trick or play in Python: the slower path)."""
        engine = "the C search" if self.native else "the Python search"
        out = [{"id": cid, "path": "compiled", "how": f"{shape}, as search tasks of {engine}", "why": ""}
               for cid, shape in self.compiled_conditions]
        for c in self.conditions:
            if self.card_blind and self.native:
                out.append({"id": c.id, "path": "winners", "why": "",
                            "how": "reads trick winners only, an automaton over trick winners in the C search"})
            elif self.card_blind:
                from crewkit.families.trick_taking.solve import native as native_lib

                if native_lib.load() is None:
                    why = f"the C search is not available ({native_lib.status()})"
                elif self.automaton is None:
                    why = f"more than {self.AUTOMATON_CAP} sequences of trick winners to compile for the C search"
                else:
                    why = "the C search does not model this position (deck, draws or a free draft)"
                out.append({"id": c.id, "path": "winners", "why": why,
                            "how": "reads trick winners only, checked once per winner sequence in the Python search"})
            elif self.native:
                # why it is not search tasks (compiled.py), when that was tried
                tasks_why = self._cond_why.get(c.id)
                out.append({"id": c.id, "path": "program", "why": "",
                            "how": "translated into a program evaluated at every "
                                   f"{'play' if c.check == 'after-play' else 'trick'} in the C search"
                                   + (f" (not search tasks: {tasks_why})" if tasks_why else "")})
            else:
                if self.compile_switched_off:
                    why = "the compiled paths were switched off (compile_conditions=False)"
                elif self.native_error:
                    why = "it raised an error in the C search (which the engine reports), so the Python search took over"
                else:
                    from crewkit.families.trick_taking.solve import native as native_lib

                    why = native_lib.why_not(self)
                    if self._cond_why.get(c.id):
                        why += f"; not search tasks: {self._cond_why[c.id]}"
                out.append({"id": c.id, "path": "dsl", "how": "evaluated through the DSL in the Python search",
                            "why": why})
        order = {c.id: i for i, c in enumerate(self.game.conditions)}
        out.sort(key=lambda d: order.get(d["id"], 0))
        return out

    def _task_list(self) -> list[Task]:
        """The search's tasks: the game's, then the compiled conditions' cards (done when already won)."""
        game = self.game
        out = [Task(t.card, t.token, t.owner, t.trick) for t in game.tasks]
        if self._pseudo:
            won_in = {c.id: t.number for t in game.tricks for _, c in t.plays}
            out += [Task(card, None, owner, won_in.get(card.id)) for card, owner in self._pseudo]
        return out

    # ------------------------------------------------------------------ driver
    @property
    def shares_positions(self) -> bool:
        """True when the table's keys hold the whole future of a position (no conditions or draws, or only
        card-blind conditions, whose keys hold what they read of the past), so
        :meth:`run_from` may search other positions of the same deal with the same table."""
        return (self.plain or self.card_blind) and not self.draft

    def run_from(self, game: Game, max_nodes: int | None = None, deadline: float | None = None) -> bool:
        """:meth:`run` from another position of the same deal and tasks, keeping the table of lost positions."""
        if not self.shares_positions:
            raise ValueError("positions of a mission with conditions or draws cannot share a table")
        self.move_to(game)
        return self.run(max_nodes, deadline)

    def move_to(self, game: Game) -> None:
        """Search ``game`` from now on, keeping the table of lost positions, the compiled conditions and the C
        search's context. The caller answers for it being sound: a position this search could reach from the
        one it was built at, or any position of the same rules and tasks when :attr:`shares_positions`
        (``solver.SearchCache`` decides so)."""
        if game.rules is not self.game.rules or [(t.card, t.owner, t.token) for t in game.tasks] != [
            (t.card, t.owner, t.token) for t in self.game.tasks
        ]:
            raise ValueError("run_from needs a position of the same rules and tasks")
        if game.phase != "tricks" or game.is_over() or self.draft:
            raise ValueError(f"the trick search needs a game in its tricks phase, not {str(game.phase)!r}")
        self.game = game

    def lost_at_trick_start(self) -> bool:
        """At a trick start, the bounds :meth:`run_split` checks before a card is tried (those of
        :meth:`_trick_body`): True when they prove the position lost. False mid-trick."""
        self._reset_position()
        if self.plays:
            return False
        rem = 0
        for h in self.hands:
            rem |= h
        self.remaining = rem
        self.table = 0
        return self._too_few_tricks() or (self.check_sure and self._sure_wins()) or (self.check_order and (
            self._doomed() or bool(self.undrafted and self._sweeps())))

    def run(self, max_nodes: int | None = None, deadline: float | None = None) -> bool:
        self.max_nodes = None if max_nodes is None else self.nodes + max_nodes
        self.deadline = deadline
        self._next_check = self.nodes + 256
        self.line = []
        self.free_owners = {}
        self._reset_position()
        if token_out_of_reach(self):
            return False
        if self._native is not None and self.automaton is not None and not self.plain and (
                self._seq[:len(self.automaton.base)] != self.automaton.base):
            self._native = None  # another history than the automaton's: the Python search takes the conditions
        if self._native is not None:
            ok = self._run_native(max_nodes, deadline)
        else:
            if self.plays:
                first = self._mid_trick()
                ok = first is not None and self._play(*first)
            else:
                ok = self._trick_start()
            self.line.reverse()
        if ok and self.draft:
            self.free_owners = self._owners_from_line()
        return ok

    def run_split(self, deadline: float | None = None, first_budget: int = 1_000, growth: int = 10,
                  max_nodes: int | None = None) -> bool:
        """:meth:`run` from a trick start (a free draft, or a position whose table keys do not hold its whole
        future), each first play searched side by side with node budgets growing ``growth``-fold (and in each,
        with an open goal, the leads of the next trick the same way: :meth:`_play_split`), all sharing the table
        of lost positions (what the solver's ``_split_search`` does for positions the engine can
        step into). ``max_nodes`` bounds the whole call (:class:`SearchAborted` when reached)."""
        self.deadline = deadline
        self._reset_position()
        if self.plays or token_out_of_reach(self):
            return self.run(max_nodes=max_nodes, deadline=deadline)
        cap = None if max_nodes is None else self.nodes + max_nodes
        if self._native is not None and self.automaton is not None and not self.plain and (
                self._seq[:len(self.automaton.base)] != self.automaton.base):
            self._native = None  # as in run: another history than the automaton's
        rem = 0
        for h in self.hands:
            rem |= h
        self.remaining = rem
        self.table = 0
        if self._too_few_tricks() or (self.check_sure and self._sure_wins()) or (self.check_order and (
                self._doomed() or (self.undrafted and self._sweeps()) or (
                    self.goal_mask and self._goal_out_of_reach()))):
            return False  # the bounds of a trick start (_trick_body): proved lost before a card is tried
        cands = [m[1] for m in self._moves(0, 0, self.leader, -1, -1)[2]]
        budget = first_budget
        # an open goal (see _goal: K tricks won by cards of a set, set up over several tricks): the next trick's
        # leads side by side too (_play_split; a bad second lead is as costly as a bad first card). Other
        # searches do not gain from it (missions 44 and 46 at 5 and 3 players decided fewer deals), nor do
        # draws (their state is not restored)
        goal_open = self.goal_mask and not self.cond_done[self.goal_cond]
        self._split = None if self.draws or not goal_open else (first_budget, growth, self.ntricks + 1)
        try:
            while cands:
                left = []
                for cid in cands:
                    here = budget
                    if cap is not None:
                        if self.nodes >= cap:
                            raise SearchAborted("node budget")
                        here = min(budget, cap - self.nodes)
                    self.max_nodes = self.nodes + here
                    self._next_check = self.nodes + 256
                    self.line = []
                    self.free_owners = {}
                    self._reset_position()
                    self.remaining = rem
                    self.table = 0
                    self._only = cid
                    try:
                        if self._native is not None:
                            ok = self._run_native(here, deadline, only=cid)
                        else:
                            ok = self._play(0, 0, self.leader, -1, -1)
                            self.line.reverse()
                    except SearchAborted as exc:
                        if str(exc) == "time":
                            raise
                        left.append(cid)
                        continue
                    finally:
                        self._only = -1
                    if ok:
                        if self.draft:
                            self.free_owners = self._owners_from_line()
                        return True
                cands = left
                budget *= growth
        finally:
            self._split = None
        self.line = []
        return False

    def _mid_trick(self) -> tuple[int, int, int, int, int] | None:
        """Set up a position inside a trick: the arguments of its next ``_play`` (None: already lost)."""
        self.table = 0
        for _, cid in self.plays:
            self.table |= 1 << cid
        self.remaining = self.table
        for h in self.hands:
            self.remaining |= h
        best_pow, best_seat, best_cid = 0, self.plays[0][0], self.plays[0][1]
        towner = -1
        for seat, cid in self.plays:
            p = self.power[self.led + 1][cid] if self.led >= 0 else self.power[self.card_suit[cid] + 1][cid]
            if p > best_pow:
                best_pow, best_seat, best_cid = p, seat, cid
            if ((self.open_tasks | self.claimed) >> cid) & 1:
                o = self.owner_of_card[cid]
                if o < 0 or (towner >= 0 and towner != o):
                    return None
                towner = o
        return len(self.plays), best_pow, best_seat, best_cid, towner

    def ordered_plays(self) -> list[int]:
        """The card ids the player to move may play, in the order the search tries them.

        Plays the search would cut at once (a task lost by them) and merged equivalent cards are left out.
        """
        self._reset_position()
        if self.plays:
            first = self._mid_trick()
            if first is None:
                return []
        else:
            rem = 0
            for h in self.hands:
                rem |= h
            self.remaining = rem
            self.table = 0
            first = (0, 0, self.leader, -1, -1)
        _seat, _hand, moves = self._moves(*first)
        return [m[1] for m in moves]

    @property
    def native(self) -> bool:
        """True when the C search runs this position."""
        return self._native is not None

    def _run_native(self, max_nodes: int | None, deadline: float | None, only: int = -1) -> bool:
        from crewkit.families.trick_taking.solve.native import R_ERROR, R_LOST, R_NODES, R_WIN

        seconds = None if deadline is None else deadline - time.perf_counter()
        split = (0, 0) if self._split is None or only < 0 else self._split[:2]
        code, line = self._native.run(self, max_nodes, seconds, only, split)
        self.nodes = self._native.nodes
        if code == R_WIN:
            self.line = line
            return True
        if code == R_LOST:
            return False
        if code == R_ERROR:
            return self._python_instead(only)
        raise SearchAborted("node budget" if code == R_NODES else "time")

    def _python_instead(self, only: int) -> bool:
        """The position again in Python: a condition raised an error in the C search (``none`` where a number is
        needed, ...), which the Python search meets as the engine does (from now on, for this search)."""
        self._native = None
        self.native_error = True
        self.dead.clear()
        self._next_check = self.nodes + 256
        self.line = []
        self._reset_position()
        if self.plays:
            first = self._mid_trick()
            ok = first is not None and self._play(*first)
        elif only >= 0:
            rem = 0
            for h in self.hands:
                rem |= h
            self.remaining = rem
            self._only = only
            ok = self._play(0, 0, self.leader, -1, -1)
        else:
            ok = self._trick_start()
        self.line.reverse()
        return ok

    def _check_budget(self) -> None:
        self._next_check = self.nodes + 256
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchAborted("node budget")
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchAborted("time")

    # ------------------------------------------------------------------ keys
    def _key(self) -> Any:
        hands = self.hands
        if self.relative:
            absolute = (self.leader, self.open_tasks, *hands)
            rel = self._rel_memo.get(absolute)
            if rel is None:
                rel = self._relative_key()
                if len(self._rel_memo) > 500_000:
                    self._rel_memo.clear()
                self._rel_memo[absolute] = rel
            quota = tuple(self.quota_left) if self.draft else ()  # free draft: the tasks each seat still takes
            if self.conditions:  # card-blind conditions: what they read of the past (see compiled.card_blind):
                # each seat's count of tricks when they read no trick, else the whole sequence of winners
                past = tuple(self.tricks_won) if self.blind_counts else self._seq
                return (rel, quota, past, tuple(self.cond_done))
            return (rel, quota) if self.draft else rel
        base = (self.leader, tuple(hands), self.open_tasks, tuple(self.cond_done), tuple(self.quota_left))
        if not self.conditions:
            return base
        if self.history == "full":
            return (base, tuple((t.leader, tuple(c.id for _, c in t.plays)) for t in self.trick_objs))
        return (base, tuple(self.tricks_won), tuple(self.won), tuple(self.winmask))

    def _relative_key(self) -> tuple[int, ...]:
        """Per suit, the holders of the remaining cards in rank order (open task cards marked), the leader."""
        hands = self.hands
        out: list[int] = [self.leader]
        memo = self._suit_memo
        n = self.n
        open_tasks = self.open_tasks
        for si, (lo, wmask) in enumerate(self.spans):
            k = si
            for h in hands:
                k = (k << 16) | ((h >> lo) & wmask)
            k = (k << 16) | ((open_tasks >> lo) & wmask)
            v = memo.get(k)
            if v is None:
                v = self._suit_code(lo, wmask, [(h >> lo) & wmask for h in hands], (open_tasks >> lo) & wmask, n)
                if len(memo) > 2_000_000:
                    memo.clear()
                memo[k] = v
            out.append(v)
        if self.special_mask:
            for h in hands:
                out.append(h & self.special_mask)
            m = open_tasks & self.special_mask
            if m:
                out.append(m)
        return tuple(out)

    # ------------------------------------------------------------------ search
    def _suit_code(self, lo: int, wmask: int, parts: list[int], tasks: int, n: int) -> int:
        """One suit's remaining cards in rank order as (holder, open task index + 1) digits, packed."""
        code = 1
        tof = self.task_of_card
        for r in range(wmask.bit_length()):
            b = 1 << r
            for seat in range(n):
                if parts[seat] & b:
                    code = (code << 10) | (seat << 7) | ((tof[lo + r] + 1) if tasks & b else 0)
                    break
        return code

    def _trick_start(self) -> bool:
        rem = 0
        for h in self.hands:
            rem |= h
        self.remaining = rem
        return self._trick_body()

    def _trick_body(self) -> bool:
        """The search from a trick start whose ``remaining`` is already set."""
        self.table = 0
        if not self.use_table:
            return not self._too_few_tricks() and self._play(0, 0, self.leader, -1, -1)
        key = self._key()
        dead = self.dead
        if key in dead:
            return False
        if self._too_few_tricks():
            dead.add(key)
            return False
        if self.check_sure and self._sure_wins():
            dead.add(key)
            return False
        if self.check_order and self._doomed():
            dead.add(key)
            return False
        if self.undrafted and self.check_order and self._sweeps():
            dead.add(key)
            return False
        if self.check_order and self.goal_mask and self._goal_out_of_reach():
            dead.add(key)
            return False
        if self._play(0, 0, self.leader, -1, -1):
            return True
        if len(dead) >= self.MAX_TABLE:
            dead.clear()
        dead.add(key)
        return False

    def _guard_state(self) -> int | None:
        """The guard's state after the trick winners so far (-1: no later winners satisfy its conditions),
        None when the position's history does not extend the one the guard was built from."""
        seq = self._seq
        memo = self._gmemo
        if seq in memo:
            return memo[seq]
        g = self.guard
        state: int | None = None
        if g is not None and seq[:len(g.base)] == g.base:
            state = g.root
            for w in seq[len(g.base):]:
                if state < 0:
                    break
                state = g.children[state][w]
        if len(memo) > 1_000_000:
            memo.clear()
        memo[seq] = state
        return state

    def sure_wins(self, seat: int) -> int:
        """At a trick start: how many more tricks ``seat`` surely wins. A card strong in every led suit wins the
        trick it is played in unless a card of another hand that beats it falls in the same trick; each trick
        holds one card of the seat and each card of another hand falls in one trick, so at most as many of
        the seat's such cards lose as a matching pairs them with distinct beaters (rocket 1, 2 and 4 against a
        lone rocket 3: at least two win). The seat plays all its cards but those it keeps when it holds more
        cards than tricks are left (3 players)."""
        hand = self.hands[seat]
        others = self.remaining & ~hand
        beats = self.beats_any
        mine: list[int] = []
        m = hand & self.trumplike
        while m:
            low = m & -m
            m ^= low
            mine.append(beats[low.bit_length() - 1] & others)
        sure = len(mine) - _matching(mine)
        kept = hand.bit_count() - (self.total - self.ntricks)
        return sure - kept if kept > 0 else sure

    def _sure_wins(self) -> bool:
        """A seat surely wins more of the tricks left than the guard's conditions let it win (its trumps no other
        hand beats, or the tricks its open tasks need, ``_need`` of :meth:`_too_few_tricks`, just computed): lost."""
        gs = self._guard_state()
        if gs is None or gs < 0:
            return gs is not None
        most = self.guard.most[gs]  # type: ignore[union-attr]
        need = self._need
        for seat in range(self.n):
            if most[seat] < NO_LIMIT and (need.get(seat, 0) > most[seat] or self.sure_wins(seat) > most[seat]):
                return True
        return False

    AUTOMATON_CAP = AUTOMATON_CAP

    def winner_automaton(self, cap: int | None = None, which: Sequence[int] | None = None
                         ) -> WinnerAutomaton | None:
        """:func:`crewkit.families.trick_taking.solve.automaton.winner_automaton` of this position."""
        return winner_automaton(self, cap, which)

    def root_loss(self) -> str:
        """:func:`crewkit.families.trick_taking.solve.reasons.root_loss`: why the position is lost before a
        card is tried, or ""."""
        return root_loss(self)

    def seat_words(self, seat: int) -> str:
        return seat_words(self, seat)

    def _too_few_tricks(self) -> bool:
        """Too few tricks left for the open tasks (a sound bound, so a lost position is cut at once).

        A trick completes the tasks of one owner at most, and task cards in one hand need one trick each:
        owner ``o`` needs at least max over holders ``h`` of (``o``'s open task cards in ``h``'s hand) more
        tricks, and the owners' tricks are distinct. Not used with neighbour draws (cards change hands).
        What each owner needs is kept in ``_need`` (the guard's bound, :meth:`_sure_wins`, reads it).
        """
        self._need: dict[int, int] = {}
        self.low_card_why: tuple[int, int, int, int] | None = None  # _low_card_bound's proof (see reasons.py)
        m = self.open_tasks
        if self.draws:
            return False
        if not m:
            # cards claimed by a seat (no tasks): the low-card bound alone
            if not self.claimed or not self.check_order:
                return False
            return self._low_card_bound(self._need) or sum(self._need.values()) > self.total - self.ntricks
        owner_of = self.owner_of_card
        hands = self.hands
        counts: dict[tuple[int, int], int] = {}
        while m:
            low = m & -m
            m ^= low
            o = owner_of[low.bit_length() - 1]
            if o < 0:
                continue
            for h, hand in enumerate(hands):
                if hand & low:
                    counts[o, h] = counts.get((o, h), 0) + 1
                    break
        need = self._need
        for (o, _h), k in counts.items():
            if k > need.get(o, 0):
                need[o] = k
        left = self.total - self.ntricks
        if self.undrafted:
            # free draft: a seat still to take q tasks (besides its f open ones) needs ceil((q + f) / n) more
            # tricks (a trick holds n cards); all the open task cards of one hand need a trick each
            own: dict[int, int] = {}
            for (o, _h), k in counts.items():
                own[o] = own.get(o, 0) + k
            n = self.n
            for seat, q in enumerate(self.quota_left):
                if q:
                    k = -(-(q + own.get(seat, 0)) // n)
                    if k > need.get(seat, 0):
                        need[seat] = k
            for hand in hands:
                if (hand & self.open_tasks).bit_count() > left:
                    return True
        if self.check_order and self._low_card_bound(need):
            return True
        return sum(need.values()) > left

    def _low_card_bound(self, need: dict[int, int]) -> bool:
        """A seat ``o`` holds ``L``, its lowest card of a plain suit ``s`` that is an open task of its own (or a
        card it claims, :attr:`claimed`, when ``o`` plays all its cards: then it is played and won by ``o``).

        ``L`` must win its trick, so by then a hand with no ``s`` card below ``L`` is void in ``s``, and until
        then ``o`` holds ``L``: in a trick led in ``s`` ``o`` follows with an ``s`` card, so an ``o`` task of ``s``
        in such a hand is won there only under a higher ``s`` card of ``o`` (one per trick: a greedy matching,
        lowest task first, to the lowest free higher card), and every other one is discarded on a trick of
        another suit that ``o`` wins with a card outside ``s``. Per ``s`` and ``o``: ``o`` needs at least as
        many cards outside ``s`` as the most such tasks of one hand (else lost: True), and as many tricks as its
        own ``s`` tasks plus that number (raised in ``need``). Mirrors ``low_card_bound`` in ``_native.c``."""
        rem = self.remaining
        hands = self.hands
        open_tasks = self.open_tasks & ~self.undrafted
        watch = open_tasks | (self.claimed & rem)  # each one played must go to its owner
        left = self.total - self.ntricks
        owner_of = self.owner_of_card
        lower = self.lower_mask
        higher = self.higher_mask
        for sm in self.suit_masks:
            sm &= self.order_cards
            ws = watch & sm
            if not ws:
                continue
            for o, hand_o in enumerate(hands):
                so = hand_o & sm
                # o's own s cards to win (a claimed one only when o plays all its cards)
                spare = hand_o.bit_count() > left
                mine = 0
                m = so & (open_tasks if spare else ws)
                while m:
                    low = m & -m
                    m ^= low
                    if owner_of[low.bit_length() - 1] == o:
                        mine |= low
                if not mine:
                    continue
                low = (mine & -mine).bit_length() - 1  # L (ids in rank order within a suit)
                most = 0
                for x, hand in enumerate(hands):
                    if x == o or hand & sm & lower[low]:
                        continue  # x may follow under L
                    k = 0
                    free = so
                    m = hand & ws
                    while m:
                        h = (m & -m).bit_length() - 1
                        m &= m - 1
                        if owner_of[h] != o:
                            continue
                        up = higher[h] & free
                        if up:
                            free &= ~(up & -up)
                        else:
                            k += 1
                    most = max(most, k)
                if not most:
                    continue
                outside = (hand_o & ~sm).bit_count()
                if outside < most:
                    self.low_card_why = (o, low, most, outside)
                    return True
                own = mine.bit_count()
                if own + most > need.get(o, 0):
                    need[o] = own + most
        return False

    def _sweeps(self) -> bool:
        """Free draft: the leader wins every trick left, yet another seat must still take a task.

        When no card outside the leader's hand beats any of the leader's cards led, the leader wins the
        trick whatever it leads, leads again, and so on to the end (standard trick rules): a seat with
        tasks still to take, or an open task of another owner, can never be done.
        """
        leader = self.leader
        hand = self.hands[leader]
        threat = 0
        m = hand
        beaters = self.beaters
        while m:
            low = m & -m
            m ^= low
            threat |= beaters[low.bit_length() - 1]
        if threat & self.remaining & ~hand:
            return False
        if any(q for seat, q in enumerate(self.quota_left) if seat != leader):
            return True
        m = self.open_tasks & ~self.undrafted
        owner_of = self.owner_of_card
        while m:
            low = m & -m
            m ^= low
            if owner_of[low.bit_length() - 1] != leader:
                return True
        return False

    def _doomed(self) -> bool:
        """A static proof that the open tasks cannot all be done: self-won tasks that need each other first.

        A *self-won* task card ``c`` (suit ``s``, not trump) is held by its owner ``o``, so ``c`` itself must
        win its trick ``T_c``: ``s`` is led, nobody plays a trump or a higher ``s`` card, and nobody gives
        away another owner's task card. A seat ``x`` whose ``s`` cards are all higher than ``c`` or tasks of
        other owners must therefore be void in ``s`` at ``T_c``. If ``x`` holds its own self-won task ``d``
        of suit ``s``, ``d`` is played before ``c``: ``T_d < T_c``. A cycle of such orders is impossible.
        """
        open_tasks = self.open_tasks
        hands = self.hands
        owner_of = self.owner_of_card
        selfwon: list[int] = []
        m = open_tasks & self.order_cards
        while m:
            low = m & -m
            m ^= low
            cid = low.bit_length() - 1
            o = owner_of[cid]
            if o >= 0 and hands[o] & low:
                selfwon.append(cid)
        k = len(selfwon)
        if k < 2:
            return False
        owned = [0] * self.n
        m = open_tasks
        while m:
            low = m & -m
            m ^= low
            o = owner_of[low.bit_length() - 1]
            if o >= 0:
                owned[o] |= low
        suit_of = self.card_suit
        suit_masks = self.suit_masks
        lower = self.lower_mask
        reach = [0] * k
        any_edge = False
        for i, c in enumerate(selfwon):
            o = owner_of[c]
            s = suit_of[c]
            others_tasks = open_tasks & ~owned[o] & ~self.undrafted  # an undrafted task may go to o
            for j, d in enumerate(selfwon):
                x = owner_of[d]
                if x == o or suit_of[d] != s:
                    continue
                held = hands[x] & suit_masks[s]
                if not held & lower[c] & ~others_tasks:
                    reach[j] |= 1 << i  # x must be void in s at T_c: T_d < T_c
                    any_edge = True
        if not any_edge:
            return False
        for mid in range(k):
            bit = 1 << mid
            via = reach[mid]
            for i in range(k):
                if reach[i] & bit:
                    reach[i] |= via
        return any((reach[i] >> i) & 1 for i in range(k))

    def _goal_out_of_reach(self) -> bool:
        """At a trick start: the goal's cards (see :meth:`_goal`) cannot win the tricks its condition still needs
        (a sound bound: standard trick rules, ``check_order``).

        A goal card ``g`` of suit ``s`` weak in every other led suit, when no other hand holds a weaker card of
        ``s``, wins only a trick ``T`` (1: this one) that its holder ``h`` leads, so ``h`` won trick ``T - 1`` (or
        leads now when ``T`` is 1), and every other hand ``x`` must be void in ``s`` by then (it must follow
        with a stronger card): its ``k`` cards of ``s`` take ``k`` tricks first. A trick led in ``s`` takes
        ``g`` unless ``h`` follows with another card of ``s``, so when ``k`` exceeds those, ``x`` discards a card
        of ``s`` on another suit's lead, void in it first (its fewest cards of a suit); and with no other card of
        ``s`` in ``h``, ``x`` leading now plays another suit. In ``T``, ``x`` plays a card of another suit that
        does not beat ``g`` (not a trump): without one, ``g`` never wins. Goal wins in tricks ``T`` and ``T + 1`` need one
        holder when the second card wins only a trick it leads. Lost when no choice of distinct tricks gives
        the wins still needed.
        """
        if self.cond_done[self.goal_cond]:
            return False
        won = 0
        for w in self.winmask:
            won |= w
        # the last trick's goal: one win, in the last trick (any trick from 1 to left: the same test)
        need = 1 if self.goal_last else self.goal_k - (won & self.goal_mask).bit_count()
        if need <= 0:
            return False
        left = self.total - self.ntricks
        hands = self.hands
        n = self.n
        leader = self.leader
        suit_masks = self.suit_masks
        nsuits = len(suit_masks)
        cands: list[tuple[int, int]] = []  # (earliest trick it can win, holder; -2 - holder: may win following)
        g = self.goal_mask & self.remaining
        while g:
            gbit = g & -g
            g ^= gbit
            gc = gbit.bit_length() - 1
            h = next(x for x in range(n) if hands[x] & gbit)
            e, hold, s = 1, -2 - h, self.card_suit[gc]
            if (self.lead_only >> gc) & 1:
                row = self.power[s + 1]
                spare = (hands[h] & suit_masks[s]).bit_count() - 1
                e = 1 if h == leader else 2
                hold = h
                for x in range(n):
                    if x == h:
                        continue
                    m = hands[x] & suit_masks[s]
                    k = m.bit_count()
                    if any(row[c] < row[gc] for c in range(m.bit_length()) if (m >> c) & 1):
                        e, hold = 1, -2 - h  # another hand may lead a weaker card of s: g may win following
                        break
                    o = hands[x] & ~suit_masks[s]
                    if not any(row[c] < row[gc] for c in range(o.bit_length()) if (o >> c) & 1):
                        e = left + 1  # x holds no card that lets g win (not of s, nor stronger: a trump)
                        break
                    if not k:
                        continue
                    other = 0
                    if k > spare:
                        other = min((hands[x] & suit_masks[t]).bit_count() for t in range(nsuits) if t != s)
                    if spare <= 0 and x == leader and other < 1:
                        other = 1
                    e = max(e, k + other + 1)
            if e <= left:
                cands.append((e, hold))
        if len(cands) < need or not _goal_fits(cands, 1, left, need, 0, -1):
            return True
        return self.goal_counts and goal_counts.short(self, need, left, self.goal_last)

    def _max_power(self, seat: int, led: int) -> int:
        """The strongest card ``seat`` could play in a trick led in ``led`` (a superset of its legal plays)."""
        hand = self.hands[seat]
        if led >= 0 and self.must_follow:
            follow = hand & self.suit_masks[led]
            if follow:
                hand = follow | (hand & self.free_mask)
        best = 0
        power = self.power
        suit_of = self.card_suit
        while hand:
            low = hand & -hand
            cid = low.bit_length() - 1
            p = power[(led if led >= 0 else suit_of[cid]) + 1][cid]
            if p > best:
                best = p
            hand ^= low
        return best

    def _moves(self, pos: int, best_pow: int, best_seat: int, best_cid: int, towner: int
               ) -> tuple[int, int, list[tuple[int, int, int, int, int, int, int]]]:
        """The player to move, its hand, and its plays in search order as (score, card, led suit, winning
        power, winning seat, winning card, task owner of the trick) after the play."""
        n = self.n
        leader = self.leader
        seat = leader + pos
        if seat >= n:
            seat -= n
        hands = self.hands
        hand = hands[seat]
        led = self.led
        if led >= 0 and self.must_follow:
            legal = hand & self.suit_masks[led]
            if legal:
                legal |= hand & self.free_mask
            else:
                legal = hand
        else:
            legal = hand
        if self.free_mask:
            forbidden = 0
            if self.ntricks == 0:
                forbidden |= self.free_not_first
            if self.ntricks + 1 == self.total:
                forbidden |= self.free_not_last
            if forbidden and legal & ~forbidden:
                legal &= ~forbidden

        open_tasks = self.open_tasks
        watch = open_tasks | self.claimed  # cards whose trick must go to their owner
        merge = self.merge
        remaining = self.remaining
        suit_of = self.card_suit
        power = self.power
        owner_of = self.owner_of_card
        order_rank = self.order_rank
        moves: list[tuple[int, int, int, int, int, int, int]] = []
        maxp: dict[int, int] = {}
        higher_of = self.higher_mask
        played = self.played_tab[leader][pos]  # seats that have played in this trick, this one included
        prow = power[led + 1] if led >= 0 else None
        # free draft: undrafted task cards go to the trick's winner, who must still have room for them
        undrafted = self.undrafted & open_tasks
        free_on_table = self.table & undrafted
        quota_left = self.quota_left
        goal = self.goal_mask if self.goal_mask and not self.cond_done[self.goal_cond] else 0
        # the last trick's goal before the last trick: a goal card's win is spent, so keep them back
        goal_early = self.goal_last and self.ntricks + 1 < self.total
        # the suits of the goal cards still to play, of those in this hand, and (leading) of those another hand
        # holds alone in their suit: a lead in that suit takes the goal card
        gsuits = hsuits = lone = 0
        g = goal & remaining
        while g:
            gbit = g & -g
            g ^= gbit
            if suit_of[gbit.bit_length() - 1] >= 0:
                gmask = self.card_suit_mask[gbit.bit_length() - 1]
                gsuits |= gmask
                if hand & gbit:
                    hsuits |= gmask
                elif pos == 0:
                    holder = next(h for h in hands if h & gbit)
                    if not holder & gmask & ~gbit:
                        lone |= gmask
        # with an open goal: this hand's last card above an open task card of its own that another hand holds
        # (without a trump, the one card that can take it following suit): played away, tried late
        more = goal and self.goal_move_order
        keep = self._task_keepers(seat, hand) if more else 0
        # with an open goal: the owner of the task next in order, holding its card, wants the lead (-1: none)
        nxt_owner = self._next_task_holder() if more and self.numbered else -1
        # card-blind conditions: the seats that may win this trick (the others break a condition)
        allowed = self._winner_verdicts()[0] if self.card_blind else -1
        if self.guard is not None:
            gs = self._guard_state()
            if gs is not None:
                allowed &= self.guard.allowed(gs) if gs >= 0 else 0
        m = legal
        while m:
            bit = m & -m
            m ^= bit
            cid = bit.bit_length() - 1
            s = suit_of[cid]
            is_task = watch & bit
            if merge and not open_tasks & bit and s >= 0:
                above = remaining & higher_of[cid]
                if above:
                    nxt = above & -above
                    if legal & nxt and not open_tasks & nxt:
                        continue  # interchangeable with the next higher card: try the top of the run only
            if prow is not None:
                nl = led
                p = prow[cid]
            else:
                nl = s
                p = power[s + 1][cid]
            if p > best_pow:
                w, wp, wc = seat, p, cid
            else:
                w, wp, wc = best_seat, best_pow, best_cid
            if not (allowed >> w) & 1:
                # a seat the conditions forbid is winning: someone allowed yet to play must beat it
                for x in range(n):
                    if (allowed >> x) & 1 and not (played >> x) & 1:
                        mk = x * 16 + nl
                        mp = maxp.get(mk)
                        if mp is None:
                            mp = maxp[mk] = self._max_power(x, nl)
                        if mp > wp:
                            break
                else:
                    continue  # the trick goes to a seat the conditions forbid: lost
            o = towner
            if is_task and not bit & undrafted:
                to = owner_of[cid]
                if to < 0 or (o >= 0 and o != to):
                    continue  # nobody owns it, or two owners in one trick: lost
                o = to
            rank = order_rank[cid]
            free = free_on_table | (bit & undrafted)
            if free:
                nf = free.bit_count()
                if o >= 0:
                    if quota_left[o] < nf:
                        continue  # the owner of the trick's task has no room for its undrafted tasks
                elif quota_left[w] < nf:
                    # the trick must go to a seat yet to play with room for its undrafted tasks
                    for x in range(n):
                        if quota_left[x] >= nf and not (played >> x) & 1:
                            mk = x * 16 + nl
                            mp = maxp.get(mk)
                            if mp is None:
                                mp = maxp[mk] = self._max_power(x, nl)
                            if mp > wp:
                                break
                    else:
                        continue  # nobody with room can win the trick any more: lost
            if o >= 0:
                if (played >> o) & 1:
                    if w != o:
                        continue  # the owner has played and is beaten: lost
                    score = 3000 + (500 if is_task else 0) - rank
                    if pos == 0:
                        # leading one's own task card: best when nothing left in the suit beats it
                        if not (remaining & ~hand & higher_of[cid]):
                            score += 400
                else:
                    mk = o * 16 + nl
                    mp = maxp.get(mk)
                    if mp is None:
                        mp = maxp[mk] = self._max_power(o, nl)
                    if mp <= wp:
                        continue  # the owner cannot beat the trick any more: lost
                    score = 1000 - rank
            elif pos == 0 and self._leads_to_own_task(seat, cid):
                score = 2000 + rank
            elif bit & undrafted and quota_left[w] >= nf:
                score = 1500 - rank  # free draft: an undrafted task to a seat with room for it
            elif keep & bit:
                score = -600 - rank  # the last card above its own task card another hand holds: tried late
            elif goal and wc >= 0 and (goal >> wc) & 1 and not goal_early and (
                    pos or not remaining & ~hand & higher_of[cid]):
                # a goal card wins the trick so far: leading one nobody else can follow with a higher card,
                # or keeping one on top (discarding rather than overtaking)
                score = 900 - rank
            elif more and pos == 0 and bit & goal and not goal_early and (glh := self._goal_lead_holds(seat, cid)):
                # a goal card led that every other hand can stay under; one a hand may have to overtake with a goal
                # card of its own: not tried last
                score = (850 if glh == 2 else -500) - rank
            elif nxt_owner >= 0 and self._gives_lead(pos, seat, nxt_owner, nl, p, best_pow, played, maxp):
                score = 700 - rank  # the next task's owner takes the trick (and the lead) with its highest card
            elif goal and bit & goal:
                score = -1000 - rank  # a goal card that cannot win this trick: spent, tried last
            elif pos == 0 and lone & bit:
                score = -500 - rank  # leading it takes a goal card its holder holds alone in the suit
            elif goal and pos == 0 and bit & self.trumplike and not hand & goal:
                # a trump led by a hand without a goal card (a holder keeps its trumps to take the lead back):
                # the hands void in its suit discard (the goal's suits)
                score = 600 + rank
            elif pos == 0 and gsuits & bit:
                score = 500 + rank  # lead high in a goal card's suit: the other hands run out of it
            elif pos and nl != s and gsuits & bit & ~hsuits:
                score = 500 - rank  # discard in a goal card's suit whose goal card this hand does not hold
            else:
                score = -rank
            moves.append((score, cid, nl, wp, w, wc, o))
        if len(moves) > 1:
            moves.sort(reverse=True)
        return seat, hand, moves

    def _play(self, pos: int, best_pow: int, best_seat: int, best_cid: int, towner: int) -> bool:
        seat, hand, moves = self._moves(pos, best_pow, best_seat, best_cid, towner)
        if self._only >= 0:  # run_split: this one first play only
            moves = [mv for mv in moves if mv[1] == self._only]
            self._only = -1
        elif self._split is not None and not pos and self.ntricks == self._split[2] and len(moves) > 1:
            return self._play_split(seat, hand, moves)
        return self._play_moves(pos, seat, hand, moves)

    def _play_split(self, seat: int, hand: int, moves: list[tuple[int, int, int, int, int, int, int]]) -> bool:
        """run_split's next trick: its leads side by side, with node budgets growing as for the first card (the
        plays whose budget ran out are tried again with the next one; what they proved lost stays in the table)."""
        assert self._split is not None
        budget, growth = self._split[0], self._split[1]
        while moves:
            left = []
            for mv in moves:
                outer = self.max_nodes
                limit = self.nodes + budget
                if outer is not None and limit > outer:
                    limit = outer
                self.max_nodes = limit
                if self._next_check > limit:
                    self._next_check = limit
                saved = self._snapshot()
                try:
                    ok = self._play_moves(0, seat, hand, [mv])
                except SearchAborted as exc:
                    self.max_nodes = outer
                    if str(exc) == "time" or (outer is not None and self.nodes >= outer):
                        raise
                    self._restore(saved)
                    left.append(mv)
                    continue
                self.max_nodes = outer
                if ok:
                    return True
            moves = left
            budget *= growth
        return False

    _STATE_LISTS = ("hands", "won", "tricks_won", "winmask", "plays", "cond_done", "quota_left", "trick_objs")
    _STATE_VALUES = ("leader", "led", "ntricks", "open_tasks", "ndone", "_seq", "remaining", "table")

    def _snapshot(self) -> tuple[Any, ...]:
        """The position's state, to restore after an aborted play (:meth:`_play_split`): the lists as objects
        (the search keeps references to some) and contents."""
        return ([(getattr(self, k), list(getattr(self, k))) for k in self._STATE_LISTS],
                [getattr(self, k) for k in self._STATE_VALUES], [t.trick for t in self.task_objs],
                dict(self.trick_by_card), len(self.line), dict(self.free_owners))

    def _restore(self, saved: tuple[Any, ...]) -> None:
        lists, values, task_tricks, trick_by_card, nline, free_owners = saved
        for k, (obj, content) in zip(self._STATE_LISTS, lists, strict=True):
            obj[:] = content
            setattr(self, k, obj)
        for k, v in zip(self._STATE_VALUES, values, strict=True):
            setattr(self, k, v)
        for t, trick in zip(self.task_objs, task_tricks, strict=True):
            t.trick = trick
        self.trick_by_card.clear()
        self.trick_by_card.update(trick_by_card)
        del self.line[nline:]
        self.free_owners.clear()
        self.free_owners.update(free_owners)

    def _play_moves(self, pos: int, seat: int, hand: int, moves: list[tuple[int, int, int, int, int, int, int]]
                    ) -> bool:
        n = self.n
        hands = self.hands
        led = self.led
        last = pos == n - 1
        plays = self.plays
        after_play = self.after_play
        end_trick = self._end_trick
        play = self._play
        for _score, cid, nl, wp, w, wc, o in moves:
            self.nodes += 1
            if self.nodes >= self._next_check:
                self._check_budget()
            bit = 1 << cid
            hands[seat] = hand ^ bit
            plays.append((seat, cid))
            self.table |= bit
            self.led = nl
            if last:
                ok = end_trick(w, wc, o)
            elif not after_play:
                ok = play(pos + 1, wp, w, wc, o)
            else:
                ok = True
                undo: list[int] = []
                if after_play:
                    ok, undo = self._conditions(after_play)
                if ok:
                    ok = self._play(pos + 1, wp, w, wc, o)
                for i in undo:
                    self.cond_done[i] = False
            self.led = led
            self.table ^= bit
            plays.pop()
            hands[seat] = hand
            if ok:
                self.line.append((seat, cid))
                return True
        return False

    def _next_task_holder(self) -> int:
        """The owner of the open numbered task to be done next when it holds that task's card, else -1 (move
        order only; the C search's next_task_holder)."""
        k = self.ndone + 1
        for i, kk in self.numbered:
            if kk == k:
                cid = self.task_objs[i].card.id
                o = self.owner_of_card[cid]
                if o >= 0 and (self.open_tasks >> cid) & 1 and (self.hands[o] >> cid) & 1:
                    return o
                return -1
        return -1

    def _gives_lead(self, pos: int, seat: int, x: int, nl: int, p: int, best_pow: int, played: int,
                    maxp: dict[int, int]) -> bool:
        """Move order only: after this play (power ``p`` in a trick led in ``nl``), seat ``x`` surely wins the
        trick: leading, ``x`` can play above every other hand; ``x`` playing, nobody yet to play can beat it."""
        if pos == 0:
            if x == seat:
                return False
            mk = x * 16 + nl
            top = maxp.get(mk)
            if top is None:
                top = maxp[mk] = self._max_power(x, nl)
            if top <= p:
                return False
        else:
            if x != seat or p <= best_pow:
                return False
            top = p
        for y in range(self.n):
            if y != x and not (played >> y) & 1:
                mk = y * 16 + nl
                mp = maxp.get(mk)
                if mp is None:
                    mp = maxp[mk] = self._max_power(y, nl)
                if mp >= top:
                    return False
        return True

    def _task_keepers(self, seat: int, hand: int) -> int:
        """The cards of ``hand`` (``seat``'s, holding no trump) each the only one above an open task card of
        ``seat``'s suit that another hand holds (move order only; the C search's task_keepers)."""
        if hand & self.trumplike:
            return 0
        keep = 0
        owner_of = self.owner_of_card
        m = self.open_tasks & self.remaining & ~hand & ~self.table
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            if owner_of[t] == seat:
                above = hand & self.higher_mask[t]
                if above and not above & (above - 1):
                    keep |= above
        return keep

    def _goal_lead_holds(self, seat: int, cid: int) -> int:
        """Goal card ``cid`` led by ``seat`` (move order only): 2 when every other hand can play a card weaker than
        ``cid`` in the trick, 1 when some can only play a goal card above it (still a goal trick), else 0 (the C
        search's goal_lead_holds)."""
        s = self.card_suit[cid]
        if s < 0:
            return 0
        row = self.power[s + 1]
        p = row[cid]
        smask = self.suit_masks[s]
        strict = True
        for x in range(self.n):
            if x == seat:
                continue
            h = self.hands[x]
            if self.must_follow and h & smask:
                h = (h & smask) | (h & self.free_mask)
            k = h
            while k:
                low = k & -k
                if row[low.bit_length() - 1] < p:
                    break
                k ^= low
            else:
                if not h & self.goal_mask:
                    return 0
                strict = False
        return 2 if strict else 1

    def _leads_to_own_task(self, seat: int, cid: int) -> bool:
        """Leading ``cid`` could draw out a lower task card of ``seat`` held by another seat."""
        s = self.card_suit[cid]
        if s < 0:
            return False
        m = self.open_tasks & self.suit_masks[s] & ~self.hands[seat] & ((1 << cid) - 1)
        owner_of = self.owner_of_card
        while m:
            low = m & -m
            if owner_of[low.bit_length() - 1] == seat:
                return True
            m ^= low
        return False

    def _conditions(self, which: Sequence[int]) -> tuple[bool, list[int]]:
        """Evaluate conditions ``which``: (alive, indices newly done)."""
        view = self.view
        done: list[int] = []
        conds = self.conditions
        cond_done = self.cond_done
        for i in which:
            if cond_done[i]:
                continue
            c = conds[i]
            if c.fail_if is not None and c.fail_if(view, {}):
                for j in done:
                    cond_done[j] = False
                return False, []
            if c.done_if is not None and c.done_if(view, {}):
                cond_done[i] = True
                done.append(i)
        return True, done

    def _winner_verdicts(self, which: tuple[int, ...] | None = None
                         ) -> tuple[int, tuple[tuple[bool, tuple[int, ...]], ...]]:
        """Card-blind conditions, for the trick in progress: (mask of the seats whose win keeps every condition
        alive, per seat (alive, conditions newly done)), memoised on the sequence of trick winners so far.
        ``which``: only these conditions (indices into ``self.conditions``; default: all of them).

        A card-blind condition reads only trick winners, numbers and counts
        (crewkit.families.trick_taking.solve.compiled.card_blind), so its verdict after a trick is a function
        of the winners' sequence: it is evaluated once per sequence and winner, with a stand-in trick that has
        the right number, leader and winner (its cards unread).
        """
        seq = self._seq
        memo = self._wmemo if which is None else self._wmemo_subset.setdefault(which, {})
        v = memo.get(seq)
        if v is not None:
            return v
        conds = self.all_conditions if which is None else which
        number = len(seq) + 1
        leader = self.leader
        stand_in = self.cards[0]
        out: list[tuple[bool, tuple[int, ...]]] = []
        mask = 0
        saved_tricks = self.trick_objs
        for w in range(self.n):
            self.trick_objs = [*saved_tricks, Trick(number, leader, (), w, stand_in, None)]
            self.tricks_won[w] += 1
            try:
                ok, done = self._conditions(conds)
                for i in done:
                    self.cond_done[i] = False
            finally:
                self.tricks_won[w] -= 1
                self.trick_objs = saved_tricks
            out.append((ok, tuple(done)))
            if ok:
                mask |= 1 << w
        if len(memo) > 1_000_000:
            memo.clear()
        v = memo[seq] = (mask, tuple(out))
        return v

    def _end_trick(self, winner: int, win_cid: int, towner: int) -> bool:
        mask = self.table
        if self.plain_fast:
            return self._end_trick_plain(winner, towner, mask)
        m = mask & self.open_tasks
        if m and self.undrafted:
            free = m & self.undrafted
            if free:
                if m != free and towner != winner:
                    return False
                return self._take_free(free, winner, self._end_trick_owned, winner, win_cid, winner)
        return self._end_trick_owned(winner, win_cid, towner)

    def _end_trick_owned(self, winner: int, win_cid: int, towner: int) -> bool:
        mask = self.table
        if mask & self.claimed and towner != winner:
            return False  # a claimed card to another seat: its condition fails
        number = self.ntricks + 1
        completed: list[int] = []
        m = mask & self.open_tasks
        if m:
            if towner != winner:
                return False
            tof = self.task_of_card
            while m:
                low = m & -m
                completed.append(tof[low.bit_length() - 1])
                m ^= low
        before = self.ndone
        after = before + len(completed)
        if completed and self.has_tokens and not self._tokens_ok(completed, before, after):
            return False
        ntasks = self.ntasks
        conditions = self.conditions
        if not conditions and after == ntasks and (number >= self.total or (ntasks and not self.late_win)):
            return True  # the fast path: every task done
        if self.plain:
            # no conditions, no draws: only the state the search itself reads changes
            if number >= self.total:
                return False
            task_objs = self.task_objs
            for t in completed:
                task_objs[t].trick = number
            result = self._descend_plain(mask, winner, before, after, number)
            for t in completed:
                task_objs[t].trick = None
            return result

        verdict = self._winner_verdicts()[1][winner] if self.card_blind else None
        if self.guard is not None:
            gs = self._guard_state()
            if gs is not None and (gs < 0 or self.guard.children[gs][winner] < 0):
                return False  # no later winners satisfy the card-blind conditions
        # apply the trick
        saved_plays = self.plays
        saved_led = self.led
        saved_leader = self.leader
        saved_remaining = self.remaining
        self.won[winner] |= mask
        self.tricks_won[winner] += 1
        win_bit = 1 << win_cid if win_cid >= 0 else 0
        had_win_bit = self.winmask[winner] & win_bit
        self.winmask[winner] |= win_bit
        self.ntricks = number
        task_objs = self.task_objs
        for t in completed:
            task_objs[t].trick = number
        self.open_tasks &= ~mask
        self.ndone = after
        tobj = None
        if conditions:
            cards = self.cards
            wc = win_cid if win_cid >= 0 else saved_plays[0][1]
            tobj = Trick(number, saved_leader, tuple((s, cards[c]) for s, c in saved_plays), winner,
                         cards[wc], self.deck.suits[saved_led] if saved_led >= 0 else None)
            self.trick_objs.append(tobj)
            for _, c in saved_plays:
                self.trick_by_card[c] = tobj
            self._seq += (winner,)
        self.plays = []
        self.led = -1
        self.leader = winner
        saved_hands: list[int] | None = None
        try:
            ok = True
            undo: list[int] = []
            if verdict is not None:
                ok, newly = verdict
                undo = [i for i in newly if not self.cond_done[i]]
                for i in undo:
                    self.cond_done[i] = True
            elif conditions:
                ok, undo = self._conditions(self.all_conditions)
            if ok:
                last = number >= self.total
                conds_done = all(
                    d or (last and c.done_if is None) for d, c in zip(self.cond_done, conditions, strict=True)
                )
                if after == ntasks and conds_done and (ntasks or last or conditions) and (
                        last or not self.late_win):
                    result = True
                elif last:
                    result = False
                else:
                    if self.draws:
                        saved_hands = list(self.hands)
                        self._draw(number)
                    if self._after_native is not None and all(after <= number for after, _ in self.draws):
                        result = self._after_draws()
                    else:
                        result = self._trick_start()
            else:
                result = False
            for i in undo:
                self.cond_done[i] = False
            return result
        finally:
            if saved_hands is not None:
                self.hands[:] = saved_hands
            self.leader = saved_leader
            self.led = saved_led
            self.plays = saved_plays
            self.remaining = saved_remaining
            self.table = mask
            self.ndone = before
            for t in completed:
                task_objs[t].trick = None
                self.open_tasks |= task_objs[t].card.bit
            if tobj is not None:
                self.trick_objs.pop()
                for _, c in saved_plays:
                    del self.trick_by_card[c]
                self._seq = self._seq[:-1]
            self.ntricks = number - 1
            self.won[winner] &= ~mask
            self.tricks_won[winner] -= 1
            if not had_win_bit:
                self.winmask[winner] &= ~win_bit

    def _end_trick_plain(self, winner: int, towner: int, mask: int) -> bool:
        """``_end_trick`` without conditions, draws or task tokens: only the masks the search reads change."""
        m = mask & self.open_tasks
        if m and self.undrafted:
            free = m & self.undrafted
            if free:
                if m != free and towner != winner:
                    return False
                return self._take_free(free, winner, self._end_trick_plain_owned, winner, mask)
        if m and towner != winner:
            return False
        return self._end_trick_plain_owned(winner, mask)

    def _take_free(self, free: int, winner: int, then: Any, *args: Any) -> bool:
        """Free draft: ``winner`` takes the undrafted tasks ``free`` it has just won (if it has room for them),
        then ``then(*args)``; its room is given back afterwards (the owners are read off the winning line)."""
        k = free.bit_count()
        quota_left = self.quota_left
        if quota_left[winner] < k:
            return False
        quota_left[winner] -= k
        try:
            return bool(then(*args))
        finally:
            quota_left[winner] += k

    def _owners_from_line(self) -> dict[int, int]:
        """Free draft, after a win from a trick start: card id -> the seat that wins it, for each undrafted
        task on the line (the engine's trick winner: the strongest card, the first of equals)."""
        out: dict[int, int] = {}
        n = self.n
        line = self.line
        power = self.power
        suit_of = self.card_suit
        for start in range(0, len(line) - n + 1, n):
            trick = line[start:start + n]
            led = suit_of[trick[0][1]]
            row = power[led + 1]
            best, winner = -1, trick[0][0]
            for seat, cid in trick:
                if row[cid] > best:
                    best, winner = row[cid], seat
            for _seat, cid in trick:
                if (self.undrafted >> cid) & 1:
                    out[cid] = winner
        return out

    def _end_trick_plain_owned(self, winner: int, mask: int) -> bool:
        m = mask & self.open_tasks
        before = self.ndone
        after = before + m.bit_count()
        number = self.ntricks + 1
        ntasks = self.ntasks
        if after == ntasks and (number >= self.total or (ntasks and not self.late_win)):
            return True
        if number >= self.total:
            return False
        return self._descend_plain(mask, winner, before, after, number)

    def _descend_plain(self, mask: int, winner: int, before: int, after: int, number: int) -> bool:
        """Search on from the end of trick ``number`` (no conditions, no draws), then restore the state."""
        saved_plays = self.plays
        saved_led = self.led
        saved_leader = self.leader
        saved_remaining = self.remaining
        open_before = self.open_tasks
        self.open_tasks = open_before & ~mask
        self.ndone = after
        self.ntricks = number
        self.plays = []
        self.led = -1
        self.leader = winner
        self.remaining = saved_remaining & ~mask
        result = self._trick_body()
        self.leader = saved_leader
        self.led = saved_led
        self.plays = saved_plays
        self.remaining = saved_remaining
        self.table = mask
        self.ndone = before
        self.open_tasks = open_before
        self.ntricks = number - 1
        return result

    def _tokens_ok(self, completed: list[int], before: int, after: int) -> bool:
        """The kernel's token-order verdict (crewkit.families.trick_taking.engine.kernel.token_violation), as
        the engine judges it."""
        now = 0
        for i in completed:
            now |= 1 << i
        pending = now
        for i, t in enumerate(self.task_objs):
            if t.trick is None:
                pending |= 1 << i
        return token_violation(self.token_kind, self.token_k, pending, now, before) is None

    def _after_draws(self) -> bool:
        """The C search from this trick start, every draw made (a plain deal from here); its line joins
        :attr:`line` (collected backwards) and its plays count 1/``native_weight`` in :attr:`nodes`."""
        from crewkit.families.trick_taking.solve.native import R_LOST, R_NODES, R_WIN

        weight = max(1, self.native_weight)
        budget = None if self.max_nodes is None else max(1, (self.max_nodes - self.nodes) * weight)
        seconds = None if self.deadline is None else self.deadline - time.perf_counter()
        native = self._after_native
        before = native.nodes
        code, line = native.run(self, budget, seconds)
        done = native.nodes - before
        self.native_plays += done
        carry = self._native_carry + done
        self.nodes += carry // weight
        self._native_carry = carry % weight
        if code == R_WIN:
            self.line.extend(reversed(line))
            return True
        if code == R_LOST:
            return False
        raise SearchAborted("node budget" if code == R_NODES else "time")

    def _draw(self, number: int) -> None:
        """The engine's draw_from_neighbour after trick ``number`` (its random choices are fixed by the seed)."""
        cards = self.cards
        for j, (after, source) in enumerate(self.draws):
            if after != number:
                continue
            state = self._draw_states.get(j)
            if state is None:
                raise Unsupported("the draw generator's state is unknown")
            rng = random.Random()
            rng.setstate(state)
            step = -1 if source == "right" else 1
            drawn: list[tuple[int, int, int]] = []
            for seat in range(self.n):
                giver = (seat + step) % self.n
                held = [cards[i] for i in mask_ids(self.hands[giver])]
                if held:
                    drawn.append((seat, giver, rng.choice(held).id))
            for _seat, giver, cid in drawn:
                self.hands[giver] &= ~(1 << cid)
            for seat, _giver, cid in drawn:
                self.hands[seat] |= 1 << cid
            if j + 1 < len(self.draws) and j + 1 not in self._draw_states:
                self._draw_states[j + 1] = rng.getstate()


def _matching(wants: list[int]) -> int:
    """The size of a largest matching of the items to distinct bits, item ``i`` taking a bit of ``wants[i]``
    (augmenting paths, in item order; ``sure_wins_exceed`` in _native.c does the same)."""
    match: dict[int, int] = {}  # bit -> item

    def augment(i: int, seen: list[int]) -> bool:
        m = wants[i] & ~seen[0]
        while m:
            low = m & -m
            m ^= low
            seen[0] |= low
            j = match.get(low)
            if j is None or augment(j, seen):
                match[low] = i
                return True
        return False

    return sum(1 for i, w in enumerate(wants) if w and augment(i, [0]))
