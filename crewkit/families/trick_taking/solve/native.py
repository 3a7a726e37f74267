"""The C trick search (``_native.c``) for plain missions, loaded through ctypes.

The C file mirrors :class:`crewkit.families.trick_taking.solve.core.TrickSearch` for positions without mission
conditions, neighbour draws, suitless or free cards (free drafts included): the same nodes in the same order,
so the same verdicts, node counts and winning lines, about fifty times faster. :class:`TrickSearch` uses it on
its own when it can (``native=None``); ``native=False`` keeps the search in Python.

The library is found, compiled and checked by :class:`crewkit.nativelib.NativeLibrary` (first found wins: a
library built into the installed package by the wheel's build hook, ``hatch_build.py``; one compiled earlier
into the user's private cache folder, ``$CREWKIT_CACHE`` or the platform's user cache, named by the source's
hash; compiling ``_native.c`` now with the system C compiler, ``$CC`` else ``cc``, about half a second, once).

If none works (no compiler, say), the search stays in Python: slower, same answers. ``CREWKIT_NATIVE=0``
switches the C search off; :func:`status` says which is in use and why (``crewkit solve --format json``
reports it as ``search``).
"""

from __future__ import annotations

import ctypes
import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkit.nativelib import NativeLibrary

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch

ABI = 5
R_WIN, R_LOST, R_NODES, R_TIME, R_INTERRUPT = 1, 0, -1, -2, -3


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
                           ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int]


LIBRARY = NativeLibrary(Path(__file__).resolve().parent, "_native", "crewkit-native", "ck_abi", ABI, _declare)


def _source() -> bytes:
    return LIBRARY.source()


def library_name(source: bytes) -> str:
    """The cached library's file name for ``source`` (see :class:`crewkit.nativelib.NativeLibrary`)."""
    return LIBRARY.library_name(source)


def load() -> ctypes.CDLL | None:
    """The C library, or None (then :func:`status` says why). Tried once per process."""
    return LIBRARY.load()


def status() -> str:
    """Which search runs plain positions: "C (...)" or "Python (...)", with the reason."""
    return LIBRARY.status()


def _config(search: TrickSearch) -> list[int]:
    """The rules and tables of ``search`` in the layout ``ck_new`` reads."""
    s = search
    nc = len(s.cards)
    nsuits = len(s.deck.suits)
    cfg = [s.n, nc, nsuits, s.total, int(s.must_follow), int(s.check_order), int(s.merge), s.ntasks,
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
    return cfg


def fits(search: TrickSearch) -> bool:
    """Can the C search take this position? (the rules it mirrors; card ids below 63)"""
    s = search
    return (
        s.relative and (s.plain or (s.automaton is not None and s.automaton.root >= 0 and not s.draws))
        and s.use_table and s.history == "summary"
        and not s.free_mask and not s.special_mask and s.must_follow
        and len(s.cards) <= 62 and s.n <= 6 and len(s.deck.suits) <= 8 and s.ntasks <= 40
        and 1 + len(s.cards) + len(s.spans) <= 55
        and all(wmask.bit_length() <= 16 for _, wmask in s.spans)
    )


class NativeSearch:
    """One C search context (its table of lost positions lives as long as this object)."""

    def __init__(self, lib: ctypes.CDLL, search: TrickSearch) -> None:
        cfg = _config(search)
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

    def run(self, search: TrickSearch, max_nodes: int | None, seconds: float | None, only: int = -1
            ) -> tuple[int, list[tuple[int, int]]]:
        """Search from ``search``'s current position: (result code, line as (seat, card id) pairs).

        ``only`` >= 0: from a trick start, try only that first card (``TrickSearch.run_split``)."""
        pos = [search.leader, search.led, search.ntricks, search.ndone, search.open_tasks, len(search.plays)]
        for seat, cid in search.plays:
            pos += [seat, cid]
        pos += list(search.hands)
        pos += [t.trick or 0 for t in search.task_objs]
        pos += list(search.quota_left)
        if search.automaton is not None and not search.plain:
            pos.append(search.automaton.walk(search._seq))
        arr = (ctypes.c_longlong * len(pos))(*pos)
        line = (ctypes.c_int * 130)()
        length = ctypes.c_int(0)
        # Ctrl-C reaches Python only after the call: the C search catches it itself when this is the main
        # thread and Python's own handler is in place, and the interrupt is raised here
        catch = (threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        code = self._lib.ck_run(self._handle, arr, -1 if max_nodes is None else max_nodes,
                                -1.0 if seconds is None else max(0.0, seconds), line, ctypes.byref(length), int(catch),
                                only)
        if code == R_INTERRUPT:
            raise KeyboardInterrupt
        return code, [(line[2 * k], line[2 * k + 1]) for k in range(length.value)]
