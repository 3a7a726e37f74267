"""The engine is a phase machine over blocks: one Phase type, one module per block, no game in Game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from crewkit.engine import registry
from crewkit.engine.phase import BLOCKS, Phase
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState, match_of
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.spec import blocknames
from crewkit.spec.bundled import TRICK_TAKING

ROOT = Path(__file__).resolve().parents[2] / "crewkit"
CORE_ENGINE = ROOT / "engine"  # the shared core: actions, errors, phase, registry, the phase machine, outcome
ENGINE = ROOT / "families" / "trick_taking" / "engine"  # the trick-taking engine: the game, its blocks, ...
ENGINES = (CORE_ENGINE, ENGINE)


def test_the_spec_layer_knows_the_same_block_names_as_the_registry() -> None:
    registry.load_family_blocks(TRICK_TAKING)  # imported on first need, as a rule set of the family is composed
    own = {name: cls for name, cls in BLOCKS.items()
           if cls.__module__.startswith("crewkit.families.trick_taking.engine.blocks.")}
    assert {n for n, c in own.items() if c.phase is not None} == set(blocknames.PHASES)
    assert {n for n, c in own.items() if c.phase is None} == set(blocknames.CROSS_CUTTING)
    assert set(registry.DEFAULT_BLOCKS) <= set(blocknames.CROSS_CUTTING)


def test_the_record_schema_lists_every_action_type_of_crewkits_own_blocks() -> None:
    """What lets :func:`registry.known_action_types` check a record without importing every family's blocks."""
    from crewkit.engine.actions import ACTION_TYPES
    from crewkit.games import BUNDLED, family_named
    from crewkit.spec.schema import load_schema

    for family in registry.FAMILY_BLOCK_MODULES:
        registry.load_family_blocks(family)
    for name in BUNDLED:  # a family of the phase machine registers its blocks with its package
        family_named(name)
    own = {name for name, cls in ACTION_TYPES.items() if cls.__module__.startswith("crewkit.")}
    assert own == set(load_schema("record")["$defs"]["builtin-action"]["properties"]["type"]["enum"])


def test_no_phase_is_compared_as_text_in_the_engine() -> None:
    """Phases are compared as :class:`Phase` members; a phase's name as a string appears only in Phase (and as
    a block's name, which is not a phase test)."""
    names = {p.value for p in Phase}
    found = []
    for path in (p for engine in ENGINES for p in engine.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for part in (node.left, *node.comparators):
                    if isinstance(part, ast.Constant) and part.value in names and "phase" in ast.unparse(node):
                        found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_game_knows_no_particular_game() -> None:
    source = (ENGINE / "game.py").read_text(encoding="utf-8")
    methods = re.findall(r"^    def (\w+)", source, flags=re.M)
    game_words = ("round", "mission", "chip", "dummy", "secret", "signal", "jarvis", "hammer", "persian",
                  "distress_pass", "gold", "draft", "commun")
    assert [m for m in methods if any(w in m for w in game_words)] == ["in_communication_window"]
    assert "getattr(" not in source
    assert "if self.phase ==" not in source


def test_no_engine_module_is_over_500_lines() -> None:
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for engine in ENGINES for p in engine.rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 500} == {}


def test_hammer_jarvis_and_the_persian_reading_are_compositions_named_in_their_yaml() -> None:
    hammer = new_game("hammer", "hammer", 4, seed="c")
    assert hammer.blocks[:2] == ("choose-mission", "tricks") and "chip-scoring" in hammer.blocks
    assert "objectives" not in hammer.blocks  # chip scoring stands in for the co-operative objectives
    jarvis = new_game("crew-jarvis", "planet-nine/03", 2, seed="c")
    assert "dummy-seat" in jarvis.blocks and "chip-scoring" not in jarvis.blocks
    persian = new_game("crew-persian", "persian", 4, seed="c")
    assert "secret-tasks" in persian.blocks and "dummy-seat" not in persian.blocks
    crew = new_game("crew", "planet-nine/03", 4, seed="c")
    assert crew.blocks == ("setup", "draft", "tricks", "distress", "gold-frame", "communication", "objectives",
                           "draws")
    for game in (hammer, jarvis, persian, crew):
        assert game.rules.flow == tuple(game.rules.raw_ruleset["flow"])
    assert set(jarvis.rules.raw_ruleset["blocks"]) == {"dummy-seat"}
    assert set(hammer.rules.raw_ruleset["blocks"]) == {"chip-scoring"}
    assert set(persian.rules.raw_ruleset["blocks"]) == {"secret-tasks"}


def test_a_clone_shares_blocks_and_copies_block_state() -> None:
    game = new_game("hammer", "hammer", 4, seed="clone")
    other = game.clone()
    assert other.composition is game.composition
    mine, theirs = game.state(MatchState), other.state(MatchState)
    assert theirs is not mine and theirs == mine
    assert theirs.chips is not mine.chips and theirs.round_results is not mine.round_results
    other.apply(other.legal_actions()[0])
    assert game.phase == Phase.CHOOSE_MISSION and other.phase == Phase.TRICKS
    assert mine.round_mission is None and theirs.round_mission is not None


def test_block_state_is_kept_by_its_class_only_for_the_blocks_of_the_game() -> None:
    hammer = new_game("hammer", "hammer", 4, seed="c")
    crew = new_game("crew", "planet-nine/03", 4, seed="c")
    assert match_of(hammer) is hammer.state(MatchState) and match_of(hammer) is not None
    assert match_of(crew) is None and crew.state_or_none(MatchState) is None
    with pytest.raises(KeyError):
        crew.state(MatchState)


def test_each_action_is_defined_with_the_block_that_carries_it_out() -> None:
    """One block = one place: an action and its JSON reader live in the module of the block whose handler
    takes it (the setup steps' actions beside the steps); engine/actions.py holds only what actions share."""
    from crewkit.engine import actions as actions_module
    from crewkit.engine.actions import ACTION_TYPES, Action, CardAction, CardToSeatAction

    assert "crewkit.engine.actions" not in {cls.__module__ for cls in ACTION_TYPES.values()}
    shared = vars(actions_module).values()  # the bases only: no action type of a block
    bases = (Action, CardAction, CardToSeatAction)
    assert [o for o in shared if isinstance(o, type) and issubclass(o, Action) and o not in bases] == []
    checked = 0
    for cls in BLOCKS.values():
        module = cls.__module__
        if not module.startswith("crewkit.families.trick_taking.engine.blocks."):
            continue
        for action_type in cls().actions():
            assert action_type.__module__ == module, (cls.name, action_type.__name__, action_type.__module__)
            checked += 1
    assert checked >= 7
    assert {ACTION_TYPES[t].__module__ for t in ("answer", "choose-player", "skip")} == {
        "crewkit.families.trick_taking.engine.step_actions"}
