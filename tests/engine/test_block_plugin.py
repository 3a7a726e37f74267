"""A kind of rule added from outside crewkit: a package installs blocks through the ``crewkit.blocks`` entry points.

The package below (written to a temporary site folder with its dist-info, as pip would install it) adds a
*bidding* phase (each seat announces how many tricks it will win) and a *bids-kept* block (the mission fails
as soon as a seat wins more tricks than it announced, or when the hands run out with a bid unmet). A rule set
names them in ``flow:`` and ``blocks:``; crewkit's code is not edited.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from crewkit.engine import actions as actions_module
from crewkit.engine import phase as phase_module
from crewkit.engine import registry
from crewkit.engine.actions import ACTION_TYPES, action_from_json
from crewkit.engine.errors import IllegalAction, SetupError
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.spec.bundled import TRICK_TAKING
from crewkit.spec.errors import SpecError

PACKAGE = '''
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crewkit.engine.actions import Action, ActionFormatError, register_action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import Block
from crewkit.families.trick_taking.engine.state import Event


@dataclass(frozen=True, slots=True)
class Bid(Action):
    tricks: int
    type = "bid"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "tricks": self.tricks}


def read_bid(obj, seat, deck):
    tricks = obj.get("tricks")
    if not isinstance(tricks, int) or isinstance(tricks, bool):
        raise ActionFormatError(f"a bid action needs 'tricks' (a number), found {tricks!r}")
    return Bid(seat, tricks)


register_action(Bid, read_bid)


def next_bidder(g):
    for i in range(g.n):
        seat = (g.leader + i) % g.n
        if seat not in g.bids:
            return seat
    return None


def bid(g, a):
    if g.phase != "bidding":
        raise IllegalAction("not-bidding", "tricks are announced only before the first trick")
    if a.seat != next_bidder(g):
        raise IllegalAction("not-your-turn", f"seat {a.seat} cannot announce now: seat {next_bidder(g)} announces")
    if not 0 <= a.tricks <= g.total_tricks:
        raise IllegalAction("bad-bid", f"a bid is 0 to {g.total_tricks} tricks, not {a.tricks}")
    g.bids[a.seat] = a.tricks
    g.events.append(Event("bid", a.seat, None, f"{a.tricks} tricks"))
    if len(g.bids) == g.n:
        g.advance()


class Bidding(Block):
    name = "bidding"
    phase = "bidding"

    def actions(self):
        return {Bid: bid}

    def start(self, g):
        g.bids = {}

    def enter(self, g):
        g.bids = {}
        return True

    def to_act(self, g):
        return next_bidder(g)

    def legal(self, g, seat):
        if seat != next_bidder(g):
            return []
        return [Bid(seat, k) for k in range(g.total_tricks + 1)]

    def describe(self, g):
        return f"bidding, seat {next_bidder(g)} to announce"

    def not_playing(self, g):
        return "cards are played only after every seat has announced its tricks"

    def clone_state(self, g, other):
        other.bids = dict(g.bids)


def kept(g, trick, mask):
    seat = trick.winner
    if g.tricks_won[seat] > g.bids[seat]:
        g.fail(f"failed in trick {trick.number}: seat {seat} won more than the {g.bids[seat]} tricks it announced",
               trick.number)
        return True
    if trick.number >= g.total_tricks:
        unmet = [s for s in range(g.n) if g.tricks_won[s] != g.bids[s]]
        if unmet:
            g.fail(f"failed after trick {trick.number}: seat {unmet[0]} won {g.tricks_won[unmet[0]]} tricks, "
                   f"not the {g.bids[unmet[0]]} it announced", trick.number)
            return True
    return False


class BidsKept(Block):
    name = "bids-kept"
    order = 25  # before the mission's own end check

    def trick_end(self):
        return kept
'''

ENTRY_POINTS = "[crewkit.blocks]\nbidding = crewkit_bidding:Bidding\nbids-kept = crewkit_bidding:BidsKept\n"

RULESET = """\
name: crew-bidding
extends: crew
title: "The Crew, with bids"
description: Each seat announces how many tricks it will win; every bid must be met exactly.
players: [3, 4]
flow: [setup, draft, bidding, tricks]
blocks: [bids-kept]
"""

MISSION = """\
number: 1
title: Announced
rulesets: [crew]
tasks:
  count: 0
  tokens: []
symbols: {}
"""


@pytest.fixture
def bidding_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    site = tmp_path / "site"
    (site / "crewkit_bidding").mkdir(parents=True)
    (site / "crewkit_bidding" / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    info = site / "crewkit_bidding-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: crewkit-bidding\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    registry.load_family_blocks(TRICK_TAKING)  # crewkit's own blocks registered before the copy is taken: those
    # imported while it is in place would register into the copy only, and be gone for the tests after this one
    monkeypatch.setattr(phase_module, "BLOCKS", dict(phase_module.BLOCKS))
    monkeypatch.setattr(registry, "BLOCKS", phase_module.BLOCKS)
    (tmp_path / "crew-bidding.yaml").write_text(RULESET, encoding="utf-8")
    (tmp_path / "announced.yaml").write_text(MISSION, encoding="utf-8")
    types, readers = dict(ACTION_TYPES), dict(actions_module._READERS)
    yield tmp_path
    for table, saved in ((ACTION_TYPES, types), (actions_module._READERS, readers)):
        table.clear()
        table.update(saved)  # type: ignore[arg-type]
    sys.modules.pop("crewkit_bidding", None)


def test_the_blocks_of_an_installed_package_are_found_by_name(bidding_package: Path) -> None:
    assert "bidding" not in phase_module.BLOCKS
    block = registry.block_named("bidding")
    assert type(block).__module__ == "crewkit_bidding" and block.phase == "bidding"
    assert registry.block_named("bids-kept").name == "bids-kept"


def _game(folder: Path, seed: str, players: int = 3):  # type: ignore[no-untyped-def]
    return new_game(str(folder / "crew-bidding.yaml"), str(folder / "announced.yaml"), players, seed=seed)


def test_a_rule_set_with_a_bidding_phase_is_played_through(bidding_package: Path) -> None:
    results = set()
    for i in range(12):
        game = _game(bidding_package, f"bid{i}")
        assert game.blocks[:4] == ("setup", "draft", "bidding", "tricks") and "bids-kept" in game.blocks
        assert game.phase == "bidding" and game.to_act == game.commander  # no setup steps, no tasks to draft
        assert game.outcome().reason == f"bidding, seat {game.commander} to announce"
        with pytest.raises(IllegalAction) as exc:
            game.apply(Play(game.to_act, game.hand(game.to_act)[0]))  # type: ignore[arg-type]
        assert exc.value.code == "not-playing" and "announced its tricks" in str(exc.value)
        rng = random.Random(i)
        while not game.is_over():
            actions = game.legal_actions()
            game.apply(rng.choice(actions))
            if game.phase == "bidding":
                clone = game.clone()
                assert clone.bids == game.bids and clone.bids is not game.bids
        bids = game.bids  # type: ignore[attr-defined]
        assert len(bids) == 3 and [e.kind for e in game.events].count("bid") == 3
        kept = all(game.tricks_won[s] == bids[s] for s in range(3))
        assert (game.outcome().result == "success") == kept, game.outcome()
        if not kept:
            assert "announced" in game.outcome().reason
        results.add(game.outcome().result)
    assert results == {"success", "failure"} or results == {"failure"}


def test_a_bid_met_exactly_succeeds_and_one_exceeded_fails_at_once(bidding_package: Path) -> None:
    game = _game(bidding_package, "exact")
    probe = game.clone()
    for _ in range(3):
        probe.apply(probe.legal_actions()[0])  # everyone announces 0 tricks
    while not probe.is_over():
        probe.apply(probe.legal_actions()[0])
    assert probe.outcome().result == "failure" and "won more than the 0 tricks" in probe.outcome().reason
    assert probe.outcome().trick == 1  # as soon as the first trick's winner exceeded its bid
    high = game.clone()
    for _ in range(3):
        high.apply(high.legal_actions()[-1])  # everyone announces every trick: never exceeded, never met
    while not high.is_over():
        high.apply(high.legal_actions()[0])
    assert high.outcome().result == "failure" and "not the" in high.outcome().reason
    assert high.outcome().trick == high.total_tricks
    won = list(high.tricks_won)
    for _ in range(3):  # the same plays after announcing exactly what each seat won
        seat = game.to_act
        game.apply(next(a for a in game.legal_actions() if a.tricks == won[seat]))  # type: ignore[attr-defined,index]
    for action in high.actions[3:]:
        game.apply(action)
    assert game.outcome().result == "success", game.outcome()


def test_the_bid_action_has_a_json_form(bidding_package: Path) -> None:
    game = _game(bidding_package, "json")
    action = game.legal_actions()[1]
    assert action.to_json() == {"seat": action.seat, "type": "bid", "tricks": 1}
    assert action_from_json(action.to_json(), game.rules.deck) == action
    with pytest.raises(ValueError, match="needs 'tricks'"):
        action_from_json({"seat": 0, "type": "bid", "tricks": "two"}, game.rules.deck)


def test_an_unknown_block_in_a_flow_is_named_with_its_position(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(RULESET.replace("bidding, tricks", "auction, tricks"), encoding="utf-8")
    (tmp_path / "m.yaml").write_text(MISSION, encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        new_game(str(tmp_path / "r.yaml"), str(tmp_path / "m.yaml"), 3, seed="x")
    issue = exc.value.issues[0]
    assert (issue.line, issue.path) == (6, ("flow", 2))
    assert "no building block 'auction'; known: setup, draft, tricks, choose-mission" in issue.message


def test_a_flow_compiled_without_the_spec_layer_names_an_unknown_block() -> None:
    import dataclasses

    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.setup import compile_game

    rules = dataclasses.replace(compile_game("crew", "planet-nine/01", 3), flow=("setup", "auction", "tricks"))
    with pytest.raises(SetupError, match="no building block 'auction'; blocks: .*tricks"):
        Game.new(rules, seed="x")


def test_a_game_with_a_plug_in_action_is_written_and_replayed_from_its_record_file(
    bidding_package: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record names the plug-in's action type (``bid``); the record schema admits it, the reader registered by
    the package reads it back, and ``crewkit replay`` replays the file to the same outcome."""
    from crewkit.cli import main
    from crewkit.families.trick_taking.engine.record import write_record

    game = _game(bidding_package, "record")
    rng = random.Random(5)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    path = bidding_package / "bidding-game.json"
    write_record(game, path)
    assert '"type": "bid"' in path.read_text(encoding="utf-8")
    assert main(["replay", str(path), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert game.outcome().result in out and "Traceback" not in out
    assert main(["validate", str(path)]) == 0  # validate reads a record as replay does
    assert "1 file checked: all valid" in capsys.readouterr().out
    # a misspelt plug-in action is refused with where it is and what was expected, not a traceback
    path.write_text(path.read_text(encoding="utf-8").replace('"tricks":', '"trick":', 1), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "needs 'tricks'" in err and "Traceback" not in err


def test_a_record_with_an_action_type_nobody_knows_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the package, its action is unknown: replay names the file, line and column of the type."""
    from crewkit.cli import main

    record = {"format": "crewkit-record/1", "ruleset": "crew", "mission": "planet-nine/01", "players": 3,
              "seed": "x", "actions": [{"seat": 0, "type": "bid", "tricks": 2}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if '"bid"' in text)
    assert f"r.json:{line}:" in err and "unknown action type 'bid'" in err and "play" in err
    assert "Traceback" not in err
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"r.json:{line}:" in out and "unknown action type 'bid'" in out
