"""docs/dsl.md is generated from the vocabulary table; importing the package stays cheap."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from crewkit.dsl.docs import generate
from crewkit.dsl.vocabulary import FIELDS, FUNCTIONS, NAMES, QUANTIFIERS

ROOT = Path(__file__).resolve().parents[2]


def test_docs_file_matches_generated_text() -> None:
    on_disk = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    assert on_disk == generate(), "docs/dsl.md is stale: run `python -m crewkit.dsl.docs > docs/dsl.md`"


def test_docs_mention_every_word() -> None:
    text = generate()
    for name in [*NAMES, *FUNCTIONS, *(q.name for q in QUANTIFIERS)]:
        assert f"`{name}" in text
    for table in FIELDS.values():
        for word in table.values():
            assert word.signature in text


def test_docs_module_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "crewkit.dsl.docs"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    assert out == generate()


def test_import_is_cheap() -> None:
    code = (
        "import sys, crewkit.dsl; "
        "heavy = [m for m in ('lark', 'textual', 'jsonschema', 'yaml') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
