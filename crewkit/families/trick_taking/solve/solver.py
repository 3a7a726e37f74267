"""``solve(game)``: can the crew still succeed with every hand known, and how?

Phases:

- **tricks** (the usual case): the fast core (:class:`crewkit.families.trick_taking.solve.core.TrickSearch`)
  searches the plays. On 5-player gold-frame missions the optional hand-over of one task before trick 1 is
  searched too.
- **draft**: without neighbour draws or mission conditions that read cards, the draft is searched, not
  enumerated: the fast core plays the tricks with the undrafted tasks unowned, and a task goes to whoever wins
  its card, within the number of tasks each seat takes in the draft (a *free draft*, see
  :mod:`crewkit.families.trick_taking.solve.core`). On 5-player gold-frame missions each hand-over (seat o to
  seat p) is one more free-draft start in which o keeps one task fewer and p one more: o drafts one of p's
  tasks and hands it on. Otherwise every way the remaining tasks can still be drafted (each seat in draft
  order takes one) is a separate start; starts are ordered by a cheap affinity score (owners holding their
  card or higher ones) and searched with growing node budgets, so an easy winning assignment is found fast.
  Either way the line begins with the ``take-task`` actions.
- **commander's distribution** (without mission conditions or draws, the last setup step): searched as a
  free draft too, once per way the balance rule lets the tasks be counted out (each seat gets the same number
  of tasks, give or take one; with the gold frame, also after one task is handed on); the line begins with
  the answers and the commander's gifts that give each task to whoever won it.
- **setup** (questions, roles, token swaps and moves, commander's decision, the dummy's
  seat): every choice is enumerated through the engine; each setup question is answered with its first
  answer (answers change nothing a crew with full information can do). The line begins with them.
- Communication and the distress signal are never searched: they do not change the perfect-information
  answer (a game already in the distress pass is played on by passing, searched like a setup step).

Every winning line is replayed through the engine before it is returned; when the fast core does not
model a rule (the dummy seat) or its line fails to replay, the engine-driven search takes over.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import DRAFT, SUCCESS, TRICKS, Game
from crewkit.families.trick_taking.solve.core import SearchAborted, TrickSearch, Unsupported, draft_quotas
from crewkit.families.trick_taking.solve.reference import EngineSearch, search_actions

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"

# node budgets per start when several starts (task assignments, setup choices) compete
_BUDGETS: tuple[int | None, ...] = (300, 5_000, 100_000, None)
# a few starts (three tasks over three seats: 6): budgets growing threefold, so a start won within a few
# thousand plays is reached before every start has had 5,000 (authored mission 12 at 5 players); with many
# starts, the small passes would spend the solve's budget before the start that wins gets enough
_BUDGETS_FEW: tuple[int | None, ...] = (200, 600, 2_000, 6_000, 20_000, None)
_FEW_STARTS = 8
# ... and within such a start, the C search's first plays side by side with budgets growing threefold too
# (TrickSearch.run_split; tenfold with one start or many: bundled 44 at 3 players decided one deal fewer)
_SPLIT_GROWTH_FEW = 3
# one start: the next player's plays are searched side by side with these budgets, growing tenfold
_SPLIT_FIRST_BUDGET = 1_000
_SPLIT_GROWTH = 10
_MAX_STARTS = 500_000
_KEEP_SEARCHES = 64  # kept searches hold their tables (up to a few MB each after 100k plays)


@dataclass
class SolveResult:
    status: str  # winnable | unwinnable | unknown
    line: list[Action]
    nodes: int
    seconds: float
    starts: int = 1  # task assignments / setup choices searched
    note: str = ""
    engine: str = "core"  # core-c (the C search) | core (the Python search) | engine (the engine-driven fallback)
    timings: dict[str, float] = field(default_factory=dict)
    # how each mission condition was checked (TrickSearch.condition_paths; path "engine" on the fallback)
    conditions: list[dict[str, str]] = field(default_factory=list)
    # unwinnable before a card is tried: why, in words (TrickSearch.root_loss), when every start says the same
    why: str = ""

    @property
    def winnable(self) -> bool:
        return self.status == WINNABLE

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "line": [a.to_json() for a in self.line],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "starts": self.starts,
            "search": self.engine,
            "note": self.note,
            "conditions": self.conditions,
            "why": self.why,
        }


@dataclass
class _Start:
    score: int
    setup: tuple[Action, ...]  # setup actions from the base game
    base: Game  # the game the actions apply to
    draft: tuple[Game, tuple[int, ...]] | None = None  # (game at the draft, owners of its open tasks)
    after: tuple[Action, ...] = ()  # actions after the draft (a gold-frame hand-over)
    search: TrickSearch | EngineSearch | None = None
    conditions: list[dict[str, str]] | None = None  # how the search checks each condition (condition_paths)
    game: Game | None = None
    done: bool = False
    nodes: int = 0
    engine: bool = False
    native: bool = False  # the C search ran this start
    note: str = ""
    free: bool = False  # a free draft: the search decides the owners (the line begins with the take-task actions)
    hand: tuple[int, int] | None = None  # free draft with a gold-frame hand-over: (from seat, to seat)
    quotas: tuple[int, ...] | None = None  # commander's distribution: the tasks each seat ends up with
    fallback: str = ""  # why the engine-driven search took this start
    shared: bool = False  # the search came from a SearchCache: moved to this start's position before each run
    why: str = ""  # lost before a card is tried: why (TrickSearch.root_loss)
    growth: int = _SPLIT_GROWTH  # of the first plays' budgets in TrickSearch.run_split

    @property
    def prefix(self) -> tuple[Action, ...]:
        """Every action from the base game to this start (the take-task actions are built only when needed)."""
        take = _take_actions(*self.draft) if self.draft is not None else ()
        return self.setup + take + self.after


class SearchCache:
    """Trick searches kept between :func:`solve` calls on positions of one deal (a review's bisection): a search's
    table of lost positions, its compiled conditions and its C context (the C table lives in it) serve the
    next position it may search.

    Which positions a search may take without changing a verdict: those its own search could reach from the
    position it was built at (a later position of the same game: every table entry, compiled condition and
    winner-automaton state it holds is about such positions, keyed as from that position); without mission
    conditions (relative keys: a position's whole future, whatever the deal), any position of the same rules and
    tasks (the starts of one solve after a distress pass among them).
    ``base``: where a new search is built when it is an earlier position of the game than the one asked (the
    review sets the latest position it knows winnable, which comes before every position it asks about next),
    so that the following calls can share it. ``hits`` counts the calls served by a search built before.
    ``proven``: the starts a call decided, by :func:`position_key`, with their verdict (and line): the positions of
    a hand-out or a distress pass reach the same starts, which are not searched again (``proven_hits``)."""

    def __init__(self, keep: int = 2) -> None:
        self.keep = keep  # searches kept (each holds its table, up to MAX_TABLE positions); a review needs one
        self.base: Game | None = None
        self.hits = 0
        self.built = 0
        self._entries: list[tuple[tuple[Any, ...], Any, tuple[Action, ...], TrickSearch]] = []
        # starts an earlier call decided, by their whole state (position_key): (winnable, line, why)
        self.proven: dict[Any, tuple[bool, tuple[Action, ...], str]] = {}
        self.proven_hits = 0

    def verdict(self, game: Game) -> tuple[bool, tuple[Action, ...], str] | None:
        """What an earlier call proved about the start at ``game`` (the same position, however reached)."""
        if not _keyed_whole(game):
            return None
        got = self.proven.get(position_key(game))
        if got is not None:
            self.proven_hits += 1
        return got

    def prove(self, game: Game, ok: bool, line: list[Action], why: str) -> None:
        if _keyed_whole(game):
            self.proven[position_key(game)] = (ok, tuple(line), why)

    def search(self, game: Game, options: tuple[Any, ...], make: Callable[[Game], TrickSearch]) -> TrickSearch:
        """A search of ``game`` (``make(position)`` builds one; ``options`` are its other arguments)."""
        if game.rules.draws or game.phase != TRICKS:
            return make(game)  # neighbour draws: the search's draw state is its position's
        same = _same_deal(game)
        for entry in self._entries:
            key, deal, actions, search = entry
            if key == options and (deal == same or not game.conditions) and self._covers(search, actions, game):
                search.move_to(game)
                self.hits += 1
                self._entries.remove(entry)
                self._entries.insert(0, entry)
                return search
        root = game
        base = self.base
        if (base is not None and base.phase == TRICKS and not base.is_over() and len(base.actions) < len(game.actions)
                and _same_deal(base) == same and tuple(game.actions[:len(base.actions)]) == tuple(base.actions)):
            root = base.clone()
        search = make(root)
        self.built += 1
        self._entries.insert(0, (options, same, tuple(root.actions), search))
        del self._entries[self.keep:]
        if root is not game:
            search.move_to(game)
        return search

    @staticmethod
    def _covers(search: TrickSearch, actions: tuple[Action, ...], game: Game) -> bool:
        built = search.game
        if game.phase != TRICKS or game.is_over() or game.rules is not built.rules or game.conditions != (
                built.conditions) or [(t.card, t.owner, t.token) for t in game.tasks] != [
                (t.card, t.owner, t.token) for t in built.tasks] or game.roles != built.roles:
            return False
        if not game.conditions and not search.draws:
            return True  # relative keys: nothing read of the past
        return len(actions) <= len(game.actions) and tuple(game.actions[:len(actions)]) == actions


def _keyed_whole(game: Game) -> bool:
    """Whether :func:`position_key` holds all of ``game``'s state: not with neighbour draws (the draw state) or
    state a plug-in's hook keeps on the game."""
    return not game.rules.draws and not game.hooks.clone_state


def position_key(game: Game) -> tuple[Any, ...]:
    """Everything a search from ``game`` depends on, however the game got there: two positions with equal keys
    have the same verdict. A setup step's order and the questions' answers are left out (the setup is over and
    the solver answers questions with their first answer: they change nothing) unless mission conditions
    might read them, then the log and the answers are in too."""
    key: tuple[Any, ...] = (
        id(game.rules), game.n, game.phase, game.step_index, tuple(game.hands), tuple(game.won),
        tuple(game.tricks_won), tuple(game.tricks), tuple(game.plays), game.leader, game.turn, game.commander,
        game.dealer, game.mode, game.dummy_seat, game.gold_frame_used, game.draft_turn, game.led_suit,
        tuple((t.card.id, t.token, t.owner, t.trick, t.revealed, t.number, t.mission) for t in game.tasks),
        tuple(repr(t) for t in game.task_cards), tuple(sorted(game.roles.items())), game.conditions,
        tuple(game.cond_done), tuple(sorted(game.passes.items())), game.distress_direction, game.signal_trick,
        tuple(game.comm_used), tuple(repr(c) for c in game.communications),
        tuple(repr(col) for col in game.dummy_columns), tuple(game._dummy_reveal),
        tuple(sorted((k.__name__, repr(v)) for k, v in game._states.items())), game.total_tricks, game.tasks_done,
        game._flow_index, id(game.current_block), tuple(id(b) for b in game._stack),
    )
    if game.conditions:
        key += (tuple(repr(e) for e in game.events), tuple(repr(q) for q in game.questions))
    return key


def _same_deal(game: Game) -> tuple[Any, ...]:
    """The cards each seat was dealt (held now or played), the commander, dealer and mode: what tells two deals
    apart in :class:`SearchCache` (positions of one deal agree on them)."""
    dealt = list(game.hands)
    for t in game.tricks:
        for seat, c in t.plays:
            dealt[seat] |= c.bit
    for seat, c in game.plays:
        dealt[seat] |= c.bit
    return tuple(dealt), game.commander, game.dealer, game.mode


def replays_to_success(game: Game, line: list[Action]) -> bool:
    """Apply ``line`` to a copy of ``game``: does the engine call it a success?"""
    g = game.clone()
    try:
        for a in line:
            g.apply(a)
    except IllegalAction:
        return False
    return g.is_over() and g.outcome().result == SUCCESS


def solve(
    game: Game,
    timeout: float | None = None,
    *,
    max_nodes: int | None = None,
    gold_frame: bool = True,
    history: str = "summary",
    merge: bool | None = None,
    free_draft: bool = True,
    compile_conditions: bool = True,
    native_weight: int = 1,
    cache: SearchCache | None = None,
) -> SolveResult:
    """Decide whether the crew can still succeed from ``game`` (all hands known); return a winning line.

    ``timeout`` (seconds) and ``max_nodes`` bound the search (status ``unknown`` when reached).
    ``history="full"`` keys the table on the whole trick history (for conditions reading far back);
    ``merge`` forces card merging on or off (default: on unless a condition can tell ranks apart).
    ``free_draft=False`` enumerates the task assignments of a draft even where the core could search it as a
    free draft (the older, slower way; tests compare the two). ``compile_conditions=False`` evaluates every
    mission condition through the DSL (no compiled checks, no card-blind shortcuts; tests compare the two).
    ``native_weight`` k: a play tried by the C search counts 1/k against ``max_nodes`` (it costs about that much
    less time than one of the Python search), so a budget meant as time buys the C search k times the plays.
    ``cache``: searches kept from earlier calls on positions of the same deal (see :class:`SearchCache`).
    """
    t0 = time.perf_counter()
    deadline = None if timeout is None else t0 + timeout
    # a mission's condition may be slow: its evaluation looks at the same deadline (crewkit.dsl.limits)
    from crewkit.dsl import DslInterrupted, interruptible

    try:
        with interruptible(deadline):
            return _solve(game, t0, deadline, max_nodes, gold_frame, history, merge, free_draft, compile_conditions,
                          max(1, native_weight), cache)
    except DslInterrupted:
        return SolveResult(UNKNOWN, [], 0, time.perf_counter() - t0, 0,
                           "stopped at the time limit while a condition was evaluated")


def _solve(game: Game, t0: float, deadline: float | None, max_nodes: int | None, gold_frame: bool, history: str,
           merge: bool | None, free_draft: bool, compile_conditions: bool = True,
           native_weight: int = 1, cache: SearchCache | None = None) -> SolveResult:
    from crewkit.dsl import DslInterrupted

    if game.is_over():
        status = WINNABLE if game.outcome().result == SUCCESS else UNWINNABLE
        return SolveResult(status, [], 0, time.perf_counter() - t0, 0, note=game.outcome().reason)

    try:
        starts = _starts(game, gold_frame=gold_frame, deadline=deadline, max_nodes=max_nodes, free_draft=free_draft)
    except SearchAborted as exc:
        what = "the time limit" if str(exc) == "time" else "the node budget"
        return SolveResult(UNKNOWN, [], max_nodes or 0, time.perf_counter() - t0, 0,
                           f"stopped at {what} while enumerating the setup choices")
    if isinstance(starts, SolveResult):
        starts.seconds = time.perf_counter() - t0
        return starts
    starts.sort(key=lambda s: -s.score)
    budgets = _budgets(len(starts))
    if budgets is _BUDGETS_FEW:
        for st in starts:
            st.growth = _SPLIT_GROWTH_FEW
    # with many starts, a search that ran out of budget is rebuilt on the next pass instead of kept
    keep_searches = len(starts) <= _KEEP_SEARCHES
    note = ""
    spent = 0.0  # in plays of the Python search (a C play counts 1/native_weight)

    def result(status: str, line: list[Action], why: str = "") -> SolveResult:
        engine = any(isinstance(s.search, EngineSearch) or s.engine for s in starts)
        kind = "engine" if engine else "core-c" if any(s.native for s in starts) else "core"
        conds = _condition_report(game, starts)
        return SolveResult(status, line, sum(s.nodes for s in starts), time.perf_counter() - t0, len(starts),
                           why or note, kind, conditions=conds)

    try:
        for budget in budgets:
            open_starts = [s for s in starts if not s.done]
            if not open_starts:
                break
            for st in open_starts:
                budget_here: float | None = budget
                cap: float | None = None
                if max_nodes is not None:
                    cap = max_nodes - spent
                    if cap <= 0:
                        raise SearchAborted("node budget")
                    if budget is not None:
                        budget_here = min(budget, cap)
                before = st.nodes
                try:
                    ok, line = _run_start(st, budget_here, deadline, history, merge, gold_frame, compile_conditions,
                                          cap, native_weight, cache)
                finally:
                    spent += (st.nodes - before) / (native_weight if st.native else 1)
                if st.note:
                    note = st.note
                if ok is None:
                    if not keep_searches:
                        st.search = None
                        st.game = None
                    continue  # budget reached: next pass
                st.done = True
                st.search = None
                if ok:
                    return result(WINNABLE, list(st.prefix) + line)
    except SearchAborted as exc:
        what = "the time limit" if str(exc) == "time" else "the node budget"
        return result(UNKNOWN, [], f"stopped at {what}")
    except DslInterrupted:
        return result(UNKNOWN, [], "stopped at the time limit while a condition was evaluated")
    if any(not s.done for s in starts):
        return result(UNKNOWN, [], "stopped at the node budget")
    lost = result(UNWINNABLE, [])
    whys = {s.why for s in starts}
    if len(whys) == 1:
        lost.why = whys.pop()
    return lost


def _budgets(starts: int) -> tuple[int | None, ...]:
    """The node budget of each pass over the starts (None: what is left of the solve's budget)."""
    if starts == 1:
        return (None,)
    return _BUDGETS_FEW if starts <= _FEW_STARTS else _BUDGETS


def _run_start(
    st: _Start, budget_py: float | None, deadline: float | None, history: str, merge: bool | None, gold_frame: bool,
    compile_conditions: bool = True, cap_py: float | None = None, native_weight: int = 1,
    cache: SearchCache | None = None,
) -> tuple[bool | None, list[Action]]:
    """Search one start within ``budget_py`` nodes: (True / False / None when the budget ran out, line).
    ``budget_py`` None: the pass without a budget of its own, bounded only by ``cap_py`` (what is left of the
    solve's ``max_nodes``). Both are in plays of the Python search: the C search gets ``native_weight`` times
    as many."""
    if st.game is None:
        g = st.base.clone()
        for a in st.prefix:
            g.apply(a)
        st.game = g
    game = st.game
    if game.is_over():
        return game.outcome().result == SUCCESS, []
    if cache is not None and st.search is None and game.phase == TRICKS:
        # the same start decided by an earlier call (a setup position's starts are its successors' too)
        known = cache.verdict(game)
        if known is not None and (not known[0] or replays_to_success(game, list(known[1]))):
            st.why = known[2]
            return known[0], list(known[1])
    if st.search is None:
        try:
            if game.phase != TRICKS and not (st.free and (game.phase == DRAFT or st.quotas is not None)):
                raise Unsupported(f"phase {game.phase}")
            quotas = None if st.quotas is None else list(st.quotas)
            if st.hand is not None and st.quotas is None:
                quotas = draft_quotas(game)
                quotas[st.hand[0]] -= 1
                quotas[st.hand[1]] += 1
            if cache is not None and not st.free and quotas is None:
                st.search = cache.search(game, (merge, history, compile_conditions), lambda root: TrickSearch(
                    root, merge=merge, history=history, compile_conditions=compile_conditions))
                st.shared = True
            else:
                st.search = TrickSearch(game, merge=merge, history=history, quotas=quotas,
                                        compile_conditions=compile_conditions)
            st.native = st.search.native
            st.conditions = st.search.condition_paths()
        except Unsupported as exc:
            st.search = EngineSearch(table=True, gold_frame=gold_frame)
            st.engine = True
            st.fallback = str(exc)
    search = st.search
    if st.shared and isinstance(search, TrickSearch):
        search.move_to(game)  # another start may have run it since
    scale = native_weight if st.native else 1
    if isinstance(search, TrickSearch):
        search.native_weight = native_weight  # the C search after neighbour draws (TrickSearch._after_draws)
    budget = None if budget_py is None else max(1, int(budget_py * scale))
    cap = None if cap_py is None else max(1, int(cap_py * scale))
    ok, line = _searched(st, search, game, budget, cap, deadline, gold_frame)
    if cache is not None and ok is not None and game.phase == TRICKS:
        cache.prove(game, ok, line, st.why)
    return ok, line


def _searched(st: _Start, search: TrickSearch | EngineSearch, game: Game, budget: int | None, cap: int | None,
              deadline: float | None, gold_frame: bool) -> tuple[bool | None, list[Action]]:
    before = search.nodes
    try:
        if isinstance(search, TrickSearch):
            try:
                # the first plays side by side (budgets growing tenfold): a pass without a budget of its own is
                # bounded by the solve's node cap (the check's); a pass with one (several starts) splits too
                # unless the search draws cards: one depth-first search would spend a start's budget below its
                # first card (authored mission 12; with draws, bundled 12 at 5 players decided one deal fewer)
                limit = cap if budget is None else budget
                if search.shares_positions and (budget is None or not search.draws):
                    ok, first = _split_search(search, game, deadline, limit)
                elif budget is None or not search.draws:
                    ok, first = search.run_split(deadline, max_nodes=limit, growth=st.growth), []
                else:
                    ok, first = search.run(max_nodes=budget, deadline=deadline), []
            except SearchAborted as exc:
                if str(exc) == "time":
                    raise
                return None, []
            if not ok and not st.hand:
                st.why = search.root_loss()
            line: list[Action] = first + [Play(seat, game.rules.deck.cards[cid]) for seat, cid in search.line]
            if ok and search.draft:
                take = (_distribution_actions(game, search.free_owners, st.hand) if st.quotas is not None
                        else _free_draft_actions(game, search.free_owners, st.hand))
                line = list(take) + line
            if not ok or replays_to_success(game, line):
                return ok, line
            # the core's line does not replay: trust the engine instead
            st.nodes += search.nodes - before
            st.search = search = EngineSearch(table=True, gold_frame=gold_frame)
            st.engine = True
            before = 0
            st.note = "the fast search's line did not replay through the engine; the engine-driven search was used"
            st.fallback = "the fast search's line did not replay through the engine"
        limit = cap if budget is None else budget
        search.max_nodes = None if limit is None else search.nodes + limit
        search.deadline = deadline
        try:
            ok, line = search.run(game)
        except SearchAborted as exc:
            if str(exc) == "time":
                raise
            return None, []
        return ok, line
    finally:
        st.nodes += search.nodes - before


def _condition_report(game: Game, starts: list[_Start]) -> list[dict[str, str]]:
    """How each mission condition was checked: the first fast search's paths; ``engine`` for every
    condition when a start fell back to the engine-driven search."""
    if not game.conditions:
        return []
    if any(isinstance(s.search, EngineSearch) or s.engine for s in starts):
        why = next((s.fallback for s in starts if s.fallback), "the fast search does not model this position")
        return [{"id": c.id, "path": "engine", "how": "evaluated by the engine-driven search", "why": why}
                for c in game.conditions]
    for s in starts:
        if s.conditions is not None:
            return s.conditions
    return []


def _split_search(search: TrickSearch, game: Game, deadline: float | None,
                  max_nodes: int | None = None) -> tuple[bool, list[Action]]:
    """Search each play of the player to move side by side (in the search's own order), with node budgets
    growing tenfold.

    A depth-first search that starts with a bad first play can spend millions of nodes proving it bad while
    another first play wins at once; giving every first play a budget in turn bounds that waste. All
    children share the search's table of lost positions, so the work of an exhausted budget is not lost.
    Returns (winnable, the first play) with the rest of the line in ``search.line``. ``max_nodes`` bounds the
    whole split (:class:`SearchAborted` when reached).
    """
    search.move_to(game)
    if search.lost_at_trick_start():  # the bounds of a trick start, before any first play is stepped into
        search.line = []
        return False, []
    children: list[tuple[Action, Game]] = []
    cards = game.rules.deck.cards
    seat = game.turn
    for cid in search.ordered_plays():
        action: Action = Play(seat, cards[cid])
        child = game.clone()
        child.apply(action)
        if child.is_over():
            if child.outcome().result == SUCCESS:
                search.line = []
                return True, [action]
            continue
        if child.phase != TRICKS:  # some other step follows: search the position whole
            return search.run(max_nodes=max_nodes, deadline=deadline), []
        children.append((action, child))
    cap = None if max_nodes is None else search.nodes + max_nodes
    budget = _SPLIT_FIRST_BUDGET
    while children:
        left: list[tuple[Action, Game]] = []
        for action, child in children:
            here = budget
            if cap is not None:
                if search.nodes >= cap:
                    raise SearchAborted("node budget")
                here = min(budget, cap - search.nodes)
            try:
                if search.run_from(child, max_nodes=here, deadline=deadline):
                    return True, [action]
            except SearchAborted as exc:
                if str(exc) == "time":
                    raise
                left.append((action, child))
        children = left
        budget *= _SPLIT_GROWTH
    search.line = []
    return False, []


# ---------------------------------------------------------------------------- starts
def _starts(game: Game, *, gold_frame: bool, deadline: float | None,
            max_nodes: int | None = None, free_draft: bool = True) -> list[_Start] | SolveResult:
    """The positions in the tricks phase (or handled by the engine search) the solver must try.

    Each setup action tried through the engine counts as a node against ``max_nodes``.
    """
    out: list[_Start] = []
    seen: set[Any] = set()
    for prefix, g in _setup_leaves(game, deadline, max_nodes, free_draft):
        leaf = _signature(g)
        weights = _affinity_table(g)
        fixed = tuple(t.owner for t in g.tasks)
        if free_draft and _distribution_start(g):
            for counts, hand in _distribution_quotas(g, gold_frame):
                if (leaf, counts) in seen:
                    continue
                seen.add((leaf, counts))
                out.append(_Start(0 if hand is None else -5, prefix, game, free=True, hand=hand, quotas=counts))
        elif g.phase == DRAFT and free_draft and _free_draft(g):
            if (leaf, None) in seen:
                continue
            seen.add((leaf, None))
            out.append(_Start(0, prefix, game, free=True))
            if gold_frame and g.rules.gold_frame and not g.gold_frame_used:
                # one task handed on before trick 1: seat o drafts one task fewer than it keeps, seat p one more
                quotas = draft_quotas(g)
                out.extend(_Start(-5, prefix, game, free=True, hand=(o, p))
                           for o in range(g.n) if quotas[o] for p in range(g.n) if p != o)
        elif g.phase == DRAFT and g.dummy_seat is None:
            open_idx = [i for i, o in enumerate(fixed) if o is None]
            for chosen in _draft_owners(g):
                full = list(fixed)
                for i, seat in zip(open_idx, chosen, strict=True):
                    full[i] = seat
                owners = tuple(full)
                if (leaf, owners) in seen:
                    continue
                seen.add((leaf, owners))
                score = sum(weights[i][o] for i, o in enumerate(owners) if o is not None)
                out.extend(_gold_variants(_Start(score, prefix, game, (g, chosen)), g, owners, weights, gold_frame))
                if len(out) > _MAX_STARTS:
                    return SolveResult(UNKNOWN, [], 0, 0.0, len(out), "too many task assignments to search")
        else:
            if (leaf, fixed) in seen:
                continue
            seen.add((leaf, fixed))
            score = sum(weights[i][o] for i, o in enumerate(fixed) if o is not None)
            out.extend(_gold_variants(_Start(score, prefix, game), g, fixed, weights, gold_frame))
    if not out:
        return SolveResult(UNWINNABLE, [], 0, 0.0, 0, "no way through the setup")
    return out


def _gold_variants(st: _Start, g: Game, owners: tuple[int | None, ...], weights: list[list[int]],
                   gold_frame: bool) -> list[_Start]:
    """The start itself and, on gold-frame missions, each way of handing one task on before trick 1."""
    out = [st]
    if not (gold_frame and g.rules.gold_frame and not g.gold_frame_used and not g.tricks and not g.plays):
        return out
    if g.phase not in (TRICKS, DRAFT):
        return out
    from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask

    for i, t in enumerate(g.tasks):
        o = owners[i]
        if o is None:
            continue
        for p in range(g.n):
            if p == o or p == g.dummy_seat:
                continue
            score = st.score - weights[i][o] + weights[i][p] - 5
            out.append(_Start(score, st.setup, st.base, st.draft, st.after + (HandTask(o, t.card, p),)))
    return out


def _setup_leaves(game: Game, deadline: float | None, max_nodes: int | None = None,
                  free_draft: bool = False) -> Iterator[tuple[tuple[Action, ...], Game]]:
    """Walk setup choices through the engine until the draft or the tricks begin (or, with ``free_draft``, a
    commander's distribution the search takes whole: see :func:`_distribution_start`)."""
    if _setup_done(game):
        yield (), game
        return
    tried = 0
    seen: set[Any] = set()
    stack: list[tuple[tuple[Action, ...], Game]] = [((), game)]
    while stack:
        if deadline is not None and time.perf_counter() > deadline:
            raise SearchAborted("time")
        prefix, g = stack.pop()
        if g.is_over() or _setup_done(g) or (free_draft and _distribution_start(g)):
            yield prefix, g
            continue
        for a in reversed(search_actions(g, gold_frame=False)):
            tried += 1
            if max_nodes is not None and tried > max_nodes:
                raise SearchAborted("node budget")
            child = g.clone()
            child.apply(a)
            sig = (
                child.phase,
                child.step_index,
                len(child.actions),
                tuple((t.owner, t.token) for t in child.tasks),
                tuple(sorted(child.roles.items())),
                tuple(child.hands),
                child.leader,
                child.draft_turn,
                tuple((t.owner, t.number) for t in child.task_cards),
            )
            if sig in seen:
                continue
            seen.add(sig)
            stack.append((prefix + (a,), child))


def _setup_done(g: Game) -> bool:
    """Whether the setup walk stops at ``g``: the tricks, or a draft of colour-card tasks (searched by the core).
    A draft of task cards with objectives (Mission Deep Sea: take, pass, name a number) is walked through the
    engine like a setup step, every choice tried: the cards' owners and numbers decide the conditions."""
    return g.phase == TRICKS or (g.phase == DRAFT and not g.task_cards)


def _free_draft(g: Game) -> bool:
    """Can the core search the draft of ``g`` as a free draft (owners decided by who wins the cards)?"""
    from crewkit.families.trick_taking.solve.core import draft_conditions_ok

    rules = g.rules
    return g.dummy_seat is None and not rules.draws and draft_conditions_ok(
        g.conditions, list(rules.roles) + list(g.roles))


def _distribution_start(g: Game) -> bool:
    """Is ``g`` at the start of a commander's distribution the core can search as a free draft? It must be the
    last setup step (nothing changes the hands or tasks after it), no task given yet, and the mission without
    conditions, draws or a dummy seat."""
    from crewkit.families.trick_taking.engine.steps import DistributionStep

    step = g.current_step
    return (isinstance(step, DistributionStep) and step.index == 0 and not step.answers
            and g.step_index == len(g.steps) - 1 and all(t.owner is None for t in g.tasks) and _free_draft(g))


def _distribution_quotas(g: Game, gold_frame: bool) -> list[tuple[tuple[int, ...], tuple[int, int] | None]]:
    """The numbers of tasks the seats can end up with after a commander's distribution (the balance rule:
    no seat two tasks above another), each once: (quotas, None); with the gold frame, also those reached by
    handing one task on before trick 1: (quotas, (from seat, to seat)), the distribution giving the task to
    the first seat."""
    from itertools import combinations

    n, k = g.n, len(g.tasks)
    low, extra = divmod(k, n)
    balanced = []
    for more in combinations(range(n), extra):
        balanced.append(tuple(low + (1 if s in more else 0) for s in range(n)))
    out: list[tuple[tuple[int, ...], tuple[int, int] | None]] = [(q, None) for q in balanced]
    seen = set(balanced)
    if gold_frame and g.rules.gold_frame and not g.gold_frame_used:
        for q in balanced:
            for o in range(n):
                if not q[o]:
                    continue
                for p in range(n):
                    if p == o or p == g.dummy_seat:
                        continue
                    final = tuple(q[s] - (s == o) + (s == p) for s in range(n))
                    if final not in seen:
                        seen.add(final)
                        out.append((final, (o, p)))
    return out


def _distribution_actions(g: Game, owners: dict[int, int], hand: tuple[int, int] | None) -> tuple[Action, ...]:
    """The actions of a commander's distribution from ``g`` (its start) that give each task to
    ``owners[card id]`` (the first answer to every question); with ``hand`` = (o, p), o gets one of p's tasks
    and hands it on to p before trick 1. Empty when the engine refuses a gift (the line will not replay)."""
    from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
    from crewkit.families.trick_taking.engine.step_actions import GiveTask

    owners = dict(owners)
    after: tuple[Action, ...] = ()
    if hand is not None:
        o, p = hand
        mine = sorted(cid for cid, seat in owners.items() if seat == p)
        if not mine:
            return ()
        owners[mine[0]] = o
        after = (HandTask(o, g.rules.deck.cards[mine[0]], p),)
    game = g.clone()
    out: list[Action] = []
    while not game.is_over() and game.phase not in (DRAFT, TRICKS):
        action = next((a for a in search_actions(game, gold_frame=False)
                       if not isinstance(a, GiveTask) or owners.get(a.card.id) == a.player), None)
        if action is None:
            return ()
        try:
            game.apply(action)
        except IllegalAction:
            return ()
        out.append(action)
    return tuple(out) + after


def _free_draft_actions(g: Game, owners: dict[int, int], hand: tuple[int, int] | None) -> tuple[Action, ...]:
    """The take-task actions that give each open task of ``g`` (in the draft phase) to ``owners[card id]``;
    with ``hand`` = (o, p), seat o drafts one of p's tasks and hands it on to p before trick 1."""
    from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask

    owners = dict(owners)
    after: tuple[Action, ...] = ()
    if hand is not None:
        o, p = hand
        mine = sorted(cid for cid, seat in owners.items() if seat == p)
        if not mine:
            return ()
        owners[mine[0]] = o
        after = (HandTask(o, g.rules.deck.cards[mine[0]], p),)
    try:
        chosen = tuple(owners[t.card.id] for t in g.tasks if t.owner is None)
        return _take_actions(g, chosen) + after
    except (KeyError, IndexError):
        return ()  # not a whole draft: the line will not replay and the engine-driven search takes over


def _draft_owners(g: Game) -> Iterator[tuple[int, ...]]:
    """Every distinct outcome of the rest of the draft: the seat of each open task, in task order."""
    n = g.n
    k = sum(1 for t in g.tasks if t.owner is None)
    seats = [(g.draft_turn + j) % n for j in range(k)]
    left = {s: seats.count(s) for s in set(seats)}
    order = sorted(left)
    chosen: list[int] = []

    def assign(i: int) -> Iterator[tuple[int, ...]]:
        if i == k:
            yield tuple(chosen)
            return
        for s in order:
            if left[s]:
                left[s] -= 1
                chosen.append(s)
                yield from assign(i + 1)
                chosen.pop()
                left[s] += 1

    yield from assign(0)


def _take_actions(g: Game, chosen: tuple[int, ...]) -> tuple[Action, ...]:
    """The take-task actions, in draft order, that give the open tasks of ``g`` to the seats ``chosen``."""
    open_tasks = [t for t in g.tasks if t.owner is None]
    mine: dict[int, list[int]] = {}
    for idx, seat in enumerate(chosen):
        mine.setdefault(seat, []).append(idx)
    pos = dict.fromkeys(mine, 0)
    take: list[Action] = []
    for j in range(len(chosen)):
        seat = (g.draft_turn + j) % g.n
        take.append(TakeTask(seat, open_tasks[mine[seat][pos[seat]]].card))
        pos[seat] += 1
    return tuple(take)


def _signature(g: Game) -> Any:
    """What tells two setup leaves apart, besides the task owners."""
    return (
        g.phase if g.phase != DRAFT else TRICKS,
        tuple(t.token for t in g.tasks),
        tuple(sorted(g.roles.items())),
        tuple(g.hands),
        g.leader,
        g.dummy_seat,
        tuple((t.owner, t.number) for t in g.task_cards),
    )


def _affinity_table(g: Game) -> list[list[int]]:
    """weights[task][seat]: a cheap guess of how easy the task is for the seat (its card or higher cards held,
    rockets); an assignment's score is the sum over its tasks, easiest-looking assignments are searched first.
    Whole numbers, so that equal scores are equal whatever the order of summing (ties keep their order)."""
    rules = g.rules
    trump = rules.trump_mask
    everyone = 0
    for h in g.hands:
        everyone |= h
    table: list[list[int]] = []
    for t in g.tasks:
        row = [0] * g.n
        card = t.card
        if not t.done and card.suit is not None:
            suit = rules.suit_masks[card.suit.index]
            higher = suit & ~((card.bit << 1) - 1)
            for seat, hand in enumerate(g.hands):
                score = 0
                if hand & card.bit:
                    # a card its owner holds below another hand's card of its suit must win a trick against that
                    # card: no advantage over a hand that can take it (authored mission 12 ranked better, issue 47)
                    score += 30 if not (everyone & higher & ~hand) else 0
                score += 10 * min((hand & higher).bit_count(), 2)
                score += 3 * (hand & trump).bit_count()
                row[seat] = score
        table.append(row)
    return table


__all__ = ["UNKNOWN", "UNWINNABLE", "WINNABLE", "SearchCache", "SolveResult", "replays_to_success", "solve"]
