"""Every file of the broken corpus fails `crewkit validate` with exit 1, a positioned message and no traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "broken"
FILES = sorted(BROKEN.glob("*.yaml"))
POSITION = re.compile(r"^\S+:\d+:\d+: error: ", re.M)


def header_value(path: Path, key: str) -> str | None:
    for raw in path.read_bytes().splitlines()[:5]:
        line = raw.decode("utf-8", errors="replace")
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    return None


def expected_fragment(path: Path) -> str:
    found = header_value(path, "expect")
    if found is None:
        raise AssertionError(f"{path.name} has no '# expect:' line")
    return found


def test_corpus_has_at_least_40_files() -> None:
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_validate_refuses_broken_file(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", str(path)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 1, text
    assert expected_fragment(path) in text
    assert POSITION.search(text), f"no file:line:column in {text!r}"
    at = header_value(path, "at")  # optional '# at: LINE:COLUMN' of the expected message
    if at is not None:
        assert re.search(rf"^\S+:{re.escape(at)}: error: .*{re.escape(expected_fragment(path))}", text, re.M), text
    assert "Traceback" not in text and "internal error" not in text


def test_whole_corpus_in_one_process_without_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "crewkit", "validate", str(BROKEN)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert f"{len(FILES)} files checked: {len(FILES)} invalid" in proc.stdout
