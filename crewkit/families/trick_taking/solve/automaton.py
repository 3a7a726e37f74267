"""Card-blind mission conditions (those that read only who won which trick) as a minimal automaton over the
sequence of trick winners: the solver's guard (:class:`crewkit.families.trick_taking.solve.core.TrickSearch`).
Built once per position and setup choice, bottom-up and hash-consed; per state, the most tricks each seat can
still win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.dsl import ast as A
from crewkit.families.trick_taking.engine.game import Trick

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch

AUTOMATON_CAP = 2_000  # winner sequences evaluated at most when building the automaton (well under 1 s)
# pasts merged by what the conditions read (past_reads): a few times as many, each built once, and the automaton
# is kept for every deal with the same leader and roles (_AUTOMATA), so a build that fails costs each of them once
PAST_FACTOR = 5

# winner automata by what their conditions read (rules kept to check the id): setup choices share them
_AUTOMATA: dict[Any, tuple[Any, WinnerAutomaton | None]] = {}


#: WinnerAutomaton.most of a state past which nothing is checked: any number of tricks
NO_LIMIT = 255


def _most_wins(children: list[tuple[int, ...]], complete: list[int], n: int) -> list[tuple[int, ...]]:
    """Per state and seat, the most tricks the seat can win on an accepted sequence of winners from there.

    The states other than the free one (every condition done: complete with every child itself) form a DAG
    whose accepted paths end at the last trick; a child -1 is no path."""
    most: list[tuple[int, ...] | None] = [None] * len(children)

    def visit(root: int) -> None:
        stack = [(root, False)]
        while stack:
            sid, ready = stack.pop()
            if most[sid] is not None:
                continue
            kids = children[sid]
            if complete[sid] and all(k == sid for k in kids):
                most[sid] = (NO_LIMIT,) * n
                continue
            if not ready:
                stack.append((sid, True))
                stack.extend((k, False) for k in kids if k >= 0 and most[k] is None)
                continue
            best = [-1] * n
            any_child = False
            for w, k in enumerate(kids):
                if k < 0:
                    continue
                any_child = True
                sub = most[k]
                assert sub is not None
                for x in range(n):
                    v = min(NO_LIMIT, sub[x] + (1 if x == w else 0))
                    if v > best[x]:
                        best[x] = v
            most[sid] = tuple(best) if any_child else (0,) * n  # a final state: no trick left

    for sid in range(len(children)):
        visit(sid)
    return [m if m is not None else (0,) * n for m in most]


class _TooMany(Exception):
    """More winner sequences than the automaton's cap."""


# names a quantifier over ``tricks`` may read beside its own trick and still be a function of that trick alone
_CONST_NAMES = frozenset(("players", "commander", "dealer", "total_tricks", "none", "true", "false"))
_BODY_CALLS = frozenset(("left_of", "right_of", "abs", "max", "min", "others"))


@dataclass(frozen=True)
class PastReads:
    """What card-blind conditions read of the tricks played, when it is a few values (see :func:`past_reads`)."""

    counts: bool  # each seat's number of tricks won (tricks_won)
    first: bool  # the first trick's winner (first_trick)
    runs: bool  # each seat's longest run and the run of the last winner (longest_run)
    aggregates: tuple[A.Quant, ...]  # quantifiers over tricks whose value so far is all they read of them


def past_reads(conditions: Sequence[Any], roles: Sequence[str]) -> PastReads | None:
    """What card-blind ``conditions`` read of the past, or None when it is more than a few values.

    A quantifier over ``tricks`` whose body reads only its own trick (its winner, number, leader; seats, roles,
    the first trick's winner, which is fixed once a trick exists) has, over the tricks to come, a value that is
    a function of its value over the tricks played. Every other read of the past must be a count (tricks won,
    tricks played), the first trick's winner, the longest runs, or ``last_trick`` (none until the last trick,
    then the trick the automaton is judging). Two sequences of winners that agree on these values, the leader
    and the conditions done have the same verdicts on every continuation: the automaton builds their state
    once (an author's "the player left of the commander wins the last trick" has 5^9 sequences of winners at
    5 players but a handful of such pasts)."""
    consts = _CONST_NAMES | set(roles)
    flags = {"counts": False, "first": False, "runs": False}
    aggregates: list[A.Quant] = []

    def pure(node: A.Expr, bound: frozenset[str]) -> bool:
        stack: list[tuple[A.Expr, frozenset[str]]] = [(node, bound)]
        while stack:
            n, b = stack.pop()
            if isinstance(n, A.Quant):
                stack.append((n.source, b))
                stack.append((n.body, b | {n.var}))
                continue
            if isinstance(n, A.Name):
                if n.name == "first_trick" and n.name not in b:
                    flags["first"] = True
                elif n.name not in b and n.name not in consts:
                    return False  # tricks, last_trick, the counts: change after the trick was played
            elif isinstance(n, A.Call) and n.func not in _BODY_CALLS:
                return False
            stack.extend((c, b) for c in A.children(n))
        return True

    def scan(node: A.Expr, bound: frozenset[str]) -> bool:
        if isinstance(node, A.Quant):
            src = node.source
            if isinstance(src, A.Name) and src.name == "tricks" and "tricks" not in bound:
                # closed: no variable of an enclosing quantifier inside (its value is one number)
                if A.free_names(node) & bound or not pure(node.body, frozenset((node.var,))):
                    return False
                if node not in aggregates:
                    aggregates.append(node)
                return True
            return scan(src, bound) and scan(node.body, bound | {node.var})
        if isinstance(node, A.Name) and node.name not in bound:
            if node.name == "tricks":
                return False
            if node.name == "first_trick":
                flags["first"] = True
        if isinstance(node, A.Call):
            if node.func == "tricks_won":
                flags["counts"] = True
            elif node.func == "longest_run":
                flags["runs"] = True
        return all(scan(c, bound) for c in A.children(node))

    for c in conditions:
        for expr in (c.fail_expr, c.done_expr):
            if expr is not None and not scan(expr, frozenset()):
                return None
    return PastReads(counts=flags["counts"], first=flags["first"], runs=flags["runs"],
                     aggregates=tuple(aggregates))


def _past_key(reads: PastReads, s: TrickSearch, number: int, idx: tuple[int, ...]) -> tuple[Any, ...]:
    """The values :func:`past_reads` names, at the state before trick ``number + 1``."""
    from crewkit.dsl.evaluator import evaluate

    seq = s._seq
    key: list[Any] = [number, s.leader, tuple(s.cond_done[i] for i in idx)]
    if reads.counts:
        key.append(tuple(s.tricks_won))
    if reads.first:
        key.append(seq[0] if seq else -1)
    if reads.runs:
        best = [0] * s.n
        run = 0
        for j, w in enumerate(seq):
            run = run + 1 if j and seq[j - 1] == w else 1
            best[w] = max(best[w], run)
        key.append((tuple(best), run))
    for q in reads.aggregates:
        try:
            key.append(evaluate(q, s.view))
        except Exception:  # noqa: BLE001 - an error (max over no trick): this past is kept apart
            return ("seq", seq)
    return tuple(key)


@dataclass
class WinnerAutomaton:
    """Card-blind conditions as an automaton over trick winners (:meth:`TrickSearch.winner_automaton`)."""

    root: int  # the position's state; -1: no winner sequence satisfies the conditions (lost)
    complete: list[int]  # per state: 1 when every condition is done there
    children: list[tuple[int, ...]]  # per state, per seat: the state after that seat wins the trick (-1: fails)
    base: tuple[int, ...]  # the trick winners before the root
    # per state, per seat: the most tricks the seat can still win on a sequence of winners that satisfies every
    # condition (NO_LIMIT where the conditions are all done and nothing is checked any more); see max_wins
    most: list[tuple[int, ...]] = field(default_factory=list)

    def allowed(self, state: int) -> int:
        return sum(1 << w for w, c in enumerate(self.children[state]) if c >= 0)

    def walk(self, seq: tuple[int, ...]) -> int:
        """The state after the winners ``seq`` (which extends ``base``); -1 when it fails or does not extend it."""
        if seq[:len(self.base)] != self.base or self.root < 0:
            return -1
        state = self.root
        for w in seq[len(self.base):]:
            state = self.children[state][w]
            if state < 0:
                return -1
        return state


def winner_automaton(s: TrickSearch, cap: int | None = None, which: Sequence[int] | None = None
                     ) -> WinnerAutomaton | None:
    """Card-blind conditions from the current position on, as a minimal automaton over trick winners.

    A state stands for the sequence of trick winners so far; ``allowed[s]`` is the mask of the seats that
    may win the next trick (their win keeps every condition alive *and* some sequence of later winners
    still satisfies them all: a sound look-ahead the one-trick check lacks), ``child[s][w]`` the state
    after seat ``w`` wins it, ``complete[s]`` whether every condition is done there (the mission succeeds
    there once the tasks are done). States whose futures agree are merged (built bottom-up and
    hash-consed), so the state is all a position's key needs of the past. State 0 is the position's own.
    None when more than ``cap`` sequences would have to be evaluated (the conditions stay in Python).

    ``which``: the automaton of these card-blind conditions only (indices into ``s.conditions``), while
    others read cards: every winning line follows it, so it is a guard for the search (see ``guard``).
    """
    subset = None if which is None else tuple(which)
    if subset is None and not s.card_blind:
        return None
    s._reset_position()
    # what card-blind conditions can read of a position: the same for every setup choice of one deal
    memo_key = (id(s.game.rules), tuple(c.id for c in s.conditions), subset, s.n, s.total,
                s.commander,
                s.dealer, tuple(sorted(s.roles.items())), s.leader, s._seq, tuple(s.cond_done),
                tuple(s.tricks_won), bool(s.plays), cap)
    hit = _AUTOMATA.get(memo_key)
    if hit is not None and hit[0] is s.game.rules:
        return hit[1]
    made = build_automaton(s, cap, subset)
    if len(_AUTOMATA) >= 64:
        _AUTOMATA.pop(next(iter(_AUTOMATA)))
    _AUTOMATA[memo_key] = (s.game.rules, made)
    return made


def build_automaton(s: TrickSearch, cap: int | None, subset: tuple[int, ...] | None = None) -> WinnerAutomaton | None:
    cap = s.AUTOMATON_CAP if cap is None else cap  # the class attribute: a test lowers it
    n = s.n
    total = s.total
    stand_in = s.cards[0]
    idx = tuple(range(len(s.conditions))) if subset is None else subset
    conditions = [s.conditions[i] for i in idx]
    ids: dict[tuple[int, tuple[int, ...]], int] = {}
    states: list[tuple[int, tuple[int, ...]]] = []
    budget = [cap]

    def intern(complete: int, children: tuple[int, ...]) -> int:
        sig = (complete, children)
        sid = ids.get(sig)
        if sid is None:
            sid = ids[sig] = len(states)
            states.append(sig)
        return sid

    free_id: list[int] = []

    def free_state() -> int:
        if not free_id:
            sid = len(states)
            states.append((1, (sid,) * n))
            free_id.append(sid)
        return free_id[0]

    from crewkit.families.trick_taking.solve.compiled import counts_only

    # conditions that read only counts: sequences with the same counts and done conditions are merged at once
    roles = list(s.game.rules.roles) + list(s.roles)
    by_counts: dict[tuple[Any, ...], int | None] | None = None
    if counts_only(conditions, roles):
        by_counts = {}
    # otherwise, sequences that agree on what the conditions read of the past (see past_reads)
    reads = None if by_counts is not None else past_reads(conditions, roles)
    by_past: dict[tuple[Any, ...], int | None] = {}
    if reads is not None:
        budget[0] = cap * PAST_FACTOR

    def build(number: int) -> int | None:
        """The state before trick ``number + 1`` (None: no winner sequence from here satisfies them)."""
        if by_counts is not None:
            ck = (number, tuple(s.tricks_won), tuple(s.cond_done[i] for i in idx))
            if ck in by_counts:
                return by_counts[ck]
            made = build_state(number)
            by_counts[ck] = made
            return made
        if reads is not None:
            pk = _past_key(reads, s, number, idx)
            if pk in by_past:
                return by_past[pk]
            made = build_state(number)
            by_past[pk] = made
            return made
        return build_state(number)

    def build_state(number: int) -> int | None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooMany
        verdicts = s._winner_verdicts(subset)[1]
        children: list[int] = []
        viable = False
        last = number + 1 >= total
        for w in range(n):
            ok, newly = verdicts[w]
            if not ok:
                children.append(-1)
                continue
            undo = [i for i in newly if not s.cond_done[i]]
            for i in undo:
                s.cond_done[i] = True
            complete = all(s.cond_done[i] or (last and c.done_if is None) for i, c in zip(idx, conditions,
                                                                                          strict=True))
            child: int | None
            if complete and not last:
                child = free_state()  # every condition latched done: nothing is checked any more
            elif last:
                child = intern(1, (-1,) * n) if complete else None
            else:
                s.trick_objs.append(Trick(number + 1, s.leader, (), w, stand_in, None))
                s.tricks_won[w] += 1
                s._seq += (w,)
                saved_leader, s.leader, s.ntricks = s.leader, w, number + 1
                try:
                    child = build(number + 1)
                finally:
                    s.leader, s.ntricks = saved_leader, number
                    s._seq = s._seq[:-1]
                    s.tricks_won[w] -= 1
                    s.trick_objs.pop()
            for i in undo:
                s.cond_done[i] = False
            children.append(-1 if child is None else child)
            viable = viable or child is not None
        if not viable:
            return None
        return intern(0, tuple(children))

    s._reset_position()
    if s.plays:
        return None  # built from a trick start only (the split search's positions share its history)
    try:
        root = build(s.ntricks)
    except _TooMany:
        return None
    finally:
        s._reset_position()
    if root is None:
        return WinnerAutomaton(root=-1, complete=[], children=[], base=s._seq)
    complete = [c for c, _ in states]
    children = [ch for _, ch in states]
    return WinnerAutomaton(root=root, complete=complete, children=children, base=s._seq,
                           most=_most_wins(children, complete, n))
