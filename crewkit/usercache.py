"""The user's own cache folder, and the checks that make a file in it safe to load.

Files in the cache are *loaded as code or pickles* (the condition grammar's parse tables, the compiled C
search), so they must be the user's own: the folder is ``$CREWKIT_CACHE``, else the platform's user cache
folder as :mod:`platformdirs` names it (``$XDG_CACHE_HOME/crewkit`` or ``~/.cache/crewkit`` on Linux,
``~/Library/Caches/crewkit`` on macOS, ``%LOCALAPPDATA%\\crewkit\\Cache`` on Windows), never the shared temp
folder; it is created with mode 0700, and a folder or file owned by someone else, or writable by others, is
not used (:func:`private_cache_dir` returns None, and the caller works without a cache).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import platformdirs

ENV_VAR = "CREWKIT_CACHE"


def cache_dir() -> Path:
    """Where crewkit keeps its per-user cache (created by :func:`private_cache_dir`)."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    return platformdirs.user_cache_path("crewkit", appauthor=False)


def owned_and_private(st: os.stat_result) -> bool:
    """Whether the file or folder of ``st`` is this user's and nobody else may write to it."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    if uid is not None and st.st_uid != uid:
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_cache_dir() -> Path | None:
    """The cache folder, created 0700 if missing; None when it is not safely the user's own."""
    path = cache_dir()
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or not owned_and_private(st):
        return None
    return path


def safe_cached_file(path: Path) -> bool:
    """True when ``path`` is a regular file (not a link) of the user's, writable only by them."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and owned_and_private(st)


def discard(path: Path) -> None:
    """Remove a cache file (ignoring one that is already gone)."""
    with contextlib.suppress(OSError):
        path.unlink()


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words (for a message about a folder that is not one)."""
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file"


def folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a folder crewkit keeps files in, in words, or None when it is one (or could be
    created: the nearest existing parent is a folder). Looks only; creates nothing."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        pass
    except NotADirectoryError:
        pass  # a parent is not a folder: found below
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    else:
        return None if stat.S_ISDIR(st.st_mode) else f"is {_kind(st.st_mode)}, not a folder"
    for parent in path.absolute().parents:
        try:
            st = os.stat(parent)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            return f"cannot be created: {parent} cannot be read ({exc.strerror or exc})"
        if stat.S_ISDIR(st.st_mode):
            return None
        return f"cannot be created: {parent} is {_kind(st.st_mode)}, not a folder"
    return None
