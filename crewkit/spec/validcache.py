"""Bundled rule sets and missions found valid by their schema once, remembered in the user's cache folder.

Checking a document against its JSON Schema costs the import of jsonschema and a check of the schema itself
(about half a second as a process), and a bundled file is the same at every start. So when a *bundled* file
(under the data root's ``rulesets/`` or ``missions/``) passes its schema, an empty marker file named by the
SHA-256 of everything the verdict depends on is written in the user's private cache folder
(:mod:`crewkit.usercache`): the document's text, its kind, every schema file, the source of
:mod:`crewkit.spec.schema` and the installed jsonschema. Later, the same text of the same file is known valid
without validating it; any change to one of them names another marker, so a stale verdict is never used.

Only passes are remembered (a failing file is validated again, for its messages), only for bundled files (a
user's file is always validated), never for an editor's unsaved text, and never when the cache folder is not
safely the user's own. Only the schema check is skipped: every other check of the file still runs.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path

from crewkit.spec import overlay
from crewkit.spec.resources import data_path, data_root

FOLDER = "valid-specs"


@functools.cache
def _verdict_stamp() -> bytes:
    """What the schema check is, besides the document: the schemas, the validating code, jsonschema's version."""
    h = hashlib.sha256()
    for schema in sorted(data_path("schemas").glob("*.json")):
        h.update(schema.name.encode() + b"\0" + schema.read_bytes() + b"\0")
    h.update(Path(__file__).with_name("schema.py").read_bytes())
    spec = importlib.util.find_spec("jsonschema")
    origin = spec.origin if spec is not None else None
    if origin:  # the installed package's place and time stand for its version, without importing it
        h.update(f"{origin}\0{os.stat(origin).st_mtime_ns}".encode())
    return h.digest()


def _bundled(path: Path) -> bool:
    try:
        real = path.resolve()
        root = data_root().resolve()
    except OSError:
        return False
    return any(real.is_relative_to(root / folder) for folder in ("rulesets", "missions"))


def _marker(path: Path, lines: Sequence[str], kind: str) -> Path | None:
    """The marker of the verdict on ``lines`` (the text of ``path``) as ``kind``; None when that verdict is not
    to be remembered."""
    if not _bundled(path) or overlay.stamp(path) is not None:
        return None
    from crewkit.usercache import private_cache_dir

    folder = private_cache_dir()
    if folder is None:
        return None
    h = hashlib.sha256(_verdict_stamp())
    h.update(f"\0{kind}\0{path.resolve()}\0".encode())
    h.update("\n".join(lines).encode())
    return folder / FOLDER / h.hexdigest()


def known_valid(path: Path, lines: Sequence[str], kind: str) -> bool:
    """True when ``lines``, the text of the bundled file ``path``, has passed the schema of ``kind`` before."""
    from crewkit.usercache import safe_cached_file

    marker = _marker(path, lines, kind)
    return marker is not None and safe_cached_file(marker)


def remember_valid(path: Path, lines: Sequence[str], kind: str) -> None:
    """Record that ``lines``, the text of ``path``, passed the schema of ``kind`` (only for a bundled file)."""
    marker = _marker(path, lines, kind)
    if marker is None:
        return
    try:
        marker.parent.mkdir(mode=0o700, exist_ok=True)
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))
    except OSError:
        pass  # no marker: the file is validated again next time
