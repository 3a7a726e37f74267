"""The C trick search (``_native.c``), loaded through ctypes.

The C file mirrors :class:`crewkit.families.trick_taking.solve.core.TrickSearch` for positions without neighbour
draws (or after the last of them: :func:`fits_after_draws`), suitless or free cards (free drafts included): the same nodes in the same order, so the same verdicts,
node counts and winning lines, about fifty times faster. Mission conditions are read either as a winner
automaton (card-blind ones) or, any other shape, as the program
:func:`crewkit.families.trick_taking.bots.condcode.compile_program` makes of them, evaluated by the fast bot's
evaluator (``bots/condeval.h``, included by ``_native.c``); a condition that raises an error there (``none``
where a number is needed, ...) sends the position back to the Python search, which meets it as the engine
does. :class:`TrickSearch` uses it on
its own when it can (``native=None``); ``native=False`` keeps the search in Python.

The library is found, compiled and checked by :class:`crewkit.nativelib.NativeLibrary` (first found wins: a
library built into the installed package by the wheel's build hook, ``hatch_build.py``; one compiled earlier
into the user's private cache folder, ``$CREWKIT_CACHE`` or the platform's user cache, named by the source's
hash; compiling ``_native.c`` now with the system C compiler, ``$CC`` else ``cc``, about half a second, once).

The review's first answer never waits for the compilation (:func:`prepare`, ``nativelib.without_waiting``):
its positions are searched in Python until the library is ready.

If none works (no compiler, say), the search stays in Python: slower, same answers. ``CREWKIT_NATIVE=0``
switches the C search off; :func:`status` says which is in use and why (``crewkit solve --format json``
reports it as ``search``).
"""

from __future__ import annotations

import ctypes
import signal
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from crewkit.nativelib import NativeLibrary, without_waiting

if TYPE_CHECKING:
    from crewkit.families.trick_taking.bots.condcode import Program
    from crewkit.families.trick_taking.solve.core import TrickSearch

ABI = 10
R_WIN, R_LOST, R_NODES, R_TIME, R_INTERRUPT, R_ERROR = 1, 0, -1, -2, -3, -4


def _declare(lib: ctypes.CDLL) -> None:
    lib.ck_new.restype = ctypes.c_void_p
    lib.ck_new.argtypes = [ctypes.POINTER(ctypes.c_longlong), ctypes.c_longlong]
    lib.ck_free.restype = None
    lib.ck_free.argtypes = [ctypes.c_void_p]
    lib.ck_nodes.restype = ctypes.c_longlong
    lib.ck_nodes.argtypes = [ctypes.c_void_p]
    lib.ck_table_size.restype = ctypes.c_longlong
    lib.ck_table_size.argtypes = [ctypes.c_void_p]
    lib.ck_run.restype = ctypes.c_int
    lib.ck_run.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_longlong, ctypes.c_double,
                           ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int,
                           ctypes.c_longlong, ctypes.c_longlong]


LIBRARY = NativeLibrary(Path(__file__).resolve().parent, "_native", "crewkit-native", "ck_abi", ABI, _declare)


def _source() -> bytes:
    return LIBRARY.source()


def library_name(source: bytes) -> str:
    """The cached library's file name for ``source`` (see :class:`crewkit.nativelib.NativeLibrary`)."""
    return LIBRARY.library_name(source)


def load() -> ctypes.CDLL | None:
    """The C library, or None (then :func:`status` says why). Tried once per process."""
    return LIBRARY.load()


def prepare() -> None:
    """Load the C library now when it is built or cached; else start compiling it in a background thread
    (never waits: see :func:`crewkit.nativelib.without_waiting`)."""
    with without_waiting():
        LIBRARY.load()


def status() -> str:
    """Which search runs plain positions: "C (...)" or "Python (...)", with the reason."""
    return LIBRARY.status()


def _config(search: TrickSearch, after_draws: bool = False) -> list[int]:
    """The rules and tables of ``search`` in the layout ``ck_new`` reads (``after_draws``: for its positions
    after the last neighbour draw, a plain deal: :func:`fits_after_draws`)."""
    s = search
    nc = len(s.cards)
    nsuits = len(s.deck.suits)
    # with a condition program and the digest: merge the cards the conditions cannot tell apart (merge_classes)
    program = condition_program(s)
    classes = merge_classes(program, s.card_rank) if program is not None and s.digest and s.contiguous else None
    merge = s.merge or classes is not None
    check_order = s.check_order or (after_draws and s.check_order_after_draws)
    cfg = [s.n, nc, nsuits, s.total, int(s.must_follow), int(check_order), int(merge), s.ntasks,
           len(s.spans), len(s.numbered), len(s.omegas), len(s.arrows)]
    cfg += s.card_suit
    cfg += s.order_rank
    cfg += s.owner_of_card
    cfg += s.task_of_card
    for row in s.power:
        cfg += row
    cfg += list(s.suit_masks)
    cfg += s.higher_mask
    cfg += s.lower_mask
    cfg.append(s.order_cards)
    for lo, wmask in s.spans:
        cfg += [lo, wmask.bit_length()]
    for i, k in s.numbered:
        cfg += [i, k]
    cfg += s.omegas
    for i, r in s.arrows:
        cfg += [i, r]
    cfg += [t.card.bit for t in s.task_objs]
    # free draft (search.draft): the undrafted task cards and, per card, the cards that beat it when it leads
    cfg += [int(s.draft), s.undrafted]
    cfg += s.beaters if s.draft else [0] * nc
    cfg.append(int(s.late_win))  # no success before the last trick (a compiled card left unplayed)
    # card-blind conditions: the winner automaton (states: complete, then the child per seat)
    a = s.automaton if not s.plain else None
    if a is None:
        cfg.append(0)
    else:
        cfg.append(len(a.complete))
        for complete, children, most in zip(a.complete, a.children, a.most, strict=True):
            cfg.append(complete)
            cfg += list(children)
            cfg += list(most)
        cfg.append(s.trumplike)
        cfg += s.beats_any
    cfg += classes if classes is not None else [0] * nc
    # other mission conditions: the game's tasks (what the conditions' ``tasks`` are), then the program
    if program is None:
        cfg.append(0)
    else:
        cfg += [1, s.nreal]
        for t in s.task_objs[:s.nreal]:
            cfg += [t.card.bit, -1 if t.owner is None else t.owner]
        data = program.encode(s.deck)
        cfg += [len(data), *data]
        digest = history_digest(program) if s.digest else None
        if digest is None:
            cfg.append(0)
        else:
            nodes, counts, winners = digest
            cards = winner_cards(program) if winners else 0
            cfg += [1, len(nodes), *nodes, int(counts), (1 << nc) - 1 if cards is None else cards]
        # the conditions' goal (TrickSearch._goal); K 0: the last trick's (TrickSearch.goal_last)
        cfg += [s.goal_mask, s.goal_cond, 0 if s.goal_last else s.goal_k]
        cfg.append(s.claimed)  # cards claimed by a seat (compiled.CompiledConditions.claims)
    return cfg


def condition_program(search: TrickSearch) -> Program | None:
    """The conditions the search evaluates (not card-blind: those are an automaton) as a program for the C
    search, or None (then :attr:`TrickSearch.program_why` says why)."""
    s = search
    if not s.conditions or s.card_blind:
        return None
    if hasattr(s, "_program"):
        return cast("Program | None", s._program)
    from crewkit.families.trick_taking.bots.condcode import compile_program

    roles: dict[str, int | None] = {name: s.roles.get(name) for name in s.game.rules.roles}
    roles.update(s.roles)
    program, why = compile_program(s.conditions, s.deck, roles, s.commander, s.total,
                                   [t.token for t in s.task_objs[:s.nreal]], dealer=s.dealer, mode=s.mode)
    s._program = program  # type: ignore[attr-defined]
    s.program_why = why
    return program


def fits(search: TrickSearch) -> bool:
    """Can the C search take this position? (the rules it mirrors; card ids below 63)"""
    s = search
    dsl = (bool(s.conditions) and not s.card_blind and s.guard is None and not s.draws and not s.draft
           and not s.compile_switched_off and s.n <= 5 and condition_program(s) is not None)
    return (
        ((s.relative and (s.plain or (s.automaton is not None and s.automaton.root >= 0 and not s.draws))) or dsl)
        and s.use_table and s.history == "summary"
        and not s.free_mask and not s.special_mask and s.must_follow
        and len(s.cards) <= 62 and s.n <= 6 and len(s.deck.suits) <= 8 and s.ntasks <= 40
        and 1 + len(s.cards) + len(s.spans) <= 55
        and all(wmask.bit_length() <= 16 for _, wmask in s.spans)
    )


def fits_after_draws(search: TrickSearch) -> bool:
    """Can the C search take ``search``'s positions once its neighbour draws are all made? Without
    conditions or a free draft the rest is a plain deal (the draws only moved cards between hands)."""
    s = search
    return (
        bool(s.draws) and not s.conditions and not s.draft and s.contiguous
        and s.use_table and s.history == "summary" and s.use_native
        and not s.free_mask and not s.special_mask and s.must_follow
        and len(s.cards) <= 62 and s.n <= 6 and len(s.deck.suits) <= 8 and s.ntasks <= 40
        and 1 + len(s.cards) + len(s.spans) <= 55
        and all(wmask.bit_length() <= 16 for _, wmask in s.spans)
    )


# What a condition may read of a position without reading the past (the digest's rules, see history_digest):
# constants, the hands and the trick in progress, the cards played (the deal is fixed), the tricks played and
# left, the tasks done, seats and card, suit and task fields that never change.
_POSITION_OPS = frozenset((
    "CONST", "VAR", "PLAYERS", "TASKS", "CURCARDS", "PLAYED_N", "LEFT_N", "NOT", "NEG", "AND", "OR", "ADD", "SUB",
    "MUL", "FDIV", "MOD", "IF", "EQ", "NE", "LT", "LE", "GT", "GE", "IN", "NOTIN", "LISTLIT", "CONSTLIST", "HAND",
    "PLAYED", "LEFT_UNPLAYED", "LEFT_OF", "RIGHT_OF", "IS_TRUMP", "IS_COLOUR", "COUNTLIST", "ABS", "MAX2", "MIN2",
    "TASK_OF", "DONE", "TASKS_OF", "C_SUIT", "C_RANK", "C_TRUMP", "C_SPECIAL", "K_CARD", "K_OWNER", "K_TOKEN",
    "K_DONE", "S_TRUMP", "ALL", "ANY", "COUNT", "SUM", "MAX", "MIN", "STABLE", "MEMO", "OTHERS", "TRICKS_WON"))
_TRICK_FIELDS = frozenset(("T_NUMBER", "T_LEADER", "T_WINNER", "T_WINCARD", "T_CARDS", "T_LED", "T_FIRST", "T_LAST",
                           "T_LASTCARD"))


def history_digest(program: Program) -> tuple[list[int], bool, bool] | None:
    """What the conditions read of the tricks played, when it is a few values: (the quantifiers over ``tricks``
    whose value so far is all they read of those tricks, whether they read each seat's count of tricks, whether
    they read who won a card: ``won_by``, ``lost_for``), or None.

    A quantifier all/any/count/sum/max/min over ``tricks`` whose body reads only its trick (and the cards played
    up to it: condcode's ``pure``) has a value over the tricks to come that is a function of its value over the
    tricks played and of those to come. When every other read of the past is one the position answers (a card
    played or not, ``trick_of(card) == none``, the tricks played, each seat's tricks won, the trick just
    completed when a condition is judged only at trick ends), two positions of one deal with the same hands,
    leader, open tasks, conditions done and these values have the same future: the C search keys its table of
    lost positions by them (exact, and far more positions meet than under the history summary)."""
    from crewkit.families.trick_taking.bots.condcode import OP

    name = {v: k for k, v in OP.items()}
    code, pool = program.code, program.pool
    aggregates: list[int] = []
    counts = False
    winners = False

    def node(i: int) -> tuple[str, int, int, int]:
        return name[code[4 * i]], code[4 * i + 1], code[4 * i + 2], code[4 * i + 3]

    def children(i: int) -> list[int]:
        return _children(*node(i), pool)

    def pure(i: int, trick_vars: frozenset[int]) -> bool:
        """Reads only the tricks bound to ``trick_vars`` (and the cards played up to them), constants and the
        other variables bound inside."""
        op, a, b, c = node(i)
        if op == "VAR":
            return True  # a trick variable, or one bound inside (a card of the trick): closedness is checked apart
        if op == "MEMO":
            return pure(a, trick_vars)
        if op == "UNPLAYED_BY":
            return pure(a, trick_vars) and node(b)[0] == "VAR" and node(b)[1] in trick_vars
        if op in _TRICK_FIELDS:
            return node(a)[0] == "VAR" and node(a)[1] in trick_vars
        if op in ("ALL", "ANY", "COUNT", "SUM", "MAX", "MIN"):
            return node(b)[0] != "TRICKS" and pure(b, trick_vars) and pure(c, trick_vars)
        if op not in _POSITION_OPS or op in ("HAND", "CURCARDS", "PLAYED", "LEFT_UNPLAYED", "PLAYED_N", "LEFT_N",
                                             "TRICKS_WON", "DONE", "K_DONE", "STABLE"):
            return False  # what the position answers changes after the trick: not a function of the trick alone
        return all(pure(k, trick_vars) for k in children(i))

    def free(i: int) -> set[int]:
        op, a, b, c = node(i)
        if op == "VAR":
            return {a}
        if op in ("ALL", "ANY", "COUNT", "SUM", "MAX", "MIN"):
            return free(b) | (free(c) - {a})
        if op == "MEMO":
            return free(a)
        out: set[int] = set()
        for k in children(i):
            out |= free(k)
        return out

    def ok(i: int, after_play: bool) -> bool:
        nonlocal counts, winners
        op, a, b, c = node(i)
        if op in ("ALL", "ANY", "COUNT", "SUM", "MAX", "MIN") and node(b)[0] == "TRICKS":
            if pure(c, frozenset((a,))) and not free(i):
                if i not in aggregates:
                    aggregates.append(i)
                return True
            return False
        if op in ("EQ", "NE"):  # trick_of(card) compared with none: whether the card is in a trick played
            for x, y in ((a, b), (b, a)):
                if node(x)[0] == "TRICK_OF" and node(y)[0] == "CONST" and node(y)[1] == NONE:
                    return ok(node(x)[1], after_play)
        if op == "LASTTRICK":
            return True  # none until the hands run out: never a trick before a position the table keeps
        if op == "LATEST":
            return not after_play  # at a trick end it is the trick just completed, never one before the position
        if op in _TRICK_FIELDS:
            return node(a)[0] in ("LATEST", "LASTTRICK") and ok(a, after_play)
        if op in ("WON_BY", "LOST_FOR"):  # who won a card played: the key holds it per card
            winners = True
            return all(ok(k, after_play) for k in children(i))
        if op not in _POSITION_OPS:
            return False
        if op == "TRICKS_WON":
            counts = True
        return all(ok(k, after_play) for k in children(i))

    from crewkit.families.trick_taking.bots.condcode import AFTER_PLAY, NONE

    for f, d, when in program.conditions:
        for root in (f, d):
            if root >= 0 and not ok(root, when == AFTER_PLAY):
                return None
    return aggregates, counts, winners


def winner_cards(program: Program) -> int | None:
    """The cards whose winner the conditions read (``won_by``, ``lost_for``), as a mask, when each such read is of
    a variable bound by a quantifier over a constant list of cards (``c in cards_of(pink)``); None when another
    read may ask for any card. The history digest keeps the winners of these cards only: exact, since the
    conditions cannot ask for another card's."""
    from crewkit.families.trick_taking.bots.condcode import OP

    name = {v: k for k, v in OP.items()}
    code, pool = program.code, program.pool
    quants = {OP[q] for q in ("ALL", "ANY", "COUNT", "SUM", "MAX", "MIN")}
    reads = {OP["WON_BY"], OP["LOST_FOR"]}
    mask = 0
    seen: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    stack: list[tuple[int, dict[int, int]]] = [(root, {}) for f, d, _ in program.conditions for root in (f, d)
                                               if root >= 0]
    while stack:
        i, scope = stack.pop()
        key = (i, tuple(sorted(scope.items())))
        if key in seen:
            continue
        seen.add(key)
        op, a, b, c = code[4 * i:4 * i + 4]
        if op in quants:
            stack.append((b, scope))
            stack.append((c, {**scope, a: b}))
            continue
        if op in reads:
            arg = code[4 * a:4 * a + 4]
            src = scope.get(arg[1], -1) if name[arg[0]] == "VAR" else -1
            if src < 0 or name[code[4 * src]] != "CONSTLIST":
                return None
            start, length = code[4 * src + 1], code[4 * src + 2]
            for cid in pool[start:start + length]:
                mask |= 1 << cid
        stack.extend((k, scope) for k in _children(name[op], a, b, c, pool))
    return mask


def _children(op: str, a: int, b: int, c: int, pool: Sequence[int]) -> list[int]:
    """The child nodes of a program node (history_digest's ``children``)."""
    if op in ("CONST", "VAR", "PLAYERS", "TRICKS", "TASKS", "CURCARDS", "LATEST", "FIRST", "LASTTRICK", "PLAYED_N",
              "LEFT_N", "CONSTLIST"):
        return []
    if op == "LISTLIT":
        return [pool[a + j] for j in range(b)]
    if op in ("ALL", "ANY", "COUNT", "SUM", "MAX", "MIN"):
        return [b, c]
    if op == "IF":
        return [a, b, c]
    if op in ("AND", "OR", "ADD", "SUB", "MUL", "FDIV", "MOD", "EQ", "NE", "LT", "LE", "GT", "GE", "IN", "NOTIN",
              "MAX2", "MIN2", "LOST_FOR", "UNPLAYED_BY"):
        return [a, b]
    return [a]


def merge_classes(program: Program, ranks: Sequence[int]) -> list[int] | None:
    """Per card (its rank in ``ranks``), a class such that the conditions cannot tell two cards of one class
    apart, or None (they read ranks beyond comparing one with a number). Two adjacent cards of one suit in one
    hand (no other card left between them) are then interchangeable for the whole game when their classes are
    equal, so the C search tries one of them only (as it merges cards without conditions).

    The program tells cards apart only by a number it holds (a card literal, or a number that happens to be a
    card's id: counted apart, to be safe), by a list of numbers it holds (``cards_of_rank(1)``, ``deck``), by
    a rank compared with a number, or by a rank otherwise (then None); suits, trumps and where a card went are
    the same for two cards of one suit, or follow the card itself."""
    from crewkit.families.trick_taking.bots.condcode import OP

    name = {v: k for k, v in OP.items()}
    code, pool = program.code, program.pool
    ncards = len(ranks)
    nodes = len(code) // 4
    uses: dict[int, list[tuple[str, int, bool]]] = {}  # node -> (comparison, other operand, node on the left)
    for i in range(nodes):
        op, a, b = name[code[4 * i]], code[4 * i + 1], code[4 * i + 2]
        if op in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            uses.setdefault(a, []).append((op, b, True))
            uses.setdefault(b, []).append((op, a, False))
    compare = {"EQ": lambda x, y: x == y, "NE": lambda x, y: x != y, "LT": lambda x, y: x < y,
               "LE": lambda x, y: x <= y, "GT": lambda x, y: x > y, "GE": lambda x, y: x >= y}
    sig: list[list[object]] = [[] for _ in range(ncards)]
    for i in range(nodes):
        op, a, b = name[code[4 * i]], code[4 * i + 1], code[4 * i + 2]
        if op == "CONST" and 0 <= a < ncards:
            sig[a].append(("card", a))
        elif op == "CONSTLIST":
            members = set(pool[a:a + b])
            for c in range(ncards):
                sig[c].append(c in members)
        elif op == "C_RANK":
            used = uses.get(i, [])
            # every reader of the rank is a comparison with a number (a field that equals i by chance, such as
            # a quantifier's variable, counts as a reader: None, to be safe)
            readers = sum(1 for j in range(nodes) for k in (1, 2, 3) if code[4 * j + k] == i
                          and name[code[4 * j]] not in ("CONST", "VAR", "CONSTLIST", "LISTLIT"))
            readers += sum(1 for j in range(nodes) if name[code[4 * j]] == "LISTLIT"
                           for q in range(code[4 * j + 2]) if pool[code[4 * j + 1] + q] == i)
            if len(used) != readers or any(name[code[4 * other]] != "CONST" for _, other, _ in used):
                return None  # a rank read as a number: every rank apart
            for cmp, other, left in used:
                k = code[4 * other + 1]
                for c in range(ncards):
                    sig[c].append(compare[cmp](ranks[c], k) if left else compare[cmp](k, ranks[c]))
    seen: dict[tuple[object, ...], int] = {}
    return [seen.setdefault(tuple(sig[c]), len(seen)) for c in range(ncards)]


def why_not(search: TrickSearch) -> str:
    """Why the C search does not evaluate the conditions of ``search`` (it runs in Python), in words."""
    s = search
    if not s.use_native:
        return "the C search was switched off for this search (native=False)"
    if load() is None:
        return f"the C search is not available ({status()})"
    if s.draws:
        return "the C search does not model neighbour draws"
    if s.guard is not None:
        return ("the mission's card-blind conditions guard the Python search (an automaton over trick winners) "
                "beside conditions that read cards")
    if s.free_mask or s.special_mask:
        return "the C search does not model free or suitless cards"
    if s.n > 5 or len(s.cards) > 62:
        return "the C search takes at most 5 seats and 62 cards with these conditions"
    if s.history != "summary" or not s.use_table:
        return "the search was asked for a full history or no table"
    if condition_program(s) is None:
        return f"the C search cannot evaluate it ({s.program_why})"
    return "the C search's table key cannot hold this position with its conditions"


class NativeSearch:
    """One C search context (its table of lost positions lives as long as this object)."""

    def __init__(self, lib: ctypes.CDLL, search: TrickSearch, after_draws: bool = False) -> None:
        cfg = _config(search, after_draws)
        arr = (ctypes.c_longlong * len(cfg))(*cfg)
        handle = lib.ck_new(arr, search.MAX_TABLE)
        if not handle:
            raise OSError("the C search does not take these rules")
        self._lib = lib
        self._handle: Any = handle
        self.n = search.n
        self.ntasks = search.ntasks

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.ck_free(handle)

    @property
    def nodes(self) -> int:
        return int(self._lib.ck_nodes(self._handle))

    def run(self, search: TrickSearch, max_nodes: int | None, seconds: float | None, only: int = -1,
            split: tuple[int, int] = (0, 0)) -> tuple[int, list[tuple[int, int]]]:
        """Search from ``search``'s current position: (result code, line as (seat, card id) pairs).

        ``only`` >= 0: from a trick start, try only that first card (``TrickSearch.run_split``), and with
        ``split`` (first budget, growth) the next trick's leads side by side too."""
        pos = [search.leader, search.led, search.ntricks, search.ndone, search.open_tasks, len(search.plays)]
        for seat, cid in search.plays:
            pos += [seat, cid]
        pos += list(search.hands)
        pos += [t.trick or 0 for t in search.task_objs]
        pos += list(search.quota_left)
        if search.automaton is not None and not search.plain:
            pos.append(search.automaton.walk(search._seq))
        if condition_program(search) is not None:
            from crewkit.families.trick_taking.bots.condcode import trick_records

            pos.append(sum(1 << i for i, d in enumerate(search.cond_done) if d))
            pos += search.won
            pos += search.winmask
            pos += trick_records(search.trick_objs)  # the tricks (their done mask: cond_done above)
        arr = (ctypes.c_longlong * len(pos))(*pos)
        line = (ctypes.c_int * 130)()
        length = ctypes.c_int(0)
        # Ctrl-C reaches Python only after the call: the C search catches it itself when this is the main
        # thread and Python's own handler is in place, and the interrupt is raised here
        catch = (threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        code = self._lib.ck_run(self._handle, arr, -1 if max_nodes is None else max_nodes,
                                -1.0 if seconds is None else max(0.0, seconds), line, ctypes.byref(length), int(catch),
                                only, *split)
        if code == R_INTERRUPT:
            raise KeyboardInterrupt
        return code, [(line[2 * k], line[2 * k + 1]) for k in range(length.value)]
