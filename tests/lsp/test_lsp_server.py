"""``crewkit lsp`` end to end: a real server subprocess, spoken to over LSP by pytest-lsp's client.

The documents live only in the editor (their paths do not exist on disk): every answer comes from the text
sent with didOpen/didChange.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED: dict[str, tuple[int | None, list[types.Diagnostic]]] = {}

MISSION = """\
# yaml-language-server: $schema=https://crewkit.dev/schemas/mission.schema.json
number: 1
title: Quiet skies
rulesets: [crew]
tasks: {count: 2, tokens: ["1", "2"], fixed: [pink 1]}
symbols: {dead_zone: false}
setup:
  - choose_player: {role: sick, by: commander, exclude: [commander]}
conditions:
  - id: quiet-start
    fail_if: "any(t in tricks: t.number <= 2 and is_trump(t.winning_card)) or tricks_won(sick) > 0"
"""


def _recording_client() -> LanguageClient:
    """pytest-lsp's client, also keeping the version each set of diagnostics was published for."""
    from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

    def published(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        PUBLISHED[params.uri] = (params.version, list(params.diagnostics))

    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: published})
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "crewkit", "lsp"],
                                              client_factory=_recording_client))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def where(text: str, needle: str, shift: int = 0) -> types.Position:
    """The 0-based position of ``needle`` (plus ``shift`` characters) in ``text``."""
    index = text.index(needle) + shift
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


async def diagnostics_for(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics the server publishes for ``version`` of the document (waits up to 30 s)."""
    for _ in range(600):
        found = PUBLISHED.get(uri)
        if found is not None and found[0] == version:
            return found[1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics for version {version} of {uri}: {PUBLISHED.get(uri)}")


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)))
    return uri


def change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_diagnostics_as_typed_from_the_editor_text(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "quiet-skies.yaml"  # never written: the server reads the editor's text
    uri = open_doc(client, path, MISSION)
    assert await diagnostics_for(client, uri, 1) == []
    typo = MISSION.replace("tricks_won(sick)", "tricks_wn(sick)")
    change(client, uri, typo, 2)
    found = await diagnostics_for(client, uri, 2)
    assert len(found) == 1
    d = found[0]
    assert "unknown function `tricks_wn`; did you mean `tricks_won`?" in d.message
    assert d.range.start == where(typo, "tricks_wn")  # the position of the word in the file
    assert d.severity == types.DiagnosticSeverity.Error and d.source == "crewkit"
    bad_card = MISSION.replace("fixed: [pink 1]", "fixed: [pink 11]")
    change(client, uri, bad_card, 3)
    found = await diagnostics_for(client, uri, 3)
    assert [d.range.start.line for d in found] == [where(bad_card, "pink 11").line]
    assert "pink has no card '11'" in found[0].message
    change(client, uri, MISSION, 4)
    assert await diagnostics_for(client, uri, 4) == []


async def test_the_same_diagnostics_as_validate(client: LanguageClient, tmp_path: Path) -> None:
    """A file with several problems: the server's messages and positions are crewkit validate's."""
    from crewkit.spec.files import check_file

    text = MISSION.replace("tricks_won(sick)", "tricks_wn(sick)").replace("[pink 1]", "[pink 11]")
    on_disk = tmp_path / "on-disk.yaml"
    on_disk.write_text(text)
    expected = [(i.line - 1, i.column - 1, i.message) for i in check_file(on_disk)]
    assert len(expected) >= 2
    uri = open_doc(client, tmp_path / "in-editor.yaml", text)
    found = await diagnostics_for(client, uri, 1)
    assert [(d.range.start.line, d.range.start.character, d.message) for d in found] == expected


#: hostile or half-typed texts, each with words its diagnostics must contain (the refusal said, not only an answer)
HOSTILE: list[tuple[str, str | None]] = [
    ("", "the file is empty"),
    ("\t- a", "tab"),
    ("a: [" * 3000, "nest"),
    ("a: &a [*a]", "alias"),
    ("x: &a [1,1,1,1,1,1,1,1,1,1]\ny: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nz: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
     "w: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\nv: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n", "too many aliases"),
    ("number: 1\nrulesets: [crew]\ntasks: {count: 1}\nconditions:\n  - id: x\n    fail_if: \"" + "(" * 500 + "\"\n",
     None),
    ("number: 1\nrulesets: [crew]\ntasks: {count: 1}\nconditions:\n  - id: x\n    fail_if: \"9" + "9" * 5000 + " > 1\"\n",
     None),
    ("number: 1\nrulesets: [../../../../etc/passwd]\ntasks: {count: 1}\n", "found '../../../../etc/passwd'"),
    ("number: 1\nrulesets: [crew]\nextends: /dev/zero\ntasks: {count: 1}\n", "'/dev/zero' is outside the folder"),
    ("!!python/object/apply:os.system ['echo hi']\n", "unsupported tag 'tag:yaml.org,2002:python/object/apply"),
    ("number: 1\ntitle: !!python/object/apply:os.system ['echo hi']\nrulesets: [crew]\ntasks: {count: 1}\n",
     "unsupported tag 'tag:yaml.org,2002:python/object/apply"),
    ("number: 1\nrulesets: [crew]\ntasks: {count: 1}\nconditions:\n  - id: x\n    fail_if: \"any(t in tr", None),
    ("\x00\x01\x02 binary \udcff", None),
]


async def test_hostile_and_half_typed_files_become_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    for i, (text, says) in enumerate(HOSTILE):
        path = tmp_path / f"hostile-{i}.yaml"
        uri = open_doc(client, path, text)
        found = await diagnostics_for(client, uri, 1)  # an answer (errors, or none for a text that is fine)
        if says is not None:  # the reason it is refused, in words
            assert any(says.lower() in d.message.lower() for d in found), (text[:80], [d.message for d in found])
        # and the server still answers requests on that text
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=1)))
        await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    uri = open_doc(client, tmp_path / "after.yaml", MISSION.replace("tricks_won(sick)", "tricks_wn(sick)"))
    assert len(await diagnostics_for(client, uri, 1)) == 1  # still alive, still right


async def test_hover_documents_dsl_words(client: LanguageClient, tmp_path: Path) -> None:
    uri = open_doc(client, tmp_path / "m.yaml", MISSION)
    await diagnostics_for(client, uri, 1)

    async def hover_at(needle: str, shift: int = 1) -> str | None:
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=where(MISSION, needle, shift)))
        if result is None:
            return None
        assert isinstance(result.contents, types.MarkupContent)
        return result.contents.value

    won = await hover_at("tricks_won")
    assert won is not None and "tricks_won(p: player) -> int" in won and "How many tricks the player has won" in won
    field = await hover_at("winning_card")
    assert field is not None and "trick.winning_card -> card" in field
    quant = await hover_at("any(")
    assert quant is not None and "any(x in LIST: condition) -> bool" in quant
    role = await hover_at("sick) > 0")
    assert role is not None and "the player chosen as sick" in role
    assert await hover_at("Quiet skies") is None  # not a condition


async def test_completion(client: LanguageClient, tmp_path: Path) -> None:
    uri = open_doc(client, tmp_path / "m.yaml", MISSION)
    await diagnostics_for(client, uri, 1)

    async def labels(text: str, needle: str, shift: int, version: int) -> set[str]:
        change(client, uri, text, version)
        result = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=where(text, needle, shift)))
        assert isinstance(result, types.CompletionList)
        return {item.label for item in result.items}

    # DSL words, roles and cards inside a condition (the text is half typed: it does not parse)
    half = MISSION.replace("or tricks_won(sick) > 0\"", "or tri")
    found = await labels(half, "or tri", 6, 2)
    assert {"tricks_won", "tricks", "any", "sick", "pink 9", "rocket 4", "rocket"} <= found
    dotted = MISSION.replace("is_trump(t.winning_card)", "is_trump(t.wi")
    assert {"winning_card", "winner", "rank"} <= await labels(dotted, "t.wi", 4, 3)
    cards = MISSION.replace("fixed: [pink 1]", "fixed: [pink 1, ")
    found = await labels(cards, "pink 1, ", 8, 4)
    assert {"pink 1", "blue 9", "rocket 4"} <= found and "tricks_won" not in found
    tokens = MISSION.replace('tokens: ["1", "2"]', 'tokens: ["1", ')
    assert {"1", "omega", ">>"} <= await labels(tokens, 'tokens: ["1", ', 14, 5)
    symbols = MISSION.replace("symbols: {dead_zone: false}", "symbols:\n  ")
    assert {"dead_zone", "disruption", "gold_frame"} <= await labels(symbols, "symbols:\n  ", 11, 6)
    roles = MISSION.replace("exclude: [commander]", "exclude: [")
    assert {"sick", "commander"} <= await labels(roles, "exclude: [", 10, 7)


async def test_go_to_the_rule_set_named(client: LanguageClient, tmp_path: Path) -> None:
    variant = "name: my-variant\nextends: crew\nplayers: [3, 4]\n"
    uri = open_doc(client, tmp_path / "my-variant.yaml", variant)
    await diagnostics_for(client, uri, 1)
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=where(variant, "crew", 2)))
    assert isinstance(result, types.Location)
    assert Path(result.uri.removeprefix("file://")).resolve() == (ROOT / "rulesets" / "crew.yaml").resolve()
    mission = open_doc(client, tmp_path / "m.yaml", MISSION)
    await diagnostics_for(client, mission, 1)
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=mission), position=where(MISSION, "[crew]", 2)))
    assert isinstance(result, types.Location) and result.uri.endswith("/rulesets/crew.yaml")


async def test_an_unsaved_rule_set_is_read_from_the_editor(client: LanguageClient, tmp_path: Path) -> None:
    """A mission naming a rule set beside it that exists only in the editor is checked against that text."""
    base = (ROOT / "rulesets" / "crew.yaml").read_text().replace("name: crew\n", "name: local\n", 1)
    rs_uri = open_doc(client, tmp_path / "local.yaml", base)
    await diagnostics_for(client, rs_uri, 1)
    mission = MISSION.replace("rulesets: [crew]", "rulesets: [local]").replace("pink 1", "purple 1")
    m_uri = open_doc(client, tmp_path / "m.yaml", mission)
    found = await diagnostics_for(client, m_uri, 1)
    assert found and "purple 1" in found[0].message
    change(client, rs_uri, base.replace("pink", "purple"), 2)
    await diagnostics_for(client, rs_uri, 2)
    change(client, m_uri, mission + "\n", 2)
    found = await diagnostics_for(client, m_uri, 2)
    assert not [d for d in found if "purple 1" in d.message], [d.message for d in found]


def test_without_the_lsp_extra_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)  # as if pygls were not installed
    monkeypatch.delitem(sys.modules, "crewkit.lsp.server", raising=False)
    assert main(["lsp"]) == 2
    assert 'pip install "crewkit[lsp]"' in capsys.readouterr().err


def test_starting_the_server_loads_no_checks() -> None:
    """Start-up stays light: the YAML loader, Lark and jsonschema load at the first check, not before."""
    import subprocess

    code = ("import sys, crewkit.cli.core, crewkit.lsp.server; "
            "print(sorted(m for m in ('yaml', 'lark', 'jsonschema', 'textual') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
