"""A cost model for the board family (issue 26): every number a Not Alone rule set or card set declares is
bounded, games end, cards cannot copy one another forever, readings cost linear time. A file that validates
never hangs or exhausts memory in ``simulate``. Each case runs in a child process bounded in time and memory."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.untrusted.harness import ROOT, assert_refused, run_bounded

NOT_ALONE = (ROOT / "rulesets" / "not-alone.yaml").read_text(encoding="utf-8")
CARDS = ROOT / "rulesets" / "not-alone"


def _rule_set(tmp_path: Path, text: str, cards: dict[str, str] | None = None) -> Path:
    shutil.copytree(CARDS, tmp_path / "not-alone")
    for name, content in (cards or {}).items():
        (tmp_path / "not-alone" / name).write_text(content, encoding="utf-8")
    path = tmp_path / "rs.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _changed(old: str, new: str, count: int = 1) -> str:
    assert NOT_ALONE.count(old) >= count, old
    return NOT_ALONE.replace(old, new)


HUGE = "1000000000000"


@pytest.mark.parametrize(("text", "fragment"), [
    (_changed("hunt: {role: creature, deal: 3,", f"hunt: {{role: creature, deal: {HUGE},"), "decks.hunt.deal"),
    (_changed("per_round: 1, draw_up_to: 3", f"per_round: {HUGE}, draw_up_to: 3"), "decks.hunt.per_round"),
    (_changed("per_round: 1, draw_up_to: 3", f"per_round: 1, draw_up_to: {HUGE}"), "decks.hunt.draw_up_to"),
    (re.sub(r'("[1-6]"): [123]\n', rf"\1: {HUGE}\n", NOT_ALONE), "setup.reserve"),
    (_changed("hunted: {min: 1, max: 6}", f"hunted: {{min: 1, max: {HUGE}}}"), "roles.hunted.max"),
    (_changed('"4": 16', f'"4": {HUGE}'), "tracks.rescue.goal.4"),
    (_changed("  start: 3\n", f"  start: {HUGE}\n"), "counter.start"),
    (_changed("catch: {lose: 1,", f"catch: {{lose: {HUGE},"), "tokens.creature.catch.lose"),
    (_changed("artemia: {discard_places: 1,", f"artemia: {{discard_places: {HUGE},"), "tokens.artemia.discard_places"),
    (_changed("place_cards: 1  #", f"place_cards: {HUGE}  #"), "round.exploration.place_cards"),
    (_changed("- {will: 2, take_back: 4}", f"- {{will: 2, take_back: {HUGE}}}"), "take_back"),
    (_changed("move_track: {rescue: 1}", f"move_track: {{rescue: {HUGE}}}"), "move_track.rescue"),
    (_changed("a: {token_spaces: [1, 2, 3, 4, 5, 6]}", f"a: {{token_spaces: [1, 2, {HUGE}]}}"), "token_spaces"),
])
def test_every_number_a_rule_set_declares_is_bounded(tmp_path: Path, text: str, fragment: str) -> None:
    path = _rule_set(tmp_path, text)
    run = run_bounded("validate", str(path), timeout=30, memory_mb=600)
    assert_refused(run, "expected a number at most", max_seconds=10)
    assert fragment in run.output
    run = run_bounded("simulate", "--ruleset", str(path), "--games", "1", timeout=30, memory_mb=600)
    assert_refused(run, "expected a number at most", max_seconds=10)


def test_a_game_that_could_go_on_forever_is_refused(tmp_path: Path) -> None:
    path = _rule_set(tmp_path, _changed("    move_track: {rescue: 1}\n", "    move_track: {rescue: 0}\n"))
    run = run_bounded("validate", str(path), timeout=30)
    assert_refused(run, "no track moves every round", max_seconds=10)
    run = run_bounded("simulate", "--ruleset", str(path), "--games", "1", timeout=30)
    assert_refused(run, "a game could go on forever", max_seconds=10)


def _places_with_a_second_copier() -> str:
    places = (CARDS / "places.yaml").read_text(encoding="utf-8")
    old = "    effects:\n      - take_back_played: {}\n      - take_back_places: {count: 1}\n"
    assert old in places
    return places.replace(old, "    effects:\n      - copy_power: {of: adjacent}\n", 1)


def test_two_places_that_copy_powers_are_refused(tmp_path: Path) -> None:
    path = _rule_set(tmp_path, NOT_ALONE, {"places.yaml": _places_with_a_second_copier()})
    for args in (("validate", str(tmp_path / "not-alone" / "places.yaml")), ("validate", str(path)),
                 ("simulate", "--ruleset", str(path), "--games", "1")):
        run = run_bounded(*args, timeout=30)
        assert_refused(run, "jungle and lair both copy the power of another place (copy_power)", max_seconds=10)


def test_two_hunt_cards_that_copy_never_copy_each_other(tmp_path: Path) -> None:
    """Two cards played as the last discarded card (``copies: last_discarded``, Flashback): a copy of a copy is
    never made, so the game plays them to its end (the load check is for places copying powers)."""
    hunt = (CARDS / "hunt-cards.yaml").read_text(encoding="utf-8")
    start = hunt.index("  - id: flashback")
    end = hunt.index("\n  - id:", start + 1)
    second = hunt[start:end].replace("id: flashback", "id: flashforward", 1)
    assert "copies: last_discarded" in second
    path = _rule_set(tmp_path, NOT_ALONE, {"hunt-cards.yaml": hunt[:end] + "\n" + second + hunt[end:]})
    run = run_bounded("validate", str(path), timeout=30)
    assert run.returncode == 0, run.output
    run = run_bounded("simulate", "--ruleset", str(path), "--games", "20", timeout=120)
    assert run.returncode == 0 and "Traceback" not in run.output, run.output


def test_an_effect_count_is_bounded(tmp_path: Path) -> None:
    places = (CARDS / "places.yaml").read_text(encoding="utf-8").replace(
        "take_back_places: {count: 1}", f"take_back_places: {{count: {HUGE}}}", 1)
    path = _rule_set(tmp_path, NOT_ALONE, {"places.yaml": places})
    run = run_bounded("validate", str(path), timeout=30)
    assert_refused(run, "(at most 20)", max_seconds=10)


def test_an_extends_cycle_of_not_alone_rule_sets(tmp_path: Path) -> None:
    head = "# yaml-language-server: $schema=../schemas/not-alone-ruleset.schema.json\nfamily: not-alone\n"
    (tmp_path / "a.yaml").write_text(head + "name: a\nextends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text(head + "name: b\nextends: a.yaml\n", encoding="utf-8")
    run = run_bounded("validate", str(tmp_path / "a.yaml"), timeout=30)
    assert_refused(run, "`extends` goes round in a cycle: a → b → a", max_seconds=10)


def _readings(count: int, options: int) -> str:
    out = ["readings:"]
    for r in range(count):
        out.append(f"  - id: r{r}\n    question: q\n    source: s\n    choice: o0\n    options:")
        for o in range(options):
            patch = "" if o == 0 else "\n        overrides: {rules: {effect_order: play_order}}"
            out.append(f"      o{o}:\n        text: t{patch}")
    return "\n".join(out) + "\n"


def _with_readings(count: int, options: int) -> str:
    start, end = NOT_ALONE.index("readings:\n"), NOT_ALONE.index("notes:\n")
    return NOT_ALONE[:start] + _readings(count, options) + NOT_ALONE[end:]


@pytest.mark.parametrize(("count", "options", "fragment"), [
    (64, 16, "at most 64"),  # 960 options took 95 s to validate and 70 s to start a game
    (65, 2, "expected a list of at most 64 items"),
    (2, 17, "at most 16 keys"),
])
def test_many_reading_options_are_refused_at_once(tmp_path: Path, count: int, options: int, fragment: str) -> None:
    path = _rule_set(tmp_path, _with_readings(count, options))
    run = run_bounded("validate", str(path), timeout=60)
    assert_refused(run, fragment, max_seconds=10)


def test_readings_within_the_bound_check_quickly(tmp_path: Path) -> None:
    path = _rule_set(tmp_path, _with_readings(32, 3))  # 64 options besides the chosen ones
    run = run_bounded("validate", str(path), timeout=60)
    assert run.returncode == 0 and run.seconds < 10, run.output
    run = run_bounded("simulate", "--ruleset", str(path), "--games", "2", timeout=60)
    assert run.returncode == 0 and run.seconds < 15, run.output


def test_a_card_set_of_a_thousand_cards(tmp_path: Path) -> None:
    hunt = (CARDS / "hunt-cards.yaml").read_text(encoding="utf-8")
    start = hunt.index("  - id: flashback")
    end = hunt.index("\n  - id:", start + 1)
    card = hunt[start:end]
    extra = "".join("\n" + card.replace("id: flashback", f"id: f{i}", 1)
                    for i in range(1000))
    path = _rule_set(tmp_path, NOT_ALONE, {"hunt-cards.yaml": hunt[:end] + extra + hunt[end:]})
    run = run_bounded("validate", str(path), timeout=60)
    assert_refused(run, "expected a list of at most 100 items", max_seconds=15)


def test_effects_applying_effects_stop_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: an effect that applies itself (which the load checks keep out) stops with a message."""
    from crewkit.effects import words
    from crewkit.effects.cost import MAX_EFFECT_DEPTH
    from crewkit.effects.model import Effect

    calls = []

    def again(ctx: Any, effect: Effect) -> None:
        calls.append(1)
        words.apply(ctx, effect)

    word = words.WORDS["copy_power"]
    monkeypatch.setitem(words.WORDS, "copy_power", type(word)(**{**word.__dict__, "apply": again}))
    effect = Effect("copy_power", {"of": "adjacent"}, file="places.yaml", line=38, column=15)
    with pytest.raises(words.EffectsTooDeep, match=r"places.yaml:38:15: copy_power: effects apply one another"):
        words.apply(None, effect)  # type: ignore[arg-type]
    assert len(calls) == MAX_EFFECT_DEPTH
    assert words._depth == [0]  # the count is back to zero for the next game


@pytest.mark.parametrize(("options", "fragment"), [
    ("[" + ", ".join(["[{put_marker: {}}]"] * 9) + "]", "at most 8"),
    ("[[" + ", ".join(["{put_marker: {}}"] * 17) + "], [{put_marker: {}}]]", "a list of 1 to 16 effects, found 17"),
])
def test_a_choice_among_too_many_options_is_refused(tmp_path: Path, options: str, fragment: str) -> None:
    places = (CARDS / "places.yaml").read_text(encoding="utf-8")
    old = "    effects:\n      - take_back_played: {}\n      - take_back_places: {count: 1}\n"
    places = places.replace(old, f"    effects:\n      - one_of: {{options: {options}}}\n", 1)
    path = _rule_set(tmp_path, NOT_ALONE, {"places.yaml": places})
    run = run_bounded("validate", str(path), timeout=30)
    assert_refused(run, fragment, max_seconds=10)
