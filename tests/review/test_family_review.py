"""The review of an attempt is a family's answer (``Family.review``, through ``crewkit.games.review_of``): the
trick-taking family gives its review, Not Alone and a family that says nothing give none, and every face
(``crewkit review``, the logbook's attempts, a hosted table) says so in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit import cli
from crewkit.games import family_named, open_game, replay, review_of
from crewkit.games.driver import play_out
from crewkit.games.protocol import GameInPlay
from crewkit.net.review import table_review
from crewkit.tui.screens.attempts import review_of_record
from tests.review.lost_games import LOST, lost_record


def not_alone_game() -> GameInPlay:
    game = open_game("not-alone", None, 3, seed="no-review")
    play_out(game, game.family.seat_players(game, "random", "no-review"))
    assert game.is_over()
    return game


def test_not_alone_and_a_family_without_the_answer_have_no_review() -> None:
    assert review_of(family_named("not-alone")) is None
    assert review_of(family_named("trick-taking")) is not None

    class Silent:  # a plug-in family that does not answer ``review`` at all
        name = "silent"

    assert review_of(Silent()) is None  # type: ignore[arg-type]


def test_every_face_says_a_not_alone_game_has_no_review(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    game = not_alone_game()
    path = tmp_path / "hunt.json"
    path.write_text(json.dumps(game.record()))
    assert cli.main(["review", str(path)]) == 1
    err = capsys.readouterr().err
    assert "a record of Not Alone; there is no review for it" in err and "Traceback" not in err
    screen, why = review_of_record(path)
    assert screen is None and why.startswith("A game of Not Alone has no review")
    sent = table_review(game, ["Ann", "Bob", "Cem"])
    assert sent["review"] is None and sent["error"].startswith("a game of Not Alone has no review")


def test_the_trick_taking_answer_reviews_a_record_as_crewkit_review_does(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(LOST.read_text())
    final = replay(record).game
    assert final is not None
    answer = review_of(final.family)
    assert answer is not None
    rv = answer.of_record(record, final, names=None, timeout=10.0, max_nodes=20_000, total=120.0, blame=False,
                          blame_worlds=1)
    assert rv.to_json()["status"] == "lost" and rv.text().startswith("lost: Trick ")
    capsys.readouterr()
    assert cli.main(["review", str(lost_record(tmp_path)), "--no-blame", "--nodes", "20000"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[:-1] == rv.text().splitlines()[:-1]  # the same words (the last line: the time it took)


def test_a_review_without_a_screen_at_the_terminal_is_said_in_words() -> None:
    from types import SimpleNamespace

    from crewkit.tui.family import review_screen

    # a family with a review whose terminal face has no review screen (Not Alone's face), then with no face
    family = SimpleNamespace(name="reviewed", title="Reviewed", review=lambda: object(),
                             tui="crewkit.families.not_alone.tui.terminal:TERMINAL")
    game = SimpleNamespace(family=family)
    screen, why = review_screen(game)
    assert screen is None and why == "A game of Reviewed has no review screen here: `crewkit review` gives its review."
    family.tui = None
    screen, why = review_screen(game)
    assert screen is None and "reviewed family, which offers no table at the terminal" in why


def test_a_review_sent_by_a_host_reads_as_crewkit_review_prints_it() -> None:
    """The plain client's words for the host's ``review`` message (``FamilyReview.text_of``): the same text as
    the review itself, the winning line from the turning point rebuilt from the record."""
    record = json.loads(LOST.read_text())
    final = replay(record).game
    assert final is not None
    answer = review_of(final.family)
    assert answer is not None
    names = ["Ann", "Bob", "Cat", "Dan"][:final.seats]
    rv = answer.of_record(record, final, names=names, timeout=10.0, max_nodes=20_000, total=120.0, blame=False,
                          blame_worlds=1)
    assert "a winning line from the position before it" in rv.text()
    assert answer.text_of(record, names, rv.to_json()) == rv.text()
