"""``crewkit play --bot NAME``: the bot in the empty seats (and seats given as ``bot``)."""

from __future__ import annotations

import pytest

from crewkit.cli import main
from crewkit.families.trick_taking.bots import bot_names, make_bot
from crewkit.families.trick_taking.tui.session import DEFAULT_BOT
from crewkit.tui.launch import PlayOptions
from crewkit.tui.options import normalise_seats


def test_bot_fills_empty_and_bot_seats_only() -> None:
    assert normalise_seats(None, 4, True, "rules") == ["human", "rules", "rules", "rules"]
    assert normalise_seats(["human", "bot", "random"], 4, True, "expert") == ["human", "expert", "random", "expert"]
    assert normalise_seats(None, 3, True) == ["human", "bot", "bot"]  # "bot": the default bot, decided later
    assert normalise_seats(None, 3, False, "rules") == ["human", "human", "human"]  # no bots: hotseat


def test_default_bot_is_a_registered_bot() -> None:
    assert DEFAULT_BOT in bot_names()
    assert make_bot(DEFAULT_BOT, 1, "s").seat == 1


def test_app_seats_the_chosen_bot() -> None:
    from crewkit.tui.app import CrewApp
    from crewkit.tui.services import default_services

    app = CrewApp(PlayOptions(bot="rules", players=4, mission="planet-nine/01"), services=default_services())
    assert app.kinds("planet-nine/01") == ["human", "rules", "rules", "rules"]


def test_unknown_bot_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bot", "grandmaster"]) == 2
    err = capsys.readouterr().err
    assert "--bot grandmaster: unknown bot" in err and "expert" in err
