"""How much work one evaluation of a condition may do, and how a caller stops a long one.

Missions come from strangers, so the cost of a condition is bounded twice:

* at load time the checker estimates an upper bound of the work (quantifier nesting times list sizes, list
  growth, integer size; :mod:`crewkit.dsl.cost`) and refuses an expression above :data:`MAX_COST` steps,
  a list above :data:`MAX_LIST` items or an integer above :data:`MAX_INT_BITS` bits;
* at run time every quantifier and list join charges its length to a budget of
  :data:`MAX_STEPS` steps (above any estimate the checker lets through), and ``*`` refuses a product above
  :data:`MAX_INT_BITS`. The same budget looks at the clock every :data:`CLOCK_EVERY` steps, so a caller's
  deadline (``solve --timeout``) or a cancel event (the terminal app quitting) stops an evaluation in the
  middle, with :class:`~crewkit.dsl.errors.DslInterrupted`.

The bounds are far above what the bundled missions need (the largest estimate, planet-nine/44, is under
20,000 steps; tests/untrusted/test_dsl_cost.py keeps every one under a tenth of MAX_COST).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from . import ast as A
from .errors import DslInterrupted, DslRuntimeError
from .parser import MAX_INT_DIGITS as _PARSER_MAX_INT_DIGITS

#: upper bound of the checker's estimate of one evaluation, in steps (a step is one quantifier iteration
#: or one list item built; about a microsecond each)
MAX_COST = 250_000
#: the run-time budget of one evaluation: above MAX_COST, so an accepted expression never reaches it
MAX_STEPS = 2_000_000
#: the longest list an expression may build (the bundled decks have 37 to 60 cards)
MAX_LIST = 10_000
#: the largest integer an expression may compute, in bits (about 1,200 decimal digits: printable)
MAX_INT_BITS = 4_096
#: the most digits of an integer literal
MAX_INT_DIGITS = _PARSER_MAX_INT_DIGITS
#: look at the clock (deadline, cancel event) every so many steps, across evaluations
CLOCK_EVERY = 2_000


class _Budget:
    """A running count of steps, where the evaluation under way started, and when to look again.

    ``steps`` only grows (across evaluations), so the clock is looked at every :data:`CLOCK_EVERY` steps
    even when each evaluation is short; ``base`` is ``steps`` when the current evaluation started. One
    object for the process, not one per thread: a thread-local costs several times more per access, and
    two threads evaluating at once (the terminal app's worker and a comparison) only blur the count of
    each other's evaluation. What may interrupt an evaluation (:class:`_Interrupts`) is per thread.
    """

    __slots__ = ("base", "limit", "next_check", "steps")

    def __init__(self) -> None:
        self.steps = 0
        self.base = 0
        self.next_check = CLOCK_EVERY
        self.limit = MAX_STEPS


class _Interrupts(threading.local):
    """Per thread: the deadline and the cancel event of :func:`interruptible`."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.cancel: threading.Event | None = None


#: the step budget; the evaluator's closures update ``steps`` inline and call :func:`over` past
#: ``next_check`` (a function call per quantifier would cost more than the accounting)
state = _Budget()
_interrupts = _Interrupts()


def start() -> None:
    """A new top-level evaluation starts on this thread."""
    s = state
    s.base = s.steps


def charge(n: int, pos: A.Pos) -> None:
    """Account for ``n`` steps of work at ``pos``; raise when the budget or a deadline is exceeded."""
    s = state
    s.steps += n
    if s.steps > s.next_check:
        over(s, pos)


def over(s: _Budget, pos: A.Pos) -> None:
    """Past ``next_check``: is the evaluation over its budget, the deadline passed, the cancel set?"""
    used = s.steps - s.base
    if used > s.limit:
        s.base = s.steps  # a caller that catches the error and evaluates again starts afresh
        raise runtime_error(
            f"evaluation stopped after {used:,} steps (at most {s.limit:,} for one evaluation); "
            "the expression does too much work",
            pos,
        )
    poll(pos)
    s.next_check = min(s.steps + CLOCK_EVERY, s.base + s.limit)


def poll(pos: A.Pos | None = None) -> None:
    """Raise :class:`DslInterrupted` if this thread's deadline passed or its cancel event is set."""
    s = _interrupts
    if s.cancel is not None and s.cancel.is_set():
        raise _interrupted("cancelled", "evaluation cancelled", pos)
    if s.deadline is not None and time.perf_counter() >= s.deadline:
        raise _interrupted("time", "evaluation stopped at the time limit", pos)


def check_int(value: int, op: str, pos: A.Pos) -> int:
    """``value`` if it is within :data:`MAX_INT_BITS`, else a run-time error naming ``op``."""
    if value.bit_length() > MAX_INT_BITS:
        raise runtime_error(
            f"`{op}` made a number of {value.bit_length():,} bits (at most {MAX_INT_BITS:,})", pos
        )
    return value


def runtime_error(message: str, pos: A.Pos) -> DslRuntimeError:
    end = pos.end_column if pos.end_line == pos.line and pos.end_column > pos.column else None
    return DslRuntimeError(message, line=pos.line, column=pos.column, offset=pos.offset, end_column=end)


def _interrupted(why: str, message: str, pos: A.Pos | None) -> DslInterrupted:
    if pos is None:
        return DslInterrupted(message, why=why)
    return DslInterrupted(message, why=why, line=pos.line, column=pos.column, offset=pos.offset)


@contextmanager
def interruptible(
    deadline: float | None = None, cancel: threading.Event | None = None
) -> Iterator[None]:
    """Evaluations on this thread stop with :class:`DslInterrupted` once ``time.perf_counter()`` passes
    ``deadline`` or ``cancel`` is set (nested uses keep the earlier deadline)."""
    s = _interrupts
    saved = (s.deadline, s.cancel)
    if deadline is not None and (s.deadline is None or deadline < s.deadline):
        s.deadline = deadline
    if cancel is not None:
        s.cancel = cancel
    state.next_check = state.steps  # look at the clock at the first step
    try:
        yield
    finally:
        s.deadline, s.cancel = saved


__all__ = [
    "CLOCK_EVERY",
    "MAX_COST",
    "MAX_INT_BITS",
    "MAX_INT_DIGITS",
    "MAX_LIST",
    "MAX_STEPS",
    "charge",
    "check_int",
    "interruptible",
    "over",
    "poll",
    "start",
    "state",
]
