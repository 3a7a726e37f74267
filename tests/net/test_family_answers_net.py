"""The hosted table and the plain client ask the game's family (issue 46), naming none: whether an attempt counts
in a campaign's logbook and as what (``FamilyAnswers.logbook_attempt``), and the plain client's words for the host's log lines
(the family's terminal face's optional ``log_words``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from crewkit.games import logbook_attempt, open_game
from crewkit.games.driver import play_out
from crewkit.games.protocol import GameInPlay, dummy_moved
from crewkit.tui.family import plain_log_words


def test_a_crew_mission_counts_in_the_logbook_a_hammer_match_and_a_family_without_the_answer_do_not() -> None:
    crew = open_game("crew", "planet-nine/01", 3, "logbook")
    play_out(crew, crew.family.seat_players(crew, "heuristic", "logbook"))
    attempt = logbook_attempt(crew)
    assert attempt is not None
    outcome = crew.outcome()
    assert (attempt.result, attempt.reason) == (outcome.result, outcome.reason) and outcome.result != "in-progress"
    assert attempt.distress_used is False  # mission 1 has no distress signal
    assert logbook_attempt(open_game("hammer", "hammer/05", 4, "logbook")) is None
    assert logbook_attempt(open_game("not-alone", None, 3, "logbook")) is None
    # a family without the answer (an installed package's, written before it) counts none
    assert logbook_attempt(cast(GameInPlay, SimpleNamespace(family=SimpleNamespace(name="toy")))) is None


def test_the_plain_client_words_a_trick_taking_log_and_leaves_other_families_lines_as_written() -> None:
    welcome = {"family": "trick-taking", "title": "Planet Nine 1",
               "setup": {"ruleset": "crew", "mission": "planet-nine/01", "players": 3, "readings": {}}}
    words = plain_log_words(welcome)
    assert words is not None
    assert words(["task-revealed pink 1"], ["Ann", "Bob", "Cat"], 0) == ["Task revealed: pink 1"]
    assert plain_log_words({"family": "not-alone", "title": "Not Alone"}) is None  # no log_words: as written
    assert plain_log_words({"family": "no-such-family"}) is None


def test_a_moved_dummy_renumbers_the_seats_keeping_the_players_order() -> None:
    assert dummy_moved(4, 3, 1) == [0, 3, 1, 2]  # order[new seat] = old seat


def test_the_plain_clients_help_offers_what_the_familys_games_have() -> None:
    from crewkit.net.plain import HELP, help_words

    crew = help_words({"family": "trick-taking"})
    assert "p to pass a communication window" in crew and "w for the review" in crew and crew.endswith("q to quit")
    hunt = help_words({"family": "not-alone"})
    assert "p to pass" not in hunt and "review" not in hunt and hunt == HELP  # no windows, no review
    assert help_words({"family": "no-such-family"}) == HELP
