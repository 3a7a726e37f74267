"""Loading card set files (``schemas/card-set.schema.json``): schema check, then every effect checked.

``load_card_set(path)`` returns a :class:`CardSet` or raises :class:`~crewkit.spec.errors.SpecError` with
every problem, each at its file, line and column. Place names used in effects (``beach``) are checked against
the places file of the same game (``places.yaml`` in the same folder), or the ids passed in.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.resources import data_path
from crewkit.spec.schema import validate_against
from crewkit.spec.yamlio import LoadedDoc, load_yaml_file

from .check import EffectChecker
from .cost import copy_cycle_issues
from .model import Effect

PLACES_FILE = "places.yaml"
"""The places card set a hunt or survival set beside it takes its place names from."""


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    effects: tuple[Effect, ...]
    passive: tuple[Effect, ...] = ()
    number: int | None = None
    phase: int | None = None
    token: str | None = None
    places: int = 1
    resolve: str = "when_played"
    once_per_round: bool = False
    copyable: bool = True
    replaces_power: bool = False
    verified: bool = False
    sources: tuple[str, ...] = ()
    note: str = ""
    token_placed: str = "when_played"  # or "later": the token is made available now, placed with the lone seat's
    copies: str = ""  # "last_discarded": played as the last card of its deck's discard pile that does not copy


@dataclass(frozen=True)
class CardSet:
    kind: str  # places | hunt | survival
    game: str
    title: str
    path: str
    cards: tuple[Card, ...]
    sources: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def by_id(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def place_ids(self) -> dict[str, int]:
        return {c.id: c.number for c in self.cards if c.number is not None}

    def copied(self, card: Card, discard: Sequence[str]) -> Card | None:
        """The card ``card`` is played as now: itself, or for a card that copies (``copies: last_discarded``)
        the last card of ``discard`` (its deck's discard pile, oldest first) that does not copy; None when there
        is none (a copy of a copy is never made, so copies cannot go round in a cycle)."""
        if not card.copies:
            return card
        for card_id in reversed(discard):
            try:
                found = self.by_id(card_id)
            except KeyError:
                continue
            if not found.copies:
                return found
        return None

    def not_copyable(self) -> frozenset[int]:
        """The numbers of the places whose power cannot be copied (for :class:`~crewkit.effects.state.Context`)."""
        return frozenset(c.number for c in self.cards if c.number is not None and not c.copyable)


@functools.cache
def card_set_schema() -> dict[str, Any]:
    with open(data_path("schemas/card-set.schema.json"), encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


def _sound_cards_effect_issues(doc: LoadedDoc, schema_issues: list[SpecIssue],
                               place_ids: Mapping[str, int] | None) -> list[SpecIssue]:
    """The effect problems of the cards the schema found nothing wrong with (the others are reported by the
    schema; their effects may not be readable)."""
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return []
    broken = {issue.path[1] for issue in schema_issues
              if len(issue.path) > 1 and issue.path[0] == "cards" and isinstance(issue.path[1], int)}
    if any(not issue.path for issue in schema_issues):
        return []  # the document itself is wrong (not a card set): nothing more to say
    checker = EffectChecker(doc, dict(place_ids or {}))
    for i, raw in enumerate(data["cards"]):
        if i in broken or not isinstance(raw, dict):
            continue
        for key in ("effects", "passive"):
            if key in raw:
                checker.effects(("cards", i, key))
    return list(checker.issues)


def card_set_issues(doc: LoadedDoc, place_ids: Mapping[str, int] | None = None) -> tuple[CardSet | None,
                                                                                          list[SpecIssue]]:
    """The card set of a loaded document and every problem: the schema's, and the effects of every card the
    schema found nothing wrong with (a file with two bad cards reports both, whatever is wrong with each)."""
    issues = validate_against(doc, card_set_schema())
    if issues:
        return None, sort_issues(issues + _sound_cards_effect_issues(doc, issues, place_ids))
    data = doc.data
    ids = dict(place_ids or {})
    if data["card_set"] == "places":
        ids.update({c["id"]: c["number"] for c in data["cards"] if "number" in c})
    checker = EffectChecker(doc, ids)
    source_ids = {s["id"] for s in data["sources"]}
    seen: dict[str, int] = {}
    cards: list[Card] = []
    for i, raw in enumerate(data["cards"]):
        path = ("cards", i)
        if raw["id"] in seen:
            line, col = doc.position_of((*path, "id"))
            issues.append(SpecIssue(doc.filename, line, col, (*path, "id"),
                                    f"duplicate card id {raw['id']!r} (first used by card {seen[raw['id']] + 1})"))
        seen.setdefault(raw["id"], i)
        for j, ref in enumerate(raw["sources"]):
            if ref not in source_ids:
                line, col = doc.position_of((*path, "sources", j))
                issues.append(SpecIssue(doc.filename, line, col, (*path, "sources", j),
                                        f"unknown source {ref!r}; the file's sources are {', '.join(sorted(source_ids))}"))
        if raw.get("copies"):  # everything but its name and text comes from the card it copies
            for key in ("phase", "token", "places", "resolve", "token_placed", "replaces_power"):
                if key in raw:
                    line, col = doc.position_of((*path, key), key=True)
                    issues.append(SpecIssue(doc.filename, line, col, (*path, key),
                                            f"a card that copies takes its {key} from the card it copies; "
                                            f"remove {key!r}"))
            if raw["effects"]:
                line, col = doc.position_of((*path, "effects"))
                issues.append(SpecIssue(doc.filename, line, col, (*path, "effects"),
                                        "a card that copies has the effects of the card it copies: write "
                                        "`effects: []`"))
        elif data["card_set"] != "places" and "phase" not in raw:
            line, col = doc.position_of(path)
            issues.append(SpecIssue(doc.filename, line, col, path, "a hunt or survival card needs its phase (1 to 4), "
                                                                   "or `copies:`"))
        if raw.get("token_placed") == "later" and "token" not in raw:
            line, col = doc.position_of((*path, "token_placed"), key=True)
            issues.append(SpecIssue(doc.filename, line, col, (*path, "token_placed"),
                                    "token_placed: later needs the card's token (`token:`)"))
        effects = checker.effects((*path, "effects"))
        passive = checker.effects((*path, "passive"))
        cards.append(Card(
            id=raw["id"], name=raw["name"], text=raw["text"], effects=tuple(effects), passive=tuple(passive),
            number=raw.get("number"), phase=raw.get("phase"), token=raw.get("token"), places=raw.get("places", 1),
            resolve=raw.get("resolve", "when_played"), once_per_round=raw.get("once_per_round", False),
            copyable=raw.get("copyable", True), replaces_power=raw.get("replaces_power", False),
            verified=raw["verified"], sources=tuple(raw["sources"]), note=raw.get("note", ""),
            token_placed=raw.get("token_placed", "when_played"), copies=raw.get("copies", ""),
        ))
    issues += checker.issues
    if not issues:
        issues += copy_cycle_issues(doc, data["card_set"], cards)
    if issues:
        return None, sort_issues(issues)
    sources = {s["id"]: {k: v for k, v in s.items() if k != "id"} for s in data["sources"]}
    return CardSet(data["card_set"], data["game"], data["title"], doc.filename, tuple(cards), sources), []


def load_card_set(path: str | os.PathLike[str], place_ids: Mapping[str, int] | None = None, *,
                  within: Sequence[str | os.PathLike[str]] | None = None) -> CardSet:
    """Load and check one card set file; raises :class:`SpecError` with every problem.

    For a hunt or survival set without ``place_ids``, the ``places.yaml`` beside it supplies the place names:
    read from that folder only (a link leading out of it is refused) and only when it is a places set other than
    this file (a file that names itself is never read twice). ``within``: the folders ``path`` may be read from
    (:func:`crewkit.spec.yamlio.read_limited`; None for a path typed on the command line).
    """
    doc = load_yaml_file(path, within=within)
    if place_ids is None and isinstance(doc.data, dict) and doc.data.get("card_set") != "places":
        place_ids = _sibling_place_ids(Path(path), doc)
    card_set, issues = card_set_issues(doc, place_ids)
    if issues or card_set is None:
        raise SpecError(issues, doc.lines)
    return card_set


def _sibling_place_ids(path: Path, doc: LoadedDoc) -> dict[str, int] | None:
    """The place names of the places set beside ``path`` (``places.yaml``), or None when there is none to read."""
    sibling = path.with_name(PLACES_FILE)
    if path.name == PLACES_FILE or not sibling.is_file():
        return None
    try:
        places = load_yaml_file(sibling, within=[path.parent])
    except SpecError as exc:
        line, column = doc.position_of(("card_set",))
        reason = exc.issues[0].message if exc.issues else "it cannot be read"
        raise SpecError([SpecIssue(doc.filename, line, column, ("card_set",),
                                   f"the places file beside this card set ({sibling}) cannot be used: {reason}")],
                        doc.lines) from None
    card_set, issues = card_set_issues(places, {})
    if card_set is None or card_set.kind != "places":
        return None  # not a places set: its problems are its own file's, reported when that file is checked
    return card_set.place_ids()
