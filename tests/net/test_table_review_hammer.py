"""A hosted table's review of a Hammer match: the host's answer (first and final) is the rounds' review, and a
seat's plain client words it as ``crewkit review`` does."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.family import play_game
from crewkit.games import open_game, review_of
from crewkit.net.review import table_review


def test_the_hosts_review_of_a_match_is_its_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "QUICK_NODES", 50)
    monkeypatch.setattr(reviews, "MATCH_QUICK_TOTAL", 0.2)
    monkeypatch.setattr(reviews, "MATCH_TOTAL", 0.3)
    game = open_game("hammer", "hammer/05", 4, "hosted")
    play_game(game.engine, [make_bot("fast", s, "hosted") for s in range(4)])
    assert game.is_over()
    names = ["Ann", "Bob", "Cem", "Dee"]
    for first in (True, False):
        out = table_review(game, names, first=first)
        assert out["error"] is None and out["final"] is (not first)
        rounds = out["review"]["rounds"]
        assert [r["round"] for r in rounds] == list(range(1, 9)) and all(r["mission"] == "hammer/05" for r in rounds)
        answer = review_of(game.family)
        assert answer is not None
        text = answer.text_of(out["record"], names, out["review"])
        assert "8 rounds reviewed with every hand known" in text and "Round 1 (" in text and "Ann" in text
