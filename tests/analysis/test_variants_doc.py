"""docs/variants.md is generated from the rule sets and must not drift from them."""

from __future__ import annotations

from pathlib import Path

from crewkit.analysis.variants_doc import generate_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "variants.md"


def test_variants_doc_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == generate_markdown(), (
        "docs/variants.md is stale: run `python -m crewkit.analysis.variants_doc > docs/variants.md`"
    )


def test_variants_doc_lists_differences_and_readings() -> None:
    text = generate_markdown()
    assert "| `deal.hold_out` | added | – | rocket 4 |" in text  # JARVIS
    assert "`challenge-rocket-1=remove-rocket-1`" in text
    assert "`signal-who=everyone-once`" in text
    assert "`hidden-payment=replaces`" in text
