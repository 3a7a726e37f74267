"""Effect data in YAML: every mistake is reported at its file, line and column, with what was expected."""

from __future__ import annotations

import pytest

from crewkit.effects.cardsets import card_set_issues, load_card_set
from crewkit.effects.check import MAX_NESTING, check_effects
from crewkit.spec.errors import SpecError
from crewkit.spec.yamlio import load_yaml_text

PLACES = {"beach": 4, "wreck": 8}


def issues(yaml_text: str) -> list[tuple[int, int, str]]:
    doc = load_yaml_text(yaml_text, "cards.yaml")
    _, found = check_effects(doc, ("effects",), PLACES)
    assert all(i.file == "cards.yaml" for i in found)
    return [(i.line, i.column, i.message) for i in found]


def test_valid_list_has_no_issue_and_fills_defaults() -> None:
    doc = load_yaml_text("effects:\n  - take_from_reserve:\n  - cancel_power: {where: [beach, wreck]}\n", "c.yaml")
    effects, found = check_effects(doc, ("effects",), PLACES)
    assert found == []
    assert dict(effects[0].args) == {"count": 1, "only_new": True}
    assert (effects[1].line, effects[1].column, effects[1].file) == (3, 5, "c.yaml")


def test_unknown_word_points_at_the_key_with_a_suggestion() -> None:
    assert issues("effects:\n  - take_back_place: {count: 1}\n") == [
        (2, 5, "unknown effect 'take_back_place'; did you mean 'take_back_places'?")]


def test_unknown_argument_and_missing_argument() -> None:
    found = issues("effects:\n  - take_back_places: {cuont: 1}\n")
    assert (2, 24, "take_back_places has no argument 'cuont'; did you mean 'count'? its arguments: count, who") in found
    assert any(line == 2 and "needs the argument 'count'" in msg for line, _, msg in found)


def test_wrong_types_name_expected_and_found() -> None:
    # a track is a name here; whether the rule set has it is checked with the rule set (test_not_alone_data)
    assert issues("effects:\n  - move_track: {track: 3, by: 1}\n") == [
        (2, 25, "move_track.track: expected a track of the rule set (Not Alone: rescue, assimilation), found number 3")]
    assert issues("effects:\n  - move_track: {track: rescue, by: 0}\n") == [
        (2, 37, "move_track.by: expected a whole number of at least 1, found 0 (at least 1)")]
    assert issues("effects:\n  - take_back_places: {count: two}\n") == [
        (2, 31, "take_back_places.count: expected a whole number of at least 1, or all, found string 'two'")]


def test_unknown_place_lists_the_known_ones() -> None:
    [(line, col, msg)] = issues("effects:\n  - cancel_power: {where: [beach, wrek]}\n")
    assert (line, col) == (2, 35)
    assert "found string 'wrek'" in msg and "wreck" in msg and "creature_token" in msg


def test_lasts_only_on_rules_and_only_known_durations() -> None:
    assert issues("effects:\n  - move_track: {track: rescue, lasts: next_round}\n") == [
        (2, 33, "move_track happens at once: only a rule word takes 'lasts'")]
    assert issues("effects:\n  - hide_discards: {lasts: forever}\n") == [
        (2, 28, "expected this_round or next_round, found string 'forever'")]


def test_shapes_of_items() -> None:
    assert issues("effects:\n  - gain_will\n")[0][:2] == (2, 5)
    assert "found string 'gain_will'" in issues("effects:\n  - gain_will\n")[0][2]
    assert "a mapping with 2 keys" in issues("effects:\n  - {gain_will: {}, lose_will: {}}\n")[0][2]
    assert issues("effects:\n  - gain_will: 3\n") == [
        (2, 16, "expected the arguments of gain_will as a mapping ({...}), found number 3")]
    assert issues("effects: {gain_will: {}}\n") == [(1, 10, "expected a list of effects, found a mapping")]


def test_one_of_options_are_checked_inside() -> None:
    text = "effects:\n  - one_of:\n      options:\n        - [{put_marker: {}}]\n        - [{move_trak: {}}]\n"
    [(line, col, msg)] = issues(text)
    assert (line, col) == (5, 13) and "unknown effect 'move_trak'" in msg
    assert "at least two options" in issues("effects:\n  - one_of: {options: [[{put_marker: {}}]]}\n")[0][2]


def test_one_of_nesting_is_bounded() -> None:
    inner = "[{put_marker: {}}]"
    for _ in range(MAX_NESTING + 1):
        inner = f"[{{one_of: {{options: [{inner}, [{{put_marker: {{}}}}]]}}}}]"
    text = f"effects: {inner}\n"
    assert any("nests more than" in msg for _, _, msg in issues(text))


CARD_SET = """\
card_set: hunt
game: not-alone
title: t
sources: [{id: a, what: x}]
cards:
  - id: one
    name: One
    phase: 2
    text: t
    effects: [{stop_track: {track: rescue}}]
    sources: [a]
    verified: true
"""


def test_card_set_schema_and_semantic_errors_are_positioned() -> None:
    good = load_yaml_text(CARD_SET, "h.yaml")
    card_set, found = card_set_issues(good)
    assert found == [] and card_set is not None and card_set.by_id("one").phase == 2
    bad = CARD_SET.replace("phase: 2", "phase: 7")
    _, found = card_set_issues(load_yaml_text(bad, "h.yaml"))
    assert [(i.line, i.column) for i in found] == [(8, 12)] and "7" in found[0].message
    twice = CARD_SET + CARD_SET.split("cards:\n")[1].replace("sources: [a]", "sources: [b]")
    _, found = card_set_issues(load_yaml_text(twice, "h.yaml"))
    messages = {(i.line, i.column): i.message for i in found}
    assert messages[(13, 9)].startswith("duplicate card id 'one'")
    assert messages[(18, 15)].startswith("unknown source 'b'")
    no_phase = CARD_SET.replace("    phase: 2\n", "")
    _, found = card_set_issues(load_yaml_text(no_phase, "h.yaml"))
    assert [i.message for i in found] == ["a hunt or survival card needs its phase (1 to 4), or `copies:`"]


def test_a_card_that_copies_takes_everything_from_the_card_it_copies() -> None:
    copy = CARD_SET.replace("    phase: 2\n", "    copies: last_discarded\n    effects: []\n    token: target\n", 1)
    copy = copy.replace("    effects: [{stop_track: {track: rescue}}]\n", "", 1)
    card_set, found = card_set_issues(load_yaml_text(copy, "h.yaml"))
    assert [(i.line, i.column, i.message) for i in found] == [
        (10, 5, "a card that copies takes its token from the card it copies; remove 'token'")]
    good = copy.replace("    token: target\n", "")
    card_set, found = card_set_issues(load_yaml_text(good, "h.yaml"))
    assert found == [] and card_set is not None
    one = card_set.by_id("one")
    assert one.copies == "last_discarded" and one.phase is None
    assert card_set.copied(one, []) is None and card_set.copied(one, ["one"]) is None  # never a copy of a copy
    with_effects = good.replace("    effects: []\n", "    effects: [{stop_track: {track: rescue}}]\n")
    _, found = card_set_issues(load_yaml_text(with_effects, "h.yaml"))
    assert [i.message for i in found] == [
        "a card that copies has the effects of the card it copies: write `effects: []`"]


def test_a_token_placed_later_needs_a_token() -> None:
    later = CARD_SET.replace("    phase: 2\n", "    phase: 1\n    token_placed: later\n")
    _, found = card_set_issues(load_yaml_text(later, "h.yaml"))
    assert [(i.line, i.column, i.message) for i in found] == [
        (9, 5, "token_placed: later needs the card's token (`token:`)")]
    card_set, found = card_set_issues(load_yaml_text(later.replace("    text: t\n", "    token: artemia\n    text: t\n"),
                                                     "h.yaml"))
    assert found == [] and card_set is not None and card_set.by_id("one").token_placed == "later"


def test_load_card_set_raises_with_every_issue(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "hunt.yaml"  # type: ignore[operator]
    path.write_text(CARD_SET.replace("stop_track: {track: rescue}", "stop_track: {track: x}").replace(
        "phase: 2", "phase: 0"), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_card_set(path)
    rendered = err.value.render()
    assert "hunt.yaml:8:12" in rendered  # the schema is checked first: the effects wait for it
    path.write_text(CARD_SET.replace("stop_track: {track: rescue}", "stop_track: {track: X-1}"), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_card_set(path)
    assert "hunt.yaml:10:36: error: at cards.0.effects.0.stop_track.track: stop_track.track: expected a track of " \
           "the rule set (Not Alone: rescue, assimilation), found string 'X-1'" in err.value.render()


def test_two_bad_cards_are_both_reported_whatever_is_wrong_with_each() -> None:
    """Issue 30: a schema error in one card hid the unknown effect of another (only the first was reported)."""
    second = CARD_SET.split("cards:\n")[1].replace("id: one", "id: two").replace("stop_track:", "stop_trak:")
    text = CARD_SET.replace("phase: 2", "phase: 7", 1) + second
    _, found = card_set_issues(load_yaml_text(text, "h.yaml"))
    messages = [i.message for i in found]
    assert any("7" in m and "phase" in str(i.path) for m, i in zip(messages, found, strict=True))
    assert any("unknown effect 'stop_trak'" in m for m in messages), messages
    assert [i.path[1] for i in found] == [0, 1]  # each card's own problem, in file order
