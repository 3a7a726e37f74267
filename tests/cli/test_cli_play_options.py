"""``crewkit play`` refuses on the command line what the app could not play (issue 17), before any screen."""

from __future__ import annotations

import pytest

from crewkit.cli import main


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--players", "7"], "7 players is not allowed"),
        (["--mission", "planet-nine/77"], "no mission '77'"),
        (["--ruleset", "crew-jarvis", "--mission", "planet-nine/12", "--players", "4"],
         "4 players is not allowed here; allowed: 2"),
        (["--ruleset", "hammer", "--players", "3"], "3 players is not allowed"),
    ],
)
def test_play_refuses_before_the_app_opens(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import crewkit.tui.launch as launch

    def no_app(options: object) -> int:
        raise AssertionError("the app opened")

    monkeypatch.setattr(launch, "run_play", no_app)
    assert main(["play", *argv]) == 1
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err


def test_a_rule_set_without_players_opens_with_a_count_it_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ruleset crew-jarvis`` without ``--players``: the app opens with the count JARVIS plays (2), not 4."""
    import crewkit.tui.launch as launch
    from crewkit.tui.app import CrewApp

    opened: list[int] = []

    def fake_app(options: launch.PlayOptions) -> int:
        opened.append(CrewApp(options).players_for(options.mission))
        return 0

    monkeypatch.setattr(launch, "run_play", fake_app)
    assert main(["play", "--ruleset", "crew-jarvis", "--mission", "planet-nine/12"]) == 0
    assert opened == [2]
