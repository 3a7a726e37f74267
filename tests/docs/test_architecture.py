"""docs/architecture.md's walk-through "add a kind of rule" runs: its package is installed, its rule set plays."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
FILES = dict(re.findall(r"```(?:python|yaml|ini) file=(\S+)\n(.*?)```", DOC, re.S))
RUN = re.findall(r"```python run\n(.*?)```", DOC, re.S)
OUTPUT = re.findall(r"```text output\n(.*?)```", DOC, re.S)


def test_the_walk_through_has_its_parts() -> None:
    assert set(FILES) == {"crewkit_passing.py", "entry_points.txt", "crew-passing.yaml"}
    assert len(RUN) == 1 and len(OUTPUT) == 1


def _install(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "crewkit_passing.py").write_text(FILES["crewkit_passing.py"], encoding="utf-8")
    info = site / "crewkit_passing-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: crewkit-passing\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(FILES["entry_points.txt"], encoding="utf-8")
    (tmp_path / "crew-passing.yaml").write_text(FILES["crew-passing.yaml"], encoding="utf-8")
    return site


def _run(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    site = _install(tmp_path)
    env = {"PYTHONPATH": f"{site}:{ROOT}", "PATH": "/usr/bin:/bin", "CREWKIT_HOME": str(tmp_path / "home")}
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_walk_through_runs_and_prints_what_it_says(tmp_path: Path) -> None:
    result = _run(tmp_path, RUN[0])
    assert result.returncode == 0, result.stderr
    assert result.stdout == OUTPUT[0]


def test_a_misspelt_phase_is_refused_with_its_position(tmp_path: Path) -> None:
    _install(tmp_path)
    bad = tmp_path / "crew-passing.yaml"
    bad.write_text(FILES["crew-passing.yaml"].replace("passing, tricks", "pasing, tricks"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "crewkit", "validate", str(bad)], cwd=tmp_path,
                            env={"PYTHONPATH": f"{tmp_path / 'site'}:{ROOT}", "PATH": "/usr/bin:/bin",
                                 "CREWKIT_HOME": str(tmp_path / "home")},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "crew-passing.yaml:6:" in result.stdout + result.stderr
    assert "there is no building block 'pasing'" in result.stdout + result.stderr
