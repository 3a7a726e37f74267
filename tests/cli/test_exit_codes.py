"""Exit codes 3 (internal error) and 130 (interrupted): returned by the CLI, documented in --help and README."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from crewkit import cli

ROOT = Path(__file__).resolve().parents[2]


def _raising(exc: BaseException) -> object:
    def command(args: argparse.Namespace) -> int:
        raise exc

    return command


def test_interrupted_is_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(cli.COMMANDS, "list", _raising(KeyboardInterrupt()))
    assert cli.main(["list"]) == cli.EXIT_INTERRUPTED == 130
    assert "interrupted" in capsys.readouterr().err


def test_internal_error_is_3_without_traceback(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("CREWKIT_DEBUG", raising=False)
    monkeypatch.setitem(cli.COMMANDS, "list", _raising(ZeroDivisionError("boom")))
    assert cli.main(["list"]) == cli.EXIT_INTERNAL == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "CREWKIT_DEBUG=1" in err and "Traceback" not in err


def test_help_documents_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for code in ("0 success", "1 invalid input", "2 usage error", "3 internal error", "130 interrupted"):
        assert code in text


def test_readme_documents_every_exit_code() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for code in ("0 success", "1 invalid input", "2 usage error", "3 internal error", "130 interrupted"):
        assert code in text


def test_user_errors_share_one_base() -> None:
    from crewkit.campaign.saves import SaveError
    from crewkit.campaign.store import LogbookError
    from crewkit.cards import CardError
    from crewkit.dsl.errors import DslError
    from crewkit.engine.errors import IllegalAction, SetupError
    from crewkit.errors import CrewkitError, UsageError
    from crewkit.families.trick_taking.bots.registry import UnknownBot
    from crewkit.games.driver import BotError
    from crewkit.spec.bundled import NotFound
    from crewkit.spec.errors import SpecError

    for cls in (BotError, UnknownBot, SaveError, LogbookError, CardError, DslError, IllegalAction, SetupError,
                NotFound, SpecError, UsageError):
        assert issubclass(cls, CrewkitError), cls
    assert issubclass(CardError, ValueError) and issubclass(NotFound, LookupError)  # old bases kept
    assert cli.UsageError is UsageError


def _user_errors() -> list[tuple[Exception, int]]:
    from crewkit.campaign.store import LogbookError
    from crewkit.cards import CardError
    from crewkit.errors import UsageError

    return [
        (UsageError("--seats lists 3 seats"), 2),
        (CardError("'x 1' is not a card"), 1),
        (LogbookError("the logbook is locked"), 1),
        (PermissionError(13, "Permission denied", "home/logbook.sqlite3"), 1),
    ]


@pytest.mark.parametrize(("exc", "code"), _user_errors())
def test_a_user_error_is_one_message_with_its_code(exc: Exception, code: int, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(cli.COMMANDS, "list", _raising(exc))
    assert cli.main(["list"]) == code
    err = capsys.readouterr().err
    assert err.startswith("crewkit list: ") and str(exc) in err and "internal error" not in err
