"""docs/architecture.md's walk-through "write a family" runs: its package is installed (a dist-info with its
entry point, as pip writes one), its game plays and replays, crewkit's commands read its rule set and records."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
FILES = dict(re.findall(r"```(?:python|yaml|ini) family-file=(\S+)\n(.*?)```", DOC, re.S))
RUN = re.findall(r"```python family-run\n(.*?)```", DOC, re.S)
OUTPUT = re.findall(r"```text family-output\n(.*?)```", DOC, re.S)


def test_the_walk_through_has_its_parts() -> None:
    assert set(FILES) == {"crewkit_highcard.py", "entry_points.txt", "highcard.yaml"}
    assert len(RUN) == 1 and len(OUTPUT) == 1


def _install(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "crewkit_highcard.py").write_text(FILES["crewkit_highcard.py"], encoding="utf-8")
    info = site / "crewkit_highcard-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: crewkit-highcard\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(FILES["entry_points.txt"], encoding="utf-8")
    (tmp_path / "highcard.yaml").write_text(FILES["highcard.yaml"], encoding="utf-8")
    return {"PYTHONPATH": f"{site}:{ROOT}", "PATH": "/usr/bin:/bin", "CREWKIT_HOME": str(tmp_path / "home")}


def _run(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_walk_through_runs_and_prints_what_it_says(tmp_path: Path) -> None:
    result = _run(tmp_path, _install(tmp_path), "-c", RUN[0])
    assert result.returncode == 0, result.stderr
    assert result.stdout == OUTPUT[0]


def test_crewkit_commands_run_the_walk_through_family(tmp_path: Path) -> None:
    env = _install(tmp_path)
    out = _run(tmp_path, env, "-m", "crewkit", "validate", "highcard.yaml")
    assert out.returncode == 0 and "all valid" in out.stdout, out.stdout + out.stderr
    (tmp_path / "bad.yaml").write_text(FILES["highcard.yaml"].replace("players: [2, 3, 4]", "players: [1]"),
                                       encoding="utf-8")
    out = _run(tmp_path, env, "-m", "crewkit", "validate", "bad.yaml")
    assert out.returncode == 1 and "bad.yaml:4:" in out.stdout, out.stdout + out.stderr
    out = _run(tmp_path, env, "-m", "crewkit", "simulate", "--ruleset", "highcard.yaml", "--players", "3",
               "--games", "20", "--records", "records")
    assert out.returncode == 0 and "cards     3.00 per game on average" in out.stdout, out.stdout + out.stderr
    record = sorted((tmp_path / "records").glob("*.json"))[0]
    assert json.loads(record.read_text(encoding="utf-8"))["family"] == "highcard"
    out = _run(tmp_path, env, "-m", "crewkit", "replay", str(record))
    assert out.returncode == 0 and " won: seat " in out.stdout, out.stdout + out.stderr
    # crewkit play (the family names no table) and solve (a trick-taking command), in one process
    out = _run(tmp_path, env, "-c", "from crewkit.cli import main; print(main(['play', '--ruleset', 'highcard.yaml', "
               "'--players', '3']), main(['solve', '--ruleset', 'highcard.yaml', '--players', '3', '--mission', "
               "'planet-nine/01']))")
    assert out.stdout == "2 1\n" and "Traceback" not in out.stderr, out.stdout + out.stderr
    assert "is a game of the highcard family, which offers no table at the terminal" in out.stderr
    assert ("highcard.yaml:2:1: error: at family: rule set 'highcard' is a game of the highcard family, not "
            "trick-taking: crewkit simulate, compare, replay and validate run it") in out.stderr  # no play: no table
