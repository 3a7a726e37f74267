"""A record of one's own mission replays anywhere (issue 42, item 4): it carries the mission file's text with its
SHA-256; a file of the same name that differs is said to differ (the record's copy is replayed); bundled
missions stay named by id; older records still read."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.cli import main
from crewkit.spec import bundled

BOOKENDS = next(p for p in bundled.bundled_missions() if p.name.startswith("41-"))


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A record of ``bookends.yaml`` (a copy of mission 41), written from the mission's folder."""
    here = tmp_path / "author"
    here.mkdir()
    shutil.copy(BOOKENDS, here / "bookends.yaml")
    monkeypatch.chdir(here)
    assert main(["simulate", "--mission", "bookends.yaml", "--players", "4", "--games", "1", "--records",
                 "records"]) == 0
    (record,) = sorted((here / "records").glob("*.json"))
    return record


def crewkit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A fresh process (this one keeps the games it compiled, by name, from the mission's folder)."""
    return subprocess.run([sys.executable, "-m", "crewkit", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    other = tmp_path / "elsewhere"
    other.mkdir(exist_ok=True)
    monkeypatch.chdir(other)
    return other


def test_the_record_carries_the_missions_text_and_hash(played: Path, tmp_path: Path) -> None:
    data = json.loads(played.read_text(encoding="utf-8"))
    text = BOOKENDS.read_text(encoding="utf-8")
    assert data["mission"] == "bookends.yaml"
    assert data["mission_source"] == {"text": text, "sha256": hashlib.sha256(text.encode()).hexdigest()}
    # a bundled mission stays named by its id alone
    assert main(["simulate", "--mission", "planet-nine/41", "--games", "1", "--records", str(tmp_path / "b")]) == 0
    (record,) = (tmp_path / "b").glob("*.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["mission"] == "planet-nine/41" and "mission_source" not in data


def test_it_replays_where_the_file_is_not(played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = elsewhere(tmp_path, monkeypatch)
    moved = other / "game.json"
    shutil.copy(played, moved)
    replayed = crewkit("replay", str(moved), cwd=other)
    assert (replayed.returncode, replayed.stderr) == (0, "")  # nothing to compare with here: no note
    assert "outcome: " in replayed.stdout
    solved = crewkit("solve", str(moved), "--after", "4", "--nodes", "2000", cwd=other)  # solve reads records too
    assert solved.returncode == 0, solved.stderr
    assert crewkit("validate", str(moved), cwd=other).returncode == 0


def test_a_changed_file_is_said_to_differ_and_the_records_copy_is_replayed(
        played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["replay", str(played), "--format", "json"]) == 0
    same = capsys.readouterr()
    assert same.err == "" and "notes" not in json.loads(same.out)  # the same file: nothing to say
    mission = played.parent.parent / "bookends.yaml"
    mission.write_text(mission.read_text(encoding="utf-8") + "\n# changed after the game\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(played), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "bookends.yaml: this file differs from the mission the record carries" in captured.err
    assert "the record's copy is replayed" in captured.err
    assert json.loads(captured.out)["notes"] == [captured.err.removeprefix("crewkit replay: note: ").strip()]
    assert main(["solve", str(played), "--nodes", "2000"]) == 0
    assert "differs from the mission the record carries" in capsys.readouterr().err


def test_a_text_that_does_not_match_its_hash_is_refused(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(played.read_text(encoding="utf-8"))
    data["mission_source"]["text"] += "\n# edited by hand\n"
    played.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(played)]) == 1
    assert "does not match its sha256" in capsys.readouterr().err


def test_an_older_record_still_replays_from_the_file(played: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(played.read_text(encoding="utf-8"))
    del data["mission_source"]
    played.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(played)]) == 0  # the file is there: as before
    missing = crewkit("replay", str(played), cwd=elsewhere(tmp_path, monkeypatch))  # not there: said, as before
    assert missing.returncode == 1
    assert "mission file 'bookends.yaml' does not exist" in missing.stderr
    assert "error: at mission:" in missing.stderr  # the caret on the record's "mission", not on its "ruleset"


def test_a_carried_mission_never_reads_files_beside_a_path_outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   played: Path) -> None:
    """A record from someone else names a mission path outside the working folder and carries a text that
    lists a rule set by name: the rule set file beside that path is not read (docs/trust.md)."""
    private = tmp_path / "private"
    private.mkdir()
    (private / "secrets.yaml").write_text("name: SECRET-TOKEN-123\nnot: [a rule set\n", encoding="utf-8")
    data = json.loads(played.read_text(encoding="utf-8"))
    text = data["mission_source"]["text"].replace("rulesets: [crew]", "rulesets: [secrets, crew]")
    assert "rulesets: [secrets, crew]" in text
    data["mission"] = str(private / "bookends.yaml")
    data["mission_source"] = {"text": text, "sha256": hashlib.sha256(text.encode()).hexdigest()}
    record = elsewhere(tmp_path, monkeypatch) / "from-someone.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 1
    captured = capsys.readouterr()
    assert "unknown rule set 'secrets'" in captured.err
    assert "SECRET-TOKEN" not in captured.out + captured.err


def test_a_mission_with_its_own_rule_set_beside_it_still_replays_by_its_path(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign folder with its own rule set (the terminal app's take-back and resume replay such records
    from any working folder): while the file is unchanged, it is read by its path, its rule set found beside it."""
    from crewkit.families.trick_taking.engine.record import game_to_record, replay_record
    from crewkit.families.trick_taking.engine.setup import new_game
    from crewkit.spec.mission_rulesets import default_ruleset

    camp = tmp_path / "camp"
    camp.mkdir()
    (camp / "my-rules.yaml").write_text("name: my-rules\nextends: crew\n", encoding="utf-8")
    mission = camp / "m.yaml"
    mission.write_text("number: 1\ntitle: Mine\nrulesets: [my-rules]\ntasks: {count: 2}\n", encoding="utf-8")
    elsewhere(tmp_path, monkeypatch)
    game = new_game(default_ruleset(str(mission)), str(mission), 4, "s")
    record = game_to_record(game)
    assert record["mission_source"]["text"] == mission.read_text(encoding="utf-8")
    replayed = replay_record(record)
    assert replayed.error is None and replayed.game is not None
    assert replayed.game.spec is not None and replayed.game.spec.source == game.spec.source  # carried on


def test_a_users_own_rule_set_travels_with_the_record_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    author = tmp_path / "author"
    author.mkdir()
    rules = "name: my-rules\nextends: crew\n"
    (author / "my-rules.yaml").write_text(rules, encoding="utf-8")
    (author / "m.yaml").write_text("number: 1\ntitle: Mine\nrulesets: [my-rules]\ntasks: {count: 2}\n",
                                   encoding="utf-8")
    monkeypatch.chdir(author)
    assert main(["simulate", "--mission", "m.yaml", "--games", "1", "--records", "records"]) == 0
    (record,) = (author / "records").glob("*.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["ruleset"] == "my-rules.yaml"
    assert data["ruleset_source"] == {"text": rules, "sha256": hashlib.sha256(rules.encode()).hexdigest()}
    other = elsewhere(tmp_path, monkeypatch)
    moved = other / "game.json"
    shutil.copy(record, moved)
    replayed = crewkit("replay", str(moved), cwd=other)
    assert (replayed.returncode, replayed.stderr) == (0, "")
    # the rule set changed beside the record: said, and the record's copy replayed
    (author / "my-rules.yaml").write_text(rules + "# changed\n", encoding="utf-8")
    monkeypatch.chdir(author)
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert "differs from the rule set the record carries" in capsys.readouterr().err
