"""The terminal app shows strangers' text escaped (issue 26): every string field of a hostile campaign, its
missions and rule set, a Not Alone rule set and its card files, a record and an option is swept through the
app's screens (Textual's pilot) and no ESC, OSC, BEL, C1 control or bidirectional override reaches the
terminal, nor is markup (``[@click=app.quit]``) read from it.

What the terminal would receive is taken from every widget's own lines (``Widget.render_lines``, what Textual's
compositor draws), with the app's last line of defence (:class:`crewkit.tui.safe.SafeLines`) switched off: the
escaping must happen where the text enters (:func:`crewkit.tui.safe.shown`), the filter only catches what
slips through. A second pass with the filter on checks the guarantee itself.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.errors import NoWidget
from textual.widget import Widget

from crewkit.tui.safe import SAFE_LINES
from tests.untrusted.harness import ROOT

SIZE = (120, 40)
# ESC ] 0 (retitle), ESC ] 52 (clipboard), BEL, ESC [ 2 J (clear), C1 CSI, a right-to-left override, markup
PAYLOAD_YAML = r"\e]0;PWNED\a\e]52;c;SGk=\a\e[2J\x9b31m\u202e[@click=app.quit]Q[/][link=https://evil.example]L[/]"
PAYLOAD = json.loads('"' + PAYLOAD_YAML.replace(r"\e", r"\u001b").replace(r"\a", r"\u0007")
                     .replace(r"\x9b", r"\u009b") + '"')
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _p(tag: str) -> str:
    """The payload in a YAML double-quoted string, tagged with the field it is in."""
    return f'"{tag}{PAYLOAD_YAML}"'


# ------------------------------------------------------------------------------------ what the terminal gets
def _widgets(node: Any) -> Iterator[Widget]:
    for child in node.displayed_children:
        yield child
        yield from _widgets(child)


def terminal_lines(app: Any) -> list[str]:
    """The text of every line every displayed widget of every screen of the stack draws, as drawn."""
    out: list[str] = []
    for screen in app.screen_stack:
        for widget in [screen, *_widgets(screen)]:
            try:
                region = screen.find_widget(widget).visible_region
            except NoWidget:
                continue
            if not region.area:
                continue
            for strip in widget.render_lines(region.reset_offset):
                out.append("".join(segment.text for segment in strip if segment.control is None))
    return out


def assert_clean(app: Any, where: str) -> str:
    lines = terminal_lines(app)
    bad = [line for line in lines if RAW.search(line)]
    assert not bad, f"{where}: a control character reaches the terminal: {bad[0]!r}"
    text = "\n".join(lines)
    squeezed = re.sub(r"\s+", "", text)  # a long line wraps
    assert "evil.example]L" in squeezed or "PWNED" not in squeezed, f"{where}: markup was read: {text[:300]!r}"
    return text


@pytest.fixture(params=[False, True], ids=["at-the-boundary", "with-the-filter"])
def safe_lines(request: pytest.FixtureRequest) -> Iterator[bool]:
    SAFE_LINES.enabled = request.param
    try:
        yield request.param
    finally:
        SAFE_LINES.enabled = True


# ------------------------------------------------------------------------------------ a hostile campaign
def _hostile_campaign(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(f"""\
name: hostile
title: {_p("campaign-title")}
description: {_p("campaign-description")}
ruleset: ./rs.yaml
players: [4]
missions:
  - mission: m1.yaml
    title: {_p("entry-title")}
    chapter: {{title: {_p("chapter-title")}, text: {_p("chapter-text")}}}
  - m2.yaml
  - bad.yaml
""", encoding="utf-8")
    (folder / "rs.yaml").write_text(f"""\
name: hostile-rules
extends: crew
title: {_p("ruleset-title")}
description: {_p("ruleset-description")}
readings:
  - id: hostile-reading
    question: {_p("reading-question")}
    source: {_p("reading-source")}
    choice: a
    options:
      a: {{text: {_p("option-a")}}}
      b: {{text: {_p("option-b")}, overrides: {{play: {{must_follow: true}}}}}}
""", encoding="utf-8")
    mission = f"""\
number: 1
title: {_p("mission-title")}
description: {_p("mission-description")}
rulesets: [crew]
tasks: {{count: 1, tokens: []}}
symbols: {{}}
setup:
  - ask: {{question: {_p("ask-question")}, answers: [{_p("answer-1")}, {_p("answer-2")}], who: all}}
  - choose_player: {{role: sick, by: commander, exclude: [commander]}}
conditions:
  - id: sick-wins-nothing
    fail_if: "tricks_played > 0 or tricks_won(sick) > 0"
    reason: {_p("condition-reason")}
unsupported:
  note: {_p("unsupported-note")}
"""
    (folder / "m1.yaml").write_text(mission, encoding="utf-8")
    (folder / "m2.yaml").write_text(mission.replace("number: 1", "number: 2"), encoding="utf-8")
    (folder / "bad.yaml").write_text("number: [\n", encoding="utf-8")  # broken: its error names the folder
    return folder


class FirstLegal:
    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, obs: Any) -> Any:
        return next(a for a in obs.legal if type(a).__name__ not in ("Communicate", "Distress"))

    def optional(self, obs: Any) -> None:
        return None


def _services(home: Path) -> Any:
    from crewkit.tui.services import FileSaves, MemoryLogbook, Services

    return Services(bot_factory=lambda name, seat, seed: FirstLegal(seat), logbook=MemoryLogbook(),
                    saves=FileSaves(lambda: home), home=lambda: home)


async def _settle(pilot: Any, rounds: int = 100) -> None:
    for _ in range(rounds):
        await pilot.pause()
        table = pilot.app.table()
        if table is None or not table._scheduled:
            await pilot.pause()
            return


async def test_a_hostile_campaign_through_every_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      safe_lines: bool) -> None:
    from crewkit.families.trick_taking.tui.end import EndScreen
    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions
    from crewkit.tui.screens.briefing import BriefingScreen
    from crewkit.tui.screens.campaign import CampaignScreen

    home = tmp_path / "home"
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    folder = _hostile_campaign(tmp_path / "c\x1b]0;DIR\x07")
    options = PlayOptions(campaign=str(folder), seats=["bot"] * 4, fast=True, seed=f"seed{PAYLOAD}", players=4)
    app = CrewApp(options, services=_services(home))
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        seen.append(assert_clean(app, "campaign screen"))
        for key, where in (("l", "logbook"), ("question_mark", "help")):
            await pilot.press(key)
            await _settle(pilot)
            seen.append(assert_clean(app, where))
            await pilot.press("escape")
            await _settle(pilot)
        await pilot.press("c")  # the campaign chooser
        await _settle(pilot)
        seen.append(assert_clean(app, "chooser"))
        await pilot.press("escape")
        await _settle(pilot)
        app.show_campaign()
        await _settle(pilot)
        app.open_briefing("bad.yaml")  # the broken mission: its error names the hostile folder
        await _settle(pilot)
        seen.append(assert_clean(app, "a broken mission's briefing"))
        await pilot.press("escape")
        await _settle(pilot)
        app.open_briefing("m1.yaml")
        await _settle(pilot)
        assert isinstance(app.screen, BriefingScreen), type(app.screen)
        seen.append(assert_clean(app, "briefing"))
        await pilot.press("enter")
        for _ in range(400):
            await _settle(pilot)
            seen.append(assert_clean(app, f"table ({type(app.screen).__name__})"))
            if isinstance(app.screen, EndScreen) or app.fatal_message:
                break
            await pilot.press("enter")
        assert isinstance(app.screen, EndScreen), (type(app.screen), app.fatal_message)
        seen.append(assert_clean(app, "end of the mission"))
        await pilot.press("v")  # compare variants: the rule set's readings by name
        await _settle(pilot)
        seen.append(assert_clean(app, "compare"))
    text = "\n".join(seen)
    for tag in ("campaign-title", "entry-title", "chapter-title", "mission-title", "mission-description",
                "condition-reason", "ask-question"):
        assert tag in text, f"{tag} was never shown: the sweep did not reach it"
    if not safe_lines:  # written out where it entered, not dropped by the filter
        assert "\\x1b]0;PWNED\\x07" in text


async def test_a_mission_file_named_by_its_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               safe_lines: bool) -> None:
    """``crewkit play --mission DIR/m1.yaml``: the path (a folder named hostile) is the mission's name on every
    screen: the briefing, the table's header, the end, the logbook."""
    from crewkit.families.trick_taking.tui.end import EndScreen
    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions

    home = tmp_path / "home"
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    folder = _hostile_campaign(tmp_path / "d\x1b]0;DIR\x07")
    app = CrewApp(PlayOptions(mission=str(folder / "m1.yaml"), seats=["bot"] * 4, fast=True, players=4),
                  services=_services(home))
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        assert_clean(app, "briefing of a mission file")
        await pilot.press("enter")
        for _ in range(400):
            await _settle(pilot)
            assert_clean(app, f"table ({type(app.screen).__name__})")
            if isinstance(app.screen, EndScreen) or app.fatal_message:
                break
            await pilot.press("enter")
        assert isinstance(app.screen, EndScreen), (type(app.screen), app.fatal_message)
        await pilot.press("l")
        await _settle(pilot)
        assert_clean(app, "logbook")


async def test_a_resumed_attempt_with_a_hostile_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    safe_lines: bool) -> None:
    """A save in the user's folder (a record) holding a hostile seed: the resume dialog shows it written out."""
    from crewkit.tui.app import CrewApp
    from crewkit.tui.launch import PlayOptions
    from crewkit.tui.screens.dialogs import ResumeScreen

    home = tmp_path / "home"
    monkeypatch.setenv("CREWKIT_HOME", str(home))
    services = _services(home)
    app = CrewApp(PlayOptions(mission="planet-nine/01", seats=["human", "bot", "bot", "bot"], fast=True,
                              seed=f"s{PAYLOAD}", players=4), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("enter")
        await _settle(pilot)
        await pilot.press("q")  # leave the table: the attempt is saved
        await _settle(pilot)
    app = CrewApp(PlayOptions(mission="planet-nine/01", seats=["human", "bot", "bot", "bot"], fast=True,
                              players=4), services=services)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("enter")
        await _settle(pilot)
        if isinstance(app.screen, ResumeScreen):
            text = assert_clean(app, "resume dialog")
            assert "PWNED" in text
        assert_clean(app, "after the resume question")


# ------------------------------------------------------------------------------------ a hostile Not Alone
def _hostile_not_alone(folder: Path) -> Path:
    """The bundled Not Alone rule set and card files with the payload in every text: titles, title,
    description, readings, phase labels, and each card's name, text and note."""
    import yaml

    from crewkit.spec.yamlio import load_yaml_file  # YAML 1.2, as crewkit reads it (`on:` stays a word)

    def tagged(tag: str) -> str:
        return f"{tag}{PAYLOAD}"

    shutil.copytree(ROOT / "rulesets" / "not-alone", folder / "not-alone")
    data = load_yaml_file(ROOT / "rulesets" / "not-alone.yaml").data
    data["titles"] = {key: tagged(f"{key}-title") for key in data["titles"]}
    data["title"], data["description"] = tagged("ruleset-title"), tagged("ruleset-description")
    for reading in data["readings"]:
        reading["question"] = tagged("question")
        for option in reading["options"].values():
            option["text"] = tagged("option")
    for entry in data["flow"]:
        if isinstance(entry, dict) and "label" in entry:
            entry["label"] = tagged("label")
    (folder / "rs.yaml").write_text(yaml.safe_dump(data, allow_unicode=False, sort_keys=False), encoding="utf-8")
    for name in ("places.yaml", "hunt-cards.yaml", "survival-cards.yaml"):
        path = folder / "not-alone" / name
        cards = load_yaml_file(path).data
        cards["title"] = tagged("card-set-title")
        for card in cards["cards"]:
            card["name"], card["text"], card["note"] = tagged("card-name"), tagged("card-text"), tagged("note")
        path.write_text(yaml.safe_dump(cards, allow_unicode=False, sort_keys=False), encoding="utf-8")
    return folder / "rs.yaml"


async def test_a_hostile_not_alone_rule_set_through_the_table(tmp_path: Path, safe_lines: bool) -> None:
    from crewkit.families.not_alone.tui.end import HuntEndScreen
    from crewkit.families.not_alone.tui.table import HuntTableScreen
    from crewkit.spec.errors import SpecError
    from crewkit.tui.app import CrewApp
    from crewkit.tui.options import PlayOptions
    from crewkit.tui.screens.dialogs import HandoffScreen
    from crewkit.tui.services import FileSaves, MemoryLogbook, Services

    path = _hostile_not_alone(tmp_path)
    home = tmp_path / "home"
    services = Services(bot_factory=None, logbook=MemoryLogbook(), saves=FileSaves(lambda: home),
                        home=lambda: home, stamp=lambda: "20260101-000000")
    # a seed whose game is short (8 rounds, 14 steps: 3.6 s; "seed": 12 rounds, 32 steps, 6.9 s) and shows the
    # same kinds of screen and every tag the longer one did (and the Creature's title, at its end)
    app = CrewApp(PlayOptions(ruleset=str(path), players=3, seed=f"c{PAYLOAD}", fast=True, campaign=None,
                              side="hunted"), services=services)
    try:
        app.game_session(str(path))  # the hostile file must stay a valid rule set for this sweep
    except SpecError as exc:
        raise AssertionError(exc.render()) from None
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(600):
            for _ in range(50):
                await pilot.pause()
                table = app.table()
                if table is not None and not table._scheduled:
                    break
            seen.append(assert_clean(app, f"Not Alone ({type(app.screen).__name__})"))
            if isinstance(app.screen, HuntEndScreen):
                break
            if isinstance(app.screen, HandoffScreen | HuntTableScreen):
                await pilot.press("enter")
            else:
                await pilot.press("home", "enter")
        assert isinstance(app.screen, HuntEndScreen), type(app.screen)
    text = "\n".join(seen)
    for tag in ("hunted-title", "rescue-title", "counter-title", "card-name"):
        assert tag in text, f"{tag} was never shown: the sweep did not reach it"
    if not safe_lines:  # written out where it entered (the loader, shown()), not dropped on the way
        assert "\\x1b]0;PWNED\\x07" in text


# ------------------------------------------------------------------------------------ after the app exits
def test_messages_after_the_app_exits_are_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``crewkit play`` prints why the app stopped (a file name, a condition) once it has closed."""
    from crewkit.tui import launch

    class Stopped:
        def __init__(self, options: Any) -> None:
            self.fatal_message = f"/tmp/m\x1b]0;PWNED\x07.yaml: condition `x` (fail_if): {PAYLOAD}"
            self.exit_note = f"attempt saved as {PAYLOAD}"

        def run(self) -> int:
            return 1

    monkeypatch.setattr("crewkit.tui.app.CrewApp", Stopped)
    assert launch.run_play(launch.PlayOptions()) == 1
    out = capsys.readouterr()
    assert not RAW.search(out.out + out.err), repr(out.out + out.err)
    assert "m\\x1b]0;PWNED\\x07.yaml" in out.err
