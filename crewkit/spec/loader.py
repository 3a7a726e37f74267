"""The spec pipeline: YAML with positions → JSON Schema → ``extends:`` → readings → DSL and semantic checks.

Every problem becomes a :class:`SpecIssue` with file, line and column; :func:`check_spec_file` collects all of a
rule set's or mission's problems (:mod:`crewkit.spec.files` any file's, campaigns too), the ``load_*`` functions raise :class:`SpecError` carrying them.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from crewkit.spec import bundled, overlay, validcache
from crewkit.spec.blocknames import unknown_block
from crewkit.spec.dslsites import DslChecks, mission_roles, sites_in
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.merge import merge
from crewkit.spec.model import Draw, Mission, RuleSet, SetupStep
from crewkit.spec.yamlio import TranslatedDoc

if TYPE_CHECKING:
    from crewkit.spec.schema import Kind

MAX_EXTENDS_DEPTH = 16
MAX_READING_OPTIONS = 64
"""The most reading options a rule set or mission may offer besides the ones it implements (its bases'
included): each is checked as a rule set or mission of its own (the bundled files have at most 14)."""
KINDS = ("ruleset", "mission", "campaign", "task-cards")


# ---------------------------------------------------------------------------- raw documents
@functools.lru_cache(maxsize=256)
def _load_doc_cached(path: str, mtime_ns: int) -> Any:
    from crewkit.spec.yamlio import load_yaml_file

    return load_yaml_file(path)


def load_doc(path: Path) -> Any:
    """A :class:`LoadedDoc` (cached by path and modification time, or by the editor's unsaved text)."""
    unsaved = overlay.stamp(path)
    if unsaved is not None:
        return _load_doc_cached(str(path), unsaved)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError as exc:
        raise SpecError([SpecIssue(str(path), 1, 1, (), f"cannot read the file: {exc.strerror or exc}")]) from None
    return _load_doc_cached(str(path), mtime)


_RULESET_KEYS = {"deck", "extends", "deal", "commander", "first_leader", "play", "distress", "dummy", "rounds"}
_MISSION_KEYS = {"number", "rulesets", "tasks", "symbols", "setup", "conditions", "level", "unsupported"}
_CAMPAIGN_KEYS = {"missions", "ruleset"}
_SCHEMA_HINT = re.compile(r"\$schema=(?:\S*/)?(ruleset|mission|campaign|task-cards)\.schema\.json")
# Files of the effect vocabulary, checked by crewkit.effects (a layer above spec: see crewkit.effects.files).
_EFFECT_HINT = re.compile(r"\$schema=(?:\S*/)?(card-set|not-alone-ruleset)\.schema\.json")


def guess_kind(path: Path, data: Any, first_line: str = "") -> Kind:
    """Which kind of spec a file is: the editor's `$schema` comment, then its place, then its keys."""
    hint = _SCHEMA_HINT.search(first_line)
    if hint:
        return cast("Kind", hint.group(1))  # one of the pattern's three words
    if path.suffix == ".json" or (isinstance(data, Mapping) and str(data.get("format", "")).startswith("crewkit-record/")):
        return "record"  # game records are JSON (`format: crewkit-record/1`)
    if path.name == "campaign.yaml":
        return "campaign"
    if path.name == bundled.TASK_DECK_FILE or (
            isinstance(data, Mapping) and isinstance(data.get("cards"), list) and "rulesets" in data):
        return "task-cards"
    if path.parent.name == "rulesets":
        return "ruleset"
    if isinstance(data, Mapping):
        keys = set(data)
        scores: dict[Kind, int] = {
            "ruleset": len(keys & _RULESET_KEYS) + (3 if "extends" in keys else 0),  # only rule sets extend
            "mission": len(keys & _MISSION_KEYS),
            "campaign": len(keys & _CAMPAIGN_KEYS) * 2,
        }
        best = max(scores.values())
        if best:
            return max(scores, key=lambda k: (scores[k], k == "mission"))
    return "mission"


def _schema_issues(doc: Any, kind: Kind, path: Path) -> list[SpecIssue]:
    """The schema issues of ``doc`` (read from ``path``); a bundled file's text that passed once is not checked
    again (:mod:`crewkit.spec.validcache`), which spares a command the import of jsonschema."""
    if validcache.known_valid(path, doc.lines, kind):
        return []
    from crewkit.spec.schema import validate_document

    issues = list(validate_document(doc, kind))
    if not issues:
        validcache.remember_valid(path, doc.lines, kind)
    return issues


def _issue(doc: Any, path: tuple[str | int, ...], message: str, *, key: bool = False,
           expected: str | None = None, found: str | None = None) -> SpecIssue:
    line, col = doc.position_of(path, key=key)
    return SpecIssue(doc.filename, line, col, path, message, expected, found)


# ---------------------------------------------------------------------------- rule sets
def resolve_ruleset_data(path: Path, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[SpecIssue], Any]:
    """The merged document of a rule set file, its issues (own and its bases'), and its LoadedDoc.

    Cached per file and modification time (a mission check resolves its rule set again and again)."""
    if overlay.active():  # a base may be an editor's unsaved text: a cached merge could hold an older one
        data, issues, doc = _resolve_cached.__wrapped__(str(path), 0, seen)
        return copy.deepcopy(data), list(issues), doc
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    data, issues, doc = _resolve_cached(str(path), mtime, seen)
    return copy.deepcopy(data), list(issues), doc


@functools.lru_cache(maxsize=128)
def _resolve_cached(path_text: str, mtime_ns: int, seen: tuple[str, ...]) -> tuple[dict[str, Any], list[SpecIssue], Any]:
    path = Path(path_text)
    doc = load_doc(path)
    issues = _schema_issues(doc, "ruleset", path)
    data = doc.data if isinstance(doc.data, dict) else {}
    base_ref = data.get("extends")
    if not isinstance(base_ref, str):
        return dict(data), issues, doc
    key = str(path.resolve())
    if key in seen:
        chain = " → ".join(Path(s).stem for s in (*seen[seen.index(key):], key))
        issues.append(_issue(doc, ("extends",), f"`extends` goes round in a cycle: {chain}"))
        return dict(data), issues, doc
    if len(seen) >= MAX_EXTENDS_DEPTH:
        chain = " → ".join(Path(s).stem for s in (*seen, key))
        issues.append(_issue(doc, ("extends",), f"`extends` chain is too deep: more than {MAX_EXTENDS_DEPTH} "
                                                f"rule sets extend one another ({chain})"))
        return dict(data), issues, doc
    try:
        base_path = bundled.ruleset_path(base_ref, relative_to=path.parent)
    except bundled.NotFound as exc:
        issues.append(_issue(doc, ("extends",), str(exc), expected="a rule set name or path", found=repr(base_ref)))
        return dict(data), issues, doc
    try:
        base, base_issues, _ = resolve_ruleset_data(base_path, (*seen, key))
    except SpecError as exc:
        base_issues, base = list(exc.issues), {}
    if base_issues:
        first = base_issues[0]
        issues.append(_issue(
            doc, ("extends",),
            f"the base rule set {base_ref!r} has {len(base_issues)} error(s), the first at "
            f"{first.file}:{first.line}:{first.column}: {first.message}",
        ))
    merged = merge(base, data, top=True)
    merged["name"] = data.get("name", path.stem)
    for k in ("title", "description"):
        if k in data:
            merged[k] = data[k]
    merged["extends"] = base_ref
    return merged, issues, doc


def apply_readings(data: dict[str, Any], selection: Mapping[str, str], where: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Apply selected reading options (their ``overrides``); returns the data and the selections used."""
    readings = {r.get("id"): r for r in data.get("readings", []) or [] if isinstance(r, dict)}
    used: dict[str, str] = {}
    out = data
    for rid, option in selection.items():
        reading = readings.get(rid)
        if reading is None:
            continue
        options = reading.get("options") or {}
        if option not in options:
            raise SpecError([SpecIssue(where, 1, 1, ("readings",),
                                       f"reading {rid!r} has no option {option!r}; options: {', '.join(options)}")])
        patch = (options[option] or {}).get("overrides")
        if patch:
            out = merge(out, patch, top=False)
        new_readings = []
        for r in out.get("readings", []) or []:
            if isinstance(r, dict) and r.get("id") == rid:
                r = {**r, "choice": option}
            new_readings.append(r)
        out = {**out, "readings": new_readings}
        used[rid] = option
    return out, used


def check_ruleset_semantics(data: Mapping[str, Any], doc: Any) -> list[SpecIssue]:
    """What a schema cannot check: cards exist, hands fit the deck, readings choose a listed option."""
    from crewkit.cards import CardError
    from crewkit.spec.deck import DealError, build_deck, deal_plan

    issues: list[SpecIssue] = []
    for key, phase in (("flow", True), ("blocks", False)):
        for i, name in enumerate(data.get(key) or []):
            why = unknown_block(str(name), phase)
            if why is not None:
                issues.append(_issue(doc, (key, i), why))
    if "deck" not in data:
        return issues
    try:
        deck = build_deck(data["deck"])
    except (KeyError, TypeError, ValueError) as exc:
        return [_issue(doc, ("deck",), f"the deck cannot be built: {exc}")]
    names = {s.name for s in deck.suits}

    def card_at(path: tuple[str | int, ...], text: Any) -> None:
        try:
            deck.card(text)
        except CardError as exc:
            issues.append(_issue(doc, path, str(exc), expected="a card of this deck", found=repr(text)))

    # every card string the engine will parse (crewkit.families.trick_taking.engine.rules.compile_rules)
    for block, key in (("commander", "holder_of"), ("first_leader", "holder_of"), ("deal", "hold_out"),
                       ("scoring", "challenge_adds")):
        value = data.get(block)
        if isinstance(value, Mapping) and value.get(key) is not None:
            card_at((block, key), value[key])
    for path in (("deal", "undealt"), ("tasks", "cards", "include")):
        node: Any = data
        for part in path:
            node = node.get(part) if isinstance(node, Mapping) else None
        for i, text in enumerate(node or [] if isinstance(node, list) else []):
            card_at((*path, i), text)
    task_deck = (data.get("tasks") or {}).get("deck")
    if isinstance(task_deck, str):
        try:
            bundled.task_deck_path(task_deck, Path(doc.filename).parent)
        except bundled.NotFound as exc:
            issues.append(_issue(doc, ("tasks", "deck"), str(exc), expected="a task deck name or path",
                                 found=repr(task_deck)))
    for i, fc in enumerate((data.get("play") or {}).get("free_cards", []) or []):
        if isinstance(fc, Mapping) and "card" in fc:
            card_at(("play", "free_cards", i, "card"), fc["card"])
    for key, path in (
        ((data.get("tasks") or {}).get("cards", {}) or {}).get("suits", []),
        ("tasks", "cards", "suits"),
    ), ((data.get("communication") or {}).get("excluded_suits", []), ("communication", "excluded_suits")), (
        (data.get("distress") or {}).get("excluded_suits", []),
        ("distress", "excluded_suits"),
    ):
        for i, suit in enumerate(key or []):
            if suit not in names:
                issues.append(_issue(doc, (*path, i), f"unknown suit {suit!r}; this deck has {', '.join(sorted(names))}"))
    for players in data.get("players", []) or []:
        try:
            deal_plan(data, players, deck)  # the engine's own arithmetic (crewkit.spec.deck)
        except DealError as exc:
            issues.append(_issue(doc, exc.path, exc.message))
        except (TypeError, ValueError) as exc:
            issues.append(_issue(doc, ("deal",), f"the deal cannot be computed: {exc}"))
    own_ids = [r.get("id") if isinstance(r, Mapping) else None for r in (doc.data or {}).get("readings", []) or []]
    for reading in data.get("readings", []) or []:
        if isinstance(reading, Mapping) and reading.get("choice") not in (reading.get("options") or {}):
            i = own_ids.index(reading.get("id")) if reading.get("id") in own_ids else 0
            issues.append(_issue(doc, ("readings", i, "choice"),
                                 f"reading {reading.get('id')!r} chooses {reading.get('choice')!r}, which is not among its options",
                                 expected=", ".join(reading.get("options") or {}), found=repr(reading.get("choice"))))
    return issues


def load_ruleset(ref: str, readings: Mapping[str, str] | None = None) -> RuleSet:
    """A resolved rule set by bundled name or path, with the selected readings applied."""
    try:
        path = bundled.ruleset_path(ref)
    except bundled.NotFound as exc:
        raise SpecError([SpecIssue(ref, 0, 0, (), str(exc))]) from None
    data, issues, doc = resolve_ruleset_data(path)
    foreign = [issue for issue in issues if tuple(issue.path) == ("family",)]
    if foreign:  # another family's rule language: that alone is said (a family's commands say it first in its
        raise SpecError(foreign, doc.lines)  # words: crewkit.games.refuse_other_family)
    issues += check_ruleset_semantics(data, doc)
    if issues:
        raise SpecError(sort_issues(issues), doc.lines)
    if readings:  # what validate checked for every option, again for the selected ones (cheap, and exact)
        issues = check_reading_options(data, doc, check_ruleset_semantics, only=readings)
        if issues:
            raise SpecError(sort_issues(issues), doc.lines)
    data, used = apply_readings(data, readings or {}, str(path))
    return ruleset_model(path, data, used)


def ruleset_model(path: Path, data: Mapping[str, Any], readings: Mapping[str, str] | None = None) -> RuleSet:
    """The typed :class:`RuleSet` of a resolved, checked rule set document (readings applied) from ``path``:
    every part the engine reads, with the defaults the schema documents."""
    from crewkit.cards import LED, SPECIAL, TRUMP
    from crewkit.spec.deck import build_deck
    from crewkit.spec.model import (
        CommanderRules,
        CommunicationMode,
        CommunicationRules,
        DistressRules,
        DummyRules,
        FreeCardRule,
        PlayRules,
        RoundsRules,
        SecretRules,
        TaskRules,
    )

    def strs(value: Any) -> tuple[str, ...]:
        return tuple(str(v) for v in value or [])

    deal = data.get("deal") or {}
    commander = data.get("commander") or {}
    leader = data.get("first_leader", "commander")
    play = data.get("play") or {}
    tasks = data.get("tasks") or {}
    cards = tasks.get("cards") or {}
    gold = tasks.get("gold_frame")
    secret = tasks.get("secret")
    comm = data.get("communication") or {}
    distress = data.get("distress") or {}
    dummy = data.get("dummy")
    rounds = data.get("rounds") or {}
    scoring = data.get("scoring") or {}
    chips = rounds.get("chips", 0)
    if isinstance(chips, Mapping):
        chips = chips.get("start", 0)
    return RuleSet(
        name=str(data.get("name", path.stem)),
        path=path,
        data=data,
        readings=dict(readings or {}),
        deck=build_deck(data["deck"]) if isinstance(data.get("deck"), Mapping) else None,
        player_counts=tuple(data.get("players") or ()),
        hold_out=str(deal["hold_out"]) if deal.get("hold_out") else None,
        undealt=strs(deal.get("undealt")),
        commander=CommanderRules(
            holder_of=str(commander["holder_of"]) if "holder_of" in commander else None,
            dealer=bool(commander.get("dealer", False)),
            otherwise=commander.get("else"),
            lowest_secret_task=bool(commander.get("lowest_secret_task")),
            highest_secret_task=bool(commander.get("highest_secret_task")),
            secret_task_number=int(commander.get("secret_task_number") or 1),
        ),
        first_leader="holder" if isinstance(leader, Mapping) else str(leader),
        first_leader_card=str(leader["holder_of"]) if isinstance(leader, Mapping) else None,
        play=PlayRules(
            must_follow=bool(play.get("must_follow", True)),
            free_cards=tuple(FreeCardRule(str(fc["card"]), strs(fc.get("not_in_tricks")))
                             for fc in play.get("free_cards", []) or []),
            trick_winner=tuple(play.get("trick_winner", [SPECIAL, TRUMP, LED])),
            special_lead=str(play.get("special_lead", "next-card")),
        ),
        tasks=TaskRules(
            suits=strs(cards.get("suits")),
            include=strs(cards.get("include")),
            assignment=str(tasks.get("assignment", "draft")),
            tokens=strs(tasks.get("tokens")),
            gold_frame_players=tuple((gold or {}).get("players", [5])) if isinstance(gold, Mapping) else (5,),
            draft_start=str(tasks.get("draft_start") or "first-leader"),
            order=tasks.get("order"),
            secret=SecretRules(
                missions=str(secret["missions"]) if secret.get("missions") else None,
                level=int(secret.get("level", 1)),
                per_player=int(secret.get("per_player", 1)),
                set_aside_needed=str(secret.get("set_aside_needed", "play-on")),
                reveal_when_done=bool(secret.get("reveal_when_done", True)),
            ) if isinstance(secret, Mapping) else None,
            deck=str(tasks["deck"]) if tasks.get("deck") else None,
            passing=str(tasks.get("passing") or "never"),
            volunteer_barred=str(tasks.get("volunteer_barred") or "passed-over"),
            hardest_barred=str(tasks.get("hardest_barred") or "redraw"),
        ),
        communication=CommunicationRules(
            enabled=bool(comm.get("enabled", False)),
            per_player=int(comm.get("per_player", 1)),
            window=str(comm.get("window", "between-tricks")),
            statements=tuple(comm.get("statements", ["top", "bottom", "only"])),
            excluded_suits=strs(comm.get("excluded_suits")),
            singleton=str(comm.get("singleton", "only")),
            per_trick=comm.get("per_trick"),
            who=str(comm.get("who", "all")),
            must_win_same_trick=bool(comm.get("must_win_same_trick", False)),
            modes=tuple(
                CommunicationMode(
                    name=str(name),
                    enabled=body.get("enabled"),
                    dead_zone=body.get("dead_zone"),
                    shared_fewer_than_players=(body.get("shared_tokens") or {}).get("fewer_than_players"),
                )
                for name, body in (comm.get("modes") or {}).items() if isinstance(body, Mapping)
            ),
        ),
        distress=DistressRules(
            enabled=bool(distress.get("enabled", False)),
            directions=tuple(distress.get("directions", ["left", "right"])),
            excluded_suits=strs(distress.get("excluded_suits")),
            extra_attempts=int(distress.get("extra_attempts", 1)),
        ),
        dummy=DummyRules(
            columns=int(dummy.get("columns", 7)),
            face_down=int(dummy.get("face_down", 1)),
            face_up=int(dummy.get("face_up", 1)),
            seat_choice=str(dummy.get("seat_choice", "fixed")),
            reveal=str(dummy.get("reveal", "after-trick")),
            communicates=bool(dummy.get("communicates", False)),
            passes_in_distress=bool(dummy.get("passes_in_distress", False)),
            answers=str(dummy.get("answers", "commander")),
            choosable=bool(dummy.get("choosable", True)),
            draws=str(dummy.get("draws", "face-up")),
        ) if isinstance(dummy, Mapping) else None,
        rounds=RoundsRules(
            count=int(rounds.get("count", 1)),
            dealer_start=str(rounds.get("dealer_start", "random")),
            dealer_rotation=str(rounds.get("dealer_rotation", "left")),
            chips_start=int(chips or 0),
            modes=tuple(scoring.get("modes", ["penalty"])),
            challenge_adds=str(scoring["challenge_adds"]) if scoring.get("challenge_adds") else None,
            settle_early=bool(scoring.get("settle_early", True)),
            hidden_payment=str(scoring.get("hidden_payment", "adds")),
            others_score_in_challenge=bool(scoring.get("others_score_in_challenge", False)),
            base_paid_by=str(scoring.get("base_paid_by", "bank")),
            cannot_pay=str(scoring.get("cannot_pay", "go-negative")),
            missions=str(scoring["missions"]) if scoring.get("missions") else None,
        ) if data.get("rounds") or data.get("scoring") else None,
        flow=strs(data.get("flow")),
        blocks=strs(data.get("blocks")),
        in_force=tuple((r["id"], r["choice"]) for r in data.get("readings", []) or []),
    )


# ---------------------------------------------------------------------------- every option of every reading
class _OptionDoc(TranslatedDoc):
    """A LoadedDoc seen through one reading option: positions of values the option's ``overrides`` brought in
    point into that ``overrides`` block; the rest point at the option itself (or, for a reading the file
    inherits, at ``anchor``)."""

    def __init__(self, doc: Any, patch: Any, prefix: tuple[str | int, ...] | None, anchor: tuple[str | int, ...]) -> None:
        super().__init__(doc)
        self.patch, self.prefix, self.anchor = patch, prefix, anchor

    def translate(self, path: Sequence[str | int]) -> tuple[str | int, ...]:
        if self.prefix is None:
            return self.anchor
        node = self.patch
        for i, part in enumerate(path):
            if not isinstance(node, dict):
                return (*self.prefix, *path)  # inside a list or scalar the option replaced whole
            if part not in node:
                return (*self.prefix, *path[:i])  # the option's patch stops here: point at what it set
            node = node[part]
        return (*self.prefix, *path)



def reading_options_issue(data: Mapping[str, Any], doc: Any) -> SpecIssue | None:
    """An issue when ``data`` (its bases merged in) offers more than :data:`MAX_READING_OPTIONS` reading options
    besides the chosen ones: checking each costs as much as checking the file, so their number is bounded."""
    readings = [r for r in data.get("readings", []) or [] if isinstance(r, Mapping)]
    count = sum(max(0, len(r["options"]) - (r.get("choice") in r["options"]))
                for r in readings if isinstance(r.get("options"), Mapping))
    if count <= MAX_READING_OPTIONS:
        return None
    return _issue(doc, ("readings",), f"{count} reading options besides the chosen ones (bases included); at "
                                      f"most {MAX_READING_OPTIONS}: each is checked as a file of its own")


def check_reading_options(data: Mapping[str, Any], doc: Any,
                          check: Callable[[Mapping[str, Any], Any], list[SpecIssue]],
                          only: Mapping[str, str] | None = None) -> list[SpecIssue]:
    """Run ``check`` on ``data`` with each option of each reading applied, as ``--reading ID=OPTION`` would.

    Only problems the option brings in are reported (not those of ``data`` itself), each positioned in the
    option's ``overrides`` when the value comes from there, else at the option (or at ``extends`` for a
    reading the file inherits), and its message names the reading and the option. ``only``: just these
    selections (``--reading ID=OPTION``)."""
    too_many = reading_options_issue(data, doc)
    if too_many is not None:
        return [too_many]
    baseline = {(i.path, i.message) for i in check(data, doc)}
    own = [r.get("id") if isinstance(r, Mapping) else None for r in (doc.data or {}).get("readings", []) or []]
    issues: list[SpecIssue] = []
    seen: set[tuple[int, int, str]] = set()
    for reading in data.get("readings", []) or []:
        if not isinstance(reading, Mapping) or not isinstance(reading.get("options"), Mapping):
            continue
        rid = reading.get("id")
        for option, body in reading["options"].items():
            if option == reading.get("choice") or (only is not None and only.get(str(rid)) != option):
                continue
            patch = (body or {}).get("overrides") if isinstance(body, Mapping) else None
            if not isinstance(patch, dict):
                continue
            if rid in own:
                at: tuple[str | int, ...] = ("readings", own.index(rid), "options", option)
                view = _OptionDoc(doc, patch, (*at, "overrides"), at)
                where = ""
            else:
                view = _OptionDoc(doc, patch, None, ("extends",) if "extends" in (doc.data or {}) else ())
                where = " (a reading of the base rule set)"
            try:
                patched, _ = apply_readings(dict(data), {str(rid): str(option)}, doc.filename)
            except SpecError:
                continue
            for issue in check(patched, view):
                if (issue.path, issue.message) in baseline:
                    continue
                path = view.translate(issue.path)
                key = (issue.line, issue.column, issue.message)
                if key in seen:
                    continue
                seen.add(key)
                issues.append(SpecIssue(issue.file, issue.line, issue.column, path,
                                        f"with reading {rid!r} = {option!r}{where}: {issue.message}",
                                        issue.expected, issue.found, issue.severity))
    return issues


# ---------------------------------------------------------------------------- missions
def mission_base(data: Mapping[str, Any], doc: Any, path: Path) -> tuple[dict[str, Any] | None, list[SpecIssue]]:
    """The rule set a mission is checked against (the first of its ``rulesets`` that loads), and the
    problems with the ones it names."""
    issues: list[SpecIssue] = []
    rulesets = data.get("rulesets") or ["crew"]
    base: dict[str, Any] | None = None
    for i, ref in enumerate(rulesets):
        try:
            rpath = bundled.ruleset_path(ref, relative_to=path.parent)
            rdata, r_issues, _ = resolve_ruleset_data(rpath)
        except bundled.NotFound as exc:
            issues.append(_issue(doc, ("rulesets", i), str(exc)))
            continue
        except SpecError as exc:
            r_issues, rdata = list(exc.issues), {}
        if r_issues:
            issues.append(_issue(doc, ("rulesets", i), f"rule set {ref!r} has {len(r_issues)} error(s)"))
            continue
        if base is None:
            base = rdata
    return base, issues


def check_mission_semantics(data: Mapping[str, Any], doc: Any, path: Path,
                            checks: DslChecks | None = None) -> list[SpecIssue]:
    """A mission's problems beyond its schema; ``checks`` keeps the DSL it parsed (for the typed model)."""
    from crewkit.cards import CardError
    from crewkit.spec.deck import build_deck

    base, issues = mission_base(data, doc, path)
    if base is None or "deck" not in base:
        return issues
    deck = build_deck(base["deck"])
    players = data.get("players")
    if isinstance(players, list):
        for i, p in enumerate(players):
            if p not in (base.get("players") or []):
                issues.append(_issue(doc, ("players", i),
                                     f"{p} players is not allowed by rule set {base.get('name')!r} "
                                     f"({', '.join(map(str, base.get('players') or []))})"))
    tasks = data.get("tasks") or {}
    known_tokens = [str(t) for t in (base.get("tasks") or {}).get("tokens", []) or []]
    for i, tok in enumerate(tasks.get("tokens", []) or []):
        if str(tok) not in known_tokens:
            issues.append(_issue(doc, ("tasks", "tokens", i), f"unknown task token {tok!r}",
                                 expected=", ".join(known_tokens), found=repr(tok)))
    count = tasks.get("count", 0)
    if isinstance(count, int) and len(tasks.get("tokens", []) or []) > count:
        issues.append(_issue(doc, ("tasks", "tokens"),
                             f"{len(tasks.get('tokens') or [])} tokens for only {count} task(s)"))
    pool_suits = ((base.get("tasks") or {}).get("cards") or {}).get("suits", [])
    pool_size = sum(1 for c in deck.cards if c.suit is not None and c.suit.name in pool_suits)
    if isinstance(count, int) and count > pool_size:
        issues.append(_issue(doc, ("tasks", "count"), f"{count} tasks, but the rule set has only {pool_size} task cards"))
    for i, text in enumerate(tasks.get("fixed", []) or []):
        try:
            card = deck.card(text)
            if card.suit is None or card.suit.name not in pool_suits:
                issues.append(_issue(doc, ("tasks", "fixed", i), f"{card} has no task card in this rule set"))
        except CardError as exc:
            issues.append(_issue(doc, ("tasks", "fixed", i), str(exc)))
    issues += check_condition_ids(data, doc)
    issues += check_task_card_steps(data, doc, path, base, deck)
    issues += check_mission_dsl(data, doc, deck, mission_roles(data), seats=_most_players(data, base), checks=checks)
    return issues


def check_task_card_steps(data: Mapping[str, Any], doc: Any, path: Path, base: Mapping[str, Any],
                          deck: Any) -> list[SpecIssue]:
    """The task-card steps and communication modes of a mission (Mission Deep Sea) against its rule set: a
    draw needs the rule set's task deck and names cards it has, the roles a step names are bound earlier, a
    communication mode is one of the rule set's."""
    issues: list[SpecIssue] = []
    task_deck = (base.get("tasks") or {}).get("deck")
    modes = set((base.get("communication") or {}).get("modes") or {})
    comm = data.get("communication") or {}
    if comm.get("mode") is not None and comm["mode"] not in modes:
        issues.append(_issue(doc, ("communication", "mode"), f"rule set {base.get('name')!r} has no communication "
                             f"mode {comm['mode']!r}", expected=", ".join(sorted(modes)) or "no modes",
                             found=repr(comm["mode"])))
    colour_ranks = {c.rank for c in deck.cards if c.suit is not None and not c.is_trump}
    for name, ranks in (comm.get("drawn_mode") or {}).items():
        if name not in modes:
            issues.append(_issue(doc, ("communication", "drawn_mode", name), f"rule set {base.get('name')!r} has no "
                                 f"communication mode {name!r}", expected=", ".join(sorted(modes)) or "no modes",
                                 found=repr(name), key=True))
        for j, rank in enumerate(ranks or []):
            if rank not in colour_ranks:
                issues.append(_issue(doc, ("communication", "drawn_mode", name, j),
                                     f"no colour card has rank {rank}", found=repr(rank)))
    bound: list[str] = []
    ids: set[str] | None = None
    for i, step in enumerate(data.get("setup") or []):
        if not isinstance(step, Mapping) or len(step) != 1:
            continue
        ((key, body),) = step.items()
        body = body if isinstance(body, Mapping) else {}
        if key == "draw_tasks":
            if not task_deck:
                issues.append(_issue(doc, ("setup", i, key), f"draw_tasks needs a deck of task cards, but rule set "
                                     f"{base.get('name')!r} has none (tasks.deck)"))
            elif body.get("fixed"):
                if ids is None:
                    ids = _task_deck_ids(bundled.task_deck_path, str(task_deck), path, data)
                for j, card in enumerate(body["fixed"]):
                    if ids is not None and card not in ids:
                        issues.append(_issue(doc, ("setup", i, key, "fixed", j), f"the task deck {task_deck!r} has no "
                                             f"card {card!r}", found=repr(card)))
        for field, names in (("to", body.get("to")), ("exclude", body.get("exclude") if key == "draft_without" else None)):
            for j, name in enumerate(names or []):
                if name != "commander" and name not in bound:
                    issues.append(_issue(doc, ("setup", i, key, field, j),
                                         f"{name!r} is neither `commander` nor a role bound by an earlier step",
                                         expected=", ".join(["commander", *bound]), found=repr(name)))
        if isinstance(body.get("role"), str):
            bound.append(body["role"])
        bound += [r for r in body.get("roles", []) or [] if isinstance(r, str)]
    return issues


def _task_deck_ids(find: Callable[..., Path], ref: str, path: Path, data: Mapping[str, Any]) -> set[str] | None:
    """The card ids of the task deck a mission's rule set names (None when it cannot be read here)."""
    rulesets = data.get("rulesets") or ["crew"]
    try:
        rs_path = bundled.ruleset_path(str(rulesets[0]), relative_to=path.parent)
        doc = load_doc(find(ref, rs_path.parent))
    except (bundled.NotFound, SpecError):
        return None
    cards = doc.data.get("cards") if isinstance(doc.data, Mapping) else None
    return {str(c.get("id")) for c in cards or [] if isinstance(c, Mapping)}


def _most_players(mission: Mapping[str, Any], ruleset: Mapping[str, Any]) -> int | None:
    """The most players a mission can be played with: the bound on seat numbers (and cost) of its DSL."""
    players = mission.get("players")
    counts = players if isinstance(players, list) else ruleset.get("players") or []
    return max((p for p in counts if isinstance(p, int)), default=None)


def check_mission_dsl(data: Mapping[str, Any], doc: Any, deck: Any, roles: Iterable[str],
                      seats: int | None = None, checks: DslChecks | None = None) -> list[SpecIssue]:
    """Every DSL text of a mission (the table of :mod:`crewkit.spec.dslsites`), parsed and checked;
    ``seats`` (the most players) bounds seat numbers and cost; ``checks`` keeps the trees."""
    from crewkit import dsl

    checks = checks or DslChecks()
    issues: list[SpecIssue] = []
    role_list = list(roles)
    for site, path, text in sites_in(data, "mission"):
        try:
            checks.check(site, text, deck, role_list, seats=seats)
        except dsl.DslError as exc:
            issue = dsl_issue(doc, path, text, exc)
            if site.roles and not site.template and getattr(exc, "message", "").startswith("unknown name"):
                bound = ", ".join(sorted(set(role_list))) or "none"
                issue = SpecIssue(issue.file, issue.line, issue.column, issue.path,
                                  f"{issue.message} (a role must be bound by a setup step such as choose_player; "
                                  f"this mission binds: {bound})")
            issues.append(issue)
    return issues


def check_condition_ids(data: Mapping[str, Any], doc: Any) -> list[SpecIssue]:
    """Condition ids name a condition in outcomes and records: each may appear once."""
    issues: list[SpecIssue] = []
    first: dict[str, int] = {}
    for i, cond in enumerate(data.get("conditions", []) or []):
        cid = cond.get("id") if isinstance(cond, Mapping) else None
        if not isinstance(cid, str):
            continue
        if cid in first:
            line, _ = doc.position_of(("conditions", first[cid], "id"))
            issues.append(_issue(doc, ("conditions", i, "id"),
                                 f"duplicate condition id {cid!r}: condition {first[cid] + 1} (line {line}) has it too",
                                 expected="a condition id used once", found=repr(cid)))
        else:
            first[cid] = i
    return issues


def dsl_issue(doc: Any, path: tuple[str | int, ...], text: str, exc: Any) -> SpecIssue:
    """Map a DSL error's line/column inside the expression to the YAML file."""
    message = getattr(exc, "message", str(exc))
    offset = getattr(exc, "offset", None)
    if isinstance(offset, int) and hasattr(doc, "text_position"):
        fline, fcol = doc.text_position(path, offset)
        return SpecIssue(doc.filename, fline, fcol, path, f"in DSL expression: {message}")
    line, col, style = doc.scalar_info(path)
    dl = max(1, getattr(exc, "line", 1) or 1)
    dc = max(1, getattr(exc, "column", 1) or 1)
    if style in ("|", ">"):
        # block scalar: content starts on the next line, indented
        target = line + dl
        src = doc.lines[target - 1] if 0 < target <= len(doc.lines) else ""
        indent = len(src) - len(src.lstrip(" "))
        fline, fcol = target, indent + dc
    else:
        offset = 1 if style in ("'", '"') else 0
        fline, fcol = line + dl - 1, (col + offset + dc - 1) if dl == 1 else dc
    message = getattr(exc, "message", str(exc))
    return SpecIssue(doc.filename, fline, fcol, path, f"in DSL expression: {message}")


def load_mission(ref: str, readings: Mapping[str, str] | None = None, ruleset: RuleSet | None = None) -> Mission:
    """A checked mission by bundled id or path, with the selected readings applied, as the typed model.

    Its DSL is checked against ``ruleset``'s deck (the rule set it is played under), else against the first
    of the rule sets it names, as ``crewkit validate`` checks it; each text is parsed and checked once."""
    try:
        path = bundled.mission_path(ref)
    except bundled.NotFound as exc:
        raise SpecError([SpecIssue(ref, 0, 0, (), str(exc))]) from None
    checks = DslChecks()
    issues = check_spec_file(path, "mission", checks=checks)
    doc = load_doc(path)
    errors = [i for i in issues if i.severity == "error"]
    if errors:
        raise SpecError(errors, doc.lines)
    data, used = apply_readings(dict(doc.data), readings or {}, str(path))
    if ruleset is not None:
        base: Mapping[str, Any] | None = ruleset.data
    else:
        base, _ = mission_base(data, doc, path)
    return mission_model(bundled.mission_id_for(path), path, data, base or {}, doc, used, checks)


def mission_model(mid: str, path: Path, data: Mapping[str, Any], ruleset: Mapping[str, Any], doc: Any = None,
                  readings: Mapping[str, str] | None = None, checks: DslChecks | None = None) -> Mission:
    """The typed :class:`Mission` of a mission document ``data`` (readings applied) played under the resolved
    rule set ``ruleset``: its DSL parsed and checked (through ``checks``, which usually has them already from
    validating the file) in the environment of that rule set's deck, the mission's roles and its most players.

    A DSL text refused there (the file was checked against another rule set's deck) raises :class:`SpecError`
    positioned in ``doc`` (the file's LoadedDoc, when given)."""
    from crewkit import dsl
    from crewkit.dsl.template import words_template as dsl_words_template
    from crewkit.spec.deck import build_deck
    from crewkit.spec.model import ConditionSpec, Dsl, MissionSymbols, MissionTasks

    checks = checks or DslChecks()
    roles = tuple(dict.fromkeys(mission_roles(data)))
    deck = build_deck(ruleset["deck"]) if isinstance(ruleset.get("deck"), Mapping) else None
    seats = _most_players(data, ruleset)
    texts: dict[tuple[str | int, ...], Dsl] = {}
    issues: list[SpecIssue] = []
    for site, where, text in sites_in(data, "mission"):
        if not text or deck is None:
            continue
        try:
            texts[where] = Dsl(text, where, checks.check(site, text, deck, roles, seats=seats))
        except dsl.DslError as exc:
            if doc is None:
                issues.append(SpecIssue(str(path), 0, 0, where, f"in DSL expression: {exc.message}"))
            else:
                issues.append(dsl_issue(doc, where, text, exc))
    if issues:
        raise SpecError(sort_issues(issues), doc.lines if doc is not None else None)

    conditions = []
    for i, cond in enumerate(data.get("conditions", []) or []):
        reason = texts.get(("conditions", i, "reason"))
        fail_if = texts.get(("conditions", i, "fail_if"))
        if reason is None:  # the reason a failure gives when the file states none: its fail_if in words
            default = (dsl_words_template(fail_if.expr, roles) if fail_if is not None
                       else f"condition {cond.get('id', i + 1)} failed")
            reason = Dsl(default, ("conditions", i), dsl.parse_template(default))
        conditions.append(ConditionSpec(
            id=str(cond.get("id", f"condition-{i + 1}")),
            fail_if=fail_if,
            done_if=texts.get(("conditions", i, "done_if")),
            reason=reason,
            check=str(cond.get("check", "after-trick")),
            text=" ".join(str(cond.get("text") or "").split()),
        ))
    tasks = data.get("tasks") or {}
    symbols = data.get("symbols") or {}
    players = data.get("players")
    return Mission(
        id=mid,
        number=data.get("number"),
        title=str(data.get("title", mid)),
        path=path,
        data=data,
        readings=dict(readings or {}),
        player_counts=tuple(players) if isinstance(players, list) else (),
        tasks=MissionTasks(
            count=int(tasks.get("count", 0)),
            fixed=tuple(str(c) for c in tasks.get("fixed", []) or []),
            tokens=tuple(str(t) for t in tasks.get("tokens", []) or []),
        ),
        symbols=MissionSymbols(
            dead_zone=bool(symbols.get("dead_zone", False)),
            disruption=symbols.get("disruption"),
            gold_frame=bool(symbols.get("gold_frame")),
            commander_decision=bool(symbols.get("commander_decision")),
            commander_distribution=bool(symbols.get("commander_distribution")),
        ),
        conditions=tuple(conditions),
        scoring=_mission_scoring(data.get("scoring"), texts),
        roles=roles,
        barred_roles=tuple((data.get("communication") or {}).get("barred_roles", []) or []),
        in_force=tuple((r["id"], r["choice"]) for r in data.get("readings", []) or []),
        level=int(data.get("level", 1)),
        setup=_setup_steps(data.get("setup") or []),
        draws=tuple(Draw(int((raw["draw_from_neighbour"] or {}).get("after_trick", 1)),
                         str((raw["draw_from_neighbour"] or {}).get("from", "right")))
                    for raw in data.get("setup") or [] if "draw_from_neighbour" in raw),
        unsupported={str(k): str(v) for k, v in (data.get("unsupported") or {}).items()},
        comm_mode=(data.get("communication") or {}).get("mode"),
        drawn_modes=tuple((str(mode), tuple(int(r) for r in ranks))
                          for mode, ranks in ((data.get("communication") or {}).get("drawn_mode") or {}).items()),
        comm_closed_if=texts.get(("communication", "closed_if")),
    )


def _setup_steps(raw_steps: list[Any]) -> tuple[SetupStep, ...]:
    """A mission's ``setup`` list (checked by the schema) as typed steps, in order."""
    steps: list[SetupStep] = []
    for raw in raw_steps:
        ((key, body),) = raw.items()
        body = body or {}
        if key == "ask":
            steps.append(SetupStep("ask", {"question": body.get("question", ""), "answers": tuple(body["answers"]),
                                           "who": body.get("who", "others"), "id": body.get("id", "")}))
        elif key == "choose_player":
            steps.append(SetupStep("choose", {"role": body["role"], "by": body.get("by", "commander"),
                                              "exclude": tuple(body.get("exclude", []) or [])}))
        elif key == "choose_roles":
            earlier: list[str] = []
            distinct = body.get("distinct", True)
            for role in body["roles"]:
                steps.append(SetupStep("choose", {"role": role, "by": body.get("by", "crew"),
                                                  "exclude": tuple(earlier) if distinct else ()}))
                earlier.append(role)
        elif key == "role_from_holder":
            steps.append(SetupStep("holder-role", {"role": body["role"], "card": body["card"],
                                                   "offset": body.get("offset", "self")}))
        elif key in ("swap_tokens", "move_token"):
            steps.append(SetupStep(key.replace("_", "-"), {"optional": body.get("optional", True)}))
        elif key == "draw_tasks":
            steps.append(SetupStep("draw-tasks", {"difficulty": int(body.get("difficulty", 0)),
                                                  "fixed": tuple(str(c) for c in body.get("fixed", []) or [])}))
        elif key == "distribute_tasks":
            steps.append(SetupStep("distribute-tasks", {"to": tuple(body.get("to", []) or [])}))
        elif key == "volunteer":
            steps.append(SetupStep("volunteer", {"roles": tuple(body["roles"])}))
        elif key == "hardest_first":
            steps.append(SetupStep("hardest-first", {"ties": str(body.get("ties", "choose"))}))
        elif key == "draft_without":
            steps.append(SetupStep("draft-without", {"exclude": tuple(body.get("exclude", []) or [])}))
        # draw_from_neighbour is a trigger after a trick: Mission.draws
    return tuple(steps)


def _mission_scoring(scoring: Any, texts: Mapping[tuple[str | int, ...], Any]) -> Any:
    """A competitive mission card's typed ``scoring`` block, or None."""
    from crewkit.spec.model import CardRestriction, MissionScoring

    if not isinstance(scoring, Mapping):
        return None
    hidden = scoring.get("hidden") or {}
    challenge = scoring.get("challenge") or {}
    return MissionScoring(
        penalty_score=texts.get(("scoring", "penalty", "score")),
        penalty_settled=texts.get(("scoring", "penalty", "settled_if")),
        hidden_if=texts.get(("scoring", "hidden", "achieved_if")),
        hidden_payment=int(hidden.get("payment", 0)),
        challenge_success=texts.get(("scoring", "challenge", "success_if")),
        challenge_fail=texts.get(("scoring", "challenge", "fail_if")),
        success_payment=int(challenge.get("success_payment", 0)),
        failure_payment=int(challenge.get("failure_payment", 0)),
        free_card_restrictions=tuple(
            CardRestriction(str(r["card"]), tuple(str(t) for t in r.get("not_in_tricks", []) or []))
            for r in challenge.get("free_card_restrictions", []) or []
        ),
    )


# ---------------------------------------------------------------------------- one file, everything
def check_spec_file(path: Path, kind: Kind | None = None, *, checks: DslChecks | None = None) -> list[SpecIssue]:
    """Every issue of one rule set or mission file, sorted by position (empty when valid); for a campaign file or
    a deck of task cards its schema issues only (:func:`crewkit.spec.files.check_file` adds their own checks). ``checks``
    keeps the DSL parsed on the way (:func:`load_mission` builds the typed model from it)."""
    checks = checks or DslChecks()
    try:
        doc = load_doc(path)
    except SpecError as exc:
        return sort_issues(exc.issues)
    kind = kind or guess_kind(path, doc.data, doc.lines[0] if doc.lines else "")
    if kind == "ruleset":
        try:
            data, issues, doc = resolve_ruleset_data(path)
        except SpecError as exc:
            return sort_issues(exc.issues)
        if not issues:
            issues += check_ruleset_semantics(data, doc)
        if not issues:
            issues += check_reading_options(data, doc, check_ruleset_semantics)
        return sort_issues(issues)
    issues = _schema_issues(doc, kind, path)
    if issues:
        return sort_issues(issues)
    if kind == "mission":
        issues += check_mission_semantics(doc.data, doc, path, checks)
        if not issues:
            issues += check_reading_options(doc.data, doc,
                                            lambda d, view: check_mission_semantics(d, view, path, checks))
    return sort_issues(issues)


def effect_file_kind(first_line: str) -> str | None:
    """``card-set`` or ``not-alone-ruleset`` when the file's modeline names one of the effect vocabulary's
    schemas (those files are checked by :mod:`crewkit.effects`), else None."""
    found = _EFFECT_HINT.search(first_line)
    return found.group(1) if found else None


def source_lines(path: Path, within: Sequence[Path] | None = None) -> list[str] | None:
    """The file's lines for a caret under an error; None for a file crewkit would not read (bounded read, and
    no link out of ``within``)."""
    from crewkit.spec.yamlio import read_source_lines

    return read_source_lines(path, within=within)
