"""What crewkit prints and writes when the input is someone else's (issue 12 items 5, 6, 8, 9)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.untrusted.harness import assert_refused, run_bounded

ESCAPES = "\\e]0;PWNED\\a\\e[2J"  # YAML double-quoted escapes: ESC ] 0 ; PWNED BEL ESC [ 2 J
HOSTILE_MISSION = f"""\
number: 5
title: "Sick {ESCAPES} bay"
rulesets: [crew]
tasks: {{count: 0, tokens: []}}
symbols: {{}}
setup:
  - choose_player: {{role: sick, by: commander, exclude: [commander]}}
conditions:
  - id: sick-wins-nothing
    fail_if: "tricks_won(sick) > 0"
    reason: "{ESCAPES} seat {{sick}}\\u202e"
"""


def _no_raw_controls(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, repr(text[:400])


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    path = tmp_path / "esc.yaml"
    path.write_text(HOSTILE_MISSION, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- item 5: escapes
def test_escape_controls_keeps_text_and_shows_controls() -> None:
    from crewkit.safetext import escape_controls

    assert escape_controls("a\x1b[2Jb\tc\nd") == "a\\x1b[2Jb\tc\nd"
    assert escape_controls("\r\x07\x9b\u202e\udc80") == "\\x0d\\x07\\x9b\\u202e\\udc80"
    assert escape_controls("Persian: ماموریت ✓") == "Persian: ماموریت ✓"


def test_simulate_prints_a_reason_escaped(hostile: Path) -> None:
    run = run_bounded("simulate", "--mission", str(hostile), "--games", "3", "--bot", "random", timeout=60)
    assert run.returncode == 0, run.output
    _no_raw_controls(run.output)
    assert "\\x1b]0;PWNED\\x07" in run.stdout  # the reason's control characters written out, never sent raw


def test_check_prints_a_reason_escaped(hostile: Path) -> None:
    # the random bot: a failed game, so that the reason (with its control characters) is printed
    run = run_bounded("check", str(hostile), "--games", "2", "--players", "4", "--no-solver", "--bot", "random",
                      timeout=60)
    assert run.returncode == 0, run.output
    _no_raw_controls(run.output)
    assert "PWNED" in run.stdout


def test_replay_prints_a_record_escaped(tmp_path: Path, hostile: Path) -> None:
    records = tmp_path / "records"
    run = run_bounded("simulate", "--mission", str(hostile), "--games", "1", "--bot", "random", "--records",
                      str(records), timeout=60)
    assert run.returncode == 0, run.output
    record = records / "game-00001.json"
    data = json.loads(record.read_text(encoding="utf-8"))
    data["seed"] = "\x1b]0;SEED\x07"
    record.write_text(json.dumps(data), encoding="utf-8")
    run = run_bounded("replay", str(record), cwd=tmp_path, timeout=60)  # the mission is in the working folder
    _no_raw_controls(run.output)
    assert "PWNED" in run.output


def test_validate_shows_a_raw_control_character_escaped(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_bytes(b"name: x\x1b]0;PWNED\x07\nextends: crew\n")
    run = run_bounded("validate", str(path), timeout=30)
    assert_refused(run, "is not allowed in YAML text", max_seconds=10)
    _no_raw_controls(run.output)


def test_a_usage_error_echoes_an_argument_escaped() -> None:
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--games", "\x1b[2Jx", timeout=30)
    assert run.returncode == 2
    _no_raw_controls(run.output)


# ---------------------------------------------------------------------------- item 6: files written
def test_records_folder_with_files_is_refused_unless_overwrite(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    mine = folder / "game-00001.json"
    mine.write_text("my own notes", encoding="utf-8")
    mine.chmod(0o600)
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--games", "2", "--records", str(folder), timeout=60)
    assert_refused(run, "the folder is not empty", max_seconds=15)
    assert "--overwrite" in run.output
    assert mine.read_text(encoding="utf-8") == "my own notes"
    assert sorted(p.name for p in folder.iterdir()) == ["game-00001.json"]
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--games", "2", "--records", str(folder),
                      "--overwrite", timeout=60)
    assert run.returncode == 0, run.output
    assert json.loads(mine.read_text(encoding="utf-8"))["mission"] == "planet-nine/01"


def test_records_into_a_new_folder(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "records"
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--games", "2", "--records", str(folder), timeout=60)
    assert run.returncode == 0, run.output
    assert sorted(p.name for p in folder.iterdir()) == ["game-00001.json", "game-00002.json"]


@pytest.mark.parametrize("seed", ["../../x", "/etc/x", "a/b", "..", "\x1b[2J", "x" * 300, ""])
def test_a_seed_never_becomes_a_path(tmp_path: Path, seed: str) -> None:
    from crewkit.games import open_game
    from crewkit.tui.services import Services

    services = Services(bot_factory=None, logbook=None, saves=None, home=lambda: tmp_path)  # type: ignore[arg-type]
    game = open_game("crew", "planet-nine/01", 4, seed)
    path = services.write_record(game.record(), "planet-nine/01", game.seed)
    assert path.parent == tmp_path / "records"
    assert path.is_file()
    assert len(path.name) < 120
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records"]
    second = services.write_record(game.record(), "planet-nine/01", game.seed)
    assert second != path and second.parent == path.parent  # never overwritten


def test_two_seeds_that_differ_only_in_unsafe_characters_get_two_names() -> None:
    from crewkit.tui.services import name_part

    assert name_part("a/b", "x") != name_part("a-b", "x")
    assert name_part("plain-seed_1", "x") == "plain-seed_1"


# ---------------------------------------------------------------------------- item 8: workers
def test_workers_are_capped_at_the_cpus_and_the_command_says_so() -> None:
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--games", "3", "--workers", "1000",
                      "--format", "json", timeout=60)
    assert run.returncode == 0, run.output
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    assert f"--workers 1000 lowered to {cpus}" in run.stderr
    assert json.loads(run.stdout)["workers"] <= cpus


def test_compare_workers_are_capped_too() -> None:
    run = run_bounded("compare", "--mission", "planet-nine/01", "--games", "2", "--workers", "500", "--no-solver",
                      "bot=random", timeout=60)
    assert run.returncode == 0, run.output
    assert "--workers 500 lowered to" in run.stderr


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the resident size from /proc")
def test_huge_game_count_with_workers_is_submitted_lazily() -> None:
    # every game used to be queued at once: 665 MB resident after 15 s here (3.8 GB in 60 s in the report);
    # submitted lazily, the main process stays small however many games are asked for
    import signal
    import subprocess
    import sys
    import time

    from tests.untrusted.harness import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "crewkit", "simulate", "--mission", "planet-nine/01", "--games",
                             "200000000", "--workers", "2", "--bot", "random"], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    try:
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and proc.poll() is None:
            status = Path(f"/proc/{proc.pid}/status").read_text(encoding="ascii")
            rss_kb = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
            peak = max(peak, rss_kb)
            time.sleep(0.2)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    assert peak < 150_000, f"the main process grew to {peak / 1024:.0f} MB"


def test_lazy_map_keeps_order_and_bounds_what_is_in_flight() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from crewkit.analysis.pool import IN_FLIGHT_PER_WORKER, lazy_map

    pulled = 0

    def items() -> object:
        nonlocal pulled
        for i in range(10_000):
            pulled += 1
            yield i

    with ThreadPoolExecutor(2) as pool:
        results = lazy_map(pool, abs, items(), workers=2, chunksize=3)
        first = next(results)
        assert first == (0, 0)
        assert pulled <= 3 * (2 * IN_FLIGHT_PER_WORKER + 1)
        rest = list(results)
    assert [i for i, _ in [first, *rest]] == list(range(10_000))


# ---------------------------------------------------------------------------- item 9
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "soon"])
def test_solve_timeout_must_be_a_finite_positive_number(value: str) -> None:
    run = run_bounded("solve", "--mission", "planet-nine/01", "--timeout", value, timeout=30)
    assert_refused(run, "--timeout", max_seconds=10, code=2)
    assert "seconds" in run.output


@pytest.mark.parametrize("value", ["nan", "inf", "-0.5", "3600"])
def test_play_delay_must_be_a_finite_pause(value: str) -> None:
    run = run_bounded("play", "--delay", value, timeout=30)
    assert_refused(run, "--delay", max_seconds=10, code=2)
    assert "seconds from 0 to 60" in run.output


def test_check_refuses_a_player_count_the_mission_does_not_allow() -> None:
    mission = Path(__file__).resolve().parents[2] / "missions" / "planet-nine" / "01-first-contact.yaml"
    if not mission.is_file():
        mission = sorted((mission.parent).glob("01-*.yaml"))[0]
    run = run_bounded("check", str(mission), "--players", "99", "--games", "1", timeout=30)
    assert_refused(run, "99 players cannot play this mission", max_seconds=10)


def test_a_deep_extends_chain_is_not_called_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "r0.yaml").write_text("name: r0\nextends: crew\n", encoding="utf-8")
    for i in range(1, 20):
        (tmp_path / f"r{i}.yaml").write_text(f"name: r{i}\nextends: ./r{i - 1}.yaml\n", encoding="utf-8")
    run = run_bounded("validate", str(tmp_path / "r19.yaml"), timeout=30)
    assert_refused(run, "chain is too deep", max_seconds=10)
    assert "cycle" not in run.output
    run = run_bounded("validate", str(tmp_path / "r10.yaml"), timeout=30)
    assert run.returncode == 0, run.output


def test_a_real_cycle_is_still_called_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("name: a\nextends: ./b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: b\nextends: ./a.yaml\n", encoding="utf-8")
    run = run_bounded("validate", str(tmp_path / "a.yaml"), timeout=30)
    assert_refused(run, "goes round in a cycle", max_seconds=10)
