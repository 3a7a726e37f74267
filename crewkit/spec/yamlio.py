"""Safe YAML (and JSON) loading that keeps the position of every value.

The file is composed into PyYAML nodes (``yaml.compose`` with a ``SafeLoader`` subclass) and the Python data
is built from the nodes by this module, so that:

- only safe YAML is read: plain mappings, lists, strings, numbers, booleans and null; any other tag is refused;
- duplicate keys are an error (reported at the second key, naming the line of the first);
- text never holds a control character: ``"\\e]0;"`` in a double-quoted string is loaded as the four characters
  ``\\x1b]0;`` (:func:`crewkit.safetext.escape_controls`), so a file's text is harmless wherever it is shown;
- mapping keys are always strings: the key's text (``3: 10`` and ``"3": 10`` are the same key);
- scalars follow YAML 1.2's core schema: only ``true``/``false`` (also ``True``, ``TRUE``, ...) are booleans,
  so ``no``, ``yes``, ``on``, ``off`` stay strings; ``010`` is the integer 10 (``0o10`` is octal); dates and
  times stay strings; ``<<`` merge keys are not supported;
- alias expansion is bounded (a "billion laughs" file is refused at once), nesting and list lengths are
  bounded, only regular files are read and files over 1 MiB are refused (counted while reading), and text
  that is not UTF-8 is refused with the byte's position.

Every problem becomes a :class:`~crewkit.spec.errors.SpecIssue` raised inside a
:class:`~crewkit.spec.errors.SpecError`; no traceback ever reaches the user.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from crewkit.safetext import escape_controls
from crewkit.spec.errors import Path, SpecError, SpecIssue

MAX_BYTES = 1024 * 1024
"""Files larger than this (1 MiB) are refused before parsing."""
MAX_DEPTH = 64
"""Deepest nesting of lists and mappings accepted."""
MAX_ITEMS = 10_000
"""Longest list, and most keys in one mapping, accepted (a game record has a few hundred actions; every
later check, such as a schema's ``uniqueItems``, then works on bounded input)."""
MAX_ALIAS_EXPANSION = 10_000
"""How many nodes may be produced by following aliases (``*name``) in one document."""
MAX_ALIASES = 1_000
"""How many alias uses one document may contain."""
MAX_EXPANDED_CHARS = 2 * MAX_BYTES
"""How much text (characters of keys and values) one document may hold once its aliases are expanded: a file
holds at most :data:`MAX_BYTES` of its own, so aliases may at most double it (a 100 KB file repeating one
10 KB string ten thousand times would otherwise hand every later check 100 MB of text)."""

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"


class _LoadAbort(Exception):
    """Internal: stop loading with one positioned issue."""

    def __init__(self, line: int, column: int, message: str, path: Path = ()) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.message = message
        self.path = path


def _bounded_compose_node(self: Any, parent: Node | None, index: Any) -> Node | None:
    """``Composer.compose_node`` with the bounds on nesting and aliases (both loaders)."""
    event = self.peek_event()
    if isinstance(event, yaml.AliasEvent):
        self._aliases += 1
        if self._aliases > MAX_ALIASES:
            mark = event.start_mark  # parsed events always carry one (the stubs allow None)
            line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            raise _LoadAbort(line, column, f"too many aliases: more than {MAX_ALIASES} alias uses")
    self._depth += 1
    try:
        if self._depth > MAX_DEPTH:
            mark = event.start_mark
            raise _LoadAbort(
                mark.line + 1,
                mark.column + 1,
                f"the document is nested too deeply (more than {MAX_DEPTH} levels of lists and mappings)",
            )
        return Composer.compose_node(self, parent, index)
    finally:
        self._depth -= 1


class _Loader(yaml.SafeLoader):
    """A SafeLoader with YAML 1.2 core-schema resolvers and bounded nesting and aliases.

    Only composition (nodes) is used; the data is built by :func:`_Builder.build`.
    """

    yaml_implicit_resolvers: dict[Any, Any] = {}

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    compose_node = _bounded_compose_node


_Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_Loader.add_implicit_resolver(
    _INT, re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
)
_Loader.add_implicit_resolver(
    _FLOAT,
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)
_Loader.add_implicit_resolver(_NULL, re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])


_CParser: Any
try:
    import yaml.cyaml as _cyaml

    _CParser = getattr(_cyaml, "CParser", None)
except ImportError:  # a PyYAML built without libyaml: the Python parser only
    _CParser = None

_CLoader: Any = None
if _CParser is not None:

    class _CLoader(Composer, _CParser, Resolver):  # type: ignore[no-redef]
        """The same composition as :class:`_Loader` (its resolvers, its bounds) over libyaml's scanner and
        parser, about ten times faster. Used for text both read the same way (:func:`_compose`); on any YAML
        error the Python parser reads the text again, for the message crewkit puts in words."""

        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers
        compose_node = _bounded_compose_node

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            Composer.__init__(self)
            Resolver.__init__(self)
            self._depth = 0
            self._aliases = 0

        def compose_scalar_node(self, anchor: Any) -> ScalarNode:
            node = Composer.compose_scalar_node(self, anchor)
            if node.style == "":  # libyaml's plain style; the Python parser's is None
                node.style = None
            return node


#: text the two parsers might read differently (line breaks of other kinds, a BOM, characters the Python
#: reader refuses): left to the Python parser
_SLOW_TEXT = re.compile("[\r\x85\u2028\u2029\ufeff]|" + yaml.reader.Reader.NON_PRINTABLE.pattern)


@dataclass(frozen=True, slots=True)
class NodeInfo:
    """Where one value sits in the file (1-based). ``key_*`` is the key's position for mapping entries."""

    line: int
    column: int
    end_line: int
    end_column: int
    key_line: int | None = None
    key_column: int | None = None
    style: str | None = None  # scalars: None plain, "'" or '"' quoted, "|" literal, ">" folded
    kind: str = "scalar"  # scalar | sequence | mapping


@dataclass
class LoadedDoc:
    """A loaded document: the data, its file name, its source lines and the position of every value."""

    data: Any
    filename: str
    lines: list[str]
    positions: dict[Path, NodeInfo] = field(default_factory=dict)

    def info(self, path: Sequence[str | int]) -> NodeInfo | None:
        """The node at exactly ``path``, or None."""
        return self.positions.get(tuple(path))

    def nearest(self, path: Sequence[str | int]) -> tuple[Path, NodeInfo | None]:
        """The longest prefix of ``path`` that exists, with its node."""
        p = tuple(path)
        while p:
            found = self.positions.get(p)
            if found is not None:
                return p, found
            p = p[:-1]
        return (), self.positions.get(())

    def position_of(self, path: Sequence[str | int], key: bool = False) -> tuple[int, int]:
        """1-based (line, column) of the value at ``path`` (of its key when ``key``), else its nearest parent."""
        found_path, node = self.nearest(path)
        if node is None:
            return (1, 1)
        if key and found_path == tuple(path) and node.key_line is not None and node.key_column is not None:
            return (node.key_line, node.key_column)
        return (node.line, node.column)

    def scalar_info(self, path: Sequence[str | int]) -> tuple[int, int, str | None]:
        """(line, column, style) of the scalar at ``path``; style is None (plain), "'", '"', "|" or ">"."""
        node = self.info(path)
        if node is None:
            line, col = self.position_of(path)
            return (line, col, None)
        return (node.line, node.column, node.style)

    def text_position(self, path: Sequence[str | int], offset: int) -> tuple[int, int]:
        """File (line, column) of character ``offset`` of the string at ``path`` (best effort).

        Exact for plain and quoted one-line scalars without escapes and for literal (``|``) blocks; folded
        and multi-line scalars are mapped assuming each line break became one space.
        """
        node = self.info(path)
        if node is None or node.kind != "scalar":
            return self.position_of(path)
        if node.style in ("|", ">"):
            return self._block_position(node, offset)
        quoted = node.style in ("'", '"')
        start = node.column + (1 if quoted else 0)
        if node.line == node.end_line:
            return (node.line, start + offset)
        # A multi-line flow scalar: the first line from the start, following lines stripped of indentation.
        segments: list[tuple[int, int, int]] = []  # (line, first column, length)
        for ln in range(node.line, node.end_line + 1):
            text = self.lines[ln - 1] if ln - 1 < len(self.lines) else ""
            if ln == node.line:
                first = start
                seg = text[first - 1 :]
            else:
                stripped = text.lstrip(" \t")
                first = len(text) - len(stripped) + 1
                seg = stripped
            if ln == node.end_line:
                seg = seg[: max(node.end_column - first - (1 if quoted else 0), 0)]
            segments.append((ln, first, len(seg.rstrip())))
        return _walk_segments(segments, offset)

    def _block_position(self, node: NodeInfo, offset: int) -> tuple[int, int]:
        lines = self.lines
        first_line = node.line + 1
        indent = 0
        for ln in range(first_line, min(node.end_line, len(lines)) + 1):
            text = lines[ln - 1]
            if text.strip():
                indent = len(text) - len(text.lstrip(" "))
                break
        if node.style == "|":
            line, remaining = first_line, offset
            while line <= len(lines):
                content = lines[line - 1][indent:].rstrip("\r\n")
                if remaining <= len(content):
                    return (line, indent + 1 + remaining)
                remaining -= len(content) + 1
                line += 1
            return (node.line, node.column)
        segments = []
        for ln in range(first_line, min(node.end_line, len(lines)) + 1):
            content = lines[ln - 1][indent:].rstrip()
            if content:
                segments.append((ln, indent + 1, len(content)))
        if not segments:
            return (node.line, node.column)
        return _walk_segments(segments, offset)


def _walk_segments(segments: list[tuple[int, int, int]], offset: int) -> tuple[int, int]:
    remaining = offset
    for ln, first, length in segments:
        if remaining <= length:
            return (ln, first + remaining)
        remaining -= length + 1
    ln, first, length = segments[-1]
    return (ln, first + length)


class _Builder:
    """Builds Python data and positions from composed nodes, with bounded alias expansion."""

    def __init__(self) -> None:
        self.positions: dict[Path, NodeInfo] = {}
        self.issues: list[tuple[int, int, Path, str]] = []
        self._seen: set[int] = set()
        self._active: set[int] = set()
        self._expanded = 0
        self._chars = 0  # characters of every key and scalar built, aliases expanded (MAX_EXPANDED_CHARS)

    def build(self, node: Node, path: Path, key_node: Node | None) -> Any:
        ident = id(node)
        if ident in self._active:
            raise _LoadAbort(
                node.start_mark.line + 1,
                node.start_mark.column + 1,
                "an alias refers to itself (recursive alias)",
                path,
            )
        if ident in self._seen:
            self._expanded += 1
            if self._expanded > MAX_ALIAS_EXPANSION:
                raise _LoadAbort(
                    node.start_mark.line + 1,
                    node.start_mark.column + 1,
                    f"too many aliases: expanding them would produce more than {MAX_ALIAS_EXPANSION} values",
                    path,
                )
        self._seen.add(ident)
        kind = (
            "mapping"
            if isinstance(node, MappingNode)
            else "sequence"
            if isinstance(node, SequenceNode)
            else "scalar"
        )
        self.positions[path] = NodeInfo(
            line=node.start_mark.line + 1,
            column=node.start_mark.column + 1,
            end_line=node.end_mark.line + 1,
            end_column=node.end_mark.column + 1,
            key_line=key_node.start_mark.line + 1 if key_node is not None else None,
            key_column=key_node.start_mark.column + 1 if key_node is not None else None,
            style=node.style if isinstance(node, ScalarNode) else None,
            kind=kind,
        )
        if isinstance(node, ScalarNode):
            self._count_chars(node, path)
            return self._scalar(node, path)
        if isinstance(node, (SequenceNode, MappingNode)) and len(node.value) > MAX_ITEMS:
            what = "list has" if isinstance(node, SequenceNode) else "mapping has"
            raise _LoadAbort(
                node.start_mark.line + 1,
                node.start_mark.column + 1,
                f"this {what} {len(node.value)} entries; at most {MAX_ITEMS} are accepted",
                path,
            )
        self._active.add(ident)
        try:
            if isinstance(node, SequenceNode):
                if node.tag != _SEQ:
                    self._issue(node, path, f"unsupported tag {node.tag!r}: only plain lists are allowed")
                return [self.build(child, (*path, i), None) for i, child in enumerate(node.value)]
            assert isinstance(node, MappingNode)
            if node.tag != _MAP:
                self._issue(node, path, f"unsupported tag {node.tag!r}: only plain mappings are allowed")
            return self._mapping(node, path)
        finally:
            self._active.discard(ident)

    def _mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        out: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                what = "a list" if isinstance(key_node, SequenceNode) else "a mapping"
                self._issue(key_node, path, f"a mapping key must be a name, found {what}")
                continue
            key = escape_controls(key_node.value)
            if key == "<<" and key_node.style is None:
                self._issue(key_node, path, "merge keys ('<<') are not supported; write the keys out")
                continue
            if key in first_line:
                self._issue(
                    key_node,
                    (*path, key),
                    f"duplicate key {key!r} (first defined at line {first_line[key]})",
                )
                continue
            first_line[key] = key_node.start_mark.line + 1
            self._count_chars(key_node, path)
            out[key] = self.build(value_node, (*path, key), key_node)
        return out

    def _count_chars(self, node: ScalarNode, path: Path) -> None:
        self._chars += len(node.value)
        if self._chars > MAX_EXPANDED_CHARS:
            raise _LoadAbort(
                node.start_mark.line + 1,
                node.start_mark.column + 1,
                f"the document holds more than {MAX_EXPANDED_CHARS // MAX_BYTES} MiB of text once its aliases are "
                f"expanded (the file may hold at most {MAX_BYTES // MAX_BYTES} MiB, and aliases may at most double "
                "it); write the repeated text out fewer times",
                path,
            )

    def _scalar(self, node: ScalarNode, path: Path) -> Any:
        value: str = node.value
        tag = node.tag
        if tag == _STR:
            # text from a file never holds a control character once loaded ("\e]0;" written as "\x1b]0;"):
            # whatever shows it (a command's output, the terminal app's widgets, a record) shows it harmless
            return escape_controls(value)
        if tag == _NULL:
            return None
        if tag == _BOOL:
            low = value.lower()
            if low in ("true", "false"):
                return low == "true"
            self._issue(node, path, f"cannot read {value!r} as a boolean; write true or false")
            return value
        if tag == _INT:
            try:
                text = value.replace("_", "")
                if text.startswith(("0o", "0O")):
                    return int(text[2:], 8)
                if text.startswith(("0x", "0X")):
                    return int(text[2:], 16)
                return int(text, 10)
            except ValueError:
                self._issue(node, path, f"cannot read {value!r} as an integer")
                return value
        if tag == _FLOAT:
            low = value.lower()
            if low in (".inf", "+.inf"):
                return float("inf")
            if low == "-.inf":
                return float("-inf")
            if low == ".nan":
                return float("nan")
            try:
                return float(value)
            except ValueError:
                self._issue(node, path, f"cannot read {value!r} as a number")
                return value
        self._issue(
            node, path, f"unsupported tag {tag!r}: only strings, numbers, true/false and null are allowed"
        )
        return value

    def _issue(self, node: Node, path: Path, message: str) -> None:
        self.issues.append((node.start_mark.line + 1, node.start_mark.column + 1, path, message))


def _line_col_of_index(text: str, index: int) -> tuple[int, int]:
    index = max(0, min(index, len(text)))
    line = text.count("\n", 0, index) + 1
    last_nl = text.rfind("\n", 0, index)
    return line, index - last_nl


def _fail(
    filename: str, line: int, column: int, message: str, path: Path = (), lines: Sequence[str] | None = None
) -> SpecError:
    return SpecError([SpecIssue(filename, line, column, path, message)], lines)


def _kind_name(node: Node) -> str:
    if isinstance(node, SequenceNode):
        return "a list"
    if isinstance(node, ScalarNode):
        return "a single value" if node.value else "nothing"
    return "a mapping"


_BRACKETS = re.compile(r"[\[\]{}]")


def _precheck_flow_depth(text: str, filename: str, lines: list[str]) -> None:
    """Refuse deeply nested flow collections (``[[[[...``) before PyYAML's scanner spends time on them.

    Brackets inside strings are counted too; balanced ones never matter, and only more than
    :data:`MAX_DEPTH` unclosed brackets are refused (the composer's own depth check is the real guard).
    """
    if "[[" not in text and "{" not in text and "[ [" not in text:
        return
    depth = 0
    for m in _BRACKETS.finditer(text):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line, col = _line_col_of_index(text, m.start())
                raise _fail(
                    filename,
                    line,
                    col,
                    f"the document is nested too deeply (more than {MAX_DEPTH} levels of lists and mappings)",
                    (),
                    lines,
                )
        elif depth:
            depth -= 1


#: PyYAML's token names, in words (its messages name the parser's tokens: "expected <block end>, but found
#: '<block mapping start>'")
_TOKEN_WORDS = {
    "'<block mapping start>'": "a new key indented deeper",
    "'<block sequence start>'": "a new list indented deeper",
    "'<block end>'": "the end of the block",
    "'<block mapping end>'": "the end of the block",
    "<block end>": "the end of the indented block",
    "'<scalar>'": "a value",
    "'<stream end>'": "the end of the file",
    "'<document start>'": "a new document (---)",
    "'<flow mapping end>'": "'}'",
    "'<flow sequence end>'": "']'",
    "'<block entry>'": "a list item ('-')",
    "'<key>'": "a key",
    "'<value>'": "':'",
    "'<anchor>'": "an anchor (&)",
    "'<alias>'": "an alias (*)",
    "'<tag>'": "a tag (!)",
}


def plain_yaml_message(message: str) -> str:
    """PyYAML's message in words: the indentation mistakes a person makes most, said as such; token names
    replaced by what they are."""
    if message.startswith("expected <block end>, but found '<block mapping start>'") or message.startswith(
            "expected <block end>, but found '<block sequence start>'"):
        return ("this line's indentation matches no level of the lines above it: line it up exactly with the "
                "keys (or list items) it belongs with")
    if message.startswith("expected <block end>, but found"):
        found = message.split("but found", 1)[1].strip()
        return (f"the indentation ends a block here but {_TOKEN_WORDS.get(found, found)} follows: check that "
                "this line lines up with the keys (or list items) of its level")
    if message.startswith("mapping values are not allowed here"):
        return ("a ':' here would start a key inside a value: quote the text if the colon belongs to it, or "
                "indent the line as a key of its own")
    if message.startswith("could not find expected ':'"):
        return "a key without its ':' (or a line indented as if it continued the one above)"
    for token, words in _TOKEN_WORDS.items():
        message = message.replace(token, words)
    return message


def _compose(text: str, filename: str, lines: list[str]) -> Node | None:
    _precheck_flow_depth(text, filename, lines)
    try:
        if _CLoader is not None and not _SLOW_TEXT.search(text):
            try:
                return yaml.compose(text, Loader=_CLoader)
            except yaml.YAMLError:
                pass  # read again by the Python parser: its messages are the ones crewkit puts in words
        return yaml.compose(text, Loader=_Loader)
    except _LoadAbort as exc:
        raise _fail(filename, exc.line, exc.column, exc.message, exc.path, lines) from None
    except yaml.reader.ReaderError as exc:
        line, col = _line_col_of_index(text, exc.position)
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise _fail(
            filename,
            line,
            col,
            f"character {char!r} (U+{ord(char):04X}) is not allowed in YAML text",
            (),
            lines,
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        message = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            if exc.context.startswith("expected"):
                message = f"{exc.context}, {exc.problem}"
            elif exc.context_mark is not None:
                message += f" ({exc.context} that starts at line {exc.context_mark.line + 1})"
        if "'\\t'" in message:
            message += "; YAML does not allow tabs for indentation, use spaces"
        raise _fail(filename, line, col, plain_yaml_message(message), (), lines) from None
    except yaml.YAMLError as exc:  # pragma: no cover - any other PyYAML error
        raise _fail(filename, 1, 1, f"invalid YAML: {exc}", (), lines) from None
    except RecursionError:  # pragma: no cover - guarded by MAX_DEPTH
        raise _fail(filename, 1, 1, "the document is nested too deeply", (), lines) from None


def _build_doc(root: Node, filename: str, lines: list[str]) -> LoadedDoc:
    builder = _Builder()
    try:
        data = builder.build(root, (), None)
    except _LoadAbort as exc:
        raise _fail(filename, exc.line, exc.column, exc.message, exc.path, lines) from None
    except RecursionError:  # pragma: no cover - guarded by MAX_DEPTH
        raise _fail(filename, 1, 1, "the document is nested too deeply", (), lines) from None
    if builder.issues:
        raise SpecError([SpecIssue(filename, ln, col, p, msg) for ln, col, p, msg in builder.issues], lines)
    return LoadedDoc(data=data, filename=filename, lines=lines, positions=builder.positions)


def _check_size(size: int, filename: str) -> None:
    if size > MAX_BYTES:
        raise _fail(
            filename,
            1,
            1,
            f"the file is too large ({size / MAX_BYTES:.1f} MiB); files over 1 MiB are refused",
        )


def _decode(raw: bytes, filename: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise _fail(
            filename,
            line,
            column,
            f"the file is not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; save it as UTF-8",
        ) from None
    return text.removeprefix("\ufeff")


def load_yaml_text(text: str, filename: str) -> LoadedDoc:
    """Load one YAML document from ``text``; the top level must be a mapping. Raises :class:`SpecError`."""
    _check_size(len(text.encode("utf-8", errors="surrogatepass")), filename)
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    root = _compose(text, filename, lines)
    if root is None:
        raise _fail(filename, 1, 1, "the file is empty", (), lines)
    if root.tag not in (_MAP, _SEQ, _STR, _INT, _FLOAT, _BOOL, _NULL):  # `!!python/...` on the whole document
        raise _fail(filename, root.start_mark.line + 1, root.start_mark.column + 1,
                    f"unsupported tag {root.tag!r}: only plain mappings are allowed", (), lines)
    if not isinstance(root, MappingNode):
        if isinstance(root, ScalarNode) and root.tag == _NULL:
            raise _fail(
                filename, root.start_mark.line + 1, root.start_mark.column + 1, "the file is empty", (), lines
            )
        raise _fail(
            filename,
            root.start_mark.line + 1,
            root.start_mark.column + 1,
            f"the top level must be a mapping of keys to values (key: value lines), found {_kind_name(root)}",
            (),
            lines,
        )
    return _build_doc(root, filename, lines)


def _display_name(path: str | os.PathLike[str]) -> str:
    p = FsPath(path)
    try:
        return str(p.resolve().relative_to(FsPath.cwd()))
    except ValueError:
        return str(p)


class UnsafeFile(OSError):
    """A file crewkit refuses to read: not a regular file, larger than the limit, or (read from a folder) a link
    that leads out of the folders it may be read from (the message says which)."""


class OutsideFolders(UnsafeFile):
    """A file that is (or passes through) a link leading out of the folders it may be read from."""


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def real_path_within(path: str | os.PathLike[str], within: Sequence[str | os.PathLike[str]]) -> str | None:
    """The real path of ``path`` (every link followed) when it lies in one of the folders ``within`` (or below
    them, links in them followed too), else None. The one test of where a link may lead (see :func:`read_limited`)."""
    try:
        real = os.path.realpath(path)
        roots = [os.path.realpath(root) for root in within]
    except (OSError, ValueError, RuntimeError):
        return None
    return real if any(_inside(real, root) for root in roots) else None


def _refuse_outside(path: str | os.PathLike[str], within: Sequence[str | os.PathLike[str]]) -> OutsideFolders:
    try:
        target = os.path.realpath(path)
    except (OSError, ValueError, RuntimeError):
        target = "?"
    folders = ", ".join(str(folder) for folder in within) or "none"
    return OutsideFolders(f"it is a link to {target}, outside the folder it may be read from ({folders}); "
                          "crewkit follows a link only when it stays inside that folder")


def read_limited(path: str | os.PathLike[str], limit: int = MAX_BYTES, *,
                 within: Sequence[str | os.PathLike[str]] | None = None) -> bytes:
    """The bytes of the regular file at ``path``, refusing devices, FIFOs, sockets, folders and files over ``limit``.

    The one reader of every file crewkit is handed or finds. The file is opened without blocking (a FIFO cannot
    hang the open), checked with ``fstat`` on the opened descriptor (so the check and the read concern the same
    file), and read with the limit enforced while reading: ``st_size`` is 0 for ``/dev/zero`` and a FIFO, and a
    file may grow after the check.

    ``within``: the folders the file may be read from (a reference's own folder and the bundled files, a folder
    given to ``validate``): a link is followed only when its target stays in one of them (checked before the open
    and, where the system tells, again on the opened descriptor); None for a path the user typed, which may
    lead anywhere. Raises :class:`UnsafeFile` (:class:`OutsideFolders` for a link that leads out), or another
    :class:`OSError` from the system.
    """
    if within is not None:
        real = real_path_within(path, within)
        if real is None:
            raise _refuse_outside(path, within)
        path = real  # open what was checked (its last part not followed again: O_NOFOLLOW below)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
    if within is not None:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        if within is not None and not _opened_within(fd, within):  # a folder on the way was swapped for a link
            raise _refuse_outside(path, within)
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(f"not a regular file ({_file_kind(st.st_mode)}); only regular files are read")
        if st.st_size > limit:
            raise UnsafeFile(f"the file is too large ({_size_text(st.st_size)}); files over {_size_text(limit)} "
                             "are refused")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise UnsafeFile(f"the file is too large (more than {_size_text(limit)}); files over "
                                 f"{_size_text(limit)} are refused")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _opened_within(fd: int, within: Sequence[str | os.PathLike[str]]) -> bool:
    """Whether the file open at ``fd`` lies in ``within``, where the system names an open file (Linux's
    ``/proc/self/fd``); True where it cannot tell (the check before the open stands alone there)."""
    try:
        opened = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return True
    return real_path_within(opened, within) is not None if opened.startswith(os.sep) else True


def _size_text(size: int) -> str:
    mib = 1024 * 1024
    if size % mib == 0:
        return f"{size // mib} MiB"
    return f"{size / mib:.1f} MiB" if size >= mib // 10 else f"{size} bytes"


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def _read(path: str | os.PathLike[str], filename: str,
          within: Sequence[str | os.PathLike[str]] | None = None) -> str:
    try:
        raw = read_limited(path, MAX_BYTES, within=within)
    except IsADirectoryError:
        raise _fail(filename, 1, 1, "cannot read the file: it is a folder") from None
    except UnsafeFile as exc:
        raise _fail(filename, 1, 1, f"cannot read the file: {exc}") from None
    except OSError as exc:
        raise _fail(filename, 1, 1, f"cannot read the file: {exc.strerror or exc}") from None
    return _decode(raw, filename)


def read_source_lines(path: str | os.PathLike[str], limit: int = MAX_BYTES, *,
                      within: Sequence[str | os.PathLike[str]] | None = None) -> list[str] | None:
    """The lines of a text file for showing a caret under an error, or None (unreadable, special, too large, or
    a link out of ``within``: see :func:`read_limited`).

    Never reads more than ``limit`` bytes: an oversized file gets its error message without the excerpt.
    """
    try:
        raw = read_limited(path, limit, within=within)
    except OSError:
        return None
    return raw.decode("utf-8", errors="replace").removeprefix("\ufeff").splitlines()


def load_yaml_file(path: str | os.PathLike[str], filename: str | None = None, *,
                   within: Sequence[str | os.PathLike[str]] | None = None) -> LoadedDoc:
    """Load a YAML file (see :func:`load_yaml_text`). ``filename`` is the name shown in issues; ``within``: the
    folders it may be read from (:func:`read_limited`)."""
    from crewkit.spec import overlay

    name = filename if filename is not None else _display_name(path)
    unsaved = overlay.text_of(path)  # the language server's editor text, when it stands for this file
    return load_yaml_text(unsaved if unsaved is not None else _read(path, name, within), name)


def load_json_text(text: str, filename: str) -> LoadedDoc:
    """Load a JSON document (a game record) with positions; the top level must be an object."""
    _check_size(len(text.encode("utf-8", errors="surrogatepass")), filename)
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(filename, exc.lineno, exc.colno, f"invalid JSON: {exc.msg}", (), lines) from None
    except RecursionError:
        raise _fail(filename, 1, 1, "the document is nested too deeply", (), lines) from None
    except ValueError:  # an integer of more than 4300 digits (Python refuses to convert it)
        line, col = _long_number_position(text)
        raise _fail(filename, line, col, "number too long (more than 4300 digits)", (), lines) from None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        raise _fail(filename, 1, 1, f"the top level must be a JSON object, found {kind}", (), lines)
    # JSON is (nearly) YAML: compose it for positions. Tabs are only whitespace between tokens in valid
    # JSON (never raw inside strings), and PyYAML refuses them, so they become spaces (same columns).
    root = _compose(text.replace("\t", " "), filename, lines)
    if root is None:  # pragma: no cover - json.loads accepted it
        return LoadedDoc(data=data, filename=filename, lines=lines)
    doc = _build_doc(root, filename, lines)  # also reports duplicate keys at their position
    doc.data = data
    return doc


def _long_number_position(text: str) -> tuple[int, int]:
    """1-based line and column of the first run of more than 4300 digits (1, 1 if there is none)."""
    import re

    m = re.search(r"\d{4301}", text)
    if m is None:
        return 1, 1
    line = text.count("\n", 0, m.start()) + 1
    return line, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1


def load_json_file(path: str | os.PathLike[str], filename: str | None = None, *,
                   within: Sequence[str | os.PathLike[str]] | None = None) -> LoadedDoc:
    """Load a JSON file (see :func:`load_json_text`; ``within``: see :func:`load_yaml_file`)."""
    name = filename if filename is not None else _display_name(path)
    return load_json_text(_read(path, name, within), name)


class TranslatedDoc:
    """A :class:`LoadedDoc` seen through a translation of paths (a reading option's view: the positions of what
    it sets point into its ``overrides``). A subclass sets ``doc`` and gives :meth:`translate`."""

    doc: Any

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.filename, self.lines, self.data = doc.filename, doc.lines, doc.data

    def translate(self, path: Sequence[str | int]) -> tuple[str | int, ...]:
        raise NotImplementedError

    def position_of(self, path: Sequence[str | int], key: bool = False) -> tuple[int, int]:
        return self.doc.position_of(self.translate(path), key=key)

    def scalar_info(self, path: Sequence[str | int]) -> tuple[int, int, str | None]:
        return self.doc.scalar_info(self.translate(path))

    def text_position(self, path: Sequence[str | int], offset: int) -> tuple[int, int]:
        target = self.translate(path)
        if self.doc.info(target) is None:
            return self.doc.position_of(target)
        return self.doc.text_position(target, offset)
