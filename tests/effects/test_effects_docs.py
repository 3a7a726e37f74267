"""docs/effects.md is generated from the effect word table and names every word."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.cli import main
from crewkit.effects.docs import generate
from crewkit.effects.words import WORDS

ROOT = Path(__file__).resolve().parents[2]


def test_docs_file_matches_generated_text() -> None:
    on_disk = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    assert on_disk == generate(), "docs/effects.md is stale: run `python -m crewkit.effects.docs > docs/effects.md`"


def test_docs_mention_every_word_with_its_example() -> None:
    text = generate()
    for word in WORDS.values():
        assert f"| `{word.name}` |" in text and word.example in text


def test_docs_module_and_cli_print_it(capsys: pytest.CaptureFixture[str]) -> None:
    out = subprocess.run([sys.executable, "-m", "crewkit.effects.docs"], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    assert out == generate()
    assert main(["docs", "effects"]) == 0
    assert capsys.readouterr().out == generate()
