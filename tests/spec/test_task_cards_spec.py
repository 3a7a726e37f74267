"""Task-card decks (``task-cards``, Mission Deep Sea) checked like missions: the bundled deck of 96 cards and the
32 logbook missions validate, every card cites its sources and reads in English, and mistakes in a deck are
reported at their file, line and column."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from crewkit.dsl.words import words
from crewkit.spec.files import check_file

ROOT = Path(__file__).resolve().parents[2]
DECK = ROOT / "missions" / "deep-sea" / "tasks.yaml"
DATA = yaml.safe_load(DECK.read_text(encoding="utf-8"))


def test_crewkit_validate_passes_on_the_96_cards_and_the_32_missions() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "crewkit", "validate", "missions/deep-sea"], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "34 files checked: all valid" in proc.stdout  # the deck, 32 missions and the campaign


def test_the_deck_holds_96_cards_each_citing_a_source() -> None:
    cards = DATA["cards"]
    assert len(cards) == 96 and len({c["id"] for c in cards}) == 96
    for card in cards:
        assert card.get("source"), card["id"]
        assert set(card["difficulty"]) == {"3", "4", "5"}, card["id"]
        assert all(1 <= v <= 6 for v in card["difficulty"].values()), card["id"]
    # the three sources the difficulties of every card come from are named with their addresses
    assert {"bgg", "vtt", "expo"} <= set(DATA["sources"])
    assert "boardgamegeek.com/thread/2631311" in DATA["sources"]["bgg"]


@pytest.mark.parametrize("card", DATA["cards"], ids=[c["id"] for c in DATA["cards"]])
def test_every_card_reads_in_english(card: dict) -> None:
    names = {"owner": "Alice", "chosen": "3"}
    for key in ("fail_if", "done_if", "may_take_if", "redeal_if"):
        if card.get(key):
            text = words(card[key], names)
            assert text and "owner" not in text.split(), (card["id"], key, text)


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "tasks.yaml"
    path.write_text("name: mine\ntitle: Mine\nrulesets: [crew-deep-sea]\nsources: {me: my own cards}\n"
                    "cards:\n" + body, encoding="utf-8")
    return path


CARD = """  - id: no-9
    text: I win no 9.
    difficulty: {"3": 1, "4": 1, "5": 1}
"""


@pytest.mark.parametrize(("body", "where", "message"), [
    (CARD + '    fail_if: "any(c in cards_won(owner): c.rnk == 9)"\n', (9, 44), "no field `rnk`; did you mean `rank`?"),
    (CARD + '    fail_if: "tricks_won(owner) > chosen"\n', (9, 14), "this card has no asks_number"),
    (CARD + '    fail_if: "tricks_won(owner) > 1"\n    source: [nobody]\n', (10, 14), "unknown source 'nobody'"),
    (CARD + '    fail_if: "tricks_won(owner) > 1"\n' + CARD + '    fail_if: "tricks_won(owner) > 1"\n', (10, 9),
     "duplicate task card id 'no-9'"),
    ("""  - id: no-9
    text: I win no 9.
    difficulty: {"3": 1, "4": 1}
    fail_if: "tricks_won(owner) > 1"
""", (8, 17), "no difficulty for 5 seats"),
    (CARD, (6, 5), "fail_if"),
])
def test_mistakes_in_a_deck_are_reported_at_their_place(tmp_path: Path, body: str, where: tuple[int, int],
                                                        message: str) -> None:
    issues = check_file(write(tmp_path, body))
    assert issues, body
    first = issues[0]
    assert message in first.message, first.message
    assert (first.line, first.column) == where, (first.line, first.column, first.message)


def test_a_rule_set_naming_a_deck_that_does_not_exist_is_refused_at_its_key(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("name: mine\nextends: crew-deep-sea\ntasks: {deck: nowhere.yaml}\n", encoding="utf-8")
    issues = check_file(path)
    assert issues and "nowhere.yaml" in issues[0].message and issues[0].line == 3
