"""What the language server knows about a file, from its text: problems, the word under the cursor, what may
be typed there, where a name leads. No LSP types here (positions are 0-based line and character, as LSP's).

Problems are ``crewkit validate``'s (:func:`crewkit.cli.specs.file_issues`) run on the editor's text through
:mod:`crewkit.spec.overlay`; everything else reads the document with crewkit's own YAML loader when it parses,
and falls back on the lines around the cursor while it is half typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY_BEFORE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*:(?=\s|$)")
DSL_KEYS = frozenset({"fail_if", "done_if", "score", "settled_if", "achieved_if", "success_if"})
CARD_KEYS = frozenset({"card", "holder_of", "challenge_adds", "hold_out"})
CARD_LISTS = frozenset({"fixed", "remove", "undealt", "include"})
ROLE_LISTS = frozenset({"exclude", "barred_roles"})
RULESET_KEYS = frozenset({"extends", "rulesets", "ruleset"})
KEYWORDS = {
    "and": "or", "or": "or", "not": "not", "in": "membership", "if": "conditional", "else": "conditional",
    "none": "none", "true": "booleans", "false": "booleans",
}


@dataclass(frozen=True)
class Problem:
    line: int  # 0-based
    character: int
    end_line: int
    end_character: int
    message: str
    severity: str = "error"  # error | warning


@dataclass(frozen=True)
class Item:
    """A completion: the label shown, what it is (``function``, ``card`` ...), its documentation."""

    label: str
    kind: str
    detail: str = ""
    doc: str = ""
    insert: str | None = None


@dataclass
class Context:
    """What a document's completions draw on: its deck's cards and suits, its roles, its tokens."""

    cards: list[str] = field(default_factory=list)
    suits: list[str] = field(default_factory=list)
    specials: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    kind: str = "mission"


# ---------------------------------------------------------------------------------------- problems


def problems(path: Path, text: str, others: Mapping[Path, str] | None = None) -> list[Problem]:
    """``crewkit validate``'s issues of ``path`` whose text is ``text`` (``others``: the editor's other unsaved
    files), positioned in this file; an issue found in another file (a broken base rule set) is shown on the
    first line with that file's position."""
    from crewkit.effects.files import file_issues
    from crewkit.spec import overlay

    lines = text.splitlines()
    unsaved: dict[Path, str] = dict(others or {})
    unsaved[path] = text
    with overlay.texts(unsaved):
        issues = file_issues(path)
    out = []
    here = path.resolve()
    for issue in issues:
        if _same_file(issue.file, here):
            line = max(issue.line - 1, 0)
            char = max(issue.column - 1, 0)
            end = _token_end(lines[line] if line < len(lines) else "", char)
            out.append(Problem(line, char, line, end, issue.message, issue.severity))
        else:
            out.append(Problem(0, 0, 0, 0, f"{issue.file}:{issue.line}:{issue.column}: {issue.message}",
                               issue.severity))
    return out


def _same_file(name: str, here: Path) -> bool:
    try:
        return Path(name).resolve() == here
    except (OSError, ValueError):
        return False


def _token_end(line: str, start: int) -> int:
    """Where the word (or the single character) at ``start`` ends: the range a problem underlines."""
    m = re.compile(r"[A-Za-z0-9_.\-]+|\S").match(line, start)
    return m.end() if m else start + 1


# ---------------------------------------------------------------------------------------- the document


def load(path: Path, text: str) -> Any:
    """crewkit's LoadedDoc of ``text``, or None while it does not parse."""
    from crewkit.spec.errors import SpecError
    from crewkit.spec.yamlio import load_yaml_text

    try:
        return load_yaml_text(text, str(path))
    except SpecError:
        return None


def context_of(path: Path, text: str, others: Mapping[Path, str] | None = None) -> Context | None:
    """The deck, roles and tokens a document may name (None when the document does not parse)."""
    from crewkit.spec import bundled, overlay
    from crewkit.spec.deck import build_deck
    from crewkit.spec.dslsites import mission_roles
    from crewkit.spec.errors import SpecError
    from crewkit.spec.loader import guess_kind, mission_base, resolve_ruleset_data

    doc = load(path, text)
    if doc is None or not isinstance(doc.data, Mapping):
        return None
    ctx = Context()
    unsaved: dict[Path, str] = dict(others or {})
    unsaved[path] = text
    with overlay.texts(unsaved):
        kind = guess_kind(path, doc.data, doc.lines[0] if doc.lines else "")
        ctx.kind = kind
        ruleset: Mapping[str, Any] | None = None
        try:
            if kind == "mission":
                ruleset, _ = mission_base(doc.data, doc, path)
                ctx.roles = list(dict.fromkeys(mission_roles(doc.data)))
            elif kind == "ruleset":
                ruleset, _, _ = resolve_ruleset_data(path)
            elif kind == "campaign" and isinstance(doc.data.get("ruleset"), str):
                ruleset, _, _ = resolve_ruleset_data(bundled.ruleset_path(doc.data["ruleset"], path.parent))
        except (SpecError, bundled.NotFound, OSError):
            ruleset = None
    if isinstance(ruleset, Mapping) and isinstance(ruleset.get("deck"), Mapping):
        try:
            deck = build_deck(ruleset["deck"])
        except (KeyError, TypeError, ValueError):
            deck = None
        if deck is not None:
            ctx.cards = [c.name for c in deck.cards]
            ctx.suits = [s.name for s in deck.suits]
            ctx.specials = [c.name for c in deck.cards if c.suit is None]
        tokens = (ruleset.get("tasks") or {}).get("tokens") if isinstance(ruleset.get("tasks"), Mapping) else None
        ctx.tokens = [str(t) for t in tokens or []]
    return ctx


@dataclass(frozen=True)
class DslSpot:
    """The cursor inside a DSL text: the text, the offset in it, the document path where it stands."""

    text: str
    offset: int
    path: tuple[str | int, ...]
    template: bool


def dsl_at(doc: Any, kind: str, line: int, character: int) -> DslSpot | None:
    """The DSL text under a 0-based position of a parsed document, and the offset of the cursor in it."""
    from crewkit.spec.dslsites import sites_in

    target = (line + 1, character + 1)
    for site, where, text in sites_in(doc.data, kind if kind in ("mission", "ruleset") else "mission"):
        node = doc.info(where)
        if node is None or not node.line <= target[0] <= max(node.end_line, node.line + 1):
            continue
        for offset in range(len(text) + 1):
            if doc.text_position(where, offset) == target:
                return DslSpot(text, offset, where, site.template)
    return None


def line_dsl(lines: Sequence[str], line: int, character: int) -> DslSpot | None:
    """While the document does not parse: the value after a DSL key on the cursor's line (``fail_if: ...``)."""
    if line >= len(lines):
        return None
    m = re.match(r"\s*(?:-\s+)?([A-Za-z_]+)\s*:\s*(['\"]?)", lines[line])
    if not m or m.group(1) not in DSL_KEYS or character < m.end():
        return None
    return DslSpot(lines[line][m.end():], character - m.end(), (m.group(1),), False)


def word_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """The identifier containing (or ending at) ``offset`` in ``text``: (word, start, end)."""
    for m in _WORD.finditer(text):
        if m.start() <= offset <= m.end():
            return m.group(0), m.start(), m.end()
    return None


# ---------------------------------------------------------------------------------------- hover


def hover(path: Path, text: str, line: int, character: int, roles: Sequence[str] = ()) -> str | None:
    """Markdown documentation of the DSL word under the cursor (None elsewhere)."""
    doc = load(path, text)
    lines = text.splitlines()
    spot = None
    if doc is not None and isinstance(doc.data, Mapping):
        from crewkit.spec.dslsites import mission_roles

        spot = dsl_at(doc, "mission", line, character)
        roles = list(roles) or mission_roles(doc.data)
    spot = spot or line_dsl(lines, line, character)
    if spot is None:
        return None
    found = word_at(spot.text, spot.offset)
    if found is None:
        return None
    word, start, end = found
    after_dot = spot.text[:start].rstrip().endswith(".")
    call = spot.text[end:].lstrip().startswith("(")
    return word_doc(word, after_dot=after_dot, call=call, roles=roles)


def word_doc(word: str, *, after_dot: bool = False, call: bool = False, roles: Sequence[str] = ()) -> str | None:
    """The documentation of one word of the condition language, as Markdown."""
    from crewkit.dsl.vocabulary import FIELDS, FUNCTIONS, LITERALS, NAMES, OPERATORS, QUANTIFIERS

    def entry(signature: str, doc: str, example: str, phrase: str = "") -> str:
        out = f"```\n{signature}\n```\n{doc}\n\nExample: `{example}`"
        return out + (f"\n\nIn words: *{phrase.format('…', '…')}*" if phrase else "")

    if after_dot:
        owners = [w for table in FIELDS.values() for name, w in table.items() if name == word]
        if owners:
            return "\n\n---\n\n".join(entry(w.signature, w.doc, w.example, w.phrase) for w in owners)
    if call:
        quant = next((q for q in QUANTIFIERS if q.name == word), None)
        fn = FUNCTIONS.get(word)
        parts = []
        if quant is not None:
            parts.append(entry(quant.signature, quant.doc, quant.example))
        if fn is not None:
            parts.append(entry(fn.signature, fn.doc, fn.example, fn.phrase))
        if parts:
            return "\n\n---\n\n".join(parts)
    if word in NAMES:
        w = NAMES[word]
        return entry(w.signature, w.doc, w.example, w.phrase)
    if word in KEYWORDS:
        construct = next(c for c in (*OPERATORS, *LITERALS) if c.name == KEYWORDS[word])
        return entry(construct.signature, construct.doc, construct.example)
    if word in roles:
        return (f"```\n{word} -> player\n```\nA role this mission's setup binds to a player "
                f"(reads \u201cthe player chosen as {word.replace('_', ' ')}\u201d).")
    if word in FUNCTIONS:
        w = FUNCTIONS[word]
        return entry(w.signature, w.doc, w.example, w.phrase)
    return None


# ---------------------------------------------------------------------------------------- completion


def completions(path: Path, text: str, line: int, character: int, ctx: Context | None) -> list[Item]:
    """What may be typed at the cursor: DSL words in a condition or formula, cards, roles, tokens, symbols
    and rule set names in the values that take them."""
    ctx = ctx or Context()
    lines = text.splitlines() or [""]
    doc = load(path, text)
    spot = dsl_at(doc, ctx.kind, line, character) if doc is not None and isinstance(doc.data, Mapping) else None
    spot = spot or line_dsl(lines, line, character)
    if spot is not None:
        if spot.template and not _inside_braces(spot.text, spot.offset):
            return []
        return dsl_items(spot.text[:spot.offset], ctx)
    key, parent = _yaml_key(lines, line, character)
    if key in CARD_KEYS or (key is None and parent in CARD_LISTS) or key in CARD_LISTS:
        return [Item(c, "card", "a card of the deck") for c in ctx.cards]
    if key == "tokens" or parent == "tokens":
        from crewkit.dsl.words import token_phrase

        return [Item(t, "token", token_phrase(t)) for t in ctx.tokens or ["1", "2", "3", "4", "5", "omega",
                                                                          ">", ">>", ">>>", ">>>>"]]
    if key in ROLE_LISTS or parent in ROLE_LISTS:
        return [Item(r, "role", "a role of this mission") for r in [*ctx.roles, "commander"]]
    if key in RULESET_KEYS or parent in RULESET_KEYS:
        from crewkit.spec import bundled

        return [Item(p.stem, "ruleset", "a bundled rule set") for p in bundled.bundled_rulesets(None)]
    if parent == "symbols" and key is None:
        return [Item(s, "symbol", doc) for s, doc in _symbols().items()]
    return []


def _inside_braces(text: str, offset: int) -> bool:
    return text.rfind("{", 0, offset) > text.rfind("}", 0, offset)


def dsl_items(before: str, ctx: Context) -> list[Item]:
    """DSL completions after ``before`` (the text of the expression up to the cursor)."""
    from crewkit.dsl.vocabulary import FIELDS, FUNCTIONS, NAMES, QUANTIFIERS

    stripped = before.rstrip(_WORD_CHARS)
    if stripped.endswith("."):
        seen: dict[str, Item] = {}
        for table in FIELDS.values():
            for name, w in table.items():
                seen.setdefault(name, Item(name, "field", w.signature, w.doc))
        return list(seen.values())
    items = [Item(n, "name", w.signature, w.doc) for n, w in NAMES.items()]
    items += [Item(n, "function", w.signature, w.doc, insert=f"{n}(") for n, w in FUNCTIONS.items()]
    items += [Item(q.name, "quantifier", q.signature, q.doc, insert=f"{q.name}(") for q in QUANTIFIERS
              if q.name not in FUNCTIONS]
    items += [Item(k, "keyword", "") for k in KEYWORDS]
    items += [Item(r, "role", "a role of this mission (a player)") for r in ctx.roles]
    items += [Item(s, "suit", "a suit of the deck") for s in ctx.suits]
    items += [Item(c, "card", "a card of the deck") for c in ctx.cards]
    return items


_WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"


def _yaml_key(lines: Sequence[str], line: int, character: int) -> tuple[str | None, str | None]:
    """The key whose value the cursor is in (``card`` in ``{role: x, card: pi|``; None while a key itself is
    typed) and the key of the mapping or list around it, read from the lines so that a half-typed file still
    answers."""
    current = lines[line][:character] if line < len(lines) else ""
    parent = _parent_key(lines, line, current)
    opened: list[int] = []  # the flow collections ({...}, [...]) still open before the cursor
    for i, ch in enumerate(current):
        if ch in "[{":
            opened.append(i)
        elif ch in "]}" and opened:
            opened.pop()
    if opened:
        start = opened[-1]
        owners = _KEY_BEFORE.findall(current[:start])
        owner = owners[-1] if owners else parent
        if current[start] == "[":
            return None, owner
        keys = _KEY_BEFORE.findall(current[start + 1:].split(",")[-1])
        return (keys[-1] if keys else None), owner
    keys = _KEY_BEFORE.findall(current)
    return (keys[-1] if keys else None), parent


def _parent_key(lines: Sequence[str], line: int, current: str) -> str | None:
    """The key of the nearest line above that is indented less than the cursor's line (its parent)."""
    m = re.match(r"(\s*)", current)
    indent = len(m.group(1)) if m else 0
    for above in range(line - 1, -1, -1):
        text = lines[above]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        own = len(text) - len(text.lstrip())
        item = re.match(r"\s*-\s+", text)
        if item and item.end() == indent:  # "- id: x" above "  fail_if:": a key of the same list item
            indent = own
            continue
        if own < indent:
            found = re.match(r"\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:", text)
            return found.group(1) if found else None
    return None


def _symbols() -> dict[str, str]:
    import json

    from crewkit.spec.resources import data_path

    with open(data_path("schemas/mission.schema.json"), encoding="utf-8") as fh:
        schema = json.load(fh)
    props = schema["properties"]["symbols"].get("properties", {})
    return {k: str(v.get("description", "")) for k, v in props.items()}


# ---------------------------------------------------------------------------------------- definition


def definition(path: Path, text: str, line: int, character: int) -> Path | None:
    """The file a name under the cursor stands for: the rule set of ``extends:``, a mission's ``rulesets:``
    entry, a campaign's ``ruleset:`` or mission."""
    from crewkit.spec import bundled

    lines = text.splitlines()
    if line >= len(lines):
        return None
    key, parent = _yaml_key(lines, line, character)
    value = _value_at(lines[line], character)
    if not value:
        return None
    try:
        if key in RULESET_KEYS or parent in RULESET_KEYS:
            return bundled.ruleset_path(value, relative_to=path.parent)
        if key == "mission" or parent == "missions":
            from crewkit.spec.campaigns import resolve_in_campaign

            return resolve_in_campaign(path.parent, value)
    except (bundled.NotFound, OSError, ValueError):
        return None
    return None


def _value_at(line: str, character: int) -> str | None:
    """The scalar under the cursor in a YAML line: a name, a bundled id (``planet-nine/04``) or a path."""
    for m in re.finditer(r"[A-Za-z0-9_./\-]+", line):
        if m.start() <= character <= m.end():
            value = m.group(0).strip("'\"")
            return value if not value.endswith(":") else None
    return None


def replace_start(line_text: str, character: int, ctx: Context | None) -> int:
    """Where the word being completed starts on its line: the identifier before the cursor, or a whole card
    name (``pink 9``: its suit too), so that choosing ``pink 9`` after ``pink `` does not write ``pink pink 9``."""
    start = character
    while start > 0 and (line_text[start - 1].isalnum() or line_text[start - 1] == "_"):
        start -= 1
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*) $", line_text[:start])
    if m and ctx is not None and m.group(1) in ctx.suits:
        start = m.start(1)
    return start
