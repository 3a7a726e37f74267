"""In-progress attempt saves, so an interrupted attempt can be resumed.

One JSON file per key under ``crewkit_home()/saves/``. Writes are atomic (temporary file in the same
directory, flushed and fsynced, then ``os.replace``), so a save is always either the old or the new one.
A damaged save is reported with a :class:`SaveError` naming the file, line and column and is left as it
is; it is renamed aside to ``*.damaged`` only when the caller asks (``set_aside=True``).

Keys are free strings (mission ids such as ``planet-nine/03`` included); they are percent-encoded into
file names, so ``/``, ``\\`` and other unsafe characters never reach the file system. On case-insensitive
file systems keys differing only in case share a file.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from crewkit.atomic import fsync_dir, write_text_atomic
from crewkit.campaign.home import crewkit_home
from crewkit.errors import CrewkitError
from crewkit.spec.yamlio import read_limited

SAVES_DIRNAME = "saves"
SAVE_FORMAT = "crewkit-save"
SAVE_VERSION = 1
_SUFFIX = ".json"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class SaveError(CrewkitError):
    """A save file that cannot be used. ``line``/``column`` are 1-based when the problem has a position."""

    def __init__(
        self,
        message: str,
        path: Path,
        line: int | None = None,
        column: int | None = None,
        damaged_path: Path | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column
        #: Where the damaged file was moved when the caller asked for ``set_aside``.
        self.damaged_path = damaged_path


def saves_dir(*, create: bool = False) -> Path:
    """``crewkit_home()/saves``."""
    directory = crewkit_home(create=create) / SAVES_DIRNAME
    if create:
        directory.mkdir(parents=True, exist_ok=True)
    return directory


def _encode_key(key: str) -> str:
    if not isinstance(key, str) or not key:
        raise ValueError(f"a save key must be a non-empty string, not {key!r}")
    out: list[str] = []
    for i, ch in enumerate(key):
        if ch in _SAFE and not (i == 0 and ch == "."):  # a leading dot would hide the file / clash with temps
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out)


def save_path(key: str) -> Path:
    """The file that holds the save for ``key`` (it may not exist)."""
    return saves_dir() / (_encode_key(key) + _SUFFIX)


def save_in_progress(key: str, record: dict[str, Any]) -> Path:
    """Atomically write ``record`` (JSON-serialisable) as the save for ``key``; returns the file's path."""
    path = save_path(key)
    document = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "key": key,
        "saved": datetime.now(UTC).isoformat(),
        "record": record,
    }
    try:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{path}: the record for {key!r} cannot be saved as JSON: {exc}", path) from None
    return write_text_atomic(path, text)


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte ``offset``."""
    before = data[:offset]
    line = before.count(b"\n") + 1
    column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
    return line, column


def _set_aside(path: Path) -> Path:
    target = path.with_name(path.name + ".damaged")
    n = 2
    while target.exists():
        target = path.with_name(f"{path.name}.{n}.damaged")
        n += 1
    os.replace(path, target)
    return target


def load_in_progress(key: str, *, set_aside: bool = False) -> dict[str, Any] | None:
    """The record saved for ``key``, or None if there is none.

    A damaged file raises :class:`SaveError` (file, line, column) and stays where it is, unless
    ``set_aside`` is true: then it is renamed to ``<file>.damaged`` first (the error says where), so that
    the next load finds no save.
    """
    path = save_path(key)
    try:
        data = read_limited(path)  # a regular file of bounded size, never a FIFO or a device
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"{path}: cannot be read: {exc.strerror or exc}", path) from None

    problem: str
    line: int | None = None
    column: int | None = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(data, exc.start)
        problem = f"{path}:{line}:{column}: damaged save: not UTF-8 text ({exc.reason})"
    else:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            line, column = exc.lineno, exc.colno
            problem = f"{path}:{line}:{column}: damaged save: {exc.msg}"
        else:
            if (
                isinstance(document, dict)
                and document.get("format") == SAVE_FORMAT
                and isinstance(document.get("record"), dict)
            ):
                version = document.get("version")
                if isinstance(version, int) and version > SAVE_VERSION:
                    raise SaveError(
                        f"{path}: written by a newer crewkit (save version {version}); upgrade crewkit", path
                    )
                record: dict[str, Any] = document["record"]
                return record
            problem = (
                f"{path}: damaged save: not a crewkit save (no 'format': {SAVE_FORMAT!r} and 'record' object)"
            )

    damaged: Path | None = None
    if set_aside:
        try:
            damaged = _set_aside(path)
        except OSError as exc:
            problem += f"; it could not be moved aside: {exc.strerror or exc}"
        else:
            problem += f"; moved aside to {damaged}"
    else:
        problem += "; the file was left untouched"
    raise SaveError(problem, path, line=line, column=column, damaged_path=damaged)


def clear_in_progress(key: str) -> bool:
    """Delete the save for ``key``; returns whether there was one."""
    path = save_path(key)
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    fsync_dir(path.parent)
    return True


def _campaign_token(campaign: str | None) -> str:
    from crewkit.spec.campaigns import identity_slug

    return identity_slug(campaign) if campaign else "free"  # a folder campaign's identity holds a path


def attempt_key(campaign: str | None, mission: str, ruleset: str, players: int) -> str:
    """The save key of an attempt played in the terminal app (``campaign``: the campaign's identity)."""
    return f"tui:{_campaign_token(campaign)}:{mission}:{ruleset}:{players}"


def saved_missions(campaign: str, keys: list[str] | None = None) -> set[str]:
    """The missions of ``campaign`` (its logbook key) with a saved attempt (any rule set or player count),
    from the save keys (``keys``; by default those on disk)."""
    out: set[str] = set()
    token = _campaign_token(campaign)
    for key in list_in_progress() if keys is None else keys:
        parts = key.split(":")
        if len(parts) >= 5 and parts[0] == "tui" and parts[1] == token:
            out.add(":".join(parts[2:-2]))
    return out


def list_in_progress() -> list[str]:
    """Keys that have a save, sorted. Temporary and ``*.damaged`` files are not listed."""
    directory = saves_dir()
    if not directory.is_dir():
        return []
    keys: list[str] = []
    for entry in directory.iterdir():
        if not entry.name.endswith(_SUFFIX) or entry.name.startswith(".") or not entry.is_file():
            continue
        stem = entry.name[: -len(_SUFFIX)]
        try:
            key = unquote(stem, errors="strict")
        except UnicodeDecodeError:
            continue
        if key and _encode_key(key) == stem:  # only files this module could have written
            keys.append(key)
    return sorted(keys)
