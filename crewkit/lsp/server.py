"""The language server: pygls 2 with lsprotocol's types, over stdio (``crewkit lsp``).

Diagnostics are published for every opened or changed document, from the editor's text: a short pause after
the last change, then one check of the latest version at a time per document (a change made while a document
is checked is checked once that check ends; the versions in between are never checked, an outdated result is
never published). Checks run in worker threads of their own (a few documents at once), and hover, completion
and definition in others, so a long check (a mission of a megabyte takes seconds) never delays the answers
about other files. Each check is logged to the editor (window/logMessage, "checking ..." and "checked ...").
Nothing a file holds can stop the server: an error while answering becomes a diagnostic or an empty answer,
and is logged to the editor; a message over :data:`MAX_MESSAGE` bytes is refused unread (the editor is told)
and the server reads on from the next message.
"""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from crewkit import __version__
from crewkit.lsp import analysis

DEBOUNCE_SECONDS = 0.15
CHECK_WORKERS = 3  # documents checked at once (a long check of one leaves others their own thread)
ANSWER_WORKERS = 4  # hover, completion and definition, apart from the checks
MAX_MESSAGE = 64 * 1024 * 1024  # bytes of one JSON-RPC message (a spec file is at most 1 MiB)
MAX_HEADER = 8192  # bytes of one header line
T = TypeVar("T")
log = logging.getLogger("crewkit.lsp")

_KINDS = {
    "name": types.CompletionItemKind.Variable,
    "function": types.CompletionItemKind.Function,
    "quantifier": types.CompletionItemKind.Function,
    "field": types.CompletionItemKind.Field,
    "keyword": types.CompletionItemKind.Keyword,
    "role": types.CompletionItemKind.Variable,
    "suit": types.CompletionItemKind.EnumMember,
    "card": types.CompletionItemKind.Constant,
    "token": types.CompletionItemKind.Constant,
    "ruleset": types.CompletionItemKind.File,
    "symbol": types.CompletionItemKind.Property,
}


class CrewkitServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("crewkit", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.checks = ThreadPoolExecutor(max_workers=CHECK_WORKERS, thread_name_prefix="crewkit-check")
        self.answers = ThreadPoolExecutor(max_workers=ANSWER_WORKERS, thread_name_prefix="crewkit-answer")
        self.versions: dict[str, int] = {}  # the latest version of each open document
        self.contexts: dict[str, analysis.Context] = {}  # the last context of each document that parsed
        self.checking: set[str] = set()  # documents being checked now (one check at a time per document)
        self.lanes: dict[str, asyncio.Lock] = {}  # per document: its requests answered one at a time
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's loop, once initialized

    # ------------------------------------------------------------------------------------- documents
    def path_of(self, uri: str) -> Path:
        return Path(to_fs_path(uri) or uri).resolve()

    def text_of(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source

    def unsaved(self, but: str) -> dict[Path, str]:
        """Every other open document's text (a mission's rule set open in another tab is read from there)."""
        out: dict[Path, str] = {}
        for uri, doc in self.workspace.text_documents.items():
            if uri != but and uri.startswith("file:"):
                out[self.path_of(uri)] = doc.source
        return out

    async def in_worker(self, uri: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn`` in an answering thread (hover, completion, definition: never queued behind a check). A
        document's requests take one thread at a time (those of a big document wait their turn, the editor may
        cancel them meanwhile), so other documents always find one free."""
        lane = self.lanes.setdefault(uri, asyncio.Lock())
        async with lane:
            return await asyncio.get_running_loop().run_in_executor(self.answers, fn, *args)

    def refused(self, text: str) -> None:
        """A message the server did not read (from the reading thread): said on stderr and to the editor."""
        log.error("%s", text)
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.window_show_message, types.ShowMessageParams(
                type=types.MessageType.Error, message=f"crewkit: {text}"))

    # ------------------------------------------------------------------------------------- diagnostics
    async def check_later(self, uri: str, version: int) -> None:
        """Check ``uri`` once the changes pause; the latest version only, one check at a time per document."""
        self.versions[uri] = version
        await asyncio.sleep(DEBOUNCE_SECONDS)
        if self.versions.get(uri) != version:
            return  # changed again meanwhile: that change checks the newer text
        if uri in self.checking:
            return  # the running check checks the latest version when it ends
        self.checking.add(uri)
        try:
            await self._check_latest(uri)
        finally:
            self.checking.discard(uri)

    async def _check_latest(self, uri: str) -> None:
        while True:
            version = self.versions.get(uri)
            if version is None:
                return  # closed
            path, text, others = self.path_of(uri), self.text_of(uri), self.unsaved(uri)
            self._log(f"checking {path.name} (version {version}, {len(text)} characters)")
            started = time.perf_counter()
            found, context = await asyncio.get_running_loop().run_in_executor(
                self.checks, safe_check, path, text, others)
            if context is not None:
                self.contexts[uri] = context
            latest = self.versions.get(uri)
            self._log(f"checked {path.name} (version {version}) in {time.perf_counter() - started:.2f} s"
                      + ("" if latest == version else ": outdated, not published"))
            if latest == version:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=uri, version=version, diagnostics=[diagnostic(p) for p in found]))
                return
            while True:  # changed while it was checked: the latest text, once the changes pause
                seen = self.versions.get(uri)
                await asyncio.sleep(DEBOUNCE_SECONDS)
                if self.versions.get(uri) == seen:
                    break

    def _log(self, text: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=f"crewkit: {text}"))


def safe_problems(path: Path, text: str, others: dict[Path, str]) -> list[analysis.Problem]:
    """:func:`analysis.problems`, and a crewkit bug as one problem instead of a dead server."""
    try:
        return analysis.problems(path, text, others)
    except Exception as exc:  # noqa: BLE001 - any failure of a check must reach the editor, not end the server
        log.error("checking %s failed:\n%s", path, traceback.format_exc())
        return [analysis.Problem(0, 0, 0, 1, f"crewkit could not check this file (internal error, please report "
                                             f"it): {type(exc).__name__}: {exc}")]


def safe_check(path: Path, text: str, others: dict[Path, str]) -> tuple[list[analysis.Problem],
                                                                         analysis.Context | None]:
    """A document's problems and its completions' context, in one check thread."""
    return safe_problems(path, text, others), safe_context(path, text, others)


def safe_context(path: Path, text: str, others: dict[Path, str]) -> analysis.Context | None:
    try:
        return analysis.context_of(path, text, others)
    except Exception:  # noqa: BLE001 - completion falls back on the last context that could be read
        log.error("reading %s failed:\n%s", path, traceback.format_exc())
        return None


def diagnostic(p: analysis.Problem) -> types.Diagnostic:
    severity = types.DiagnosticSeverity.Warning if p.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=p.line, character=p.character),
                          end=types.Position(line=p.end_line, character=max(p.end_character, p.character + 1))),
        message=p.message, severity=severity, source="crewkit")


def build() -> CrewkitServer:
    server = CrewkitServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: CrewkitServer, params: types.InitializedParams) -> None:
        ls.loop = asyncio.get_running_loop()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: CrewkitServer, params: types.DidOpenTextDocumentParams) -> None:
        await ls.check_later(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: CrewkitServer, params: types.DidChangeTextDocumentParams) -> None:
        await ls.check_later(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: CrewkitServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        await ls.check_later(uri, ls.versions.get(uri, 0))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CrewkitServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.versions.pop(uri, None)
        ls.contexts.pop(uri, None)
        lane = ls.lanes.get(uri)
        if lane is not None and not lane.locked():
            del ls.lanes[uri]
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CrewkitServer, params: types.HoverParams) -> types.Hover | None:
        uri, pos = params.text_document.uri, params.position
        context = ls.contexts.get(uri)
        roles = context.roles if context is not None else []
        text = await ls.in_worker(uri, _guard(analysis.hover, None), ls.path_of(uri), ls.text_of(uri), pos.line,
                                  pos.character, roles)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", "(", " ", "[", ","]))
    async def completion(ls: CrewkitServer, params: types.CompletionParams) -> types.CompletionList:
        uri, pos = params.text_document.uri, params.position
        text = ls.text_of(uri)
        context = ls.contexts.get(uri)
        nothing: list[analysis.Item] = []
        items = await ls.in_worker(uri, _guard(analysis.completions, nothing), ls.path_of(uri), text, pos.line,
                                   pos.character, context)
        lines = text.splitlines()
        line = lines[pos.line] if pos.line < len(lines) else ""
        start = analysis.replace_start(line, min(pos.character, len(line)), context)
        edit_range = types.Range(start=types.Position(line=pos.line, character=start), end=pos)
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(
                label=item.label, kind=_KINDS.get(item.kind, types.CompletionItemKind.Text), detail=item.detail,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=item.doc) if item.doc
                else None,
                text_edit=types.TextEdit(range=edit_range, new_text=item.insert or item.label),
                filter_text=item.label)
            for item in items])

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: CrewkitServer, params: types.DefinitionParams) -> types.Location | None:
        uri, pos = params.text_document.uri, params.position
        target = await ls.in_worker(uri, _guard(analysis.definition, None), ls.path_of(uri), ls.text_of(uri),
                                    pos.line, pos.character)
        if target is None:
            return None
        start = types.Position(line=0, character=0)
        return types.Location(uri=Path(target).resolve().as_uri(), range=types.Range(start=start, end=start))

    return server


def _guard(fn: Callable[..., T], fallback: T) -> Callable[..., T]:
    """``fn``, answering ``fallback`` (and logging) when a crewkit bug makes it fail on some text."""

    def run(*args: Any) -> T:
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - an editor request must get an answer, never end the server
            log.error("%s failed:\n%s", fn.__name__, traceback.format_exc())
            return fallback

    return run


def main() -> None:
    """Serve over stdio until the editor says exit. Ctrl-C stops the server quietly and is passed on (exit 130,
    as every command): pygls swallows the KeyboardInterrupt, so the handler notes it."""
    interrupted = False

    def on_interrupt(signum: int, frame: Any) -> None:
        nonlocal interrupted
        interrupted = True
        signal.default_int_handler(signum, frame)

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        server = build()
        server.start_io(stdin=LimitedInput(sys.stdin.buffer, server.refused))  # type: ignore[arg-type]
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt


_LENGTH = re.compile(rb"Content-Length: *(\d+)\r?\n", re.IGNORECASE)
_NEXT = re.compile(rb"Content-Length: *\d+\r\n")  # cannot occur inside a JSON body (a CR there is escaped)


class LimitedInput:
    """The editor's input as pygls reads it (``readline``, then ``read`` of the length a header gave): a
    ``Content-Length`` over :data:`MAX_MESSAGE` (or a header line over :data:`MAX_HEADER`) is refused before
    anything is allocated for it, its bytes are skipped up to the next message's header, and pygls is given a
    header line it ignores in its place: the server reads on."""

    def __init__(self, raw: BinaryIO, refused: Callable[[str], None]) -> None:
        self._raw = raw
        self._refused = refused
        self._ahead = b""  # read past a refused message: the next message's start

    def readline(self, size: int = -1) -> bytes:
        line = self._line()
        found = _LENGTH.fullmatch(line)
        if len(line) >= MAX_HEADER and not line.endswith(b"\n"):
            self._refused(f"a message header line over {MAX_HEADER} bytes was refused unread")
        elif found and (len(found.group(1)) > 15 or int(found.group(1)) > MAX_MESSAGE):
            digits = found.group(1).decode()
            self._refused(f"a message of {digits if len(digits) <= 30 else digits[:30] + '...'} bytes "
                          f"(Content-Length) was refused unread: the limit is {MAX_MESSAGE} bytes")
        else:
            return line
        self._skip()
        return b"X-Crewkit-Refused: 1\r\n"  # no Content-Length: pygls reads on to the next header

    def read(self, size: int = -1) -> bytes:
        if self._ahead:
            data, self._ahead = self._ahead[:size], self._ahead[size:]
            return data + (self._raw.read(size - len(data)) if len(data) < size else b"")
        return self._raw.read(size)

    def _line(self) -> bytes:
        if self._ahead:
            end = self._ahead.find(b"\n")
            if end >= 0:
                line, self._ahead = self._ahead[: end + 1], self._ahead[end + 1:]
                return line
            line, self._ahead = self._ahead, b""
            return line + self._raw.readline(max(1, MAX_HEADER - len(line)))
        return self._raw.readline(MAX_HEADER)

    def _skip(self) -> None:
        """Drop input up to the next ``Content-Length`` header (kept for the next read), or the end."""
        kept = self._ahead
        self._ahead = b""
        while True:
            found = _NEXT.search(kept)
            if found:
                self._ahead = kept[found.start():]
                return
            chunk = self._raw.read1(65536) if hasattr(self._raw, "read1") else self._raw.read(65536)
            if not chunk:
                return
            kept = kept[-40:] + chunk
