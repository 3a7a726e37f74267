"""Lines typed on standard input, for an asyncio program (``crewkit host``'s commands, ``crewkit join``'s plain
client).

The lines are read on a daemon thread, never on the event loop's executor (``asyncio.to_thread``): when
``asyncio.run`` ends (Ctrl-C, the game over) it joins its executor's threads, and one blocked reading a terminal
or a pipe left open would keep the process alive until a line came. Standard input is read from its file
descriptor, not through ``sys.stdin``: a daemon thread blocked inside ``sys.stdin``'s buffer holds its lock,
and the interpreter's clean-up at exit would abort on that lock.
"""

from __future__ import annotations

import asyncio
import codecs
import concurrent.futures
import os
import sys
import threading
from collections.abc import Callable

__all__ = ["MAX_LINE", "LineReader", "read_stdin_lines"]

MAX_LINE = 4096  # characters of one typed line kept (a command or an action is a few words)


def read_stdin_lines() -> Callable[[], str]:
    """A blocking ``read_line()`` over standard input's file descriptor: each line with its newline, then ``""``
    at the end of input (or when there is no standard input)."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return lambda: ""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending: list[str] = []
    text = ""
    ended = False

    def read_line() -> str:
        nonlocal text, ended
        while not pending and not ended:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            text += decoder.decode(chunk, final=not chunk)
            if not chunk:
                ended = True
            *lines, text = text.split("\n")
            pending.extend(line[:MAX_LINE] + "\n" for line in lines)
            text = text[:MAX_LINE]  # a line without end is kept to its first MAX_LINE characters
            if ended and text:
                pending.append(text)
                text = ""
        return pending.pop(0) if pending else ""

    return read_line


class LineReader:
    """Lines of a blocking ``read_line()`` (``""`` at the end) on a daemon thread: ``await next()`` gives each."""

    def __init__(self, read_line: Callable[[], str]) -> None:
        self._loop = asyncio.get_running_loop()
        # one line waits at most: a flood on the pipe waits in the pipe, not in memory
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self._ended = False
        threading.Thread(target=self._run, args=(read_line,), daemon=True, name="crewkit-input").start()

    def _run(self, read_line: Callable[[], str]) -> None:
        while True:
            try:
                line = read_line()
            except (OSError, ValueError):  # standard input closed under us
                line = ""
            put = self._queue.put(line)
            try:
                asyncio.run_coroutine_threadsafe(put, self._loop).result()
            except RuntimeError:  # the loop has ended (the put never ran): nobody reads on
                put.close()
                return
            except concurrent.futures.CancelledError:
                return
            if not line:
                return

    async def next(self) -> str:
        """The next line with its newline; ``""`` once the input has ended (again on every later call)."""
        if self._ended:
            return ""
        line = await self._queue.get()
        self._ended = not line
        return line
