"""Card-blind mission conditions (those that read only who won which trick) as a minimal automaton over the
sequence of trick winners: the solver's guard (:class:`crewkit.families.trick_taking.solve.core.TrickSearch`).
Built once per position and setup choice, bottom-up and hash-consed; per state, the most tricks each seat can
still win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.families.trick_taking.engine.game import Trick

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch

AUTOMATON_CAP = 2_000  # winner sequences evaluated at most when building the automaton (well under 1 s)

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
    by_counts: dict[tuple[Any, ...], int | None] | None = None
    if counts_only(conditions, list(s.game.rules.roles) + list(s.roles)):
        by_counts = {}

    def build(number: int) -> int | None:
        """The state before trick ``number + 1`` (None: no winner sequence from here satisfies them)."""
        if by_counts is not None:
            ck = (number, tuple(s.tricks_won), tuple(s.cond_done[i] for i in idx))
            if ck in by_counts:
                return by_counts[ck]
            made = build_state(number)
            by_counts[ck] = made
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
