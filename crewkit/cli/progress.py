"""The one progress bar of the command line: transient, on stderr, only on a terminal.

``simulate``, ``compare``, ``check`` and ``winnability`` report progress through a callback
``update(done, total)``; :func:`progress_bar` yields such a callback that draws a rich bar with the
elapsed time and an ETA when stdout and stderr are both terminals, and ``None`` otherwise (piped or
redirected output stays clean, and the library then skips the reporting).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Update = Callable[[int, int], None]


@contextmanager
def progress_bar(label: str, total: int, enabled: bool = True) -> Iterator[Update | None]:
    """A bar labelled ``label`` counting to ``total`` while the ``with`` block runs; removed at its end.

    Nothing is drawn (``None`` is yielded) when ``enabled`` is false (e.g. JSON output), when stdout or
    stderr is not a terminal, or when there is at most one step."""
    if not (enabled and sys.stdout.isatty() and sys.stderr.isatty()) or total <= 1:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from crewkit.safetext import raw

    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                   TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), transient=True,
                   console=Console(file=raw(sys.stderr)))  # draws with escape sequences: not escaped
    task = bar.add_task(label, total=total)

    def update(done: int, _total: int) -> None:
        bar.update(task, completed=done)

    with bar:
        yield update


@contextmanager
def precision_bar(label: str, enabled: bool = True) -> Iterator[Callable[[Any], None] | None]:
    """A bar for a run towards a precision (``run_streams``'s status): games played of the estimated total,
    the widest 95% interval so far (± points) and an ETA; ``None`` when not drawn (as :func:`progress_bar`)."""
    if not (enabled and sys.stdout.isatty() and sys.stderr.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from crewkit.safetext import raw

    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed}/{task.total} games"),
                   TextColumn("{task.fields[interval]}"), TimeElapsedColumn(), TextColumn("ETA"),
                   TimeRemainingColumn(), transient=True, console=Console(file=raw(sys.stderr)))
    task = bar.add_task(label, total=None, interval="")

    def status(st: Any) -> None:
        text = "" if st.half_width is None else f"95% interval ±{100 * st.half_width:.1f} pts"
        bar.update(task, completed=st.done, total=max(st.total, st.done), interval=text)

    with bar:
        yield status
