"""Text from a spec or a record is printed escaped: no terminal control sequence ever reaches the terminal.

A mission's ``reason: "\\e]0;PWNED\\a\\e[2J"`` would retitle and clear the terminal of whoever runs
``crewkit simulate`` on it; a ``\\r`` or a right-to-left override would make printed text lie about what it
says. :func:`escape_controls` is the one function that makes such text harmless, and :class:`SafeStream`
applies it to everything a command prints (``crewkit.cli`` installs it on stdout and stderr for every
command but ``play``, whose terminal app draws with escape sequences of its own).
"""

from __future__ import annotations

import re
from typing import Any, TextIO

# C0 controls but tab and newline, DEL, C1 controls, bidirectional overrides and isolates, lone surrogates
# (undecodable bytes kept by surrogateescape), and the line/paragraph separators some terminals honour.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with every control character written out as an escape (``\\x1b``, ``\\u202e``)."""
    return _UNSAFE.sub(_escape, text)


class SafeStream:
    """A text stream that writes through :func:`escape_controls` to ``raw_stream``."""

    def __init__(self, raw_stream: TextIO) -> None:
        self.raw_stream = raw_stream

    def write(self, text: str) -> int:
        self.raw_stream.write(escape_controls(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, ...
        return getattr(self.raw_stream, name)


def raw(stream: Any) -> Any:
    """The stream under a :class:`SafeStream` (for a progress bar that draws with escape sequences)."""
    return getattr(stream, "raw_stream", stream)
