"""Issue 12, item 4: inputs that crashed crewkit (exit 3, "This is a bug in crewkit") end with a message.

Each case: the command, the exit code, a fragment of the message (the file, the condition or the action, and
what went wrong) and a time bound. The hostile files are in ``tests/untrusted/dsl/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.untrusted.harness import assert_refused, run_bounded

HERE = Path(__file__).resolve().parent / "dsl"


# --------------------------------------------------------------- run-time errors of a validated mission
def test_division_by_zero_names_the_file_the_condition_and_the_error() -> None:
    mission = HERE / "div-zero.yaml"
    assert run_bounded("validate", str(mission)).returncode == 0  # only the run can tell
    for args in (("simulate", "--games", "2", "--mission", str(mission)),
                 ("check", str(mission), "--games", "2"),
                 ("solve", "--mission", str(mission), "--seed", "s", "--timeout", "10")):
        run = run_bounded(*args)
        assert_refused(run, "division by zero in `//`", max_seconds=15)
        assert str(mission) in run.output and "condition `divide` (fail_if)" in run.output, run.output
        assert "1 // (tricks_played - 1) > 5" in run.output  # the expression, with a caret under it


def test_replay_of_a_record_names_the_condition(tmp_path: Path) -> None:
    """A record of a game that reaches the division: replay stops with the same message."""
    from crewkit.families.trick_taking.engine.blocks.communication import Communicate
    from crewkit.families.trick_taking.engine.blocks.distress import Distress
    from crewkit.families.trick_taking.engine.record import game_to_record
    from crewkit.families.trick_taking.engine.setup import new_game

    ok = HERE.parent / "dsl" / "div-zero.yaml"
    safe = tmp_path / "div-zero.yaml"  # the same mission, with the division made safe to play it through
    safe.write_text(ok.read_text(encoding="utf-8").replace("1 // (tricks_played - 1) > 5", "false"),
                    encoding="utf-8")
    game = new_game("crew", str(safe), 4, seed="s")
    while not game.is_over() and len(game.tricks) < 2:
        game.apply(next(a for a in game.legal_actions(game.to_act) if not isinstance(a, Communicate | Distress)))
    record = game_to_record(game)
    record["mission"] = str(ok)
    del record["mission_source"]  # a record that does not carry its mission's text (as older ones) reads the file
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = run_bounded("replay", str(path))
    assert_refused(run, "division by zero", max_seconds=15)
    assert "condition `divide` (fail_if)" in run.output


@pytest.mark.parametrize(
    ("name", "fragment", "where"),
    [
        ("hand-7.yaml", "`hand`: there is no seat 7", ":9:"),
        ("cards-won-99.yaml", "`cards_won`: there is no seat 99", ":9:"),
        ("max-empty.yaml", "`max` over an empty list has no value", ":9:"),
        ("literal-5000.yaml", "number too long (5,000 digits", ":9:"),
        ("reason-5000.yaml", "number too long (5,000 digits", ":10:"),
    ],
)
def test_the_checker_refuses_what_it_can_prove_wrong(name: str, fragment: str, where: str) -> None:
    run = run_bounded("validate", str(HERE / name))
    assert_refused(run, fragment, max_seconds=10)
    assert f"{name}{where}" in run.output
    run = run_bounded("simulate", "--games", "1", "--mission", str(HERE / name))
    assert_refused(run, fragment, max_seconds=10)


def test_a_seat_past_the_table_at_run_time_is_a_message() -> None:
    """A seat computed at run time (not a literal the checker sees) fails with a message naming it."""
    from crewkit import dsl
    from crewkit.families.trick_taking.engine.setup import new_game

    view = new_game("crew", "planet-nine/01", 4, seed="s").view()
    for text in ("count(hand(tricks_played + 9)) > 0", "count(cards_won(commander - 9)) > 0"):
        f = dsl.compile_expr(dsl.parse(text))
        with pytest.raises(dsl.DslRuntimeError, match="there is no seat"):
            f(view)


def test_a_record_with_a_5000_digit_number(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"format": "crewkit-record/1", "players": ' + "4" * 5000 + "}", encoding="utf-8")
    run = run_bounded("replay", str(path))
    assert_refused(run, "number too long", max_seconds=10)
    assert f"{path}:1:" in run.output


# --------------------------------------------------------------------------------- the command line
@pytest.mark.parametrize("command", ["simulate", "solve", "play"])
def test_an_undecodable_or_lone_surrogate_seed(command: str) -> None:
    # a byte that is not UTF-8, and the bytes of a lone surrogate (U+D800 written as UTF-8) on the command line
    for seed in ("\udcff", "x\udced\udca0\udc80y"):
        args = [command, "--mission", "planet-nine/01", "--seed", seed]
        if command == "simulate":
            args += ["--games", "1"]
        run = run_bounded(*args)
        assert_refused(run, "--seed is not valid text", max_seconds=10)


def test_a_lone_surrogate_seed_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    """``main(argv)`` called from Python can receive a real lone surrogate."""
    from crewkit.cli import main

    assert main(["simulate", "--mission", "planet-nine/01", "--games", "1", "--seed", "x\ud800y"]) == 1
    assert "--seed is not valid text" in capsys.readouterr().err


def test_show_an_unknown_ruleset() -> None:
    run = run_bounded("show", "ruleset", "nope")
    assert_refused(run, "unknown rule set 'nope'", max_seconds=10)


def test_a_billion_rounds() -> None:
    path = HERE / "hammer-rounds-1e9.yaml"
    run = run_bounded("validate", str(path))
    assert_refused(run, "at most 100", max_seconds=10)
    assert f"{path.name}:5:10" in run.output
    run = run_bounded("simulate", "--ruleset", str(path), "--mission", "hammer", "--games", "1")
    assert_refused(run, "at most 100", max_seconds=10)


async def test_play_stops_with_a_message_not_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``crewkit play`` on a mission whose condition divides by zero after the first trick: the app stops,
    ``crewkit play`` prints the file, the condition and the error, and exits 1."""
    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions
    from crewkit.tui.services import FileSaves, MemoryLogbook, Services

    home = tmp_path / "home"
    monkeypatch.setenv("CREWKIT_HOME", str(home))

    class FirstLegal:
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def act(self, obs: object) -> object:
            return next(a for a in obs.legal if type(a).__name__ != "Communicate")  # type: ignore[attr-defined]

        def optional(self, obs: object) -> None:
            return None

    services = Services(bot_factory=lambda name, seat, seed: FirstLegal(seat), logbook=MemoryLogbook(),
                        saves=FileSaves(lambda: home), home=lambda: home)
    mission = HERE / "div-zero.yaml"
    app = CrewApp(PlayOptions(mission=str(mission), seats=["bot"] * 4, fast=True, seed="s"), services=services)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(200):
            await pilot.pause(0.05)
            if app.fatal_message is not None or app.return_code is not None:
                break
            if app.table() is None:
                await pilot.press("enter")
    assert app.return_code == 1
    assert app.fatal_message is not None
    assert "division by zero" in app.fatal_message and "condition `divide` (fail_if)" in app.fatal_message
    assert str(mission) in app.fatal_message
