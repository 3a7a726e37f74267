"""Not Alone records: stored games replay to the same record, crewkit replay prints the rounds and the winner,
an illegal action is refused with the rule (exit 1), and no engine module names the game.

The stored games (golden/) are regression records written by the engine (golden/README.md): they guard against
change; the rules themselves are judged by the hand-written scenarios of test_golden_rules.py and
test_golden_cards.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from crewkit.cli import main
from crewkit.families.not_alone.record import board_record, replay_board
from crewkit.spec.recordfile import load_record_file

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
# the shared engine core and the trick-taking engine: neither names Not Alone (its code is in its family)
ENGINES = (Path(__file__).resolve().parents[3] / "crewkit" / "engine",
           Path(__file__).resolve().parents[3] / "crewkit" / "families" / "trick_taking" / "engine")


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_stored_game_replays_to_the_same_record(path: Path) -> None:
    record, issues = load_record_file(path)  # the record schema accepts every board action
    assert issues == []
    replay = replay_board(record)
    assert replay.error is None and replay.game is not None and replay.game.is_over()
    assert board_record(replay.game) == record


def test_crewkit_replay_prints_rounds_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN[0])]) == 0
    out = capsys.readouterr().out
    assert "Round 1" in out and re.search(r"^Winner: the (Creature|Hunted)", out, re.M)


def test_an_illegal_action_is_refused_with_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(GOLDEN[0].read_text(encoding="utf-8"))
    i = next(i for i, a in enumerate(record["actions"]) if a["type"] == "play-places")
    record["actions"][i] = dict(record["actions"][i], places=[10])  # nobody starts with the Artefact
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"action {i} (seat {record['actions'][i]['seat']})" in err and "does not hold the Artefact" in err
    assert "Traceback" not in err


def test_no_engine_module_names_the_game() -> None:
    named = [p.name for engine in ENGINES for p in engine.rglob("*.py")
             if re.search(r"not[ _-]?alone", p.read_text("utf-8"), re.I)]
    assert named == []


def test_simulate_and_compare_run_the_family(capsys: pytest.CaptureFixture[str]) -> None:
    from crewkit.analysis.compare import compare, parse_variant
    from crewkit.analysis.simulate import simulate

    result = simulate("not-alone", "", 3, 6, "random", "t")
    assert result.family == "not-alone" and result.games == 6 and 1 <= result.mean_tricks <= 20
    text = result.format_text()
    assert "Hunted" in text and "Creature" in text and "rounds" in text
    variants = [
        parse_variant("label=base", {"ruleset": "not-alone", "players": 3}),
        parse_variant("ruleset=not-alone-advanced", {"ruleset": "not-alone", "players": 3}),
    ]
    assert variants[0].bot == "heuristic" and variants[0].mission == ""
    cmp = compare(variants, 4, "t", solver=False)
    deals = [r.deals for r in cmp.results]
    assert [len(d) for d in deals] == [4, 4]
    assert [d.deal for d in deals[0]] == [d.deal for d in deals[1]]  # paired: the same shuffles


def test_a_trick_taking_command_names_the_family(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--ruleset", "not-alone", "--players", "3", "--mission", "planet-nine/01"]) == 1
    err = capsys.readouterr().err
    assert (
        "not-alone.yaml:6:1" in err and "not-alone family, not trick-taking" in err and "Traceback" not in err
    )


def test_options_are_recorded_by_id_and_old_records_by_words_still_replay() -> None:
    """A card's one-of option and "use the power or take back" are recorded by a stable id (option-2, power,
    take-back): rewording an option keeps records valid. A record written before, with the option's words,
    replays to the same game."""
    from crewkit.engine.actions import action_from_json
    from crewkit.games import open_game, replay
    from crewkit.games.driver import play_out

    for i in range(40):
        game = open_game("not-alone", None, 3, f"ids:{i}")
        play_out(game, game.family.seat_players(game, "heuristic", f"ids:{i}"))
        record = game.record()
        ids = [a["value"] for a in record["actions"] if a["type"] == "pick" and isinstance(a["value"], str)
               and (a["value"].startswith("option-") or a["value"] in ("power", "take-back"))]
        if {"power", "option"} <= {v.split("-")[0] for v in ids}:
            break
    else:
        raise AssertionError("no game asked for a one-of option and the power or a card back")
    # the same record as it was written with the options' words: each id replaced by what the player read
    old = dict(record, actions=[])
    again = open_game("not-alone", None, 3, record["seed"]).engine
    for raw in record["actions"]:
        q = again.question
        if raw["type"] == "pick" and q is not None and q.labels:
            raw = dict(raw, value=q.label(raw["value"]))
        old["actions"].append(raw)
        again.apply(action_from_json(raw, None))  # type: ignore[arg-type]
    assert old["actions"] != record["actions"]
    replayed = replay(old)
    assert replayed.error is None and replayed.game is not None
    assert replayed.game.record() == old  # an old record replays to itself, byte for byte
    assert replayed.game.public_log() == game.public_log() and replayed.game.outcome() == game.outcome()
