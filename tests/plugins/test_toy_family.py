"""A third family from its own package: ``tests/plugins/crewkit_toy`` installed with pip (into a folder put on
``PYTHONPATH``: its entry point is read from the installed ``*.dist-info`` as from any site-packages), and
crewkit's commands run its games with no file of crewkit naming it (issue 46).

``crewkit play`` opens its own table (its family names its terminal face, ``Family.tui``); ``crewkit host`` seats
it and ``crewkit join`` plays a seat of it, at its own table (its remote session is in its package) or as plain
lines.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(__file__).resolve().parent / "crewkit_toy"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy package installed by pip into a folder of its own (a build needs hatchling: pip fetches it from
    the package index into an isolated build environment)."""
    target = tmp_path_factory.mktemp("toy-site")
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                          str(PACKAGE)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert list(target.glob("crewkit_toy-*.dist-info/entry_points.txt"))
    return target


def crewkit(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    return subprocess.run([sys.executable, "-m", "crewkit", *args], capture_output=True, text=True, env=env,
                          cwd=cwd or ROOT, timeout=300)


def test_list_shows_the_installed_familys_rule_sets(site: Path) -> None:
    out = crewkit(site, "list", "rulesets", "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = {r["name"]: r for r in json.loads(out.stdout)["rulesets"]}
    assert rows["toy"]["family"] == "toy" and rows["toy"]["players"] == [2, 3, 4] and rows["toy"]["problem"] is None
    assert rows["toy-short"]["plays"] == "its own game (toy family): 3 rounds"


def test_validate_checks_its_rule_sets_by_its_own_schema(site: Path, tmp_path: Path) -> None:
    out = crewkit(site, "validate", str(site / "crewkit_toy" / "rulesets"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 files checked: all valid" in out.stdout
    out = crewkit(site, "validate", "--format", "json")  # every bundled file, and the installed families' rule sets
    assert out.returncode == 0, out.stdout + out.stderr
    alone = crewkit(site.parent / "nothing-here", "validate", "--format", "json")
    assert json.loads(out.stdout)["files"] == json.loads(alone.stdout)["files"] + 2
    bad, short = tmp_path / "bad.yaml", tmp_path / "short.yaml"
    bad.write_text("name: bad\nfamily: toy\nplayers: [3]\ncards: 10\nhand: 4\ncolour: red\n", encoding="utf-8")
    short.write_text("name: short\nfamily: toy\nplayers: [3]\ncards: 10\nhand: 4\n", encoding="utf-8")
    out = crewkit(site, "validate", str(bad), str(short))  # both in one process (CI's time)
    assert out.returncode == 1
    assert f"{bad}:6:1: error: at colour: unknown key 'colour'" in out.stdout  # the toy's schema, positioned
    assert f"{short}:5:7: error" in out.stdout
    assert "4 cards for each of 3 players need more than the 10 cards of the deck" in out.stdout


def test_simulate_compare_and_diff_run_its_games(site: Path) -> None:
    out = crewkit(site, "simulate", "--ruleset", "toy", "--players", "3", "--games", "100")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("toy · 3 players · bot high")
    assert "rounds    6.00 per game on average" in out.stdout
    out = crewkit(site, "compare", "--players", "3", "ruleset=toy", "ruleset=toy-short")
    assert out.returncode == 0, out.stderr
    assert "mean rounds" in out.stdout and "rounds won by the winner" in out.stdout
    out = crewkit(site, "show", "ruleset", "toy")
    assert out.returncode == 0 and "family: toy" in out.stdout, out.stderr
    out = crewkit(site, "show", "ruleset", "toy-shrt")
    assert out.returncode == 1 and "unknown rule set 'toy-shrt'; rule sets: " in out.stderr
    assert "toy-short" in out.stderr and "crew" in out.stderr
    out = crewkit(site, "diff", "toy", "toy-short")
    assert out.returncode == 0, out.stderr
    assert "~ hand" in out.stdout


def test_replay_and_validate_read_its_records(site: Path, tmp_path: Path) -> None:
    records = tmp_path / "records"
    out = crewkit(site, "simulate", "--ruleset", "toy", "--players", "3", "--games", "2", "--bot", "random",
                  "--records", str(records))
    assert out.returncode == 0, out.stderr
    record = sorted(records.glob("*.json"))[0]
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["family"] == "toy" and data["actions"][0]["type"] == "play-number"
    out = crewkit(site, "replay", str(record))
    assert out.returncode == 0, out.stderr
    assert "wins round 6" in out.stdout and " won " in out.stdout.splitlines()[-1]
    out = crewkit(site, "validate", str(record))
    assert out.returncode == 0, out.stdout + out.stderr
    data["actions"][1]["card"] = data["actions"][0]["card"]  # a card the next seat does not hold
    record.write_text(json.dumps(data), encoding="utf-8")
    out = crewkit(site, "replay", str(record))
    assert out.returncode == 1
    assert "does not hold" in out.stdout + out.stderr


def test_a_record_of_a_family_not_installed_is_refused_at_its_family(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "crewkit-record/1", "family": "toy", "ruleset": "toy", "mission": None,
                                  "players": 3, "seed": "s", "actions": []}), encoding="utf-8")
    out = crewkit(tmp_path / "no-site", "replay", str(record))  # the toy package not on the path
    assert out.returncode == 1
    assert f"{record}:1:42: error: at family: there is no game family 'toy'" in out.stdout + out.stderr


PLAY_AT_THE_TABLE = """
import asyncio, sys
from pathlib import Path
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import check_play_options
from crewkit.tui.options import PlayOptions
from crewkit.tui.services import FileSaves, MemoryLogbook, Services

async def main() -> None:
    home = Path(sys.argv[1])
    from crewkit.cli import main as crewkit
    print(crewkit(["play", "--ruleset", "toy", "--seats", "human,clever,high"]),  # refused before the app opens
          crewkit(["play", "--ruleset", "toy", "--mission", "planet-nine/01"]))
    from crewkit.tui.catalog import known_games
    print(sorted((g.game, g.title, g.source) for g in known_games() if g.source == "installed"))  # the chooser's
    options = PlayOptions(ruleset="toy", players=3, seed="s1", fast=True, campaign=None)
    check_play_options(options)  # what crewkit play checks before the app opens
    services = Services(bot_factory=None, logbook=MemoryLogbook(), saves=FileSaves(lambda: home), home=lambda: home)
    app = CrewApp(options, services=services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        print(type(app.screen).__name__, type(app.table()).__name__)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        print("Distress signal" in titles or "Communicate" in titles, "Help" in titles)  # no Crew command here
        await pilot.press("question_mark")
        await pilot.pause()
        shown = str(app.screen.query_one("#help-text").render())
        print(type(app.screen).__name__, "The Crew in short" in shown, "Campaigns" in shown)
        await pilot.press("escape")
        await pilot.pause()
        for _ in range(60):  # the person plays a card whenever it is their turn; the bots play at once
            if type(app.screen).__name__ == "ToyEndScreen":
                break
            await pilot.press("enter")
            await pilot.pause(0.02)
        print(type(app.screen).__name__)
        print(app.session.game.is_over(), len(list((home / "records").glob("toy-*.json"))))

asyncio.run(main())
"""


def test_play_opens_its_own_table_and_a_game_ends(site: Path, tmp_path: Path) -> None:
    """``crewkit play --ruleset toy``: the family's table (a game played to its end, its record written); what
    its table cannot seat is refused in the family's words before the app opens."""
    out = crewkit_python(site, "-c", PLAY_AT_THE_TABLE, str(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines() == [
        "2 2", "[('toy', 'Highest card', 'installed'), ('toy-short', 'Highest card, short', 'installed')]",
        "ToyTable ToyTable", "False True", "HelpScreen False True", "ToyEndScreen", "True 1"]
    assert "no toy bot 'clever'; toy bots: high, low, random" in out.stderr and "Traceback" not in out.stderr
    assert "--mission is not used by Toy (--ruleset toy)" in out.stderr


def crewkit_python(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


JOIN_AT_THE_TABLE = """
import asyncio, sys, json
from pathlib import Path
from crewkit.net.client import TableClient
from crewkit.net.protocol import join_link
from crewkit.net.server import Host, Limits
from crewkit.net.table import HostedTable, TableConfig
from crewkit.tui.join import remote_session
from crewkit.tui.seat import SeatApp

async def main() -> None:
    folder = Path(sys.argv[1])
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None))
    await host.start("127.0.0.1", 0)
    try:
        table = host.add(HostedTable.create(folder, TableConfig("toy", None, 2, "join-toy", ["human", "high"], {},
                                                                ["Ann", "Bo"]), "high"))
        code = table.seats[0].code
        client = await TableClient.connect(join_link("ws", "127.0.0.1", host.port, table.id, code), "Ann")
        await client.until(lambda m: m["type"] == "state", timeout=30)
        opened, why = remote_session(client)
        print("session", opened is not None, why)
        app = SeatApp(opened())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            print(type(app.screen).__name__)
            await pilot.press("question_mark")
            await pilot.pause()
            help_text = str(app.screen.query_one("#help-text").render())
            print(type(app.screen).__name__, "Keys" in help_text, "Crew" in help_text, "seat at their table" in help_text)
            await pilot.press("escape")
            for _ in range(400):  # Ann plays whenever the host offers her a card; the host's bot plays Bo
                if type(app.screen).__name__ == "ToyEndScreen" or table.game.is_over() and _ > 300:
                    break
                await pilot.press("enter")
                await pilot.pause(0.02)
            print(type(app.screen).__name__, table.game.is_over())
            print([a["seat"] for a in table.game.record()["actions"]].count(0))
            print("Bo won" in str(app.screen.words) or "Ann won" in str(app.screen.words) or "Ann and Bo" in str(app.screen.words))
        await client.close()
    finally:
        await host.stop()

asyncio.run(main())
"""


def test_join_draws_a_seat_at_its_hosted_table_with_its_own_table(site: Path, tmp_path: Path) -> None:
    """``crewkit join`` of a hosted toy table: the family's own remote session (in its package, on the shell's
    ``HostSeat``) and table screen; the seat's help is the family's (it has none: the keys every table has, no
    word of the Crew); Ann's plays go to the host, which plays its bot, and the game ends on the seat's screen."""
    out = crewkit_python(site, "-c", JOIN_AT_THE_TABLE, str(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines() == ["session True ", "ToyTable", "HelpScreen True False True",
                                       "ToyEndScreen True", "6", "True"], out.stdout + out.stderr


def test_host_and_join_plain_play_it_as_processes(site: Path, tmp_path: Path) -> None:
    """``crewkit host --ruleset toy --players 2 --seats human,bot`` and ``crewkit join --plain`` as the person runs
    them: Ann plays her six cards by number when the host offers them, the game ends, the host writes its record."""
    from tests.net.test_next_game_processes import Lines, _type

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), PYTHONUNBUFFERED="1")
    errors = (tmp_path / "host-errors.txt").open("w")
    host = subprocess.Popen([sys.executable, "-m", "crewkit", "host", "--ruleset", "toy", "--players", "2", "--seats",
                             "human,bot", "--names", "Ann,Bo", "--seed", "toy-host", "--port", "0", "--delay", "0",
                             "--dir", str(tmp_path / "tables")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True, env=env, cwd=ROOT)
    client: subprocess.Popen[str] | None = None
    try:
        said = Lines(host)
        link = said.until(lambda line: "crewkit join '" in line, "with Ann's link").split("'")[1]
        said.until(lambda line: line.startswith("listening on"), "saying the host listens")
        client = subprocess.Popen([sys.executable, "-m", "crewkit", "join", "--plain", link],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  env=env, cwd=ROOT)
        ann = Lines(client)
        welcome = ann.until(lambda line: "You are Ann" in line, "welcoming Ann")
        assert "communication window" not in welcome and "review" not in welcome  # the toy has neither
        for _ in range(6):
            ann.until(lambda line: line.strip().startswith("1. play-number"), "offering Ann a card")
            _type(client, "1")
        over = ann.until(lambda line: line.startswith("Game over."), "saying the game is over")
        assert " won " in over
        _type(client, "q")
        assert client.wait(timeout=60) == 0
        records = list((tmp_path / "tables").glob("*/record.json"))
        assert len(records) == 1
        record = json.loads(records[0].read_text(encoding="utf-8"))
        assert record["family"] == "toy" and len(record["actions"]) == 12
    finally:
        for process in (client, host):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
        errors.close()
