"""The harness itself bounds time and memory (so a hostile-input test can trust it)."""

from __future__ import annotations

from tests.untrusted.harness import run_bounded


def test_help_runs_within_bounds() -> None:
    run = run_bounded("--help", timeout=60)
    assert run.returncode == 0 and not run.timed_out
    assert "validate" in run.stdout


def test_timeout_is_reported_not_raised() -> None:
    run = run_bounded("--help", timeout=0.001)
    assert run.timed_out
