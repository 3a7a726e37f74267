"""Unsaved text standing in for files, for the language server: ``crewkit validate``'s own checks run on what
the editor holds, not on the disk.

Inside ``with texts({path: text})`` the loader reads ``text`` wherever it would read ``path``
(:func:`crewkit.spec.yamlio.load_yaml_file`, :func:`crewkit.spec.loader.load_doc`, the rule set cache); a
file another open document refers to (a mission's rule set, a rule set's base) is read from the editor too.
Outside (every command but ``crewkit lsp``) nothing changes and nothing is looked up.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import MappingProxyType

_NONE: Mapping[str, str] = MappingProxyType({})
_TEXTS: ContextVar[Mapping[str, str]] = ContextVar("crewkit_unsaved_texts", default=_NONE)


def _key(path: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(path))


@contextmanager
def texts(mapping: Mapping[Path, str]) -> Iterator[None]:
    """Read ``mapping[path]`` instead of the file at ``path`` for the duration of the block."""
    token = _TEXTS.set(MappingProxyType({_key(p): t for p, t in mapping.items()}))
    try:
        yield
    finally:
        _TEXTS.reset(token)


def active() -> bool:
    """Whether any unsaved text stands for a file now."""
    return bool(_TEXTS.get())


def text_of(path: str | os.PathLike[str]) -> str | None:
    """The unsaved text standing for ``path``, or None (read the file)."""
    current = _TEXTS.get()
    return current.get(_key(path)) if current else None


def stamp(path: str | os.PathLike[str]) -> int | None:
    """A cache key for the unsaved text of ``path`` in place of the file's modification time (negative, so it
    never equals one), or None when the file itself is read."""
    text = text_of(path)
    return None if text is None else -1 - (hash(text) & 0x7FFFFFFFFFFFFFFF)
