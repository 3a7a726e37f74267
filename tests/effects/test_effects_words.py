"""Every effect word applied to a tiny fake game state: what it changes, and what it must not."""

from __future__ import annotations

import pytest
import yaml
from effects_fake import FakeState, ScriptedChooser, context

from crewkit.effects import CHANCE, CREATURE, WORDS, Duration, Effect, RuleBook, apply, describe, possible
from crewkit.effects.check import check_effects
from crewkit.spec.yamlio import load_yaml_text


def eff(text: str) -> Effect:
    """One effect from a YAML flow mapping, through the real checker (so examples stay real)."""
    doc = load_yaml_text(f"e: [{text}]", "test.yaml")
    effects, issues = check_effects(doc, ("e",), {"beach": 4, "wreck": 8, "rover": 5})
    assert not issues, [str(i) for i in issues]
    return effects[0]


@pytest.mark.parametrize("name", sorted(WORDS))
def test_every_example_checks_and_applies(name: str) -> None:
    word = WORDS[name]
    effect = eff(word.example)
    assert effect.word == name
    state = FakeState()
    state.piles[0]["discard"] = [1, 2]
    state.piles[0]["played"] = [3]
    state.tokens = {"creature": [2], "target": [7], "artemia": [9]}
    state.positions = {0: 3, 1: 4}
    state.hunt_disc = ["h0"]
    state.played_cards["hunt"] = ["h0"]
    state.marker = name != "put_marker"  # each example is arranged to be possible
    state.will_ = {0: 2, 1: 2}
    state.survival = {0: ["sa"], 1: ["sb"]}
    before = repr(vars(state))
    ctx = context(state, place=3, affected=1, card="x")
    assert possible(ctx, effect)
    apply(ctx, effect)
    assert describe(effect)
    if word.kind == "rule":
        assert state.book.in_force(state.round + (effect.lasts is Duration.NEXT_ROUND))
    else:
        assert repr(vars(state)) != before, f"{name}'s example changed nothing"


def test_take_back_places_count_and_all() -> None:
    state = FakeState()
    state.piles[0].update(hand=[5], discard=[1, 2, 3, 4])
    apply(context(state, ScriptedChooser([4, 2])), eff("{take_back_places: {count: 2}}"))
    assert sorted(state.piles[0]["hand"]) == [2, 4, 5] and sorted(state.piles[0]["discard"]) == [1, 3]
    apply(context(state), eff("{take_back_places: {count: all}}"))
    assert sorted(state.piles[0]["hand"]) == [1, 2, 3, 4, 5] and state.piles[0]["discard"] == []
    assert state.piles[1]["discard"] == []  # nobody else's pile moved


def test_take_back_limit_caps_a_place_power_only() -> None:
    state = FakeState()
    state.piles[0].update(hand=[], discard=[1, 2, 3])
    apply(context(state, actor=CREATURE), eff("{take_back_limit: {max: 1}}"))
    apply(context(state, place=6), eff("{take_back_places: {count: 2}}"))  # the Swamp's power
    assert len(state.piles[0]["hand"]) == 1
    apply(context(state), eff("{take_back_places: {count: 2}}"))  # a survival card, not a place
    assert len(state.piles[0]["hand"]) == 3


def test_take_back_played_returns_only_the_resolved_place() -> None:
    state = FakeState()
    state.piles[0].update(hand=[1], played=[2])
    apply(context(state, place=2), eff("{take_back_played: {}}"))
    assert state.piles[0]["hand"] == [1, 2] and state.piles[0]["played"] == []


def test_take_from_reserve_only_new() -> None:
    state = FakeState()
    state.piles[0]["hand"] = [1, 2, 3, 4, 5, 6]
    ctx = context(state)
    effect = eff("{take_from_reserve: {count: 1}}")
    apply(ctx, effect)
    assert state.piles[0]["hand"][-1] == 7  # 6 is owned already
    assert state.reserve.count(7) == 1
    state.piles[0]["hand"] = list(range(1, 11))
    assert not possible(ctx, effect)


def test_will_and_the_no_survival_cards_rule() -> None:
    state = FakeState()
    state.will_[0] = 1
    apply(context(state), eff("{gain_will: {amount: 1}}"))
    assert state.will_[0] == 2
    apply(context(state, affected=0), eff("{lose_will: {amount: 2}}"))
    assert state.will_[0] == 0
    apply(context(state), eff("{draw_survival: {count: 1}}"))
    assert state.survival[0] == ["s0"]
    apply(context(state, actor=CREATURE), eff("{no_survival_cards: {}}"))
    apply(context(state), eff("{draw_survival: {count: 1}}"))
    assert state.survival[0] == ["s0"] and state.logs  # nothing drawn, and the log says why
    state.next_round()
    apply(context(state), eff("{draw_survival: {count: 1}}"))
    assert state.survival[0] == ["s0", "s1"]


def test_gain_will_for_a_chosen_hunted() -> None:
    state = FakeState(hunted=3)
    state.will_ = {0: 3, 1: 3, 2: 1}
    apply(context(state, ScriptedChooser([2])), eff("{gain_will: {who: chosen_hunted}}"))
    assert state.will_ == {0: 3, 1: 3, 2: 2}


def test_move_track_and_stop_track() -> None:
    state = FakeState()
    apply(context(state), eff("{move_track: {track: rescue, by: 2}}"))
    apply(context(state, actor=CREATURE), eff("{stop_track: {track: rescue}}"))
    apply(context(state), eff("{move_track: {track: rescue}}"))
    apply(context(state), eff("{move_track: {track: assimilation}}"))
    assert state.tracks == {"rescue": 2, "assimilation": 1}
    state.next_round()  # the rule lasted this round only
    apply(context(state), eff("{move_track: {track: rescue}}"))
    assert state.tracks["rescue"] == 3


BEACH = "{one_of: {options: [[{put_marker: {}}], [{remove_marker: {}}, {move_track: {track: rescue}}]]}}"


def test_one_of_offers_only_possible_options() -> None:
    state = FakeState()
    chooser = ScriptedChooser()
    apply(context(state, chooser, place=4), eff(BEACH))
    assert state.marker and state.tracks["rescue"] == 0
    assert chooser.calls[-1][1] == ["put the marker counter on the Beach"]  # only putting it was possible
    apply(context(state, chooser, place=4), eff(BEACH))
    assert not state.marker and state.tracks["rescue"] == 1


def test_one_of_chooser_affected() -> None:
    state = FakeState()
    chooser = ScriptedChooser(["the Hunted loses 1 will"])
    scream = ("{one_of: {chooser: affected, options: [[{discard_places: {count: 2, who: affected}}], "
              "[{lose_will: {amount: 1, who: affected}}]]}}")
    apply(context(state, chooser, actor=CREATURE, affected=1), eff(scream))
    assert chooser.calls[0][0] == 1  # the Hunted chose, not the Creature
    assert state.will_[1] == 2 and state.piles[1]["hand"] == [1, 2, 3, 4, 5]


def test_rules_with_durations_expire_generically() -> None:
    state = FakeState()
    river = eff("{play_place_cards: {count: 2, resolve: one, lasts: next_round}}")
    fierce = eff("{extra_will_loss: {token: creature}}")
    assert river.lasts is Duration.NEXT_ROUND and fierce.lasts is Duration.THIS_ROUND
    apply(context(state, place=3), river)
    apply(context(state, actor=CREATURE), fierce)
    assert [r.word for r in state.rules()] == ["extra_will_loss"]
    state.next_round()
    assert [r.word for r in state.rules()] == ["play_place_cards"]
    state.next_round()
    assert state.rules() == [] and len(state.book) == 0


def test_rule_book_refuses_actions_and_keeps_context() -> None:
    book = RuleBook()
    with pytest.raises(ValueError, match="action"):
        book.add(eff("{move_track: {track: rescue}}"), 0, 1)
    rule = book.add(eff("{cancel_power: {where: chosen}}"), CREATURE, 4, "cataclysm", {"places": [7]})
    assert (rule.first, rule.last, rule.context["places"]) == (4, 4, [7])
    assert book.in_force(3) == [] and book.in_force(4) == [rule] and book.in_force(4, "stop_track") == []


def test_place_rules_remember_their_places() -> None:
    state = FakeState()
    state.tokens["target"] = [5, 10]
    apply(context(state, actor=CREATURE), eff("{cancel_power: {where: target_token}}"))
    apply(context(state, actor=CREATURE), eff("{cancel_power: {where: [beach, wreck]}}"))
    apply(context(state, ScriptedChooser([9]), actor=CREATURE), eff("{cancel_power: {where: chosen}}"))
    assert [r.context["places"] for r in state.rules("cancel_power")] == [[5, 10], [4, 8], [9]]
    apply(context(state, place=1), eff("{extra_will_loss: {on: this}}"))
    assert state.rules("extra_will_loss")[0].context["places"] == [1]


def test_copy_power_skips_the_artefact_and_itself() -> None:
    state = FakeState()
    state.tokens["creature"] = [10]
    ctx = context(state, place=1)
    lair_copy = eff("{copy_power: {of: creature_token}}")
    assert not possible(ctx, lair_copy)
    apply(ctx, lair_copy)
    assert state.powers_used == []
    state.tokens["creature"] = [8]
    apply(ctx, lair_copy)
    assert state.powers_used == [(0, 8)]
    chooser = ScriptedChooser([9])
    apply(context(state, chooser, place=4), eff("{copy_power: {of: adjacent}}"))
    assert chooser.calls[-1][1] == [3, 5, 9] and state.powers_used[-1] == (0, 9)


def test_discard_down_to_and_show_places() -> None:
    state = FakeState()
    apply(context(state, ScriptedChooser([1], [2, 5]), actor=CREATURE), eff("{discard_places_down_to: {keep: 2}}"))
    assert state.piles[1]["hand"] == [2, 5] and sorted(state.piles[1]["discard"]) == [1, 3, 4]
    apply(context(state, ScriptedChooser([0], [1, 2]), actor=CREATURE), eff("{show_places: {keep_hidden: 2}}"))
    assert state.revealed == [(0, [3, 4, 5], CREATURE)]


def test_discard_places_each_hunted() -> None:
    state = FakeState(hunted=3)
    apply(context(state, actor=CREATURE), eff("{discard_places: {count: 1, who: each_hunted}}"))
    assert all(state.piles[s]["discard"] == [1] for s in state.seats)


def test_survival_draw_keep_and_discard() -> None:
    state = FakeState()
    apply(context(state, ScriptedChooser(["s1"])), eff("{draw_survival: {count: 2, keep: 1}}"))
    assert state.survival[0] == ["s1"] and state.survival_discard == ["s0"]
    apply(context(state, actor=CREATURE, affected=0), eff("{discard_survival: {count: 1}}"))
    assert state.survival[0] == [] and state.survival_discard == ["s0", "s1"]


def test_hunt_cards_random_removal_is_chance() -> None:
    state = FakeState()
    chooser = ScriptedChooser()
    apply(context(state, chooser), eff("{remove_hunt_cards: {count: 2, random: true, to: deck_bottom}}"))
    assert chooser.calls[0][0] == CHANCE and state.hunt == ["h3"] and state.hunt_deck == ["h4", "h5", "h1", "h2"]
    apply(context(state), eff("{remove_hunt_cards: {count: all}}"))
    assert state.hunt == [] and state.hunt_disc == ["h3"]


def test_tokens_hunted_and_played_cards_move() -> None:
    state = FakeState()
    state.tokens["creature"] = [1]
    apply(context(state, ScriptedChooser([6])), eff("{move_token: {token: creature}}"))
    assert state.tokens["creature"] == [6]
    state.positions[1] = 5
    apply(context(state, ScriptedChooser([1], [10]), actor=CREATURE), eff("{move_hunted: {}}"))
    assert state.positions[1] == 10
    state.piles[0].update(played=[2], discard=[4])
    apply(context(state), eff("{swap_played: {}}"))
    assert state.piles[0]["played"] == [4] and state.piles[0]["discard"] == [2]


def test_table_rules_are_kept_for_the_round() -> None:
    state = FakeState()
    apply(context(state), eff("{no_hunt_cards: {}}"))
    apply(context(state), eff("{hide_discards: {}}"))
    assert [(r.word, r.actor) for r in state.rules()] == [("no_hunt_cards", 0), ("hide_discards", 0)]
    state.next_round()
    assert state.rules() == []


def test_describe_mentions_durations() -> None:
    assert describe(eff("{play_place_cards: {count: 2, resolve: all, lasts: next_round}}")).startswith("next round, ")
    assert describe(eff("{no_hunt_cards: {}}")) == "no hunt card may be played this round"
    assert describe(eff("{move_track: {track: rescue}}")) == "move the Rescue counter forward 1 space"


def test_describe_agrees_with_who_and_numbers() -> None:
    """Verbs agree with who acts, nouns with how many, flags add their words: no "take(s)" or argument names."""
    assert describe(eff("{take_back_places: {count: 1}}")) == (
        "you take back 1 place card of your choice from your discard pile")
    assert describe(eff("{take_back_places: {count: 2, who: each_hunted}}")) == (
        "every Hunted takes back 2 place cards of their choice from their discard pile")
    assert describe(eff("{take_back_places: {count: all}}")) == "you take back all the place cards from your discard pile"
    assert describe(eff("{take_from_reserve: {count: 1}}")) == (
        "take 1 place card from the reserve (a number you do not have in any pile)")
    assert describe(eff("{take_from_reserve: {count: 2, only_new: false}}")) == "take 2 place cards from the reserve"
    assert describe(eff("{remove_hunt_cards: {count: 2, random: true, to: deck_bottom}}")) == (
        "2 of the Creature's hunt cards (chosen at random) go under the hunt deck")
    assert describe(eff("{extra_will_loss: {token: creature, on: this}}")) == (
        "a Hunted caught by the Creature token on this place loses 1 more will this round")
    assert describe(eff("{cancel_power: {where: [beach, wreck]}}")) == (
        "the power of the Beach and the Wreck has no effect this round")


def test_examples_are_yaml_flow_mappings() -> None:
    for word in WORDS.values():
        data = yaml.safe_load(word.example)
        assert list(data) == [word.name], word.name
