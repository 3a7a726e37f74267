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

from crewkit.spec import bundled
from crewkit.spec.blocknames import unknown_block
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.merge import merge
from crewkit.spec.model import Mission, RuleSet

if TYPE_CHECKING:
    from crewkit.spec.schema import Kind

MAX_EXTENDS_DEPTH = 16
KINDS = ("ruleset", "mission", "campaign")


# ---------------------------------------------------------------------------- raw documents
@functools.lru_cache(maxsize=256)
def _load_doc_cached(path: str, mtime_ns: int) -> Any:
    from crewkit.spec.yamlio import load_yaml_file

    return load_yaml_file(path)


def load_doc(path: Path) -> Any:
    """A :class:`LoadedDoc` (cached by path and modification time)."""
    try:
        mtime = path.stat().st_mtime_ns
    except OSError as exc:
        raise SpecError([SpecIssue(str(path), 1, 1, (), f"cannot read the file: {exc.strerror or exc}")]) from None
    return _load_doc_cached(str(path), mtime)


_RULESET_KEYS = {"deck", "extends", "deal", "commander", "first_leader", "play", "distress", "dummy", "rounds"}
_MISSION_KEYS = {"number", "rulesets", "tasks", "symbols", "setup", "conditions", "level", "unsupported"}
_CAMPAIGN_KEYS = {"missions", "ruleset"}
_SCHEMA_HINT = re.compile(r"\$schema=(?:\S*/)?(ruleset|mission|campaign)\.schema\.json")
# Files of the effect vocabulary, checked by crewkit.effects (a layer above spec: see crewkit.effects.files).
_EFFECT_HINT = re.compile(r"\$schema=(?:\S*/)?(card-set|not-alone-ruleset)\.schema\.json")


def guess_kind(path: Path, data: Any, first_line: str = "") -> Kind:
    """Which kind of spec a file is: the editor's `$schema` comment, then its place, then its keys."""
    hint = _SCHEMA_HINT.search(first_line)
    if hint:
        return cast("Kind", hint.group(1))  # one of the pattern's three words
    if path.name == "campaign.yaml":
        return "campaign"
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


def _schema_issues(doc: Any, kind: Kind) -> list[SpecIssue]:
    from crewkit.spec.schema import validate_document

    return list(validate_document(doc, kind))


def _issue(doc: Any, path: tuple[str | int, ...], message: str, *, key: bool = False,
           expected: str | None = None, found: str | None = None) -> SpecIssue:
    line, col = doc.position_of(path, key=key)
    return SpecIssue(doc.filename, line, col, path, message, expected, found)


# ---------------------------------------------------------------------------- rule sets
def resolve_ruleset_data(path: Path, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[SpecIssue], Any]:
    """The merged document of a rule set file, its issues (own and its bases'), and its LoadedDoc.

    Cached per file and modification time (a mission check resolves its rule set again and again)."""
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
    issues = _schema_issues(doc, "ruleset")
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

    # every card string the engine will parse (crewkit.engine.rules.compile_rules)
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
    family = bundled.ruleset_family(path)
    if family != bundled.TRICK_TAKING:  # not a trick-taking rule set: say so rather than list its keys as unknown
        line = next((i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                     if text.startswith("family:")), 1)
        raise SpecError([SpecIssue(str(path), line, 1, ("family",),
                                   f"rule set {path.stem!r} is a game of the {family} family, not trick-taking: "
                                   "crewkit simulate, compare, replay and validate run it; this command runs "
                                   "trick-taking rule sets only")])
    data, issues, doc = resolve_ruleset_data(path)
    issues += check_ruleset_semantics(data, doc)
    if issues:
        raise SpecError(sort_issues(issues), doc.lines)
    if readings:  # what validate checked for every option, again for the selected ones (cheap, and exact)
        issues = check_reading_options(data, doc, check_ruleset_semantics, only=readings)
        if issues:
            raise SpecError(sort_issues(issues), doc.lines)
    data, used = apply_readings(data, readings or {}, str(path))
    return RuleSet(name=str(data.get("name", path.stem)), path=path, data=data, readings=used)


# ---------------------------------------------------------------------------- every option of every reading
class _OptionDoc:
    """A LoadedDoc seen through one reading option: positions of values the option's ``overrides`` brought in
    point into that ``overrides`` block; the rest point at the option itself (or, for a reading the file
    inherits, at ``anchor``)."""

    def __init__(self, doc: Any, patch: Any, prefix: tuple[str | int, ...] | None, anchor: tuple[str | int, ...]) -> None:
        self.doc, self.patch, self.prefix, self.anchor = doc, patch, prefix, anchor
        self.filename, self.lines, self.data = doc.filename, doc.lines, doc.data

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

    def position_of(self, path: Sequence[str | int], key: bool = False) -> tuple[int, int]:
        return self.doc.position_of(self.translate(path), key=key)

    def scalar_info(self, path: Sequence[str | int]) -> tuple[int, int, str | None]:
        return self.doc.scalar_info(self.translate(path))

    def text_position(self, path: Sequence[str | int], offset: int) -> tuple[int, int]:
        target = self.translate(path)
        if self.doc.info(target) is None:
            return self.doc.position_of(target)
        return self.doc.text_position(target, offset)


def check_reading_options(data: Mapping[str, Any], doc: Any,
                          check: Callable[[Mapping[str, Any], Any], list[SpecIssue]],
                          only: Mapping[str, str] | None = None) -> list[SpecIssue]:
    """Run ``check`` on ``data`` with each option of each reading applied, as ``--reading ID=OPTION`` would.

    Only problems the option brings in are reported (not those of ``data`` itself), each positioned in the
    option's ``overrides`` when the value comes from there, else at the option (or at ``extends`` for a
    reading the file inherits), and its message names the reading and the option. ``only``: just these
    selections (``--reading ID=OPTION``)."""
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
def check_mission_semantics(data: Mapping[str, Any], doc: Any, path: Path) -> list[SpecIssue]:
    from crewkit.cards import CardError
    from crewkit.spec.deck import build_deck
    from crewkit.spec.dslsites import mission_roles

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
    counts = [p for p in (players if isinstance(players, list) else base.get("players") or []) if isinstance(p, int)]
    issues += check_mission_dsl(data, doc, deck, mission_roles(data), seats=max(counts, default=None))
    return issues


def check_mission_dsl(data: Mapping[str, Any], doc: Any, deck: Any, roles: Iterable[str],
                      seats: int | None = None) -> list[SpecIssue]:
    """Every DSL text of a mission (the table of :mod:`crewkit.spec.dslsites`), checked as the engine will;
    ``seats`` (the most players) bounds seat numbers and cost."""
    from crewkit import dsl
    from crewkit.spec.dslsites import check_site, sites_in

    issues: list[SpecIssue] = []
    role_list = list(roles)
    for site, path, text in sites_in(data, "mission"):
        try:
            check_site(site, text, deck, role_list, seats=seats)
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


def load_mission(ref: str, readings: Mapping[str, str] | None = None) -> Mission:
    try:
        path = bundled.mission_path(ref)
    except bundled.NotFound as exc:
        raise SpecError([SpecIssue(ref, 0, 0, (), str(exc))]) from None
    issues = check_spec_file(path, "mission")
    doc = load_doc(path)
    errors = [i for i in issues if i.severity == "error"]
    if errors:
        raise SpecError(errors, doc.lines)
    data, used = apply_readings(dict(doc.data), readings or {}, str(path))
    mid = bundled.mission_id_for(path)
    return Mission(id=mid, number=data.get("number"), title=str(data.get("title", mid)), path=path,
                   data=data, readings=used)


# ---------------------------------------------------------------------------- one file, everything
def check_spec_file(path: Path, kind: Kind | None = None) -> list[SpecIssue]:
    """Every issue of one rule set or mission file, sorted by position (empty when valid); for a campaign file
    its schema issues only (:func:`crewkit.spec.files.check_file` adds the campaign's own checks)."""
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
    issues = _schema_issues(doc, kind)
    if issues:
        return sort_issues(issues)
    if kind == "mission":
        issues += check_mission_semantics(doc.data, doc, path)
        if not issues:
            issues += check_reading_options(doc.data, doc, lambda d, view: check_mission_semantics(d, view, path))
    return sort_issues(issues)


def effect_file_kind(first_line: str) -> str | None:
    """``card-set`` or ``not-alone-ruleset`` when the file's modeline names one of the effect vocabulary's
    schemas (those files are checked by :mod:`crewkit.effects`), else None."""
    found = _EFFECT_HINT.search(first_line)
    return found.group(1) if found else None


def source_lines(path: Path) -> list[str] | None:
    """The file's lines for a caret under an error; None for a file crewkit would not read (bounded read)."""
    from crewkit.spec.yamlio import read_source_lines

    return read_source_lines(path)
