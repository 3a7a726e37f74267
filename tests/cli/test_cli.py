"""The command line: exit codes, messages without tracebacks, and lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crewkit", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120)


@pytest.mark.parametrize("argv", [["--help"], ["validate"], ["validate", "--format", "json"]])
def test_help_and_validate_do_not_import_textual(argv: list[str]) -> None:
    code = (
        "import sys\n"
        "from crewkit.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print('TEXTUAL' if bad else 'CLEAN')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "CLEAN", out.stdout + out.stderr


def test_validate_all_bundled_files_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    assert "all valid" in capsys.readouterr().out


def test_validate_json_reports_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("number: 1\ntitle: x\ntasks: {count: two}\n", encoding="utf-8")
    assert main(["validate", "--format", "json", str(bad)]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert [e["line"] for e in payload["errors"]] == sorted(e["line"] for e in payload["errors"])
    err = next(e for e in payload["errors"] if e["path"] == "tasks.count")
    assert err["file"].endswith("bad.yaml")
    assert (err["line"], err["column"]) == (3, 16)
    assert err["path"] == "tasks.count"


def test_usage_errors_exit_2() -> None:
    assert run("validate", "no/such/file.yaml").returncode == 2
    assert run("simulate").returncode == 2  # --mission is required
    assert run("frobnicate").returncode == 2


def test_show_resolved_variant_merges_base() -> None:
    out = run("show", "ruleset", "crew-3p-challenge", "--resolved", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["name"] == "crew-3p-challenge"
    assert data["players"] == [3]
    assert "communication" in data  # inherited from crew


def test_show_and_diff_not_alone() -> None:
    out = run("show", "ruleset", "not-alone", "--resolved")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("name: not-alone\n") and "reckoning-order" in out.stdout
    out = run("show", "ruleset", "not-alone-advanced", "--resolved", "--format", "json",
              "--reading", "advanced-give-up=give-up-two")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["name"] == "not-alone-advanced"
    assert data["counter"]["at_zero"]["regain"] == 2 and data["flow"]  # the flow inherited from not-alone
    assert data["round"]["exploration"]["give_up"]["regain"] == 2  # the reading's option applied
    out = run("show", "ruleset", "not-alone", "--reading", "nope=x")
    assert out.returncode == 1 and "no reading 'nope'" in out.stderr and "Traceback" not in out.stderr
    out = run("diff", "not-alone", "not-alone-advanced")
    assert out.returncode == 0, out.stderr
    assert "counter.at_zero.regain" in out.stdout and "advanced-give-up" in out.stdout


def test_replay_prints_tricks_and_outcome() -> None:
    out = run("replay", str(ROOT / "tests/records/worked-example.json"), "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["outcome"] == "success"
    assert data["tricks"][0]["winner"] == 0
    assert [c["card"] for c in data["tricks"][0]["cards"]] == ["pink 9", "pink 5", "yellow 2", "pink 1"]


def test_replay_says_the_statement_in_the_table_words(tmp_path: Path) -> None:
    """Issue 30: `replay` printed "(top)" where the table says "highest"."""
    from crewkit.families.trick_taking.bots.registry import make_bot
    from crewkit.families.trick_taking.engine.record import write_record
    from crewkit.families.trick_taking.engine.setup import new_game
    from crewkit.families.trick_taking.family import play_game

    for i in range(40):
        game = new_game("crew", "planet-nine/04", 4, seed=f"words-{i}")
        play_game(game, [make_bot("rules", s, f"words-{i}") for s in range(4)])
        if any(c.statement in ("top", "bottom") for c in game.communications):
            break
    path = tmp_path / "game.json"
    write_record(game, path)
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "(top)" not in out.stdout and "(bottom)" not in out.stdout
    assert "(highest)" in out.stdout or "(lowest)" in out.stdout


def test_replay_illegal_action_exit_1_names_action() -> None:
    out = run("replay", str(ROOT / "tests/records/illegal-must-follow.json"))
    assert out.returncode == 1
    assert "action 4 (seat 3): seat 3 must follow pink: holds pink 1" in out.stderr
    assert "Traceback" not in out.stderr


def test_replay_malformed_json_positions(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_text('{"format": "crewkit-record/1",\n "ruleset": "crew",\n "players": 4,,\n}', encoding="utf-8")
    out = run("replay", str(bad))
    assert out.returncode == 1
    assert "game.json:3:" in out.stderr
    assert "Traceback" not in out.stderr


def test_replay_unknown_card(tmp_path: Path) -> None:
    rec = json.loads((ROOT / "tests/records/worked-example.json").read_text())
    rec["actions"][1]["card"] = "pink 10"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    out = run("replay", str(path))
    assert out.returncode == 1
    assert "pink has no card '10'" in out.stderr + out.stdout


def test_mission_ids_with_or_without_leading_zero() -> None:
    from crewkit.spec.bundled import mission_path

    assert mission_path("planet-nine/3") == mission_path("planet-nine/03")
    assert mission_path("planet-nine/03-in-sequence") == mission_path("planet-nine/3")
    out = run("show", "mission", "planet-nine/99")
    assert out.returncode == 1
    assert "it has missions 1-50" in out.stderr


def test_gold_frame_hand_over_at_five_players_only() -> None:
    from crewkit.engine.errors import IllegalAction
    from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
    from crewkit.families.trick_taking.engine.setup import new_game

    game = new_game("crew", "planet-nine/25", 5, seed="gold")
    while game.phase != "tricks":
        game.apply(game.legal_actions()[0])
    owner = game.tasks[0].owner
    assert owner is not None
    offers = [a for a in game.optional_actions(owner) if isinstance(a, HandTask)]
    assert offers, "before trick 1 a task may be handed on"
    hand_over = offers[0]
    game.apply(hand_over)
    assert game.task_of(hand_over.card).owner == hand_over.player  # type: ignore[union-attr]
    again = next(t for t in game.tasks if t.owner is not None)
    try:
        game.apply(HandTask(again.owner, again.card, (again.owner + 1) % 5))  # type: ignore[operator, arg-type]
        raise AssertionError("a second hand-over was allowed")
    except IllegalAction as exc:
        assert exc.code == "gold-frame-used"
    four = new_game("crew", "planet-nine/25", 4, seed="gold")
    while four.phase != "tricks":
        four.apply(four.legal_actions()[0])
    assert not any(isinstance(a, HandTask) for s in range(4) for a in four.optional_actions(s))


def test_unknown_reading_is_reported() -> None:
    out = run("simulate", "--mission", "planet-nine/01", "--games", "1", "--reading", "nope=x")
    assert out.returncode == 1
    assert "unknown reading 'nope'" in out.stderr
    out = run("play", "--reading", "bogus=x")
    assert out.returncode == 2
    assert "no reading 'bogus'" in out.stderr


def test_reading_switch_changes_the_rules() -> None:
    from crewkit.families.trick_taking.engine.setup import compile_game

    default = compile_game("crew-3p-challenge", "planet-nine/10", 3)
    switched = compile_game("crew-3p-challenge", "planet-nine/10", 3, {"challenge-rocket-1": "remove-rocket-1"})
    assert len(default.deck) == 31 and len(switched.deck) == 30
    assert switched.readings["challenge-rocket-1"] == "remove-rocket-1"
