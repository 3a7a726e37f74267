"""Checking effect data written in YAML against the vocabulary, with positioned errors.

An effect list is a YAML list; each item is a mapping with exactly one key, the word, whose value is a
mapping of arguments (``{}`` or nothing when the word takes none)::

    - take_back_places: {count: 1}
    - one_of:
        options:
          - [{put_marker: {}}]
          - [{remove_marker: {}}, {move_track: {track: rescue}}]

``lasts`` (``this_round`` or ``next_round``) may be given to a *rule* word only. Every problem becomes a
:class:`~crewkit.spec.errors.SpecIssue` naming the file, line and column, what was expected and what was
found. Nothing is evaluated: the data is only compared with the table in :mod:`crewkit.effects.words`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewkit.spec.errors import Path, SpecIssue
from crewkit.spec.yamlio import LoadedDoc

from .model import Duration, Effect
from .words import WORDS, Word, found_text

MAX_NESTING = 4
"""How deep ``one_of`` may nest."""
MAX_OPTIONS = 8
"""The most options of a ``one_of`` (a player chooses among them)."""
MAX_OPTION_EFFECTS = 16
"""The most effects in one option (as on a card)."""


@dataclass
class EffectChecker:
    """Checks effect lists of one document; ``place_ids`` are the place names effects may name."""

    doc: LoadedDoc
    place_ids: Mapping[str, int] = field(default_factory=dict)
    issues: list[SpecIssue] = field(default_factory=list)

    def effects(self, path: Path, depth: int = 0) -> list[Effect]:
        """The checked effects of the list at ``path`` (problems go to :attr:`issues`)."""
        value = _at(self.doc.data, path)
        if value is None:
            return []
        if not isinstance(value, list):
            self._issue(path, f"expected a list of effects, found {found_text(value)}")
            return []
        out: list[Effect] = []
        for i, _item in enumerate(value):
            effect = self.effect((*path, i), depth)
            if effect is not None:
                out.append(effect)
        return out

    def effect(self, path: Path, depth: int = 0) -> Effect | None:
        item = _at(self.doc.data, path)
        if not isinstance(item, dict) or len(item) != 1:
            what = found_text(item) if not isinstance(item, dict) else f"a mapping with {len(item)} keys"
            self._issue(path, f"expected one effect: a mapping with one key, the effect's word (such as "
                              f"'take_back_places: {{count: 1}}'), found {what}")
            return None
        name, args = next(iter(item.items()))
        word = WORDS.get(name)
        if word is None:
            close = difflib.get_close_matches(name, list(WORDS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known words: {', '.join(WORDS)}"
            self._issue((*path, name), f"unknown effect {name!r}{hint}", key=True)
            return None
        return self._args(word, args, (*path, name), depth)

    def _args(self, word: Word, args: Any, path: Path, depth: int) -> Effect | None:
        if args is None:
            args = {}
        if not isinstance(args, dict):
            self._issue(path, f"expected the arguments of {word.name} as a mapping ({{...}}), found {found_text(args)}")
            return None
        ok = True
        values: dict[str, Any] = {}
        lasts = word.default_lasts
        for key, value in args.items():
            if key == "lasts":
                if word.kind != "rule":
                    self._issue((*path, key), f"{word.name} happens at once: only a rule word takes 'lasts'",
                                key=True)
                    ok = False
                elif value not in ("this_round", "next_round"):
                    self._issue((*path, key), f"expected this_round or next_round, found {found_text(value)}")
                    ok = False
                else:
                    lasts = Duration(value)
                continue
            param = word.param(key)
            if param is None:
                names = [p.name for p in word.params] + (["lasts"] if word.kind == "rule" else [])
                close = difflib.get_close_matches(key, names, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                known = ", ".join(names) if names else "none"
                self._issue((*path, key), f"{word.name} has no argument {key!r}; {hint}its arguments: {known}",
                            key=True)
                ok = False
                continue
            if param.type.name == "options":
                checked = self._options((*path, key), value, depth)
                if checked is None:
                    ok = False
                values[key] = checked
                continue
            where: Path = (*path, key)
            if param.type.name == "places" and isinstance(value, list) and value:
                # point at the offending item of a list of places
                bad = [i for i, item in enumerate(value) if param.type.problem(item, self.place_ids)]
                if bad:
                    where = (*where, bad[0])
            problem = param.type.problem(value, self.place_ids)
            if problem:
                self._issue(where, f"{word.name}.{key}: {problem}")
                ok = False
            values[key] = value
        for param in word.params:
            if param.name not in values:
                if param.required:
                    self._issue(path, f"{word.name} needs the argument {param.name!r} ({param.type.doc})", key=True)
                    ok = False
                else:
                    values[param.name] = param.default
        if not ok:
            return None
        line, column = self.doc.position_of(path, key=True)
        return Effect(word.name, values, lasts, self.doc.filename, line, column, path)

    def _options(self, path: Path, value: Any, depth: int) -> tuple[tuple[Effect, ...], ...] | None:
        if depth >= MAX_NESTING:
            self._issue(path, f"one_of nests more than {MAX_NESTING} deep")
            return None
        if not isinstance(value, list) or not 2 <= len(value) <= MAX_OPTIONS:
            self._issue(path, f"expected a list of at least two options, at most {MAX_OPTIONS} (each a list of "
                              "effects), found "
                              f"{found_text(value) if not isinstance(value, list) else f'{len(value)} option(s)'}")
            return None
        out: list[tuple[Effect, ...]] = []
        before = len(self.issues)
        for i, option in enumerate(value):
            if not isinstance(option, list) or not 1 <= len(option) <= MAX_OPTION_EFFECTS:
                found = f"{len(option)} effects" if isinstance(option, list) and option else found_text(option)
                self._issue((*path, i), f"expected an option: a list of 1 to {MAX_OPTION_EFFECTS} effects, found {found}")
                continue
            out.append(tuple(self.effects((*path, i), depth + 1)))
        return tuple(out) if len(self.issues) == before else None

    def _issue(self, path: Path, message: str, key: bool = False) -> None:
        line, column = self.doc.position_of(path, key=key)
        self.issues.append(SpecIssue(self.doc.filename, line, column, tuple(path), message))


def _at(data: Any, path: Sequence[str | int]) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def check_effects(doc: LoadedDoc, path: Path, place_ids: Mapping[str, int] | None = None
                  ) -> tuple[list[Effect], list[SpecIssue]]:
    """The effects of the list at ``path`` in ``doc``, and every problem found (sorted by position)."""
    checker = EffectChecker(doc, dict(place_ids or {}))
    effects = checker.effects(path)
    return effects, sorted(checker.issues, key=lambda i: (i.line, i.column))
