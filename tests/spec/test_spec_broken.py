"""The broken-file corpus (tests/broken/): every file fails with the expected message at a position.

Each file starts with ``# expect: <message fragment>`` and ``# kind: ruleset|mission|campaign``. Files for
the later, semantic layers add ``# layer: semantic``; those need the whole loader and are checked through
``crewkit validate`` in tests/cli/test_broken_corpus.py, this file checks the others at the spec layer.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from crewkit.spec.errors import SpecError, SpecIssue, render_issue
from crewkit.spec.schema import Kind, validate_document
from crewkit.spec.yamlio import MAX_BYTES, load_yaml_file
from tests.speed import scaled

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "broken"
FILES = sorted(BROKEN.glob("*.yaml"))
_HEADER = re.compile(rb"^#\s*(\w+):\s*(.*?)\s*$")


def header(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for raw in path.read_bytes().splitlines()[:5]:
        m = _HEADER.match(raw)
        if not m:
            break
        out[m.group(1).decode()] = m.group(2).decode("utf-8", errors="replace")
    return out


def run(path: Path, kind: Kind) -> tuple[list[SpecIssue], list[str] | None]:
    try:
        doc = load_yaml_file(path, path.name)
    except SpecError as exc:
        lines = list(exc.source_lines) if exc.source_lines is not None else None
        return exc.issues, lines
    return validate_document(doc, kind), doc.lines


def test_corpus_is_large_enough() -> None:
    assert len(FILES) >= 30


SPEC_LAYER = [p for p in FILES if header(p).get("layer", "spec") == "spec"]


def test_every_file_has_its_header() -> None:
    for path in FILES:
        meta = header(path)
        assert "expect" in meta and "kind" in meta, f"{path.name}: needs '# expect:' and '# kind:' lines"
        assert meta.get("layer", "spec") in ("spec", "semantic"), f"{path.name}: unknown layer {meta['layer']!r}"
    assert len(SPEC_LAYER) >= 20


@pytest.mark.parametrize("path", SPEC_LAYER, ids=[p.name for p in SPEC_LAYER])
def test_broken_file(path: Path) -> None:
    meta = header(path)
    kind = meta["kind"]
    assert kind in ("ruleset", "mission", "campaign")
    bound = scaled(2.0)  # the machine's speed now
    start = time.perf_counter()
    found, lines = run(path, kind)  # type: ignore[arg-type]
    assert time.perf_counter() - start < bound
    assert found, f"{path.name}: expected an error, found none"
    rendered = "\n".join(render_issue(i, lines) for i in found)
    assert meta["expect"] in rendered, rendered
    assert re.search(rf"^{re.escape(path.name)}:\d+:\d+: error: ", rendered, re.M), rendered
    assert all(i.line >= 1 and i.column >= 1 for i in found)


def test_huge_file_generated_at_test_time(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w", encoding="utf-8") as fh:
        fh.write("# kind: ruleset\nname: huge\nplayers:\n")
        while fh.tell() <= MAX_BYTES:
            fh.write("  - 4\n" * 10_000)
    found, _ = run(path, "ruleset")
    assert "files over 1 MiB are refused" in found[0].message
    assert (found[0].line, found[0].column) == (1, 1)
