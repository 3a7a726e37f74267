"""The language server: pygls 2 with lsprotocol's types, over stdio (``crewkit lsp``).

Diagnostics are published for every opened or changed document, from the editor's text (a short pause after
the last keystroke, the checks run in one worker thread so typing never waits). Hover, completion and
definition answer from :mod:`crewkit.lsp.analysis`. Nothing a file holds can stop the server: an error while
answering becomes a diagnostic or an empty answer, and is logged to the editor.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from crewkit import __version__
from crewkit.lsp import analysis

DEBOUNCE_SECONDS = 0.15
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
        self.checks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crewkit-check")
        self.versions: dict[str, int] = {}  # the latest version of each open document
        self.contexts: dict[str, analysis.Context] = {}  # the last context of each document that parsed

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

    async def in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.checks, fn, *args)

    # ------------------------------------------------------------------------------------- diagnostics
    async def check_later(self, uri: str, version: int) -> None:
        self.versions[uri] = version
        await asyncio.sleep(DEBOUNCE_SECONDS)
        if self.versions.get(uri) != version:
            return  # typed again meanwhile: that change checks the newer text
        path, text, others = self.path_of(uri), self.text_of(uri), self.unsaved(uri)
        found = await self.in_worker(safe_problems, path, text, others)
        context = await self.in_worker(safe_context, path, text, others)
        if context is not None:
            self.contexts[uri] = context
        if self.versions.get(uri) != version:
            return
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[diagnostic(p) for p in found]))


def safe_problems(path: Path, text: str, others: dict[Path, str]) -> list[analysis.Problem]:
    """:func:`analysis.problems`, and a crewkit bug as one problem instead of a dead server."""
    try:
        return analysis.problems(path, text, others)
    except Exception as exc:  # noqa: BLE001 - any failure of a check must reach the editor, not end the server
        log.error("checking %s failed:\n%s", path, traceback.format_exc())
        return [analysis.Problem(0, 0, 0, 1, f"crewkit could not check this file (internal error, please report "
                                             f"it): {type(exc).__name__}: {exc}")]


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
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CrewkitServer, params: types.HoverParams) -> types.Hover | None:
        uri, pos = params.text_document.uri, params.position
        context = ls.contexts.get(uri)
        roles = context.roles if context is not None else []
        text = await ls.in_worker(_guard(analysis.hover, None), ls.path_of(uri), ls.text_of(uri), pos.line,
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
        items = await ls.in_worker(_guard(analysis.completions, nothing), ls.path_of(uri), text, pos.line,
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
        target = await ls.in_worker(_guard(analysis.definition, None), ls.path_of(uri), ls.text_of(uri),
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
    """Serve over stdio until the editor says exit."""
    build().start_io()
