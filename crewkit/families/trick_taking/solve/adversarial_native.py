"""The adversarial search's C twin (``_adversarial.c``), loaded through ctypes.

:class:`crewkit.families.trick_taking.solve.adversarial.RoundSearch` hands its questions (a null-window test
of a player's chips, the challenge's "can the dealer force it?") to the C search when it can: the same state,
rules, move order, card merging, table keys and alpha-beta as the Python search (its reference,
``tests/solve/test_adversarial_native.py`` checks they agree), several hundred times faster. The round's
settlement is the engine's ``round_verdict`` written in C, with the mission card's formulas translated by
:func:`crewkit.families.trick_taking.bots.condcode` and evaluated by the fast bot's evaluator
(``bots/condeval.h``). A formula that cannot be translated keeps the round in Python; one that raises an error
in C (``none`` where a number is needed, ...) sends the question back to the Python search, which meets it as
the engine does.

The library is found, compiled and checked by :class:`crewkit.nativelib.NativeLibrary` (built with the
package, cached, or compiled now: about a second, once). A caller that must answer at once (the review's
first answer) asks within :func:`crewkit.nativelib.without_waiting`: Python searches until the library is
ready. ``CREWKIT_NATIVE=0`` keeps the search in Python.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import TYPE_CHECKING

from crewkit.nativelib import NativeLibrary

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.adversarial import RoundSearch

ABI = 1
OK, NODES, TIME, ERROR = 0, -1, -2, -4
INF = 1 << 40  # an open bound (the C search's)
#: table entries the C search keeps at most (about 100 bytes each); a full table starts again (slower, exact)
MAX_ENTRIES = 1 << 22


def _declare(lib: ctypes.CDLL) -> None:
    lib.ad_new.restype = ctypes.c_void_p
    lib.ad_new.argtypes = [ctypes.POINTER(ctypes.c_longlong), ctypes.c_longlong]
    lib.ad_free.restype = None
    lib.ad_free.argtypes = [ctypes.c_void_p]
    lib.ad_nodes.restype = ctypes.c_longlong
    lib.ad_nodes.argtypes = [ctypes.c_void_p]
    lib.ad_value.restype = ctypes.c_int
    lib.ad_value.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_int, ctypes.c_longlong,
                             ctypes.c_longlong, ctypes.c_longlong, ctypes.c_double,
                             ctypes.POINTER(ctypes.c_longlong)]
    lib.ad_force.restype = ctypes.c_int
    lib.ad_force.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_longlong,
                             ctypes.c_double, ctypes.POINTER(ctypes.c_longlong)]


LIBRARY = NativeLibrary(Path(__file__).resolve().parent, "_adversarial", "crewkit-adversarial", "ad_abi", ABI,
                        _declare)


def status() -> str:
    """Which search judges a round: "C (...)" or "Python (...)", with the reason."""
    return LIBRARY.status()


def config(s: RoundSearch) -> tuple[list[int] | None, str]:
    """The rules of ``s``'s round in the layout ``ad_new`` reads, or (None, why the round stays in Python)."""
    from crewkit.families.trick_taking.bots.condcode import Program, Ty, Untranslatable, _Compiler

    m = s.mission
    if len(m.trees) != 5:
        return None, "the mission card's formulas have no syntax trees"
    if len(s.cards) > 63 or s.n > 8 or len(s.deck.suits) > 15 or s.total >= 32:
        return None, "a deck, table or round larger than the C search holds"
    comp = _Compiler(s.deck, {}, s.dealer, s.total, [], dealer=s.dealer, mode=s.mode)
    scope = {"p": (0, Ty("player"))}
    nodes = []
    try:
        for k, tree in enumerate(m.trees):
            if tree is None:
                nodes.append(-1)
                continue
            i, t = comp.expr(tree, scope if k in (0, 2) else {})
            (comp.number if k == 0 else comp.truthy)(t)
            nodes.append(i)
    except Untranslatable as e:
        return None, f"a formula the C search cannot evaluate ({e})"
    program = Program(tuple(comp.code), tuple(comp.pool), (), (), s.total)
    sc = s.scoring
    nc = len(s.cards)
    nsuits = len(s.deck.suits)
    out = [s.n, nc, nsuits, s.total, s.dealer, int(s.mode == "challenge"), int(s.next_card), int(sc.settle_early),
           int(sc.hidden_payment == "replaces"), int(sc.base_paid_by == "other-players"), s.scale,
           int(sc.others_score_in_challenge), m.hidden_payment, m.success_payment, m.failure_payment, *nodes]
    out += [c.suit.index if c.suit is not None else -1 for c in s.cards]
    out += [c.rank for c in s.cards]
    for row in s.strengths:
        out += list(row)
    out += list(s.suit_masks)
    out += [s.free, s.not_first, s.not_last]
    classes = s.classes
    out.append(int(classes is not None))
    out += list(classes) if classes is not None else [0] * nc
    labels = sorted(set(s.label))
    out += [labels.index(x) for x in s.label]
    for c in range(nc):
        out += [len(s.higher[c]), *s.higher[c]]
    for order in s.by_suit:
        out += [len(order), *order]
    groups = s.groups or []
    out += [len(groups), *groups]
    model = s.model
    if model is None:
        out.append(0)
    else:
        out += [1, model.hidden, model.hidden_cards, model.score.const, *model.score.cards, *model.score.tricks]
    out += program.encode(s.deck)
    return out, ""


class NativeRound:
    """One round's C search (its table kept across the questions on the round's positions)."""

    def __init__(self, lib: ctypes.CDLL, cfg: list[int]) -> None:
        arr = (ctypes.c_longlong * len(cfg))(*cfg)
        handle = lib.ad_new(arr, MAX_ENTRIES)
        if not handle:
            raise OSError("the C search refused the round's rules")
        self._lib = lib
        self.handle: int | None = handle

    def __del__(self) -> None:
        handle, self.handle = getattr(self, "handle", None), None
        if handle:
            self._lib.ad_free(handle)

    @property
    def nodes(self) -> int:
        return int(self._lib.ad_nodes(self.handle))

    def value(self, pos: list[int], seat: int, alpha: int, beta: int, max_nodes: int,
              seconds: float) -> tuple[int, int]:
        """(status, value): ``seat``'s fail-soft value in the window from the position ``pos``."""
        arr = (ctypes.c_longlong * len(pos))(*pos)
        out = ctypes.c_longlong(0)
        r = self._lib.ad_value(self.handle, arr, seat, alpha, beta, max_nodes, seconds, ctypes.byref(out))
        return int(r), int(out.value)

    def force(self, pos: list[int], max_nodes: int, seconds: float) -> tuple[int, bool]:
        arr = (ctypes.c_longlong * len(pos))(*pos)
        out = ctypes.c_longlong(0)
        r = self._lib.ad_force(self.handle, arr, max_nodes, seconds, ctypes.byref(out))
        return int(r), bool(out.value)
