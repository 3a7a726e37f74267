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
