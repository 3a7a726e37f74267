"""Task-card decks (``task-cards`` files, The Crew: Mission Deep Sea): checked, and typed for the engine.

A deck is a YAML file of cards, each an objective written in the condition language and bound to the player
who takes it (the name ``owner``; ``chosen`` for a card that asks its owner for a number), with a difficulty
per number of seats. A rule set names its deck (``tasks.deck``: a bundled name, ``missions/NAME/tasks.yaml``,
or a path beside the rule set); a mission draws from it by difficulty (setup step ``draw_tasks``).

Checked like a mission: the schema (``schemas/task-cards.schema.json``), then the DSL of every card through the
table of :mod:`crewkit.spec.dslsites` against the deck of playing cards of the first rule set the file names,
card ids used once, sources cited that exist, ``chosen`` only on cards that ask a number, and every option of
every card's readings applied. Every problem is a :class:`~crewkit.spec.errors.SpecIssue` at the file's line
and column.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.spec import bundled
from crewkit.spec.dslsites import DslChecks, sites_in
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.merge import merge
from crewkit.spec.model import Dsl, RuleSet
from crewkit.spec.yamlio import TranslatedDoc

KIND = "task-cards"
OWNER = "owner"  # the player who took the card, in its conditions
CHOSEN = "chosen"  # the number a card's owner named (``asks_number``)


@dataclass(frozen=True, slots=True)
class NumberAsk:
    """``asks_number``: the owner names a number in [low, high] before the first trick (``high`` None: the
    number of tricks); ``shown``: the others see it."""

    shown: bool
    low: int = 0
    high: int | None = None


@dataclass(frozen=True, slots=True)
class TaskCardSpec:
    """One task card, typed: its words, difficulties and its objective's DSL (parsed and checked)."""

    id: str
    text: str
    difficulty: Mapping[int, int]  # seats -> difficulty
    fail_if: Dsl | None
    done_if: Dsl | None
    reason: Dsl  # a template
    check: str = "after-trick"
    may_take_if: Dsl | None = None
    redeal_if: Dsl | None = None
    asks_number: NumberAsk | None = None
    note: str = ""
    index: int = 0  # its place in the file
    sources: tuple[str, ...] = ()
    unverified: str = ""


@dataclass(frozen=True)
class TaskDeck:
    """A checked deck of task cards (readings applied)."""

    name: str
    title: str
    path: Path
    data: Mapping[str, Any]
    cards: tuple[TaskCardSpec, ...]
    readings: Mapping[str, str] = field(default_factory=dict)  # selections applied
    in_force: tuple[tuple[str, str], ...] = ()  # every card reading: (id, choice)

    def card(self, card_id: str) -> TaskCardSpec:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def reading_ids(self) -> set[str]:
        return {rid for rid, _ in self.in_force}


# ---------------------------------------------------------------------------- finding decks
deck_path = bundled.task_deck_path  # the deck file a reference names (kept here: the loaders call it so)


# ---------------------------------------------------------------------------- checking
def _issue(doc: Any, path: tuple[str | int, ...], message: str, **kw: Any) -> SpecIssue:
    line, col = doc.position_of(path)
    return SpecIssue(doc.filename, line, col, path, message, kw.get("expected"), kw.get("found"))


def deck_base(data: Mapping[str, Any], doc: Any, path: Path) -> tuple[dict[str, Any] | None, list[SpecIssue]]:
    """The resolved rule set the cards' DSL is checked against (the first of ``rulesets`` that loads)."""
    from crewkit.spec.loader import resolve_ruleset_data

    issues: list[SpecIssue] = []
    for i, ref in enumerate(data.get("rulesets") or []):
        try:
            rdata, r_issues, _ = resolve_ruleset_data(bundled.ruleset_path(str(ref), relative_to=path.parent))
        except bundled.NotFound as exc:
            issues.append(_issue(doc, ("rulesets", i), str(exc)))
            continue
        except SpecError as exc:
            r_issues, rdata = list(exc.issues), {}
        if r_issues:
            issues.append(_issue(doc, ("rulesets", i), f"rule set {ref!r} has {len(r_issues)} error(s)"))
            continue
        return rdata, issues
    return None, issues


def _seats(ruleset: Mapping[str, Any]) -> list[int]:
    """The numbers of seats a rule set plays with: its player counts, plus one for a dummy seat."""
    extra = 1 if isinstance(ruleset.get("dummy"), Mapping) else 0
    return sorted({int(p) + extra for p in ruleset.get("players") or [] if isinstance(p, int)})


def check_cards_dsl(data: Mapping[str, Any], doc: Any, deck: Any, seats: int | None,
                    checks: DslChecks) -> list[SpecIssue]:
    """Every DSL text of every card (the sites of kind ``task-cards``), parsed and checked."""
    from crewkit import dsl
    from crewkit.spec.loader import dsl_issue

    issues: list[SpecIssue] = []
    for site, where, text in sites_in(data, KIND):
        try:
            checks.check(site, text, deck, seats=seats)
        except dsl.DslError as exc:
            issues.append(dsl_issue(doc, where, text, exc))
    return issues


def check_task_deck_file(path: Path, checks: DslChecks | None = None) -> list[SpecIssue]:
    """Every issue of a deck of task cards, sorted by position: its schema, then its own checks."""
    from crewkit.spec.loader import check_spec_file, load_doc

    checks = checks or DslChecks()
    issues = check_spec_file(path, KIND, checks=checks)  # type: ignore[arg-type]
    if issues:
        return issues
    return sort_issues(check_task_deck_semantics(load_doc(path).data, load_doc(path), path, checks))


def check_task_deck_semantics(data: Mapping[str, Any], doc: Any, path: Path,
                              checks: DslChecks | None = None) -> list[SpecIssue]:
    """A task deck's problems beyond its schema (see the module docstring)."""
    from crewkit.dsl import ast as A
    from crewkit.dsl import parse
    from crewkit.spec.deck import build_deck

    checks = checks or DslChecks()
    base, issues = deck_base(data, doc, path)
    cards = [c for c in data.get("cards") or [] if isinstance(c, Mapping)]
    sources = set((data.get("sources") or {}).keys())
    first: dict[str, int] = {}
    reading_ids: dict[str, tuple[int, int]] = {}
    for i, card in enumerate(data.get("cards") or []):
        if not isinstance(card, Mapping):
            continue
        cid = str(card.get("id"))
        if cid in first:
            issues.append(_issue(doc, ("cards", i, "id"), f"duplicate task card id {cid!r}: card {first[cid] + 1} "
                                 "has it too", expected="a card id used once", found=repr(cid)))
        else:
            first[cid] = i
        for j, src in enumerate(card.get("source") or []):
            if src not in sources:
                issues.append(_issue(doc, ("cards", i, "source", j), f"unknown source {src!r}; the deck's sources: "
                                     f"{', '.join(sorted(sources)) or 'none'}"))
        ask = card.get("asks_number")
        if isinstance(ask, Mapping) and isinstance(ask.get("min"), int) and isinstance(ask.get("max"), int) \
                and ask["min"] > ask["max"]:
            issues.append(_issue(doc, ("cards", i, "asks_number", "max"),
                                 f"asks_number: max {ask['max']} is below min {ask['min']}"))
        for key in ("fail_if", "done_if"):
            text = card.get(key)
            if isinstance(text, str) and not isinstance(ask, Mapping):
                try:
                    names = A.free_names(parse(text))
                except Exception:  # noqa: BLE001 - a syntax error is reported by the DSL check below
                    continue
                if CHOSEN in names:
                    issues.append(_issue(doc, ("cards", i, key), f"`{CHOSEN}` is the number a card asks its owner "
                                         "for, but this card has no asks_number"))
        for j, reading in enumerate(card.get("readings") or []):
            if not isinstance(reading, Mapping):
                continue
            rid = str(reading.get("id"))
            if rid in reading_ids:
                ci, _ = reading_ids[rid]
                issues.append(_issue(doc, ("cards", i, "readings", j, "id"), f"duplicate reading id {rid!r}: card "
                                     f"{ci + 1} has a reading with it too"))
            reading_ids[rid] = (i, j)
            if reading.get("choice") not in (reading.get("options") or {}):
                issues.append(_issue(doc, ("cards", i, "readings", j, "choice"),
                                     f"reading {rid!r} chooses {reading.get('choice')!r}, which is not among its "
                                     "options", expected=", ".join(reading.get("options") or {}),
                                     found=repr(reading.get("choice"))))
    if base is None or not isinstance(base.get("deck"), Mapping):
        return issues
    deck = build_deck(base["deck"])
    seats = _seats(base)
    for i, card in enumerate(cards):
        have = {int(k) for k in (card.get("difficulty") or {})}
        missing = [s for s in seats if s not in have]
        if missing:
            issues.append(_issue(doc, ("cards", i, "difficulty"),
                                 f"no difficulty for {', '.join(map(str, missing))} seats, which rule set "
                                 f"{base.get('name')!r} plays with",
                                 expected=", ".join(f'"{s}"' for s in seats), found=", ".join(map(str, sorted(have)))))
    most = max(seats, default=None)
    issues += check_cards_dsl(data, doc, deck, most, checks)
    issues += _check_card_readings(data, doc, deck, most, checks)
    return issues


def _check_card_readings(data: Mapping[str, Any], doc: Any, deck: Any, seats: int | None,
                         checks: DslChecks) -> list[SpecIssue]:
    """The DSL of each card with each option of each of its readings applied, positioned in the option."""
    issues: list[SpecIssue] = []
    for i, card in enumerate(data.get("cards") or []):
        if not isinstance(card, Mapping):
            continue
        for j, reading in enumerate(card.get("readings") or []):
            options = reading.get("options") if isinstance(reading, Mapping) else None
            if not isinstance(options, Mapping):
                continue
            for option, body in options.items():
                patch = (body or {}).get("overrides") if isinstance(body, Mapping) else None
                if not isinstance(patch, dict):
                    continue
                patched = merge(dict(card), patch)
                view = _CardOptionDoc(doc, i, patch, ("cards", i, "readings", j, "options", option, "overrides"))
                one = {"cards": [{}] * i + [patched]}
                for issue in check_cards_dsl(one, view, deck, seats, checks):
                    issues.append(SpecIssue(issue.file, issue.line, issue.column, issue.path,
                                            f"with reading {reading.get('id')!r} = {option!r}: {issue.message}",
                                            issue.expected, issue.found, issue.severity))
    return issues


class _CardOptionDoc(TranslatedDoc):
    """A LoadedDoc seen through a card reading's option: a key the option sets is positioned in its
    ``overrides``, the rest in the card."""

    def __init__(self, doc: Any, index: int, patch: Mapping[str, Any], prefix: tuple[str | int, ...]) -> None:
        super().__init__(doc)
        self.index, self.patch, self.prefix = index, patch, prefix

    def translate(self, path: Sequence[str | int]) -> tuple[str | int, ...]:
        rest = tuple(path[2:])  # ("cards", i, key, ...)
        if rest and rest[0] in self.patch:
            return (*self.prefix, *rest)
        return ("cards", self.index, *rest)



# ---------------------------------------------------------------------------- loading
def apply_card_readings(data: Mapping[str, Any], selection: Mapping[str, str], where: str) -> dict[str, Any]:
    """The deck with the selected options of its cards' readings applied (their ``overrides`` patch the card,
    and the reading's ``choice`` becomes the option)."""
    cards = []
    for card in data.get("cards") or []:
        for reading in card.get("readings") or []:
            rid = reading.get("id")
            if rid not in selection:
                continue
            option = selection[rid]
            options = reading.get("options") or {}
            if option not in options:
                raise SpecError([SpecIssue(where, 1, 1, ("cards",), f"reading {rid!r} has no option {option!r}; "
                                                                    f"options: {', '.join(options)}")])
            patch = (options[option] or {}).get("overrides")
            if patch:
                card = merge(dict(card), patch)
            card = {**card, "readings": [{**r, "choice": option} if r.get("id") == rid else r
                                         for r in card.get("readings") or []]}
        cards.append(card)
    return {**data, "cards": cards}


@functools.lru_cache(maxsize=32)
def _load_cached(path_text: str, mtime_ns: int, selection: tuple[tuple[str, str], ...],
                 playing_deck: Any, seats: int | None) -> TaskDeck:
    from crewkit import dsl
    from crewkit.spec.deck import build_deck
    from crewkit.spec.loader import load_doc

    path = Path(path_text)
    checks = DslChecks()
    issues = [i for i in check_task_deck_file(path, checks) if i.severity == "error"]
    doc = load_doc(path)
    if issues:
        raise SpecError(issues, doc.lines)
    data = apply_card_readings(dict(doc.data), dict(selection), str(path))
    if playing_deck is None:
        base, _ = deck_base(data, doc, path)
        assert base is not None  # the check above found none of its rule sets broken
        playing_deck = build_deck(base["deck"])
        seats = max(_seats(base), default=None)
    texts: dict[tuple[str | int, ...], Dsl] = {}
    problems: list[SpecIssue] = []
    from crewkit.spec.loader import dsl_issue

    for site, where, text in sites_in(data, KIND):
        try:
            texts[where] = Dsl(text, where, checks.check(site, text, playing_deck, seats=seats))
        except dsl.DslError as exc:  # a card refused by the deck it is played with (another rule set's)
            problems.append(dsl_issue(doc, where, text, exc))
    if problems:
        raise SpecError(sort_issues(problems), doc.lines)
    cards: list[TaskCardSpec] = []
    for i, raw in enumerate(data.get("cards") or []):
        reason = texts.get(("cards", i, "reason"))
        if reason is None:
            default = f"task card {raw['id']} of seat {{{OWNER}}} failed"
            reason = Dsl(default, ("cards", i), dsl.parse_template(default))
        ask = raw.get("asks_number")
        cards.append(TaskCardSpec(
            id=str(raw["id"]),
            text=str(raw["text"]),
            note=str(raw.get("note") or ""),
            difficulty={int(k): int(v) for k, v in (raw.get("difficulty") or {}).items()},
            fail_if=texts.get(("cards", i, "fail_if")),
            done_if=texts.get(("cards", i, "done_if")),
            reason=reason,
            check=str(raw.get("check", "after-trick")),
            may_take_if=texts.get(("cards", i, "may_take_if")),
            redeal_if=texts.get(("cards", i, "redeal_if")),
            asks_number=NumberAsk(bool(ask["shown"]), int(ask.get("min", 0)),
                                  int(ask["max"]) if ask.get("max") is not None else None)
            if isinstance(ask, Mapping) else None,
            index=i,
            sources=tuple(str(s) for s in raw.get("source") or []),
            unverified=str(raw.get("unverified") or ""),
        ))
    in_force = tuple((str(r["id"]), str(r["choice"])) for c in data.get("cards") or []
                     for r in c.get("readings") or [])
    return TaskDeck(name=str(data.get("name", path.parent.name)), title=str(data.get("title", "")), path=path,
                    data=data, cards=tuple(cards), readings=dict(selection), in_force=in_force)


def load_task_deck(ref: str, readings: Mapping[str, str] | None = None, ruleset: RuleSet | None = None,
                   relative_to: Path | None = None) -> TaskDeck:
    """A checked task deck by bundled name or path, with the selected card readings applied.

    Its DSL is checked against ``ruleset``'s deck of playing cards (the rule set it is played under), else
    against the first rule set it names; a text that deck refuses is a :class:`SpecError` at its position."""
    try:
        path = deck_path(ref, relative_to)
    except bundled.NotFound as exc:
        raise SpecError([SpecIssue(ref, 0, 0, (), str(exc))]) from None
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    own = _own_readings(path)
    selection = tuple(sorted((k, v) for k, v in (readings or {}).items() if k in own))
    playing = ruleset.deck if ruleset is not None else None
    seats = None
    if ruleset is not None:
        seats = max((p + (1 if ruleset.dummy is not None else 0) for p in ruleset.player_counts), default=None)
    return _load_cached(str(path), mtime, selection, playing, seats)


def _own_readings(path: Path) -> set[str]:
    from crewkit.spec.loader import load_doc

    data = load_doc(path).data
    if not isinstance(data, Mapping):
        return set()
    return {str(r.get("id")) for c in data.get("cards") or [] if isinstance(c, Mapping)
            for r in c.get("readings") or [] if isinstance(r, Mapping)}
