"""Designed campaigns: the format, references confined to the campaign's folder, zips, the logbook per campaign
identity and mission version, and the CLI (validate, campaign status/reset, play arguments, check --campaign)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from crewkit.campaign.store import Logbook
from crewkit.cli import main
from crewkit.spec import bundled
from crewkit.spec.campaigns import find_campaign, load_campaign, resolve_in_campaign, unpack_zip
from crewkit.spec.errors import SpecError
from crewkit.spec.files import check_file

CAMPAIGN = """\
# yaml-language-server: $schema=https://crewkit.dev/schemas/campaign.schema.json
name: training
title: Training night
description: Three small missions.
ruleset: crew
players: [3, 4]
unlock: in-order
readings:
  distress-timing: any-time
missions:
  - mission: missions/01-one.yaml
    title: The first light
    chapter: {title: "Chapter 1", text: "Lights on."}
  - missions/02-two.yaml
  - mission: planet-nine/03
    players: [4]
"""


def mission(number: int, count: int) -> str:
    return f"number: {number}\ntitle: Mission {number}\nrulesets: [crew]\ntasks: {{count: {count}}}\n"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "home"
    monkeypatch.setenv("CREWKIT_HOME", str(path))
    return path


def crew_reading() -> tuple[str, str]:
    """A reading of the crew rule set and one of its options (not hard-coded: the rule set may change)."""
    from crewkit.spec.loader import load_ruleset

    reading = next(r for r in load_ruleset("crew").data["readings"] if len(r.get("options") or {}) > 1)
    option = next(o for o in reading["options"] if o != reading["choice"])
    return str(reading["id"]), str(option)


def write(folder: Path, campaign: str | None = None) -> Path:
    rid, option = crew_reading()
    (folder / "missions").mkdir(parents=True)
    text = (campaign or CAMPAIGN).replace("distress-timing: any-time", f"{rid}: {option}")
    (folder / "campaign.yaml").write_text(text, encoding="utf-8")
    (folder / "missions" / "01-one.yaml").write_text(mission(1, 1), encoding="utf-8")
    (folder / "missions" / "02-two.yaml").write_text(mission(2, 2), encoding="utf-8")
    return folder


# ---------------------------------------------------------------------------- the format
def test_campaign_model_from_a_folder(tmp_path: Path) -> None:
    folder = write(tmp_path / "training")
    camp = load_campaign(str(folder))
    rid, option = crew_reading()
    assert (camp.name, camp.title, camp.description) == ("training", "Training night", "Three small missions.")
    assert camp.players == (3, 4) and camp.unlock == "in-order" and dict(camp.readings) == {rid: option}
    assert camp.missions == ("missions/01-one.yaml", "missions/02-two.yaml", "planet-nine/03")
    first, second, third = camp.entries
    assert first.ref == str((folder / "missions" / "01-one.yaml").resolve())
    assert (first.title, first.chapter_title, first.chapter_text) == ("The first light", "Chapter 1", "Lights on.")
    assert second.title == "Mission 2" and second.players == (3, 4)
    assert third.ref == "planet-nine/03" and third.players == (4,)
    assert camp.identity == f"training@{folder.resolve()}" and camp.source == "folder"
    assert len(first.version) == 16
    # the campaign file itself, and the folder, name the same campaign
    assert load_campaign(str(folder / "campaign.yaml")).identity == camp.identity


def test_same_name_in_two_folders_are_two_campaigns(tmp_path: Path) -> None:
    a = load_campaign(str(write(tmp_path / "a" / "training")))
    b = load_campaign(str(write(tmp_path / "b" / "training")))
    assert a.name == b.name and a.identity != b.identity


@pytest.mark.parametrize("ref", ["../outside.yaml", "/etc/passwd.yaml", "missions/../../outside.yaml"])
def test_references_may_not_leave_the_folder(tmp_path: Path, ref: str) -> None:
    folder = write(tmp_path / "c")
    (tmp_path / "outside.yaml").write_text(mission(9, 1), encoding="utf-8")
    with pytest.raises(bundled.NotFound, match="outside|leaves"):
        resolve_in_campaign(folder, ref)


def test_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    folder = write(tmp_path / "c")
    (tmp_path / "outside.yaml").write_text(mission(9, 1), encoding="utf-8")
    (folder / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    with pytest.raises(bundled.NotFound, match="outside"):
        resolve_in_campaign(folder, "link.yaml")
    os.mkfifo(folder / "fifo.yaml")
    with pytest.raises(bundled.NotFound, match="not a regular file"):
        resolve_in_campaign(folder, "fifo.yaml")


@pytest.mark.parametrize("old,new,message,line", [
    ("missions/02-two.yaml", "../02-two.yaml", "leaves the campaign's folder", 14),
    ("missions/02-two.yaml", "missions/07-none.yaml", "does not exist", 14),
    ("unlock: in-order", "unlock: sometimes", "expected one of in-order, free; found 'sometimes'", 7),
    ("players: [3, 4]", "players: [2, 3]", "2 players is not allowed by rule set 'crew'", 6),
    ("    players: [4]", "    players: [4, 6]", "cannot be played by 6", 16),
    ("  - missions/02-two.yaml", "  - missions/01-one.yaml", "listed twice", 14),
])
def test_campaign_errors_are_positioned(tmp_path: Path, old: str, new: str, message: str, line: int) -> None:
    folder = write(tmp_path / "c", CAMPAIGN.replace(old, new))
    issues = check_file(folder / "campaign.yaml")
    assert issues, "expected an error"
    assert any(message in i.message for i in issues), [i.message for i in issues]
    assert any(i.line == line for i in issues if message in i.message), [(i.line, i.message) for i in issues]
    with pytest.raises(SpecError):
        load_campaign(str(folder))


def test_unknown_reading_and_broken_mission_are_reported(tmp_path: Path) -> None:
    folder = write(tmp_path / "c")
    text = (folder / "campaign.yaml").read_text(encoding="utf-8")
    rid, _ = crew_reading()
    (folder / "campaign.yaml").write_text(text.replace(f"  {rid}:", "  no-such-reading:"), encoding="utf-8")
    (folder / "missions" / "02-two.yaml").write_text("number: 2\ntitle: x\ntasks: {count: many}\n", encoding="utf-8")
    messages = [i.message for i in check_file(folder / "campaign.yaml")]
    assert any("has no reading 'no-such-reading'" in m for m in messages), messages
    assert any("mission 'missions/02-two.yaml' has 2 error(s), the first at" in m for m in messages), messages


# ---------------------------------------------------------------------------- zips
def zip_folder(folder: Path, path: Path, prefix: str = "training/") -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                zf.write(file, prefix + file.relative_to(folder).as_posix())
    return path


def test_zipped_campaign_is_the_same_campaign(tmp_path: Path, home: Path) -> None:
    folder = write(tmp_path / "training")
    archive = zip_folder(folder, tmp_path / "training.zip")
    camp = load_campaign(str(archive))
    assert camp.source == "zip" and camp.identity == f"training@{archive.resolve()}"
    assert camp.missions == load_campaign(str(folder)).missions
    assert [e.version for e in camp.entries] == [e.version for e in load_campaign(str(folder)).entries]
    assert home in camp.path.parents  # unpacked under crewkit's cache, once per content
    assert load_campaign(str(archive)).path == camp.path


@pytest.mark.parametrize("member", ["../evil.yaml", "/abs.yaml", "a/../../evil.yaml"])
def test_zip_member_leaving_the_folder_is_refused(tmp_path: Path, home: Path, member: str) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("campaign.yaml", CAMPAIGN)
        zf.writestr(member, "x")
    with pytest.raises(bundled.NotFound, match="would leave the folder"):
        unpack_zip(archive)
    assert not (tmp_path / "evil.yaml").exists()


def test_not_a_zip_and_zip_without_campaign(tmp_path: Path, home: Path) -> None:
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip at all")
    with pytest.raises(bundled.NotFound, match="not a zip"):
        find_campaign(str(bad))
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("readme.txt", "hi")
    with pytest.raises(bundled.NotFound, match="holds no campaign.yaml"):
        find_campaign(str(empty))


# ---------------------------------------------------------------------------- the logbook
def test_progress_per_mission_version(tmp_path: Path) -> None:
    with Logbook.open(tmp_path / "log.sqlite3") as book:
        old = book.record_attempt(campaign="c@/x", mission="m.yaml", players=3, ruleset="crew", seed="1",
                                  result="success", reason="ok", distress_used=False, mission_version="v1")
        book.record_attempt(campaign="c@/x", mission="m.yaml", players=3, ruleset="crew", seed="2",
                            result="failure", reason="no", distress_used=False, mission_version="v2")
        book.record_attempt(campaign="c@/y", mission="m.yaml", players=3, ruleset="crew", seed="3",
                            result="success", reason="ok", distress_used=False)
        lines, older = book.progress_for_versions("c@/x", {"m.yaml": "v2"})
        assert (lines[0].attempts, lines[0].done, older) == (1, False, {"m.yaml": 1})
        lines, older = book.progress_for_versions("c@/x", {"m.yaml": "v1"})
        assert (lines[0].attempts, lines[0].done, older) == (1, True, {"m.yaml": 1})
        assert book.attempt_versions("c@/x")[old] == "v1"
        # an attempt recorded without a version (an older crewkit) counts for every version
        lines, older = book.progress_for_versions("c@/y", {"m.yaml": "v9"})
        assert lines[0].done and not older


def test_old_logbook_without_the_version_column_still_reads(tmp_path: Path) -> None:
    with Logbook.open(tmp_path / "log.sqlite3") as book:
        book.record_attempt(campaign="c", mission="m", players=3, ruleset="crew", seed="1", result="success",
                            reason="ok", distress_used=False)
        assert book.attempt_versions("c") == {}
        lines, older = book.progress_for_versions("c", {"m": "v1"})
        assert lines[0].done and not older


# ---------------------------------------------------------------------------- the command line
def test_status_and_reset_of_one_campaign(tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write(tmp_path / "training")
    camp = load_campaign(str(folder))
    with Logbook.open() as book:
        for key, result in (("missions/01-one.yaml", "success"), ("missions/02-two.yaml", "failure")):
            book.record_attempt(campaign=camp.identity, mission=key, players=3, ruleset="crew", seed="s",
                                result=result, reason="r", distress_used=False,
                                mission_version=camp.entry(key).version)  # type: ignore[union-attr]
        book.record_attempt(campaign="planet-nine", mission="planet-nine/01", players=4, ruleset="crew", seed="s",
                            result="success", reason="r", distress_used=False)
    assert main(["campaign", "status", "--campaign", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "missions done: 1/3" in out and "current mission: missions/02-two.yaml" in out
    assert "The first light" in out
    # a mission file changes: the status says so and does not count the old attempt
    (folder / "missions" / "01-one.yaml").write_text(mission(1, 2), encoding="utf-8")
    assert main(["campaign", "status", "--campaign", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "missions done: 0/3" in out
    assert "notice: missions/01-one.yaml (The first light) changed after 1 attempt was recorded" in out
    # reset only this campaign
    assert main(["campaign", "reset", "--campaign", str(folder)]) == 2
    assert main(["campaign", "reset", "--campaign", str(folder), "--yes"]) == 0
    assert "2 attempts forgotten" in capsys.readouterr().out
    with Logbook.open() as book:
        assert [a.campaign for a in book.attempts()] == ["planet-nine"]


def test_unknown_campaign_is_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "status", "--campaign", "no-such-campaign"]) == 1
    err = capsys.readouterr().err
    assert "unknown campaign 'no-such-campaign'" in err and "jarvis-duet" in err and "Traceback" not in err


def test_play_arguments_are_checked_before_the_app(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write(tmp_path / "training")
    assert main(["play", "--campaign", str(folder), "--players", "5"]) == 2
    assert "played by 3, 4 players" in capsys.readouterr().err
    assert main(["play", "--campaign", str(folder), "--mission", "missions/09.yaml"]) == 2
    assert "not a mission of campaign 'training'" in capsys.readouterr().err
    rid, option = crew_reading()
    from crewkit.spec.loader import load_ruleset

    other = next(o for o in next(r for r in load_ruleset("crew").data["readings"] if r["id"] == rid)["options"]
                 if o != option)
    assert main(["play", "--campaign", str(folder), "--reading", f"{rid}={other}"]) == 2
    assert f"the campaign fixes {rid}={option}" in capsys.readouterr().err
    (folder / "campaign.yaml").write_text("name: x\nmissions: [a b]\n", encoding="utf-8")
    assert main(["play", "--campaign", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "campaign.yaml:1:1" in err and "missing required key 'ruleset'" in err


def test_validate_a_campaign_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write(tmp_path / "training")
    assert main(["validate", str(folder)]) == 0
    assert "3 files checked: all valid" in capsys.readouterr().out
    (folder / "missions" / "02-two.yaml").unlink()
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "campaign.yaml:14:5: error: at missions.1: mission file 'missions/02-two.yaml' does not exist" in out


def test_check_campaign_warnings() -> None:
    from crewkit.analysis.campaign_check import CampaignCheck
    from crewkit.analysis.compare import DealResult, Variant, VariantResult

    def result(label: str, wins: int, games: int = 20, winnable: int | None = None, error: str = "") -> VariantResult:
        deals = [DealResult(i, i < wins, 5, "ok" if i < wins else "lost", 1.0,
                            None if winnable is None else ("winnable" if i < winnable else "unwinnable"))
                 for i in range(games if not error else 0)]
        return VariantResult(Variant(label, "crew", label, 4, "heuristic"), deals, error)

    report = CampaignCheck("c", "C", 20, "s", [
        result("01", 19, winnable=20), result("02", 2, winnable=0), result("03", 18, winnable=20),
        result("04", 0, error="4 players is not allowed"),
    ])
    warnings = report.warnings()
    assert any("02 at 4 players is much harder than 03" in w for w in warnings), warnings
    assert any("02 at 4 players: never winnable" in w for w in warnings), warnings
    assert any("04: cannot be played by 4 players" in w for w in warnings), warnings
    assert not any(w.startswith("01") for w in warnings)
    text = report.format_text()
    assert "difficulty curve" in text and "3 warnings" in text


def test_play_readings_are_checked_against_the_campaigns_rule_set(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    import crewkit.tui.launch as launch

    seen: list[launch.PlayOptions] = []
    monkeypatch.setattr(launch, "run_play", lambda options: seen.append(options) or 0)
    assert main(["play", "--campaign", "jarvis-duet", "--reading", "jarvis-communication=jarvis-takes-part"]) == 0
    assert seen[-1].campaign == "jarvis-duet" and seen[-1].players is None
    folder = write(tmp_path / "training")
    assert main(["play", "--campaign", str(folder), "--mission", str(folder / "missions" / "02-two.yaml")]) == 0
    assert seen[-1].mission == "missions/02-two.yaml"
    assert main(["play"]) == 0
    assert seen[-1].campaign is None  # several campaigns: the app opens the chooser


def test_check_campaign_refuses_an_invalid_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write(tmp_path / "training")
    (folder / "missions" / "02-two.yaml").unlink()
    assert main(["check", "--campaign", str(folder), "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert "campaign.yaml:14:5: error: at missions.1: mission file 'missions/02-two.yaml' does not exist" in err
    assert main(["check", "--campaign", str(folder), "some.yaml"]) == 2
    assert main(["check"]) == 2


def test_check_campaign_measures_every_mission_and_count(tmp_path: Path) -> None:
    from crewkit.analysis.campaign_check import check_campaign

    folder = write(tmp_path / "training")
    report = check_campaign(str(folder), games=2, solver=False)
    assert report.valid
    assert [(r.variant.label, r.variant.players) for r in report.results] == [
        ("missions/01-one.yaml", 3), ("missions/01-one.yaml", 4), ("missions/02-two.yaml", 3),
        ("missions/02-two.yaml", 4), ("planet-nine/03", 4)]
    rid, option = crew_reading()
    assert all(r.variant.readings == ((rid, option),) for r in report.results)
    assert "3 players" in report.format_text() and '"missions"' in report.dumps()


def test_mission_version_follows_what_the_file_says(tmp_path: Path) -> None:
    from crewkit.spec.campaigns import mission_version

    path = tmp_path / "m.yaml"
    path.write_text(mission(1, 1), encoding="utf-8")
    first = mission_version(path)
    path.write_text("# a comment\n" + mission(1, 1).replace("tasks: {count: 1}", "tasks:\n  count: 1"),
                    encoding="utf-8")
    assert mission_version(path) == first
    path.write_text(mission(1, 2), encoding="utf-8")
    assert mission_version(path) != first


def test_zip_with_an_unwritable_home_unpacks_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write(tmp_path / "training")
    archive = zip_folder(folder, tmp_path / "training.zip")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the home should be", encoding="utf-8")
    monkeypatch.setenv("CREWKIT_HOME", str(blocker / "home"))  # nothing can be created under it, even by root
    camp = load_campaign(str(archive))
    assert blocker not in camp.path.parents and camp.missions[0] == "missions/01-one.yaml"
    assert camp.identity == f"training@{archive.resolve()}"


def test_bundled_campaign_named_by_its_path_is_the_bundled_campaign() -> None:
    by_name = find_campaign("planet-nine")
    by_path = find_campaign(str(bundled.missions_dir() / "planet-nine"))
    assert by_path.identity == by_name.identity == "planet-nine" and by_path.source == "bundled"


def test_reset_of_one_campaign_backs_up_every_attempt_with_its_mission_version(tmp_path: Path) -> None:
    with Logbook.open(tmp_path / "log.sqlite3") as book:
        kept = book.record_attempt(campaign="c@/y", mission="m.yaml", players=3, ruleset="crew", seed="1",
                                   result="success", reason="ok", distress_used=False, mission_version="v1")
        gone = book.record_attempt(campaign="c@/x", mission="m.yaml", players=3, ruleset="crew", seed="2",
                                   result="failure", reason="no", distress_used=False, mission_version="v2")
        backup, removed = book.reset_campaign("c@/x")
        assert removed == 1
        assert [a.id for a in book.attempts()] == [kept]
        assert book.attempt_versions("c@/y") == {kept: "v1"}
    with Logbook.open(backup) as saved:  # the backup is a logbook: both attempts, versions included
        assert sorted(a.id for a in saved.attempts()) == [kept, gone]
        assert saved.attempt_versions("c@/x") == {gone: "v2"}
