"""Everything a player reads of a bundled mission, card or rule is plain English (issue 29, item 4).

The briefing of every Planet Nine mission at every player count, the JARVIS duet as its campaign plays it,
the Persian and Hammer mission cards, Not Alone's places and cards: none of it may show the condition
language, a Python repr, a ``{template}`` or a quantifier's variable. ``docs/missions.md`` is generated from
the same functions and must stay equal to their output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from crewkit.cli import main
from crewkit.dsl.ast import Quant, walk
from crewkit.dsl.parser import parse
from crewkit.families.trick_taking.tui.briefings import card_words
from crewkit.families.trick_taking.tui.mission_words import condition_words, scoring_words, setup_step_words
from crewkit.spec import bundled
from crewkit.spec.dslsites import sites_in
from crewkit.tui.briefings import mission_words, missions_page, table_for
from crewkit.tui.catalog import campaign_info

ROOT = Path(__file__).resolve().parents[2]

# What must never reach a player: the condition language, Python, templates and internal marks.
LEFTOVERS = re.compile(
    r"==|!=|<=|>=|//|\*|\{|\}|\[|\]|\b\w+_\w+\b|\bTrue\b|\bFalse\b|\bNone\b|\w\(|(?<![\d.])\.\w"
    r"|'[^' ]*'(?=,|\])|\bobject at\b|<crewkit|\(s\)|\[s\]|\x00|\x01|\x02"
)


def problems(text: str, variables: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    found = [m.group(0) for m in LEFTOVERS.finditer(text)]
    found += [f"variable {v!r}" for v in variables if re.search(rf"(?<![\w'’]){re.escape(v)}(?![\w'’])", text)]
    return found


def variables_of(data: object) -> set[str]:
    """The names a mission's expressions bind in quantifiers (``t``, ``c``, ``p`` ...)."""
    out: set[str] = set()
    for site, _, text in sites_in(data, "mission"):
        if not site.template:
            out |= {n.var for n in walk(parse(text)) if isinstance(n, Quant)}
    return out


PLANET_NINE = campaign_info("planet-nine").missions


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_planet_nine_briefing_is_plain_english(players: int) -> None:
    assert len(PLANET_NINE) == 50
    for mission in PLANET_NINE:
        data = yaml.safe_load(bundled.mission_path(mission).read_text())
        allowed = data.get("players") or [3, 4, 5]
        if players not in allowed:
            continue
        text = "\n".join(mission_words(table_for(mission, players=players)))
        assert not problems(text, variables_of(data)), (mission, players, problems(text, variables_of(data)), text)


def test_jarvis_duet_as_its_campaign_plays_it() -> None:
    duet = campaign_info("jarvis-duet")
    for mission in duet.missions:
        text = "\n".join(mission_words(table_for(mission, campaign="jarvis-duet")))
        assert "JARVIS takes a third seat" in text and "crew-jarvis" in text
        assert not problems(text), (mission, problems(text))
    assert "Rocket parade for three" in "\n".join(mission_words(table_for("planet-nine/13", campaign="jarvis-duet")))


def test_every_reading_option_reads_as_english() -> None:
    """A reading's option may replace the conditions: those read as English too (with their variables)."""
    count = 0
    for path in bundled.bundled_missions():
        data = yaml.safe_load(path.read_text())
        if not isinstance(data, dict):
            continue
        for reading in data.get("readings") or []:
            for option in (reading.get("options") or {}).values():
                patch = option.get("overrides") or {}
                for cond in patch.get("conditions") or []:
                    for line in condition_words(cond):
                        count += 1
                        assert not problems(line, variables_of(patch)), (path.name, line)
    assert count >= 10


@pytest.mark.parametrize("folder", ["hammer", "persian"])
def test_mission_cards_read_as_english(folder: str) -> None:
    cards = [p for p in (bundled.missions_dir() / folder).glob("*.yaml")]
    assert len(cards) >= 5
    for path in cards:
        card = f"{folder}/{path.stem.split('-', 1)[0]}"
        data = yaml.safe_load(path.read_text())
        text = "\n".join(card_words(card))
        assert not problems(text, variables_of(data)), (card, problems(text, variables_of(data)), text)
        if folder == "hammer":
            assert "Penalty mode: Each player scores" in text and "Challenge mode: The dealer bets that" in text


def test_hammer_scoring_in_words() -> None:
    words = scoring_words(yaml.safe_load((bundled.missions_dir() / "hammer/04-first-and-last.yaml").read_text())["scoring"])
    assert words["penalty"] == ("each player scores 40 per trick won by them, minus 180 if they win the first "
                                "trick, minus 180 if they win the last trick")
    assert words["challenge"].startswith("the dealer bets that they win the first trick and the last trick; ")
    red = scoring_words(yaml.safe_load((bundled.missions_dir() / "hammer/02-red-cards.yaml").read_text())["scoring"])
    assert "if every red card is won by them" in red["penalty"]
    # a card's own words win over the formulas
    own = scoring_words({"penalty": {"score": "tricks_won(p)", "text": "one point per trick"},
                         "challenge": {"success_if": "true", "text": "the dealer takes it all"}})
    assert own == {"penalty": "One point per trick.", "challenge": "The dealer takes it all."}


def test_not_alone_cards_and_places_read_as_english() -> None:
    from crewkit.effects.cardsets import load_card_set
    from crewkit.effects.words import describe

    folder = bundled.rulesets_dir() / "not-alone"
    places = load_card_set(folder / "places.yaml")
    n = 0
    for name in ("places", "hunt-cards", "survival-cards"):
        cards = places if name == "places" else load_card_set(folder / f"{name}.yaml", places.place_ids())
        for card in cards.cards:
            for effect in (*card.effects, *card.passive):
                text = describe(effect)
                n += 1
                assert not problems(text), (card.name, text)
                assert not re.search(r"\b(you|Hunted) (takes|take\b.*\btheir)", text)  # agreement
    assert n >= 40


def test_every_setup_step_in_words() -> None:
    """Each kind of step has its own sentence; the issue's example of mission 50 reads as a sentence."""
    steps = {
        "ask": {"question": "Ready?", "answers": ["yes", "no"], "who": "all"},
        "choose_player": {"role": "sick_one", "by": "commander", "exclude": ["commander", "opener"]},
        "choose_roles": {"roles": ["opener", "closer"], "distinct": True},
        "role_from_holder": {"role": "collector", "card": "pink 9", "offset": "left"},
        "swap_tokens": {"optional": True},
        "move_token": {"optional": False},
        "draw_from_neighbour": {"after_trick": 1, "from": "right"},
        "a_package_step": {"cards_each": 2, "open": True, "targets": ["first_trick", "last"]},
    }
    out = {kind: setup_step_words(kind, body) for kind, body in steps.items()}
    for kind, text in out.items():
        assert not problems(text), (kind, text)
        assert text[0].isupper() and text.endswith("."), text
    assert out["choose_roles"] == ("Together, the crew chooses a player as opener and a player as closer "
                                   "(different players).")
    assert out["choose_player"] == ("The commander chooses a player as sick one (not the commander nor the "
                                    "player chosen as opener).")
    assert out["a_package_step"] == "A package step (cards each 2; open yes; targets first trick and last)."
    assert setup_step_words("swap_tokens", {"text": "swap two tokens if you like"}) == "Swap two tokens if you like."


def test_a_condition_text_is_what_players_read() -> None:
    """``text:`` replaces crewkit's wording in the briefing and at the table (the engine keeps it)."""
    from crewkit.families.trick_taking.engine.setup import compile_game

    briefing = "\n".join(mission_words(table_for("planet-nine/13")))
    assert "Every rocket must win a trick: two rockets may never fall in the same trick" in briefing
    assert "trump" not in briefing
    rules = compile_game("crew", "planet-nine/13", 4)
    assert rules.conditions[0].text.startswith("Every rocket must win a trick")
    assert condition_words({"fail_if": "tricks_won(commander) > 0", "text": "the commander wins nothing"}) == [
        "The commander wins nothing."]
    # without text: crewkit's words, failing and fulfilled
    assert condition_words({"fail_if": "tricks_won(sick) > 0", "done_if": "tricks_left == 0"},
                           {"sick": "Bot 2"}) == [
        "The mission fails if Bot 2 has won a trick.",
        "The condition is met once the hands have run out; the mission fails if the hands run out before that."]


def test_show_mission_words_prints_the_briefing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "mission", "planet-nine/50", "--words"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Mission 50: Grand finale   planet-nine/50\n")
    assert "Together, the crew chooses a player as opener and a player as closer (different players)." in out
    assert "The mission fails if the last trick is won by someone other than the player chosen as closer." in out
    assert not problems(out)
    assert main(["show", "mission", "planet-nine/13", "--words", "--campaign", "jarvis-duet"]) == 0
    assert "Mission 13: Rocket parade for three" in capsys.readouterr().out
    assert main(["show", "mission", "hammer/03", "--words"]) == 0
    assert "Penalty mode: Each player scores 40 per trick won by them minus 90 per card of rank 5" in (
        capsys.readouterr().out)
    assert main(["show", "campaign", "jarvis-duet", "--words"]) == 0
    assert capsys.readouterr().out.count("JARVIS takes a third seat") == 8


def test_show_words_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "mission", "planet-nine/99", "--words"]) == 1
    assert "no mission '99'" in capsys.readouterr().err
    assert main(["show", "mission", "planet-nine/05", "--words", "--campaign", "jarvis-duet"]) == 1
    assert "has no mission 'planet-nine/05'" in capsys.readouterr().err
    assert main(["show", "ruleset", "crew", "--words"]) == 2
    assert main(["show", "mission", "planet-nine/05", "--players", "3"]) == 2  # --players goes with --words


def test_briefing_screen_and_show_words_share_one_rendering() -> None:
    """The screen's text is the family's briefing (:func:`crewkit.tui.family.family_briefing`); ``show --words``
    is the same lines without markup."""
    import inspect

    from crewkit.games import family_for
    from crewkit.tui.family import family_briefing
    from crewkit.tui.screens import briefing
    from crewkit.tui.text import plain

    assert "family_briefing(" in inspect.getsource(briefing.BriefingScreen.briefing_markup)
    for mission in ("planet-nine/05", "planet-nine/13"):
        table = table_for(mission)
        rs, spec = family_for(table.ruleset).mission_specs(table.ruleset, table.ref, len(table.kinds), table.readings)
        screen = family_briefing(table.ruleset, rs, spec, table.kinds, shown_id=table.shown_id, mission_set=False,
                                 entry=table.entry, fixed_readings=table.fixed_readings)
        assert [plain(line) for line in screen] == mission_words(table)
        assert any("Task" in line for line in screen)  # the family's words, not the bare description


def test_docs_missions_page_is_up_to_date() -> None:
    page = (ROOT / "docs" / "missions.md").read_text()
    assert page == missions_page(), "docs/missions.md is out of date: run `crewkit docs missions > docs/missions.md`"
    for mission in PLANET_NINE:
        assert f"   {mission}\n" in page


def test_docs_missions_page_has_no_leftovers() -> None:
    """Outside the backquoted reading ids (what --reading takes), the page is plain English."""
    page = missions_page()
    prose = re.sub(r"^```(text)?$", "", page, flags=re.M)
    prose = re.sub(r"`[^`\n]+`", "", prose)  # reading ids and options, as --reading takes them
    prose = re.sub(r"<!--.*?-->", "", prose).replace("**", "")  # Markdown's bold
    prose = prose.replace("crewkit/dsl/words.py", "").replace("crewkit/tui/briefings.py", "")
    assert not problems(prose), problems(prose)


DEEP_SEA = campaign_info("deep-sea").missions


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_deep_sea_briefing_is_plain_english(players: int) -> None:
    """The 32 logbook missions as the campaign plays them: the captain by that name, the steps and the
    communication modes in words, the fixed cards of mission 32 by their words, never their ids."""
    assert len(DEEP_SEA) == 32
    for mission in DEEP_SEA:
        data = yaml.safe_load(bundled.mission_path(mission).read_text())
        text = "\n".join(mission_words(table_for(mission, players=players, campaign="deep-sea")))
        assert not problems(text, variables_of(data)), (mission, players, problems(text, variables_of(data)), text)
        assert "commander" not in text, (mission, text)  # Deep Sea calls the holder of submarine 4 the captain
    finale = "\n".join(mission_words(table_for("deep-sea/32", players=players, campaign="deep-sea")))
    assert "The task cards are set: \u201cI win no trick at all\u201d;" in finale
    call = "\n".join(mission_words(table_for("deep-sea/10", players=players, campaign="deep-sea")))
    assert "Nobody may communicate while the player chosen as taker is not the captain" in call
    assert "The captain chooses a player as taker." in call


def test_the_two_player_deep_sea_variant_reads_as_english() -> None:
    for mission in DEEP_SEA:
        text = "\n".join(mission_words(table_for(mission, ruleset="crew-deep-sea-tonoja", players=2)))
        assert not problems(text), (mission, problems(text), text)


def test_every_deep_sea_task_card_reads_as_english() -> None:
    """Each of the 96 cards: its own words, and crewkit's words for its objective (what a card without
    ``text`` would show), with the owner named as a player."""
    from crewkit.spec.taskcards import load_task_deck

    deck = load_task_deck("deep-sea")
    assert len(deck.cards) == 96
    for card in deck.cards:
        assert not problems(card.text + " " + card.note), card.id
        cond = {"fail_if": card.fail_if.text if card.fail_if else None,
                "done_if": card.done_if.text if card.done_if else None}
        variables = {n.var for t in cond.values() if t for n in walk(parse(t)) if isinstance(n, Quant)}
        for line in condition_words(cond, {"owner": "Alice", "chosen": "the number Alice named"}):
            assert not problems(line, variables), (card.id, problems(line, variables), line)
            assert "owner" not in line, (card.id, line)
