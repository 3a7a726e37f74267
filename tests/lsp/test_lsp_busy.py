"""``crewkit lsp`` while a big mission is being checked (a real server subprocess, pytest-lsp's client): a hover
and another file's diagnostics are answered before that check ends, and of a burst of changes made during a
check only the latest version is checked after it. The order of events is what is checked, never a duration:
the server logs each check's start and end to the editor (window/logMessage)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
EVENTS: list[tuple[str, str, int]] = []  # (what, file name, version): "checking", "checked", "published", "hover"

SMALL = """\
number: 1
title: Quiet skies
rulesets: [crew]
tasks: {count: 2, tokens: ["1", "2"], fixed: [pink 1]}
conditions:
  - id: quiet-start
    fail_if: "tricks_won(commander) > 2"
"""


def big(version: int, conditions: int = 3000) -> str:
    """A valid mission of a few hundred kilobytes (its check takes seconds); ``version`` changes its text."""
    return SMALL.replace("Quiet skies", f"Quiet skies {version}") + "".join(
        f"  - id: c{i}\n    fail_if: \"any(t in tricks: t.number <= {i % 9 + 1} and is_trump(t.winning_card)) "
        f"or tricks_won(commander) > {i}\"\n" for i in range(conditions))


def _client() -> LanguageClient:
    from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

    def published(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        EVENTS.append(("published", Path(params.uri).name, params.version or 0))

    def logged(client: LanguageClient, params: types.LogMessageParams) -> None:
        client.log_messages.append(params)
        found = re.match(r"crewkit: (checking|checked) (\S+) \(version (\d+)", params.message)
        if found:
            EVENTS.append((found.group(1), found.group(2), int(found.group(3))))

    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: published,
                                   types.WINDOW_LOG_MESSAGE: logged})
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "crewkit", "lsp"],
                                              client_factory=_client))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    EVENTS.clear()
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def until(event: tuple[str, str, int], seconds: float = 120) -> int:
    """Wait for ``event`` (a safety net of ``seconds``, not a bound checked); its index in EVENTS."""
    for _ in range(int(seconds / 0.02)):
        if event in EVENTS:
            return EVENTS.index(event)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {event} in {EVENTS}")


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)))
    return uri


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_a_hover_and_another_files_diagnostics_are_answered_while_a_big_mission_is_checked(
        client: LanguageClient, tmp_path: Path) -> None:
    small = open_doc(client, tmp_path / "small.yaml", SMALL)
    await until(("published", "small.yaml", 1))
    open_doc(client, tmp_path / "big.yaml", big(1))
    await until(("checking", "big.yaml", 1))
    answer = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=small), position=types.Position(line=6, character=15)))
    EVENTS.append(("hover", "small.yaml", 1))
    assert answer is not None and "tricks_won" in str(answer.contents)
    open_doc(client, tmp_path / "other.yaml", SMALL.replace("> 2", "> 3"))
    other = await until(("published", "other.yaml", 1))
    checked = await until(("checked", "big.yaml", 1))
    assert EVENTS.index(("hover", "small.yaml", 1)) < checked, EVENTS
    assert other < checked, EVENTS
    await until(("published", "big.yaml", 1))


async def test_of_changes_made_during_a_check_only_the_latest_is_checked(client: LanguageClient,
                                                                       tmp_path: Path) -> None:
    uri = open_doc(client, tmp_path / "big.yaml", big(1))
    await until(("checking", "big.yaml", 1))
    version = 1
    while ("checked", "big.yaml", 1) not in EVENTS and version < 6:
        version += 1
        change(client, uri, version, big(version))  # a full-text change, each after the server's pause
        await asyncio.sleep(0.2)
    await until(("published", "big.yaml", version))
    checks = [v for what, name, v in EVENTS if what == "checking" and name == "big.yaml"]
    assert version >= 3, f"the first check ended too soon to tell ({EVENTS})"  # two changes or more during it
    assert checks == [1, version], EVENTS  # the versions in between never checked
    assert [v for what, _, v in EVENTS if what == "published"] == [version]  # nothing outdated published


async def test_requests_piling_up_on_a_big_document_leave_other_documents_answered(client: LanguageClient,
                                                                                  tmp_path: Path) -> None:
    small = open_doc(client, tmp_path / "small.yaml", SMALL)
    await until(("published", "small.yaml", 1))
    text = big(1)
    uri = open_doc(client, tmp_path / "big.yaml", text)
    at = text.index("is_trump")
    position = types.Position(line=text.count("\n", 0, at), character=at - text.rfind("\n", 0, at))

    async def hover(uri: str, position: types.Position, name: str) -> None:
        answer = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position))
        assert answer is not None
        EVENTS.append(("hover", name, 0))

    # an editor hovering and completing in a big file: each answer reads the whole file (about a second)
    piled = [asyncio.create_task(hover(uri, position, "big.yaml")) for _ in range(6)]
    await asyncio.sleep(0)
    await hover(small, types.Position(line=6, character=15), "small.yaml")
    await asyncio.gather(*piled)
    hovers = [name for what, name, _ in EVENTS if what == "hover"]
    # the big file's answers take turns (one at a time on their document); the small one's does not wait for all of
    # them (how many come first is the machine's speed: on an idle machine a big file's hover may take milliseconds)
    assert hovers.index("small.yaml") < len(hovers) - 1, EVENTS
