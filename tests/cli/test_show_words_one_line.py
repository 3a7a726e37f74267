"""``crewkit show mission deep-sea/27 --words`` says the one-line condition (the yellow 5 last) as one bullet, not
its two rules in generated words (issue 42, item 9)."""

from __future__ import annotations

import pytest

from crewkit.cli.core import main


def test_the_last_card_condition_is_one_bullet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "mission", "deep-sea/27", "--words"]) == 0
    out = capsys.readouterr().out
    section = out.split("Conditions:", 1)[1].split("\n\n", 1)[0]
    bullets = [line for line in section.splitlines() if line.strip().startswith("•")]
    assert len(bullets) == 1, section
    assert "the last card of the last trick" in bullets[0]
