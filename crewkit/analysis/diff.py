"""Rule differences between two rule sets or two missions, computed from the resolved specs.

``extends:`` is resolved and the selected readings applied before comparing, so the result is what the
engine would see; rule sets of every family are resolved by their family's loader (:func:`resolve_ruleset`). Keys are compared recursively (dotted paths); lists of maps with a ``name`` or ``id``
are matched by it (``deck.suits[green]``), other lists by position when both have the same length and as a
whole otherwise. Readings are compared by id: the choice, the options offered and the question.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

METADATA = ("name", "title", "description", "extends")


@dataclass(frozen=True)
class KeyChange:
    kind: str  # added | removed | changed
    path: str  # dotted
    old: Any
    new: Any

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "old": self.old, "new": self.new}


@dataclass(frozen=True)
class ReadingChange:
    id: str
    kind: str  # added | removed | changed
    choice_a: str | None
    choice_b: str | None
    options_a: tuple[str, ...]
    options_b: tuple[str, ...]
    what: tuple[str, ...]  # which parts differ: choice, options, question, overrides

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "choice": [self.choice_a, self.choice_b],
                "options": [list(self.options_a), list(self.options_b)], "differs": list(self.what)}


@dataclass
class SpecDiff:
    kind: str  # ruleset | mission
    a: str
    b: str
    keys: list[KeyChange] = field(default_factory=list)
    readings: list[ReadingChange] = field(default_factory=list)

    @property
    def rule_keys(self) -> list[KeyChange]:
        """Changes to the rules (the metadata keys name, title, description and extends left out)."""
        return [k for k in self.keys if k.path.split(".")[0].split("[")[0] not in METADATA]

    @property
    def same(self) -> bool:
        return not self.rule_keys and not self.readings

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "a": self.a, "b": self.b, "keys": [k.to_json() for k in self.keys],
                "readings": [r.to_json() for r in self.readings], "same_rules": self.same}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, default=str)

    def format_text(self, width: int = 60) -> str:
        lines = [f"{self.kind} {self.a}  →  {self.b}"]
        rule_keys = self.rule_keys
        meta = [k for k in self.keys if k not in rule_keys]
        if not rule_keys and not self.readings:
            lines.append("no rule differences" + (" (only names and descriptions differ)" if meta else ""))
        if rule_keys:
            lines.append("")
            kw = max(len(k.path) for k in rule_keys)
            kw = min(max(kw, 4), 40)
            lines.append(f"  {'':1} {'key':<{kw}}  {'in ' + self.a:<{width // 2}}  in {self.b}")
            for k in rule_keys:
                sign = {"added": "+", "removed": "-", "changed": "~"}[k.kind]
                old = "" if k.kind == "added" else _short(k.old, width // 2)
                new = "" if k.kind == "removed" else _short(k.new, width)
                lines.append(f"  {sign} {k.path:<{kw}}  {old:<{width // 2}}  {new}")
        if self.readings:
            lines.append("")
            lines.append("  readings:")
            for r in self.readings:
                if r.kind == "added":
                    lines.append(f"  + {r.id}: only in {self.b} (choice {r.choice_b}; options {', '.join(r.options_b)})")
                elif r.kind == "removed":
                    lines.append(f"  - {r.id}: only in {self.a} (choice {r.choice_a}; options {', '.join(r.options_a)})")
                else:
                    parts = []
                    if "choice" in r.what:
                        parts.append(f"choice {r.choice_a} → {r.choice_b}")
                    if "options" in r.what:
                        parts.append(f"options {', '.join(r.options_a)} → {', '.join(r.options_b)}")
                    for other in r.what:
                        if other not in ("choice", "options"):
                            parts.append(f"{other} differs")
                    lines.append(f"  ~ {r.id}: " + "; ".join(parts))
        if meta:
            lines.append("")
            lines.append("  also differs: " + ", ".join(k.path for k in meta))
        return "\n".join(lines)


def _short(value: Any, width: int) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else value
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def _label(item: Any) -> str | None:
    if isinstance(item, Mapping):
        for key in ("name", "id"):
            if isinstance(item.get(key), str):
                return item[key]
    return None


def diff_values(a: Any, b: Any, path: str = "") -> list[KeyChange]:
    """Recursive differences from ``a`` to ``b`` with dotted paths."""
    def sub(p: str, key: str) -> str:
        return f"{p}.{key}" if p else key

    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out: list[KeyChange] = []
        for key in a:
            if key not in b:
                out.append(KeyChange("removed", sub(path, str(key)), a[key], None))
            else:
                out.extend(diff_values(a[key], b[key], sub(path, str(key))))
        for key in b:
            if key not in a:
                out.append(KeyChange("added", sub(path, str(key)), None, b[key]))
        return out
    if isinstance(a, list) and isinstance(b, list) and a != b:
        la, lb = [_label(x) for x in a], [_label(x) for x in b]
        if all(la) and all(lb) and len(set(la)) == len(la) and len(set(lb)) == len(lb):
            out = []
            bmap = {lab: x for lab, x in zip(lb, b, strict=True)}
            amap = {lab: x for lab, x in zip(la, a, strict=True)}
            for lab, x in zip(la, a, strict=True):
                if lab not in bmap:
                    out.append(KeyChange("removed", f"{path}[{lab}]", x, None))
                else:
                    out.extend(diff_values(x, bmap[lab], f"{path}[{lab}]"))
            for lab, x in zip(lb, b, strict=True):
                if lab not in amap:
                    out.append(KeyChange("added", f"{path}[{lab}]", None, x))
            if not out and la != lb:
                out.append(KeyChange("changed", path, a, b))  # same items, another order
            return out
        if len(a) == len(b) and any(isinstance(x, (Mapping, list)) for x in a):
            out = []
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                out.extend(diff_values(x, y, f"{path}[{i}]"))
            return out
        return [KeyChange("changed", path, a, b)]
    if a != b:
        return [KeyChange("changed", path, a, b)]
    return []


def diff_readings(a: Sequence[Any], b: Sequence[Any]) -> list[ReadingChange]:
    def index(items: Sequence[Any]) -> dict[str, Mapping[str, Any]]:
        return {str(r["id"]): r for r in items if isinstance(r, Mapping) and "id" in r}

    ia, ib = index(a or []), index(b or [])
    out: list[ReadingChange] = []
    for rid in list(ia) + [x for x in ib if x not in ia]:
        ra, rb = ia.get(rid), ib.get(rid)
        oa = tuple((ra or {}).get("options") or {})
        ob = tuple((rb or {}).get("options") or {})
        ca = None if ra is None else str(ra.get("choice"))
        cb = None if rb is None else str(rb.get("choice"))
        if ra is None:
            out.append(ReadingChange(rid, "added", None, cb, (), ob, ()))
        elif rb is None:
            out.append(ReadingChange(rid, "removed", ca, None, oa, (), ()))
        else:
            what = []
            if ca != cb:
                what.append("choice")
            if oa != ob:
                what.append("options")
            if ra.get("question") != rb.get("question"):
                what.append("question")
            if set(oa) == set(ob) and any(
                (ra["options"][o] or {}).get("overrides") != (rb["options"][o] or {}).get("overrides") for o in oa
            ):
                what.append("overrides")
            if what:
                out.append(ReadingChange(rid, "changed", ca, cb, oa, ob, tuple(what)))
    return out


def resolve_ruleset(ref: str, readings: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    """(name, resolved data) of a rule set of any family, by bundled name or path: ``extends:`` applied and the
    selected readings' options merged in, checked as the family's loader checks it (a SpecError with positions,
    or a SetupError naming an unknown reading or option)."""
    from crewkit.games import family_for

    name, data = family_for(ref).ruleset_data(ref, readings)  # (an unknown name: the trick-taking loader says why)
    return name, _metadata_first(copy.deepcopy(data))


def _metadata_first(data: Mapping[str, Any]) -> dict[str, Any]:
    """The top-level keys as a file writes them: its name and the other metadata first (a merge through
    ``extends:`` puts the variant's own keys last)."""
    first = ["name", "extends", "family", "title", "description"]
    return {**{k: data[k] for k in first if k in data}, **{k: v for k, v in data.items() if k not in first}}


def resolve(ref: str, kind: str | None = None,
            readings: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any], str]:
    """(kind, resolved data, display name) of a bundled name or a path; tries a rule set, then a mission."""
    from crewkit.games import ruleset_file
    from crewkit.spec import bundled
    from crewkit.spec.loader import guess_kind, load_doc, load_mission

    if kind is None:
        if bundled.looks_like_path(ref) and Path(ref).exists():
            kind = guess_kind(Path(ref), load_doc(Path(ref)).data)
        else:
            try:
                ruleset_file(ref)  # crewkit's rule sets and installed families'
                kind = "ruleset"
            except bundled.NotFound:
                kind = "mission"
    if kind == "ruleset":
        name, data = resolve_ruleset(ref, readings)
        return "ruleset", data, name
    if kind == "mission":
        ms = load_mission(ref, readings)
        return "mission", dict(ms.data), ms.id
    raise ValueError(f"{ref}: a {kind} file cannot be compared; give two rule sets or two missions")


def diff_specs(a: str, b: str, *, kind: str | None = None, readings_a: Mapping[str, str] | None = None,
               readings_b: Mapping[str, str] | None = None) -> SpecDiff:
    """The differences between two rule sets or two missions (bundled names or paths)."""
    ka, da, na = resolve(a, kind, readings_a)
    kb, db, nb = resolve(b, kind, readings_b)
    if ka != kb:
        raise ValueError(f"cannot compare a {ka} ({a}) with a {kb} ({b}): give two rule sets or two missions")
    ra, rb = da.pop("readings", []) or [], db.pop("readings", []) or []
    return SpecDiff(ka, na, nb, diff_values(da, db), diff_readings(ra, rb))


__all__ = ["KeyChange", "ReadingChange", "SpecDiff", "diff_readings", "diff_specs", "diff_values", "resolve",
           "resolve_ruleset"]
