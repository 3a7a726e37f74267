"""Files from someone else: only regular files, bounded in size, only in the allowed places (issue 12 item 2).

Every case runs ``crewkit`` in a child process bounded in time and memory (``tests/untrusted/harness.py``)
and states the exit code, a fragment of the message and a time bound.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.untrusted.harness import ROOT, assert_refused, run_bounded

MISSION = """\
number: 90
title: A stranger's mission
rulesets: [{ruleset}]
tasks: {{count: 1, tokens: []}}
symbols: {{}}
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _ruleset(path: Path, extends: str) -> Path:
    return _write(path, f"name: {path.stem}\nextends: {extends}\n")


def _record(**changes: object) -> dict[str, object]:
    record: dict[str, object] = {"format": "crewkit-record/1", "ruleset": "crew", "mission": "planet-nine/01",
                                 "players": 4, "seed": "s", "actions": []}
    record.update(changes)
    return record


# ---------------------------------------------------------------------------- special files
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_in_a_validated_folder_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.yaml")
    _write(tmp_path / "ok.yaml", "name: ok\nextends: crew\n")
    run = run_bounded("validate", str(tmp_path), timeout=20)
    assert_refused(run, "not a regular file (a FIFO)", max_seconds=10)
    assert "ok.yaml: ok" in run.output


def test_validate_a_device_is_refused(tmp_path: Path) -> None:
    run = run_bounded("validate", "/dev/zero", timeout=20)
    assert_refused(run, "not a regular file (a character device)", max_seconds=10)


def test_extends_dev_zero_is_refused_without_reading(tmp_path: Path) -> None:
    path = _ruleset(tmp_path / "rs.yaml", "/dev/zero")
    run = run_bounded("validate", str(path), timeout=20, memory_mb=600)
    assert_refused(run, "is outside the folder of the file that names it", max_seconds=10)
    assert "rs.yaml:2:10" in run.output


def test_mission_naming_a_sibling_rule_set_that_extends_dev_zero(tmp_path: Path) -> None:
    _ruleset(tmp_path / "base.yaml", "/dev/zero")
    mission = _write(tmp_path / "m.yaml", MISSION.format(ruleset="base"))  # a sibling, by name
    run = run_bounded("validate", str(mission), timeout=20, memory_mb=600)
    assert_refused(run, "rule set 'base' has 1 error(s)", max_seconds=10)


def test_rule_set_given_on_the_command_line_as_a_device(tmp_path: Path) -> None:
    run = run_bounded("show", "ruleset", "/dev/zero", "--resolved", timeout=20, memory_mb=600)
    assert_refused(run, "not a regular file", max_seconds=10)


@pytest.mark.parametrize("mission", ["/dev/zero", "/etc/passwd", "../../../../../../etc/passwd.yaml"])
def test_record_naming_a_file_elsewhere_as_its_mission(tmp_path: Path, mission: str) -> None:
    path = _write(tmp_path / "r.json", json.dumps(_record(mission=mission), indent=1))
    for command in ("replay", "solve"):
        run = run_bounded(command, str(path), timeout=20, memory_mb=600)
        assert_refused(run, f"the record's mission file {mission!r} is outside the working folder", max_seconds=10)
        assert "r.json:4:13" in run.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_record_naming_a_fifo_in_its_folder(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "m.yaml")
    path = _write(tmp_path / "r.json", json.dumps(_record(mission=str(tmp_path / "m.yaml"))))
    for command in ("replay", "solve"):
        run = run_bounded(command, str(path), timeout=20, memory_mb=600)
        assert_refused(run, "not a regular file (a FIFO)", max_seconds=10)


def test_record_naming_a_mission_in_the_working_folder_still_replays(tmp_path: Path) -> None:
    mission = (ROOT / "missions" / "planet-nine" / "01-first-contact.yaml").read_text(encoding="utf-8")
    _write(tmp_path / "work" / "my.yaml", mission)
    records = tmp_path / "records"
    run = run_bounded("simulate", "--mission", "my.yaml", "--games", "1", "--records", str(records),
                      cwd=tmp_path / "work", timeout=60)
    assert run.returncode == 0, run.output
    run = run_bounded("replay", str(records / "game-00001.json"), cwd=tmp_path / "work", timeout=60)
    assert run.returncode == 0, run.output


# ---------------------------------------------------------------------------- where references may point
@pytest.mark.parametrize("target", ["/etc/passwd", "../secret/creds.yaml", "~/creds.yaml", "sub/../../secret/creds.yaml"])
def test_extends_outside_the_folder_is_refused(tmp_path: Path, target: str) -> None:
    _write(tmp_path / "secret" / "creds.yaml", "name: creds\nextends: crew\n")
    path = _ruleset(tmp_path / "mine" / "rs.yaml", target)
    run = run_bounded("validate", str(path), timeout=20)
    assert_refused(run, f"rule set file {target!r} is outside the folder of the file that names it", max_seconds=10)
    assert "rs.yaml:2:10" in run.output


def test_link_pointing_outside_the_folder_is_refused(tmp_path: Path) -> None:
    _write(tmp_path / "secret" / "creds.yaml", "name: creds\nextends: crew\n")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "base.yaml").symlink_to(tmp_path / "secret" / "creds.yaml")
    path = _ruleset(tmp_path / "mine" / "rs.yaml", "./base.yaml")
    run = run_bounded("validate", str(path), timeout=20)
    assert_refused(run, "is outside the folder", max_seconds=10)


def test_mission_rulesets_name_only_rule_sets(tmp_path: Path) -> None:
    _write(tmp_path / "secret" / "creds.yaml", "name: creds\nextends: crew\n")
    mission = _write(tmp_path / "mine" / "m.yaml", MISSION.format(ruleset="../secret/creds.yaml"))
    run = run_bounded("validate", str(mission), timeout=20)
    assert_refused(run, "expected a lower-case name", max_seconds=10)
    # a name is looked up among the bundled rule sets and in the mission's own folder, nowhere else
    mission = _write(tmp_path / "mine" / "m.yaml", MISSION.format(ruleset="creds"))
    run = run_bounded("validate", str(mission), timeout=20)
    assert_refused(run, "unknown rule set 'creds'", max_seconds=10)


def test_campaign_missions_outside_the_folder_are_refused(tmp_path: Path) -> None:
    _write(tmp_path / "secret" / "m.yaml", MISSION.format(ruleset="crew"))
    campaign = _write(tmp_path / "mine" / "campaign.yaml",
                      "name: c\ntitle: C\nruleset: crew\nmissions: [../secret/m.yaml]\n")
    run = run_bounded("validate", str(campaign), timeout=20)
    assert_refused(run, "leaves the campaign's folder", max_seconds=10)


def test_references_in_the_folder_and_below_still_work(tmp_path: Path) -> None:
    _write(tmp_path / "lib" / "base.yaml", "name: base\nextends: crew\n")
    _ruleset(tmp_path / "rs.yaml", "./lib/base.yaml")
    _ruleset(tmp_path / "plain.yaml", "lib/base.yaml")
    _write(tmp_path / "m.yaml", MISSION.format(ruleset="rs"))
    run = run_bounded("validate", str(tmp_path / "rs.yaml"), str(tmp_path / "plain.yaml"), str(tmp_path / "m.yaml"),
                      timeout=30)
    assert run.returncode == 0, run.output
    assert run.output.count(": ok") == 3


# ---------------------------------------------------------------------------- sizes
def test_oversized_record_is_refused_without_reading_it_for_the_caret(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as fh:  # sparse: 300 MB that cost no disk
        fh.write(b'{"format": "crewkit-record/1",')
        fh.truncate(300 * 1024 * 1024)
    for command in ("replay", "solve"):
        run = run_bounded(command, str(path), timeout=30, memory_mb=400)
        assert_refused(run, "files over 1 MiB are refused", max_seconds=10)


def test_deeply_nested_record_is_a_message_for_solve_as_for_replay(tmp_path: Path) -> None:
    deep = "[" * 5000 + "]" * 5000
    text = json.dumps(_record()).replace('"actions": []', f'"actions": {deep}')
    path = _write(tmp_path / "deep.json", text)
    for command in ("replay", "solve"):
        run = run_bounded(command, str(path), timeout=30)
        assert_refused(run, "nested too deeply", max_seconds=10)


@pytest.mark.parametrize("change, fragment", [
    ({"players": "four"}, "players"),
    ({"actions": [{"type": "play"}]}, "actions.0"),
    ({"mission": 7}, "mission"),
])
def test_malformed_record_is_a_positioned_message_for_solve(tmp_path: Path, change: dict[str, object],
                                                            fragment: str) -> None:
    path = _write(tmp_path / "r.json", json.dumps(_record(**change), indent=1))
    run = run_bounded("solve", str(path), timeout=30)
    assert_refused(run, fragment, max_seconds=10)
    assert "r.json:" in run.output


def test_long_mixed_list_is_checked_in_linear_time(tmp_path: Path) -> None:
    # uniqueItems on a list of mixed types made jsonschema compare every pair (an 85 KB file took 110 s)
    items = ", ".join(f"{i}" if i % 3 == 0 else f"'{i}'" if i % 3 == 1 else f"{{key: {i}}}" for i in range(9500))
    path = _write(tmp_path / "m.yaml", MISSION.format(ruleset="crew") + f"players: [{items}]\n")
    assert path.stat().st_size > 80_000
    run = run_bounded("validate", str(path), timeout=60)
    assert_refused(run, "players", max_seconds=10)


def test_list_longer_than_the_bound_is_refused_before_the_schema(tmp_path: Path) -> None:
    items = "\n".join(f"  - {i}" for i in range(12_000))
    path = _write(tmp_path / "m.yaml", MISSION.format(ruleset="crew") + f"players:\n{items}\n")
    run = run_bounded("validate", str(path), timeout=60)
    assert_refused(run, "at most 10000 are accepted", max_seconds=10)
    assert "m.yaml:7:3" in run.output


def test_the_harness_finds_this_checkout() -> None:
    assert (ROOT / "crewkit" / "spec" / "yamlio.py").is_file()


# ---------------------------------------------------------------------------- aliases that multiply text
def _aliased_mission(repeat: int = 10_000) -> str:
    """A valid 20 KB mission whose aliases repeat one 10 KB string 9,760 times (98 MB of text): under the alias
    counts, but every later step (the schema, a mission's version, ``campaign status``) saw 98 MB."""
    keys = ", ".join(f"k{i}: *s" for i in range(160))
    readings = "\n".join(f"  - {{id: r{i}, question: q, source: s, choice: a, options: {{a: {{text: t}}, "
                         "b: {text: t, overrides: {unsupported: *u}}}}" for i in range(60))
    return (f"number: 90\ntitle: Aliases\ndescription: &s {'x' * repeat}\nrulesets: [crew]\n"
            f"tasks: {{count: 1, tokens: []}}\nsymbols: {{}}\nunsupported: &u {{{keys}}}\nreadings:\n{readings}\n")


def test_text_multiplied_by_aliases_is_bounded(tmp_path: Path) -> None:
    path = _write(tmp_path / "c" / "m.yaml", _aliased_mission())
    assert path.stat().st_size < 30_000
    _write(tmp_path / "c" / "campaign.yaml", "name: al\ntitle: Al\nruleset: crew\nmissions: [m.yaml]\n")
    for args in (("validate", str(path)), ("campaign", "status", "--campaign", str(tmp_path / "c")),
                 ("simulate", "--mission", str(path), "--games", "1")):
        run = run_bounded(*args, timeout=30, memory_mb=400, env={"CREWKIT_HOME": str(tmp_path / "home")})
        if args[0] == "campaign":  # the table shows the mission as broken; nothing is expanded
            assert run.returncode == 0 and not run.timed_out and run.seconds < 10, run.output
            continue
        assert_refused(run, "more than 2 MiB of text once its aliases are expanded", max_seconds=10)


def test_aliases_within_the_bound_still_load(tmp_path: Path) -> None:
    path = _write(tmp_path / "m.yaml", _aliased_mission(repeat=100))  # 1 MB of text once expanded
    run = run_bounded("validate", str(path), timeout=30)
    assert run.returncode == 0, run.output
