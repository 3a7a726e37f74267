"""Rule-set keys the engine once accepted and ignored, now played: first_leader {holder_of}, tasks.draft_start,
distress.extra_attempts, commander {dealer}, tasks.cards.include, tasks.tokens, secret.reveal_when_done; and
the deal and DSL checks that ``crewkit validate`` and the engine now share."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.campaign.store import Attempt, Logbook, mission_progress
from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.game import DRAFT, Game, deal_from_strings
from crewkit.families.trick_taking.engine.rules import compile_rules
from crewkit.families.trick_taking.engine.scoring import compile_scoring
from crewkit.families.trick_taking.engine.setup import logbook_extra_attempts, new_game
from crewkit.spec import bundled
from crewkit.spec.errors import SpecError
from crewkit.spec.files import check_file
from crewkit.spec.loader import (
    check_ruleset_semantics,
    load_doc,
    load_mission,
    mission_model,
    resolve_ruleset_data,
    ruleset_model,
)
from crewkit.spec.merge import merge
from crewkit.spec.model import Mission, RuleSet

ROOT = Path(__file__).resolve().parents[2]


def ruleset(name: str, patch: dict[str, Any] | None = None) -> dict[str, Any]:
    data, issues, _ = resolve_ruleset_data(bundled.ruleset_path(name))
    assert not issues
    return merge(data, patch or {})


def typed(data: dict[str, Any]) -> RuleSet:
    """The spec layer's typed rule set of a (patched) resolved document, as the loader builds it."""
    return ruleset_model(bundled.ruleset_path(str(data["name"])), data)


def mission(ref: str) -> Mission:
    return load_mission(ref)


# four hands of ten: seat 0 holds rocket 4 (the commander), seat 2 holds blue 1
HANDS = [
    ["rocket 4", "pink 1", "pink 2", "pink 3", "pink 4", "pink 5", "pink 6", "pink 7", "pink 8", "pink 9"],
    ["rocket 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6", "blue 7", "blue 8", "blue 9", "green 1"],
    ["blue 1", "rocket 2", "green 2", "green 3", "green 4", "green 5", "green 6", "green 7", "green 8", "green 9"],
    ["rocket 3", "yellow 1", "yellow 2", "yellow 3", "yellow 4", "yellow 5", "yellow 6", "yellow 7", "yellow 8",
     "yellow 9"],
]


def crew_game(patch: dict[str, Any], hands: list[list[str]] = HANDS, tasks: tuple[str, ...] = ("pink 1",)) -> Game:
    rules = compile_rules(typed(ruleset("crew", patch)), mission("planet-nine/01"), 4, mission_id="planet-nine/01")
    return Game.new(rules, seed="t", deal=deal_from_strings(rules, hands, tasks))


# ---------------------------------------------------------------------------- first_leader: {holder_of: CARD}
def test_holder_of_first_leader_leads_the_first_trick_while_the_commander_drafts_first() -> None:
    game = crew_game({"first_leader": {"holder_of": "blue 1"}})
    assert game.commander == 0
    assert game.phase == DRAFT and game.draft_turn == 0  # crew.yaml: draft_start: commander
    game.apply(TakeTask(0, game.rules.deck.card("pink 1")))
    assert game.leader == 2 and game.turn == 2  # blue 1's holder leads, not the commander


def test_holder_of_first_leader_also_starts_the_draft_when_asked() -> None:
    game = crew_game({"first_leader": {"holder_of": "blue 1"}, "tasks": {"draft_start": "first-leader"}})
    assert game.draft_turn == 2


def test_default_first_leader_is_still_the_commander() -> None:
    game = crew_game({})
    assert game.leader == game.commander == 0


def test_holder_of_a_card_nobody_holds_leaves_the_lead_to_the_commander() -> None:
    # hands of 13/13/13 and one card set aside unseen
    data = ruleset("crew", {"first_leader": {"holder_of": "green 9"}, "players": [3],
                            "deal": {"hands": {"3": 13}, "set_aside": {"3": 1}}})
    rules = compile_rules(typed(data), mission("planet-nine/02"), 3, mission_id="planet-nine/02")
    for seed in range(1000):
        try:
            game = Game.new(rules, seed=str(seed))
        except SetupError:  # rocket 4 itself was set aside: no commander
            continue
        held = [s for s, h in enumerate(game.hands) if h & rules.deck.card("green 9").bit]
        assert game.leader == (held[0] if held else game.commander)
        if not held:
            return
    pytest.fail("no seed in 1000 set green 9 aside")


def test_holder_of_an_unknown_card_is_refused_by_validate(tmp_path: Path) -> None:
    path = tmp_path / "lead.yaml"
    path.write_text("name: lead\nextends: crew\ntitle: t\nfirst_leader: {holder_of: rocket 9}\n", encoding="utf-8")
    issues = check_file(path, "ruleset")
    assert [(i.line, i.column) for i in issues] == [(4, 27)], issues
    assert "rocket has no card '9'" in issues[0].message


# ---------------------------------------------------------------------------- distress.extra_attempts
def attempt(result: str, distress: bool, ruleset_name: str = "crew") -> Attempt:
    return Attempt(1, "c", "m", 4, ruleset_name, "s", result, "", distress, datetime.now(UTC), None)


def test_logbook_adds_the_rule_sets_extra_attempts(tmp_path: Path) -> None:
    two = tmp_path / "two.yaml"
    two.write_text("name: two\nextends: crew\ntitle: t\ndistress: {extra_attempts: 2}\n", encoding="utf-8")
    none = tmp_path / "none.yaml"
    none.write_text("name: none\nextends: crew\ntitle: t\ndistress: {extra_attempts: 0}\n", encoding="utf-8")
    assert logbook_extra_attempts("crew") == 1
    assert logbook_extra_attempts(str(two)) == 2
    assert logbook_extra_attempts(str(none)) == 0
    history = [attempt("failure", True), attempt("success", False, str(two))]
    assert mission_progress("m", history, logbook_extra_attempts).attempts == 2 + 2
    history = [attempt("failure", True), attempt("success", False, str(none))]
    assert mission_progress("m", history, logbook_extra_attempts).attempts == 2
    assert mission_progress("m", history).attempts == 3  # the rule book's +1 without a rule set to ask


def test_logbook_store_counts_extra_attempts(tmp_path: Path) -> None:
    rs = tmp_path / "three.yaml"
    rs.write_text("name: three\nextends: crew\ntitle: t\ndistress: {extra_attempts: 3}\n", encoding="utf-8")
    with Logbook.open(tmp_path / "logbook.sqlite3") as book:
        book.record_attempt(campaign="c", mission="m", players=4, ruleset=str(rs), seed="1", result="success",
                            reason="", distress_used=True)
        assert book.progress("c", ["m"], logbook_extra_attempts)[0].attempts == 4
        assert book.progress("c", ["m"])[0].attempts == 2


# ---------------------------------------------------------------------------- commander, tasks, secret cards
def test_hammer_dealer_commands_each_round() -> None:
    game = new_game("hammer", "hammer", 4, seed="c")
    assert game.rules.commander_is_dealer
    assert game.commander == game.dealer


def test_included_task_cards_join_the_pool() -> None:
    rules = compile_rules(typed(ruleset("crew", {"tasks": {"cards": {"include": ["rocket 1"]}}})),
                          mission("planet-nine/02"), 4)
    assert "rocket 1" in {c.name for c in rules.task_pool}
    assert len(rules.task_pool) == 37


def test_mission_token_unknown_to_the_rule_set_is_refused_by_the_engine() -> None:
    with pytest.raises(SetupError, match="task token '1' is not among the rule set's tokens"):
        compile_rules(typed(ruleset("crew", {"tasks": {"tokens": ["omega"]}})), mission("planet-nine/03"), 4)


@pytest.mark.parametrize("reveal", [True, False])
def test_secret_card_revealed_when_done_only_if_the_rule_set_says_so(reveal: bool) -> None:
    from crewkit.families.trick_taking.bots.registry import make_bot
    from crewkit.families.trick_taking.family import play_game

    data = ruleset("crew-persian", {"tasks": {"secret": {"reveal_when_done": reveal}}})
    from crewkit.families.trick_taking.engine import setup

    real = setup.load_ruleset

    def patched(ref: str, readings: Any = None) -> Any:
        rs = real(ref, readings)
        return ruleset_model(rs.path, data, rs.readings) if ref == "crew-persian" else rs

    setup.load_ruleset = patched  # type: ignore[assignment]
    try:
        rules, _, _ = setup._compile_named("crew-persian", "persian", 4, ())
    finally:
        setup.load_ruleset = real  # type: ignore[assignment]
    for seed in range(30):
        game = Game.new(rules, seed=str(seed))
        play_game(game, [make_bot("heuristic", s, seed=str(seed)) for s in range(4)])
        done = [t for t in game.tasks if t.trick is not None]
        if done:
            assert all(t.revealed == reveal for t in done)
            return
    pytest.fail("no secret mission card was completed in 30 games")


# ---------------------------------------------------------------------------- one deal arithmetic
def test_jarvis_hands_of_19_refused_by_validate_and_engine_alike() -> None:
    data = ruleset("crew-jarvis", {"deal": {"hands": {"2": 19}}})
    doc = load_doc(bundled.ruleset_path("crew-jarvis"))
    issues = check_ruleset_semantics(data, doc)
    assert [i.message for i in issues] == [
        "with 2 players the deal needs 52 cards (38 in the hands, 14 for the dummy's columns) but the deck has 40"]
    with pytest.raises(SetupError) as err:
        compile_rules(typed(data), mission("planet-nine/02"), 2)
    assert str(err.value) == issues[0].message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands=st.integers(8, 22), aside=st.integers(0, 6), columns=st.integers(1, 9),
       down=st.integers(0, 2), up=st.integers(1, 2))
def test_validate_and_engine_agree_on_every_deal(hands: int, aside: int, columns: int, down: int, up: int) -> None:
    data = ruleset("crew-jarvis", {"deal": {"hands": {"2": hands}, "set_aside": aside},
                                   "dummy": {"columns": columns, "face_down": down, "face_up": up}})
    doc = load_doc(bundled.ruleset_path("crew-jarvis"))
    refused_by_validate = bool(check_ruleset_semantics(data, doc))
    try:
        compile_rules(typed(data), mission("planet-nine/02"), 2)
        refused_by_engine = False
    except SetupError:
        refused_by_engine = True
    assert refused_by_validate == refused_by_engine
    assert refused_by_engine == (2 * hands + aside + columns * (down + up) > 40)


def test_spec_layer_checks_without_the_engine() -> None:
    code = (
        "import sys\n"
        "from crewkit.spec.files import check_file\n"
        "from crewkit.spec import bundled\n"
        "assert not check_file(bundled.ruleset_path('crew-jarvis'), 'ruleset')\n"
        "assert not check_file(bundled.mission_path('planet-nine/16'), 'mission')\n"
        "assert not check_file(bundled.mission_path('hammer/02'), 'mission')\n"
        "print(sorted(m for m in sys.modules if m.startswith('crewkit.engine')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------- one table of DSL sites
def test_a_penalty_score_that_is_not_a_number_is_refused_before_the_engine() -> None:
    """The spec layer checks a mission card's formulas (once) as it builds the typed model the engine compiles."""
    card = {"number": 9, "title": "t", "scoring": {"penalty": {"score": "tricks_won(p) > 0"}}}
    path = bundled.mission_path("hammer/01")
    with pytest.raises(SpecError, match="scoring.*expected a number, found a boolean"):
        mission_model("hammer/09", path, card, ruleset("hammer"))
    card["scoring"]["penalty"]["score"] = "tricks_won(p) * 2"
    hammer = typed(ruleset("hammer"))
    assert hammer.rounds is not None and hammer.deck is not None
    rules = compile_scoring(hammer.rounds, [mission_model("hammer/09", path, card, ruleset("hammer"))], hammer.deck)
    assert rules.missions[0].penalty_score is not None
    assert rules.missions[0].penalty_score.dsl_text == "tricks_won(p) * 2"  # type: ignore[attr-defined]


def test_dsl_sites_cover_every_dsl_key_of_the_schemas() -> None:
    import json

    from crewkit.spec.dslsites import SITES

    found: set[tuple[str, tuple[str, ...]]] = set()
    for kind in ("ruleset", "mission", "task-cards"):
        schema = json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))

        def walk(node: Any, path: tuple[str, ...], kind: str = kind, schema: Any = schema) -> None:
            if not isinstance(node, dict) or len(path) > 8:
                return
            if node.get("$ref") == "#/$defs/dsl":
                found.add((kind, path))
                return
            if "$ref" in node:
                walk(schema["$defs"][node["$ref"].rsplit("/", 1)[-1]], path)
            for key, sub in (node.get("properties") or {}).items():
                if key != "readings":  # an option's overrides repeat the document's sites
                    walk(sub, (*path, key))
            if isinstance(node.get("items"), dict):
                walk(node["items"], (*path, "*"))
            for sub in node.get("anyOf", []):
                walk(sub, path)

        walk(schema, ())
    expressions = {(s.kind, s.path) for s in SITES if not s.template}
    assert found == expressions


def test_mission_readings_are_in_force_in_the_compiled_rules() -> None:
    rules = compile_rules(typed(ruleset("crew")), mission("planet-nine/16"), 4)
    assert rules.readings.get("early-success") == "all-nines-out"
