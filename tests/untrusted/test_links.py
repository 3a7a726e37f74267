"""Links that lead out of a folder (issue 26): every file is read through one confined reader.

A link is followed only when its target stays in the folders the file may be read from: the folder given to
``validate``, the folder of the file that names it (and the bundled files). Each hostile case runs ``crewkit``
in a child process bounded in time and memory (``tests/untrusted/harness.py``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from crewkit.spec.yamlio import OutsideFolders, read_limited, real_path_within
from tests.untrusted.harness import ROOT, assert_refused, run_bounded

SECRET = "api_token: SECRET-0123456789\n"
NOT_ALONE = ROOT / "rulesets" / "not-alone.yaml"
CARDS = ROOT / "rulesets" / "not-alone"


def _shared_and_private(tmp_path: Path) -> tuple[Path, Path]:
    private = tmp_path / "private"
    private.mkdir()
    (private / "creds.yaml").write_text(SECRET, encoding="utf-8")
    shared = tmp_path / "shared"
    shared.mkdir()
    return shared, private


# ---------------------------------------------------------------------------- validate FOLDER
def test_a_link_in_a_validated_folder_to_a_file_outside_is_not_read(tmp_path: Path) -> None:
    shared, _ = _shared_and_private(tmp_path)
    (shared / "notes.yaml").symlink_to("../private/creds.yaml")
    (shared / "ok.yaml").write_text("name: ok\nextends: crew\n", encoding="utf-8")
    run = run_bounded("validate", str(shared), timeout=30)
    assert_refused(run, "notes.yaml:1:1: error: not read: it is a link to", max_seconds=10)
    assert "outside the folder" in run.output
    assert "SECRET" not in run.output  # neither in a message nor under a caret
    assert "ok.yaml: ok" in run.output


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="Linux's /proc")
def test_a_link_to_the_environment_is_not_read(tmp_path: Path) -> None:
    shared, _ = _shared_and_private(tmp_path)
    (shared / "env.yaml").symlink_to("/proc/self/environ")
    run = run_bounded("validate", str(shared), timeout=30, env={"CREWKIT_PROBE_SECRET": "ENVSECRET42"})
    assert_refused(run, "env.yaml:1:1: error: not read", max_seconds=10)
    assert "ENVSECRET42" not in run.output and "PATH=" not in run.output


def test_a_link_to_a_folder_outside_is_not_walked(tmp_path: Path) -> None:
    shared, private = _shared_and_private(tmp_path)
    (shared / "more").symlink_to(private, target_is_directory=True)
    (shared / "ok.yaml").write_text("name: ok\nextends: crew\n", encoding="utf-8")
    run = run_bounded("validate", str(shared), timeout=30)
    assert run.returncode == 0, run.output
    assert "SECRET" not in run.output and "creds" not in run.output


def test_links_that_stay_inside_the_folder_are_followed(tmp_path: Path) -> None:
    shared, _ = _shared_and_private(tmp_path)
    (shared / "lib").mkdir()
    (shared / "lib" / "base.yaml").write_text("name: base\nextends: crew\n", encoding="utf-8")
    (shared / "alias.yaml").symlink_to("lib/base.yaml")
    run = run_bounded("validate", str(shared), timeout=30)
    assert run.returncode == 0, run.output
    assert run.output.count(": ok") == 2


def test_a_link_typed_on_the_command_line_is_the_users_own(tmp_path: Path) -> None:
    """docs/trust.md: paths you type may point anywhere (only what a file or a folder leads to is confined)."""
    shared, private = _shared_and_private(tmp_path)
    (private / "rs.yaml").write_text("name: rs\nextends: crew\n", encoding="utf-8")
    (shared / "rs.yaml").symlink_to(private / "rs.yaml")
    run = run_bounded("validate", str(shared / "rs.yaml"), timeout=30)
    assert run.returncode == 0, run.output


# ---------------------------------------------------------------------------- card files of a rule set
def _not_alone_copy(folder: Path) -> Path:
    shutil.copytree(CARDS, folder / "not-alone")
    ruleset = folder / "rs.yaml"
    shutil.copy(NOT_ALONE, ruleset)
    return ruleset


def test_a_card_file_linked_out_of_the_rule_sets_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    shutil.copytree(CARDS, outside)
    mine = tmp_path / "mine"
    ruleset = _not_alone_copy(mine)
    (mine / "not-alone" / "places.yaml").unlink()
    (mine / "not-alone" / "places.yaml").symlink_to(outside / "places.yaml")
    run = run_bounded("validate", str(ruleset), timeout=60)
    assert_refused(run, "card set file 'not-alone/places.yaml' leads outside this rule set's folder", max_seconds=20)
    run = run_bounded("simulate", "--ruleset", str(ruleset), "--games", "1", timeout=60)
    assert_refused(run, "leads outside this rule set's folder", max_seconds=20)


def test_the_places_beside_a_card_set_are_read_only_from_its_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    shutil.copytree(CARDS, outside)
    mine = tmp_path / "mine" / "cards"
    mine.mkdir(parents=True)
    shutil.copy(CARDS / "hunt-cards.yaml", mine / "hunt-cards.yaml")
    (mine / "places.yaml").symlink_to(outside / "places.yaml")
    run = run_bounded("validate", str(mine / "hunt-cards.yaml"), timeout=30)
    assert_refused(run, "the places file beside this card set", max_seconds=10)
    assert "outside the folder it may be read from" in run.output


def test_a_card_set_named_places_that_is_not_one_loads_once(tmp_path: Path) -> None:
    """A hunt set saved as ``places.yaml`` used to look for its places in itself, forever (106 s for 8.6 KB)."""
    path = tmp_path / "places.yaml"
    shutil.copy(CARDS / "hunt-cards.yaml", path)
    run = run_bounded("validate", str(path), timeout=30)
    assert_refused(run, "expected a place", max_seconds=10)


def test_a_card_set_beside_a_places_file_that_is_not_one(tmp_path: Path) -> None:
    shutil.copy(CARDS / "hunt-cards.yaml", tmp_path / "places.yaml")  # a hunt set where the places should be
    shutil.copy(CARDS / "survival-cards.yaml", tmp_path / "survival-cards.yaml")
    run = run_bounded("validate", str(tmp_path / "survival-cards.yaml"), timeout=30)
    assert run.returncode in (0, 1) and not run.timed_out and run.seconds < 10, run.output
    assert "Traceback" not in run.output


def test_an_extends_link_out_of_a_not_alone_rule_sets_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(NOT_ALONE, outside / "base.yaml")
    mine = tmp_path / "mine"
    _not_alone_copy(mine)
    (mine / "base.yaml").symlink_to(outside / "base.yaml")
    (mine / "variant.yaml").write_text("# yaml-language-server: $schema=../schemas/not-alone-ruleset.schema.json\n"
                                       "name: variant\nfamily: not-alone\nextends: base.yaml\n", encoding="utf-8")
    run = run_bounded("validate", str(mine / "variant.yaml"), timeout=30)
    assert_refused(run, "rule set file 'base.yaml' leads outside this rule set's folder", max_seconds=10)


# ---------------------------------------------------------------------------- the reader itself
def test_read_limited_follows_a_link_only_within(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "f.yaml").write_text("x: 1\n", encoding="utf-8")
    (tmp_path / "in" / "g.yaml").write_text("y: 2\n", encoding="utf-8")
    (tmp_path / "in" / "link-out.yaml").symlink_to(tmp_path / "out" / "f.yaml")
    (tmp_path / "in" / "link-in.yaml").symlink_to("g.yaml")
    (tmp_path / "in" / "sub").symlink_to(tmp_path / "out", target_is_directory=True)
    within = [tmp_path / "in"]
    assert read_limited(tmp_path / "in" / "link-in.yaml", within=within) == b"y: 2\n"
    for path in (tmp_path / "in" / "link-out.yaml", tmp_path / "in" / "sub" / "f.yaml",
                 tmp_path / "in" / ".." / "out" / "f.yaml"):
        with pytest.raises(OutsideFolders, match="outside the folder it may be read from"):
            read_limited(path, within=within)
    assert read_limited(tmp_path / "in" / "link-out.yaml") == b"x: 1\n"  # typed: the user's own path
    assert real_path_within(tmp_path / "in" / "link-in.yaml", within) == os.path.realpath(tmp_path / "in" / "g.yaml")


# ---------------------------------------------------------------------------- a campaign folder
def test_a_campaign_folder_whose_campaign_file_links_out(tmp_path: Path) -> None:
    shared, private = _shared_and_private(tmp_path)
    (private / "campaign.yaml").write_text(SECRET, encoding="utf-8")
    (shared / "campaign.yaml").symlink_to(private / "campaign.yaml")
    env = {"CREWKIT_HOME": str(tmp_path / "home")}
    for args in (("campaign", "status", "--campaign", str(shared)), ("play", "--campaign", str(shared)),
                 ("check", "--campaign", str(shared), "--games", "1"), ("validate", str(shared))):
        run = run_bounded(*args, timeout=30, env=env)
        assert_refused(run, "outside the folder", max_seconds=10)
        assert "SECRET" not in run.output


def test_a_campaign_mission_linked_out_of_the_folder(tmp_path: Path) -> None:
    shared, private = _shared_and_private(tmp_path)
    (private / "m.yaml").write_text("number: 1\ntitle: Secret\nrulesets: [crew]\ntasks: {count: 1}\n", encoding="utf-8")
    (shared / "m.yaml").symlink_to(private / "m.yaml")
    (shared / "campaign.yaml").write_text("name: c\ntitle: C\nruleset: crew\nmissions: [m.yaml]\n", encoding="utf-8")
    run = run_bounded("validate", str(shared / "campaign.yaml"), timeout=30)
    assert_refused(run, "leads outside the campaign's folder", max_seconds=10)
