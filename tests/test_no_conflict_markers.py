"""No file of the project keeps a merge's conflict markers (a merge once committed them into a doc unseen)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)


def test_no_tracked_file_has_conflict_markers() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    paths = [ROOT / p for p in listed.stdout.splitlines()] if listed.returncode == 0 else [
        p for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts and ".git" not in p.parts]
    found = []
    for path in paths:
        if path.suffix not in {".py", ".md", ".yaml", ".yml", ".toml", ".json", ".lark", ".c", ".h", ".txt", ""}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for m in MARKER.finditer(text):
            found.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}")
    assert not found, f"merge conflict markers left in: {found}"
