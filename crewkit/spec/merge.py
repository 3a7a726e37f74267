"""The merge rules of ``extends:`` and of reading ``overrides``.

- maps merge key by key, recursively;
- lists and scalars replace the base value whole;
- ``null`` deletes the key from the result;
- ``readings`` merge by ``id``: a reading with the id of a base reading replaces it, new ones are appended.
"""

from __future__ import annotations

import copy
from typing import Any

NOT_INHERITED = ("name", "title", "description", "extends")


def merge(base: Any, patch: Any, *, top: bool = False) -> Any:
    """Return ``base`` with ``patch`` applied; neither argument is modified."""
    if not isinstance(base, dict) or not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(base)
    if top:
        for key in NOT_INHERITED:
            out.pop(key, None)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif top and key == "readings" and isinstance(value, list):
            out[key] = merge_readings(out.get(key) or [], value)
        elif key in out and isinstance(out[key], dict) and isinstance(value, dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def merge_readings(base: list[Any], patch: list[Any]) -> list[Any]:
    by_id: dict[str, int] = {}
    out = copy.deepcopy(base)
    for i, reading in enumerate(out):
        if isinstance(reading, dict) and "id" in reading:
            by_id[reading["id"]] = i
    for reading in patch:
        rid = reading.get("id") if isinstance(reading, dict) else None
        if rid in by_id:
            out[by_id[rid]] = copy.deepcopy(reading)
        else:
            out.append(copy.deepcopy(reading))
    return out


def diff(a: Any, b: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str, tuple[str | int, ...], Any, Any]]:
    """Differences from ``a`` to ``b`` as ``(kind, path, old, new)`` with kind added/removed/changed."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[tuple[str, tuple[str | int, ...], Any, Any]] = []
        for key in a:
            if key not in b:
                out.append(("removed", (*path, key), a[key], None))
            else:
                out.extend(diff(a[key], b[key], (*path, key)))
        for key in b:
            if key not in a:
                out.append(("added", (*path, key), None, b[key]))
        return out
    if a != b:
        return [("changed", path, a, b)]
    return []
