"""Atomic file writes: a temporary file in the same folder, fsync, rename, then fsync the folder.

A reader (or a crash) sees either the old file or the new one, never half of one. Used for game records,
in-progress saves and the logbook's backups.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def fsync_dir(directory: Path) -> None:
    """Make a rename inside ``directory`` durable (POSIX; a no-op elsewhere)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)
    return path


def write_json_atomic(path: Path, data: object) -> None:
    """``data`` as JSON (a game record's layout: one-space indent, UTF-8 kept), written atomically."""
    import json

    write_text_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
