"""Not Alone's data: the three card sets and the rule set skeleton load, check and apply on a fake game."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from effects_fake import PLACE_IDS, FakeState, ScriptedChooser, context
from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.cli import main
from crewkit.effects import CREATURE, WORDS, Card, apply_all, load_card_set, possible
from crewkit.effects.ruleset import load_effect_ruleset, ruleset_issues
from crewkit.spec.errors import SpecError

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
FOLDER = RULESETS / "not-alone"  # the card sets
PLACES = load_card_set(FOLDER / "places.yaml")
HUNT = load_card_set(FOLDER / "hunt-cards.yaml")
SURVIVAL = load_card_set(FOLDER / "survival-cards.yaml")
ALL_CARDS = [(c, "places") for c in PLACES.cards] + [(c, "hunt") for c in HUNT.cards] + [
    (c, "survival") for c in SURVIVAL.cards]


def test_card_counts_and_place_numbers() -> None:
    assert (len(PLACES.cards), len(HUNT.cards), len(SURVIVAL.cards)) == (10, 20, 15)
    assert PLACES.place_ids() == PLACE_IDS
    assert [c.id for c in PLACES.cards if c.once_per_round] == ["beach", "wreck"]
    assert [c.id for c in PLACES.cards if not c.copyable] == ["artefact"]
    assert PLACES.not_copyable() == frozenset({10})
    assert all(c.phase in (1, 2, 3, 4) for c in HUNT.cards + SURVIVAL.cards if not c.copies)
    assert [c.id for c in HUNT.cards + SURVIVAL.cards if c.copies] == ["flashback"]
    assert [c.id for c in HUNT.cards if c.token_placed == "later"] == ["despair"]
    flashback = HUNT.by_id("flashback")
    assert HUNT.copied(flashback, ["clone", "flashback"]) == HUNT.by_id("clone")
    assert HUNT.copied(flashback, []) is None


def test_every_card_is_effect_data_with_sources() -> None:
    words: set[str] = set()
    for card, kind in ALL_CARDS:
        assert card.text and card.sources, card.id
        assert card.effects or card.token or card.copies, f"{kind} card {card.id} does nothing"
        for effect in card.effects + card.passive:
            assert effect.word in WORDS and effect.file.endswith(".yaml") and effect.line > 0
            words.add(effect.word)
        # a text confirmed nowhere but in memory is never marked verified
        if set(card.sources) <= {"recollection"}:
            assert not card.verified, card.id
        else:
            assert card.verified, card.id
    nested = {e.word for c, _ in ALL_CARDS for eff in c.effects if eff.word == "one_of"
              for opt in eff["options"] for e in opt}
    assert (words | nested) == set(WORDS), f"words no card uses: {set(WORDS) - words - nested}"


def test_two_place_cards_have_a_token() -> None:
    two = sorted(c.id for c in HUNT.cards if c.places == 2)
    assert two == ["force_field", "mirage", "virus"]
    assert all(c.token for c in HUNT.cards if c.places == 2 or c.resolve == "on_token_place")


def _apply(card: Card, kind: str, state: FakeState, chooser: ScriptedChooser, place: int | None = None) -> None:
    actor = CREATURE if kind == "hunt" else 0
    ctx = context(state, chooser, actor=actor, card=card.id, place=place if kind == "places" else None,
                  affected=1 if kind == "hunt" else None)
    apply_all(ctx, card.effects)


def test_places_do_what_they_say() -> None:
    state = FakeState()
    state.piles[0].update(hand=[1], discard=[3, 4, 5], played=[2])
    _apply(PLACES.by_id("jungle"), "places", state, ScriptedChooser([4]), place=2)
    assert sorted(state.piles[0]["hand"]) == [1, 2, 4] and state.piles[0]["played"] == []
    state.tokens["creature"] = [8]
    _apply(PLACES.by_id("lair"), "places", state, ScriptedChooser(["use the power of the place holding the "
                                                                    "Creature token as if you were there"]), 1)
    assert state.powers_used == [(0, 8)]
    _apply(PLACES.by_id("wreck"), "places", state, ScriptedChooser(), 8)
    _apply(PLACES.by_id("beach"), "places", state, ScriptedChooser(), 4)
    _apply(PLACES.by_id("beach"), "places", state, ScriptedChooser(), 4)
    assert state.tracks["rescue"] == 2 and not state.marker
    _apply(PLACES.by_id("river"), "places", state, ScriptedChooser(), 3)
    _apply(PLACES.by_id("lair"), "places", state, ScriptedChooser(), 1)  # passive: extra will when caught
    assert [r.word for r in state.rules()] == []  # River is for next round; the Lair's passive is not an effect
    state.next_round()
    assert [(r.word, r.effect["resolve"]) for r in state.rules()] == [("play_place_cards", "one")]


def test_hunt_cards_make_rules_for_the_round() -> None:
    state = FakeState()
    state.tokens["target"] = [5, 10]
    for card_id in ("fierceness", "clone", "mirage", "interference"):
        _apply(HUNT.by_id(card_id), "hunt", state, ScriptedChooser())
    rules = {r.word: r for r in state.rules()}
    assert rules["token_acts_as"].effect["as"] == "creature"
    assert [r.context["places"] for r in state.rules("cancel_power")] == [[5, 10], [4, 8]]
    assert rules["extra_will_loss"].context["places"] == list(range(1, 11))
    state.next_round()
    assert state.rules() == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(range(len(ALL_CARDS))), min_size=1, max_size=25), st.integers(0, 2**32))
def test_random_card_sequences_conserve_cards_and_move_tracks_forward(picks: list[int], seed: int) -> None:
    rng = random.Random(seed)

    class RandomChooser(ScriptedChooser):
        def pick(self, who, options, count, why, labels=()):  # type: ignore[no-untyped-def, override]
            return rng.sample(list(options), min(count, len(options)))

    state = FakeState(hunted=3)
    state.tokens = {"creature": [rng.randint(1, 10)], "target": [rng.randint(1, 10)], "artemia": [rng.randint(1, 10)]}
    total = state.place_card_count()
    tracks = dict(state.tracks)
    for i in picks:
        card, kind = ALL_CARDS[i]
        if state.piles[0]["hand"] and not state.piles[0]["played"]:
            state.move_places(0, [state.piles[0]["hand"][0]], "hand", "played")
        place = card.number if kind == "places" else None
        ctx = context(state, RandomChooser(), actor=CREATURE if kind == "hunt" else 0, card=card.id, place=place,
                      affected=1)
        if all(possible(ctx, e) for e in card.effects[:1]):
            apply_all(ctx, card.effects)
        assert state.place_card_count() == total
        assert all(state.tracks[t] >= tracks[t] for t in tracks)
        tracks = dict(state.tracks)
        assert all(0 <= w <= 3 for w in state.will_.values())
        if rng.random() < 0.3:
            state.next_round()
            assert all(r.last >= state.round for r in state.book)


def test_rule_sets_load_and_the_advanced_one_extends() -> None:
    base = load_effect_ruleset(RULESETS / "not-alone.yaml")
    advanced = load_effect_ruleset(RULESETS / "not-alone-advanced.yaml")
    assert base.data["players"] == [2, 3, 4, 5, 6, 7]
    assert base.data["setup"]["reserve"] == {"1": 1, "2": 2, "3": 2, "4": 3, "5": 3, "6": 3}
    assert (base.data["counter"]["start"], base.data["decks"]["hunt"]["deal"]) == (3, 3)
    assert base.data["counter"]["at_zero"]["regain"] == 3
    assert advanced.data["counter"]["at_zero"] == {"move_track": {"assimilation": 1}, "regain": 2,
                                                   "take_back": "all"}
    assert advanced.data["name"] == "not-alone-advanced" and "extends" in advanced.data
    assert {r["id"] for r in advanced.data["readings"]} == {r["id"] for r in base.data["readings"]} | {
        "advanced-give-up"}
    assert set(base.cards) == {"places", "hunt", "survival"}
    for reading in base.data["readings"]:
        assert reading["choice"] in reading["options"]


@pytest.mark.parametrize(("old", "new", "where", "message"), [
    ('    "6": 3\n  places_in_hand', '    "7": 3\n  places_in_hand', "not-alone.yaml:59:5", "unknown key '7'"),
    ("    choice: may\n", "    choice: might\n", "not-alone.yaml:", "the choice 'might' is not one of the options"),
    ("  hunt: not-alone/hunt-cards.yaml", "  hunt: missing.yaml", "not-alone.yaml:25:9", "is not a file beside"),
    ("  hunt: not-alone/hunt-cards.yaml", "  hunt: not-alone/survival-cards.yaml", "not-alone.yaml:25:9", "is a survival card set"),
    ("players: [2, 3, 4, 5, 6, 7]", "players: [2, 3, 4]", "not-alone.yaml:12:10", "players should be"),
    ("overrides: {rules: {catch_stacking: once}}", "overrides: {rules: {catch_stacking: twice}}", "not-alone.yaml:",
     "option 'once' would give an invalid rule set"),
    ("overrides: {rules: {catch_stacking: once}}", "overrides: {rule: {catch_stacking: once}}", "not-alone.yaml:",
     "overrides a key the rule set does not have: rule"),
    ("  survival: {role: hunted,", "  survival: {role: hunter,", "not-alone.yaml:32:20", "unknown role 'hunter'"),
    ("move_track: {assimilation: 1}, refused_with_nothing_back",
     "move_track: {asimilation: 1}, refused_with_nothing_back", "not-alone.yaml:",
     "unknown track 'asimilation'"),
    ("token_order: [target, artemia, creature]", "token_order: [target, artemis, creature]", "not-alone.yaml:",
     "unknown token 'artemis'"),
    ("order: by_token", "order: by_place", "not-alone.yaml:", "by_place"),
    ("token: creature, extra_token: artemia", "token: creature, extra_token: artemis", "not-alone.yaml:",
     "unknown token 'artemis'"),
    ("  extra_token_track: rescue", "  extra_token_track: rescu", "not-alone.yaml:", "unknown track 'rescu'"),
    ("spaces_from: board_side,", "spaces_from: board_sid,", "not-alone.yaml:", "unknown option 'board_sid'"),
    # a token the cards use but the rule set no longer declares: named at the card's line
    ("  target: {}\n", "", "hunt-cards.yaml:", "the rule set has no token 'target'"),
    ("  rescue:\n    wins: hunted\n", "  rescue_:\n    wins: hunted\n", "survival-cards.yaml:",
     "move_track: the rule set has no track 'rescue'"),
])
def test_broken_rule_set_errors_are_positioned(tmp_path: Path, old: str, new: str, where: str, message: str) -> None:
    (tmp_path / "not-alone").mkdir()
    for f in FOLDER.glob("*.yaml"):
        shutil.copy(f, tmp_path / "not-alone" / f.name)
    for f in RULESETS.glob("not-alone*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "not-alone.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _, issues = ruleset_issues(path)
    rendered = [str(i) for i in issues]
    assert any(where in r and message in r for r in rendered), rendered
    with pytest.raises(SpecError):
        load_effect_ruleset(path)


def test_extends_must_be_a_file_beside(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text("name: v\nextends: ../elsewhere.yaml\n", encoding="utf-8")
    _, issues = ruleset_issues(tmp_path / "v.yaml")
    assert [(i.line, i.column) for i in issues] == [(2, 10)] and "not a file beside" in issues[0].message


def test_crewkit_validate_checks_the_not_alone_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(FOLDER), str(RULESETS / "not-alone.yaml"), str(RULESETS / "not-alone-advanced.yaml")]) == 0
    assert "5 files checked: all valid" in capsys.readouterr().out
    (tmp_path / "not-alone").mkdir()
    for f in FOLDER.glob("*.yaml"):
        shutil.copy(f, tmp_path / "not-alone" / f.name)
    shutil.copy(RULESETS / "not-alone.yaml", tmp_path / "not-alone.yaml")
    hunt = tmp_path / "not-alone" / "hunt-cards.yaml"
    hunt.write_text(hunt.read_text(encoding="utf-8").replace("stop_track: {track: rescue}",
                                                             "stop_track: {track: rescu}"), encoding="utf-8")
    assert main(["validate", str(hunt)]) == 1
    out = capsys.readouterr().out
    assert "hunt-cards.yaml:" in out and "the rule set has no track 'rescu'" in out and "Traceback" not in out
