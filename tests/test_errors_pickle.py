"""Errors cross process boundaries intact: worker processes (``--workers``, a Dask cluster) send them back
pickled, and the parent must report the same file, line and column (before, a ``SpecError`` could not be
unpickled at all, and a pool waiting for it hung)."""

from __future__ import annotations

import pickle
from pathlib import Path

from crewkit.campaign.saves import SaveError
from crewkit.dsl.errors import DslError, DslInterrupted
from crewkit.engine.errors import IllegalAction
from crewkit.errors import UsageError
from crewkit.spec.errors import SpecError, SpecIssue


def roundtrip(error: Exception) -> Exception:
    return pickle.loads(pickle.dumps(error))


def test_spec_error_keeps_every_issue_and_its_place() -> None:
    issues = [SpecIssue(file="b.yaml", line=3, column=7, path=("deal",), message="expected a list, found 3"),
              SpecIssue(file="a.yaml", line=1, column=1, path=(), message="unknown key 'x'")]
    error = SpecError(issues, ["deal: 3"])
    back = roundtrip(error)
    assert type(back) is SpecError
    assert str(back) == str(error)
    assert [(i.file, i.line, i.column, i.message) for i in back.issues] == [
        ("a.yaml", 1, 1, "unknown key 'x'"), ("b.yaml", 3, 7, "expected a list, found 3")]
    assert back.render() == error.render()


def test_dsl_error_keeps_line_column_and_the_errors_found_with_it() -> None:
    other = DslError("unknown name 'y'", line=1, column=9)
    error = DslError("expected a number, found a card", line=1, column=3, end_column=5, others=(other,))
    back = roundtrip(error)
    assert isinstance(back, DslError)
    assert (back.line, back.column, back.end_column, str(back)) == (1, 3, 5, "1:3: expected a number, found a card")
    assert [str(o) for o in back.others] == ["1:9: unknown name 'y'"]
    stopped = roundtrip(DslInterrupted("stopped after 1 s", why="time", line=2, column=1))
    assert isinstance(stopped, DslInterrupted) and str(stopped) == "2:1: stopped after 1 s"


def test_other_errors_keep_their_message_and_fields(tmp_path: Path) -> None:
    save = roundtrip(SaveError("not a save file", tmp_path / "s.json", line=4, column=2))
    assert isinstance(save, SaveError)
    assert (str(save), save.path, save.line, save.column) == ("not a save file", tmp_path / "s.json", 4, 2)
    assert str(roundtrip(UsageError("--games must be positive"))) == "--games must be positive"
    original = IllegalAction("not-your-turn", "seat 2 may not play now")
    illegal = roundtrip(original)
    assert type(illegal) is IllegalAction and (illegal.code, str(illegal)) == ("not-your-turn", str(original))
