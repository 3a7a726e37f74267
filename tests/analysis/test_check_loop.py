"""The author's loop (issue 29): ``crewkit check`` answers at once and refines, says which missions no deal can
win and why, stops on Ctrl-C with the estimate so far, and ``--watch`` checks again on every save.

The missions are written as an author would (``tests/analysis/authored``): plain task missions, missions with
conditions, impossible ones, one with a typo. Times are measured by ``benchmarks/check_speed.py``, not here.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crewkit.analysis.check import check_mission
from crewkit.families.trick_taking.analysis.check import static_impossible
from crewkit.families.trick_taking.engine.setup import compile_game

AUTHORED = Path(__file__).parent / "authored"
ROOT = Path(__file__).resolve().parents[2]


def quick(name: str, **kw: object) -> object:
    """A short check of an authored mission at 4 players (a few blocks of deals, a few solved)."""
    args: dict[str, object] = {"games": 100, "players": [4], "bot": "fast", "precision": 0.1, "solver_games": 6}
    args.update(kw)
    return check_mission(AUTHORED / name, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["supply-drop.yaml", "last-post.yaml", "quiet-captain.yaml", "pink-hoard.yaml",
                                  "low-blow.yaml"])
def test_possible_missions_get_an_estimate_and_no_impossible(name: str) -> None:
    report = quick(name)
    (pc,) = report.counts  # type: ignore[attr-defined]
    assert report.valid and not pc.error  # type: ignore[attr-defined]
    assert pc.games >= 25 and pc.impossible() == ""
    assert pc.bot_successes > 0 or pc.solver["winnable"] > 0
    assert "impossible" not in report.format_text()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "said"), [
    ("humble-start.yaml", ("the commander holds rocket 4, which no card in another hand beats, and must play it",
                           "(commander-humble)", "at most 0", "before a card is played")),
    ("all-or-nothing.yaml", ("no order of trick winners satisfies", "(first-to-commander) together with",
                             "(commander-idle)")),
    ("fifth-of-three.yaml", ("task token 5 asks for a 5th task to be done, but there are 3 tasks",)),
])
def test_impossible_missions_are_said_so_with_the_reason(name: str, said: tuple[str, ...]) -> None:
    lines: list[str] = []
    report = quick(name, on_line=lines.append)
    (pc,) = report.counts  # type: ignore[attr-defined]
    reason = pc.impossible()
    for part in said:
        assert part in reason, (part, reason)
    assert "a-one-wins" not in reason  # the fewest conditions that decide it
    text = report.format_text()  # type: ignore[attr-defined]
    assert f"4 players: impossible: {reason}" in text
    # said while the check runs, not only at its end
    first = next(i for i, line in enumerate(lines) if "impossible" in line)
    assert first < len(lines) - 1 and lines[-1].split(": ", 1)[1].startswith("done")


def test_a_typo_stops_the_check_at_its_position() -> None:
    report = check_mission(AUTHORED / "typo.yaml", games=10, players=[4])
    assert not report.valid
    text = report.format_text()
    assert "typo.yaml:10:15: error" in text and "did you mean `tricks_won`?" in text


def test_static_impossible_from_the_rules() -> None:
    rules = compile_game("crew", "planet-nine/10", 4)
    assert static_impossible(rules) == ""
    drafted = dataclasses.replace(rules, task_count=36, tokens=())
    assert "a hand holds 10" in static_impossible(drafted)  # 9 tasks a player: 3 tricks each, 12 > 10
    token = dataclasses.replace(rules, task_count=2, tokens=("3",))
    assert static_impossible(token) == "task token 3 asks for a 3th task to be done, but there are 2 tasks"


def test_progress_lines_refine_to_the_precision() -> None:
    lines: list[str] = []
    report = check_mission("planet-nine/01", games=3000, players=[3, 4], bot="fast", precision=0.05,
                           solver_games=4, on_line=lines.append)
    assert lines[0].split(": ", 1)[1].startswith("3 players ") and "(25 deals" in lines[0]
    widths = [max(float(w) for w in part.split("±")[1:] for w in [w.split(" ")[0]]) for part in lines[:-1]]
    assert widths == sorted(widths, reverse=True) and widths[-1] <= 5.0
    assert lines[-1].split(": ", 1)[1].startswith("done: ")
    assert not report.interrupted and all(c.games >= 25 for c in report.counts)


def test_stop_gives_the_estimate_so_far() -> None:
    seen = [0]

    def stop() -> bool:
        seen[0] += 1
        return seen[0] > 60

    report = check_mission("planet-nine/10", games=3000, players=[4], bot="fast", precision=0.01, stop=stop)
    assert report.interrupted
    (pc,) = report.counts
    assert 0 < pc.games < 3000
    assert report.format_text().splitlines()[1].startswith("interrupted after ")


_END = "\x00end of stream"


def _reader(stream: object, out: queue.Queue[str]) -> None:
    for line in iter(stream.readline, ""):  # type: ignore[attr-defined]
        out.put(line.rstrip("\n"))
    out.put(_END)


def _rest(q: queue.Queue[str]) -> list[str]:
    """Every line left in ``q`` up to the end of its stream (the reader thread's event; 60 s is a safety net)."""
    lines = []
    while (line := q.get(timeout=60)) != _END:
        lines.append(line)
    return lines


def _crewkit(args: list[str], merged: bool = False
             ) -> tuple[subprocess.Popen[str], queue.Queue[str], queue.Queue[str]]:
    """``crewkit ARGS`` with its output read line by line (stderr into stdout's queue when ``merged``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "crewkit", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if merged else subprocess.PIPE, text=True, env=env, cwd=ROOT)
    out: queue.Queue[str] = queue.Queue()
    err: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, out), daemon=True).start()
    if not merged:
        threading.Thread(target=_reader, args=(proc.stderr, err), daemon=True).start()
    return proc, out, err


def _until(q: queue.Queue[str], pred: object, seconds: float, seen: list[str]) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            line = q.get(timeout=0.2)
        except queue.Empty:
            continue
        assert line != _END, f"the output ended; got: {seen[-20:]}"
        seen.append(line)
        if pred(line):  # type: ignore[operator]
            return line
    raise AssertionError(f"not seen within {seconds} s; got: {seen[-20:]}")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_prints_the_estimate_so_far() -> None:
    """Piped output: progress lines still come on stderr; Ctrl-C (SIGINT) prints the report of the deals so far
    and exits 130, with no traceback from the worker processes."""
    proc, out, err = _crewkit(["check", "planet-nine/10", "--players", "4", "--precision", "0.005",
                               "--workers", "2", "--oversubscribe"])
    errors: list[str] = []
    try:
        _until(err, lambda line: line.startswith("crewkit check: ") and "deals" in line, 120, errors)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
    stdout = _rest(out)
    errors += _rest(err)
    text = "\n".join(stdout)
    assert "interrupted after" in text and "4 players, " in text and "bot (fast)" in text, text
    assert not any("Traceback" in line for line in errors), errors


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_watch_checks_again_on_every_save(tmp_path: Path) -> None:
    """``--watch``: the first check, then bad saves (a typo in the DSL, broken YAML, the file deleted), each
    reported at its position and the watch going on, then a fixed save (a report again); each within a bound.
    Ctrl-C ends it quietly: exit 130, no traceback."""
    path = tmp_path / "captain.yaml"
    good = (AUTHORED / "quiet-captain.yaml").read_text(encoding="utf-8")
    path.write_text(good, encoding="utf-8")
    proc, out, _err = _crewkit(["check", str(path), "--watch", "--players", "4", "--games", "50",
                                "--precision", "0.2", "--solver-games", "2", "--workers", "1", "--quiet"], merged=True)
    seen: list[str] = []
    try:
        _until(out, lambda line: line.startswith("4 players, "), 120, seen)
        _until(out, lambda line: line.startswith("--- watching"), 60, seen)
        time.sleep(0.5)
        path.write_text(good.replace("tricks_won(commander)", "tricks_wonn(commander)"), encoding="utf-8")
        line = _until(out, lambda line: "error" in line and "tricks_wonn" in line, 60, seen)
        assert f"{path}:10:15: error" in line or "captain.yaml:10:15: error" in line
        _until(out, lambda line: line.startswith("--- watching"), 30, seen)
        time.sleep(0.5)
        lines = good.splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if line.startswith("title:"))
        lines[at] = "title: [unclosed\n"  # broken YAML: the flow sequence ends at the next line
        path.write_text("".join(lines), encoding="utf-8")
        _until(out, lambda line: f"captain.yaml:{at + 2}:" in line and "error: expected ','" in line, 60, seen)
        _until(out, lambda line: line.startswith("--- watching"), 30, seen)
        time.sleep(0.5)
        path.unlink()  # deleted (an editor's save by rename passes through this)
        _until(out, lambda line: "captain.yaml:1:1: error: cannot read the file" in line, 60, seen)
        _until(out, lambda line: line.startswith("--- watching"), 30, seen)
        time.sleep(0.5)
        path.write_text(good.replace("tricks_won(commander) > 2", "tricks_won(commander) > 3"), encoding="utf-8")
        _until(out, lambda line: "changed: checking again" in line, 30, seen)
        _until(out, lambda line: line.startswith("4 players, "), 120, seen)
        _until(out, lambda line: line.startswith("--- watching"), 60, seen)
        proc.send_signal(signal.SIGINT)  # while waiting for the next save
        assert proc.wait(timeout=30) == 130
    finally:
        proc.kill()
    seen += _rest(out)
    assert not any("Traceback" in line or "KeyboardInterrupt" in line for line in seen), seen
