"""Campaign packs: a pip-installable package exposes campaigns through the `crewkit.campaigns` entry-point group.

The tiny pack is written into a temporary folder and installed with pip (``--no-index --no-deps --target``), from
a wheel built here by hand (a wheel is a zip with its ``.dist-info``; no build backend or network needed), then
found by ``crewkit list campaigns`` and played by name. A second test puts a ``.dist-info`` straight on
``sys.path`` to check discovery in-process (a broken pack is listed with its problem, not a crash).
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CAMPAIGN = """\
name: night-shift
title: Night shift (packed)
ruleset: crew
players: [3, 4]
missions:
  - 01-one.yaml
  - planet-nine/02
"""
MISSION = "number: 1\ntitle: One light\nrulesets: [crew]\ntasks: {count: 1}\n"
ENTRY_POINTS = ("[crewkit.campaigns]\nnight-shift = nightpack\nnight-fn = nightpack:folder\n"
                "broken-pack = nightpack.missing:nothing\n")
INIT = "from pathlib import Path\n\n\ndef folder() -> Path:\n    return Path(__file__).parent\n"


def pack_files() -> dict[str, str]:
    return {"nightpack/__init__.py": INIT, "nightpack/campaign.yaml": CAMPAIGN, "nightpack/01-one.yaml": MISSION}


def build_wheel(folder: Path) -> Path:
    """``nightpack-0.1-py3-none-any.whl`` with its METADATA, WHEEL, entry_points.txt and RECORD."""
    dist = "nightpack-0.1.dist-info"
    files = {**pack_files(),
             f"{dist}/METADATA": "Metadata-Version: 2.1\nName: nightpack\nVersion: 0.1\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: crewkit-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
             f"{dist}/entry_points.txt": ENTRY_POINTS}
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}/RECORD,,")
    path = folder / "nightpack-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr(f"{dist}/RECORD", "\n".join(record) + "\n")
    return path


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crewkit", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


def test_pip_installed_pack_is_listed_and_played_by_name(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    site = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet",
                          "--disable-pip-version-check", "--target", str(site), str(wheel)],
                         capture_output=True, text=True, timeout=300)
    # a local wheel without dependencies or an index: nothing outside this machine can make it fail
    assert pip.returncode == 0, pip.stderr
    assert (site / "nightpack" / "campaign.yaml").is_file()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)]),
           "CREWKIT_HOME": str(tmp_path / "home")}
    listed = run(["list", "campaigns"], env, tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "night-shift" in listed.stdout and "Night shift (packed)" in listed.stdout
    assert "[pack nightpack 0.1]" in listed.stdout
    assert "broken-pack" in listed.stdout and "cannot be opened" in listed.stdout
    assert "[bundled]" in listed.stdout
    status = run(["campaign", "status", "--campaign", "night-shift"], env, tmp_path)
    assert status.returncode == 0, status.stderr
    assert "pack nightpack 0.1" in status.stdout and "01-one.yaml" in status.stdout
    assert "missions done: 0/2" in status.stdout
    valid = run(["validate", str(site / "nightpack")], env, tmp_path)
    assert valid.returncode == 0, valid.stdout + valid.stderr


@pytest.fixture
def dist_info_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    for name, text in pack_files().items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    info = site / "nightpack-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nightpack\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("CREWKIT_HOME", str(tmp_path / "home"))
    return site


def test_entry_point_discovery_in_process(dist_info_on_path: Path) -> None:
    from crewkit.spec.campaigns import find_campaign, installed_campaigns, known_campaign_names, load_campaign

    packs = {name: (dist, path, problem) for name, dist, path, problem in installed_campaigns()}
    assert packs["night-shift"][0] == "nightpack 0.1"
    assert packs["night-shift"][1] == dist_info_on_path / "nightpack" / "campaign.yaml"
    assert packs["night-fn"][1] == packs["night-shift"][1]  # an entry point may name a function too
    assert packs["broken-pack"][1] is None and "cannot be loaded" in packs["broken-pack"][2]
    assert [n for n, _, _ in known_campaign_names()][:3] == ["deep-sea", "jarvis-duet", "planet-nine"]  # bundled first
    source = find_campaign("night-shift")
    assert source.source == "pack nightpack 0.1" and source.identity == "pack:night-shift"
    camp = load_campaign("night-shift")
    assert camp.identity == "pack:night-shift" and camp.missions == ("01-one.yaml", "planet-nine/02")


async def test_chooser_shows_the_installed_pack(dist_info_on_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "tui"))
    try:
        from tui_helpers import SIZE, make_app, settle, text_of

        from crewkit.tui.screens.campaign import CampaignScreen
        from crewkit.tui.screens.chooser import ChooserScreen
        from crewkit.tui.services import MemoryLogbook, Services

        services = Services(bot_factory=None, logbook=MemoryLogbook(), saves=None,  # type: ignore[arg-type]
                            home=lambda: dist_info_on_path)
        app = make_app(services, campaign=None, players=None)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, ChooserScreen)
            text = text_of(app)
            assert "Night shift (packed)" in text and "pack nightpack 0.1" in text
            index = next(i for i, k in enumerate(app.screen.known) if k.ref == "night-shift")
            await pilot.press(*["up"] * len(app.screen.known), *["down"] * index, "enter")
            await settle(pilot)
            assert isinstance(app.screen, CampaignScreen)
            assert app.campaign.key == "pack:night-shift" and "One light" in text_of(app)
    finally:
        sys.path.remove(str(ROOT / "tests" / "tui"))
