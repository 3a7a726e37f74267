"""``crewkit validate RULESET`` of a Not Alone rule set whose card file is wrong: each error is shown under a
line of the file it is in (the card file), not under the rule set's line of the same number."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from crewkit.cli import main
from crewkit.spec import bundled


def test_a_card_file_error_shows_the_card_files_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rulesets = bundled.rulesets_dir()
    shutil.copy(rulesets / "not-alone.yaml", tmp_path / "not-alone.yaml")
    shutil.copytree(rulesets / "not-alone", tmp_path / "not-alone")
    places = tmp_path / "not-alone" / "places.yaml"
    lines = places.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("text:"))
    lines[at] = lines[at].replace("text:", "txet:", 1)
    places.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["validate", str(tmp_path / "not-alone.yaml")]) == 1
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if "unknown key 'txet'" in line)
    assert f"places.yaml:{at + 1}:" in head
    shown = out.splitlines()[out.splitlines().index(head) + 1]
    assert shown.endswith(lines[at]) and shown.strip().startswith(f"{at + 1} |"), shown
