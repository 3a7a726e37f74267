"""Every option bounded where it is parsed (issue 26): task ranges, deal and game counts, precision, cluster
addresses; jobs made lazily; an unreachable cluster is exit 1 with its message."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

from tests.untrusted.harness import assert_refused, run_bounded

DIGITS = "9" * 5000


@pytest.mark.parametrize(("args", "fragment"), [
    (("winnability", "--tasks", "1-100000000", "--deals", "1"), "expected task counts from 1 to 100"),
    (("winnability", "--tasks", f"1-{DIGITS}", "--deals", "1"), "--tasks"),
    (("winnability", "--tasks", ",".join(["1"] * 2000)), "--tasks"),
    (("winnability", "--tasks", "1", "--deals", "100000000"), "expected a number from 1 to 10,000"),
    (("simulate", "--mission", "planet-nine/01", "--games", "1" + "0" * 20), "expected a number from 1 to"),
    (("simulate", "--mission", "planet-nine/01", "--games", DIGITS), "expected a whole number from 1 to"),
    (("simulate", "--mission", "planet-nine/01", "--workers", "1000000000000"), "expected a number from 1 to"),
    (("check", "planet-nine/01", "--solver-nodes", "1" + "0" * 20), "expected a number from 1 to"),
    (("solve", "--mission", "planet-nine/01", "--nodes", "-5"), "expected a number from 1 to"),
    (("solve", "--mission", "planet-nine/01", "--after", "-1"), "expected a number from 0 to"),
    (("solve", "game.json", "--after", DIGITS), "expected a whole number from 0 to"),
    (("check", "planet-nine/01", "--players", ",".join(["3"] * 3000)), "expected player counts such as 3,4,5"),
    (("check", "planet-nine/01", "--players", "3,1000"), "each from 1 to 100"),
    (("check", "planet-nine/01", "--players", DIGITS), "expected player counts such as 3,4,5"),
    (("simulate", "--mission", "planet-nine/01", "--seed", "x" * 100_000), "expected a seed of at most 200"),
    (("simulate", "--mission", "planet-nine/01", "--reading", "x" * 100_000 + "=a"),
     "expected ID=OPTION of at most 200 characters each"),
    (("compare", "--mission", "planet-nine/01", *["bot=random"] * 1000), "expected at most 64 variants"),
])
def test_counts_are_bounded_where_they_are_parsed(args: tuple[str, ...], fragment: str) -> None:
    run = run_bounded(*args, timeout=30, memory_mb=400)
    assert_refused(run, fragment, max_seconds=10, code=2)


@pytest.mark.parametrize("value", ["1e-300", "1e-9", "0.0001", "0", "-0.03", "nan", "inf", "0.5", "50%", "soon"])
def test_precision_between_sensible_limits(value: str) -> None:
    fragment = ("expected a half-width such as 0.03" if value == "soon"
                else "expected a half-width from 0.001 (0.1%) to below 0.5 (50%)")
    for command in (("simulate", "--mission", "planet-nine/01"), ("check", "planet-nine/01"),
                    ("compare", "--mission", "planet-nine/01", "bot=random")):
        run = run_bounded(*command, "--precision", value, timeout=30)
        assert_refused(run, fragment, max_seconds=10, code=2)


def test_a_fine_precision_says_it_may_stop_at_the_cap() -> None:
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--precision", "0.001", "--games", "50",
                      "--bot", "random", timeout=60)
    assert run.returncode == 0, run.output
    assert "--precision 0.001 may need up to 960,400 games per stream, more than the 50" in run.stderr
    assert "not reached: stopped at the cap of 50 games" in run.stdout


@pytest.mark.parametrize("address", ["garbage", "tcp://[::1", "tcp://", ":8786", "tcp://host:99999",
                                     "tcp://host:0", "http://host:8786", "tcp://a b:1", "\x1b]0;x\x07:1"])
def test_a_malformed_cluster_address_is_a_usage_error(address: str) -> None:
    for command in (("simulate", "--mission", "planet-nine/01", "--games", "5"), ("check", "planet-nine/01"),
                    ("compare", "--mission", "planet-nine/01", "bot=random")):
        run = run_bounded(*command, "--cluster", address, timeout=30)
        assert_refused(run, "expected 'local' or a scheduler address such as tcp://host:8786", max_seconds=10, code=2)
        assert "\x1b" not in run.output


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "127.0.0.1:1", "tcp://[::1]:1"])
def test_an_unreachable_cluster_is_exit_1_at_once(address: str) -> None:
    pytest.importorskip("distributed")
    run = run_bounded("simulate", "--mission", "planet-nine/01", "--games", "5", "--cluster", address, timeout=60)
    assert_refused(run, "nothing answers there", max_seconds=15)
    assert "internal error" not in run.output


def test_winnability_makes_its_jobs_as_they_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """2,000,000 deals: the job list alone took 1.87 GB for --deals 100000000; made lazily and counted as the
    results come, the run keeps no more than its per-deal times."""
    from crewkit.analysis import winnability as win
    from crewkit.families.trick_taking.analysis import winnability as deals

    monkeypatch.setattr(deals, "shaped_rules", lambda *a: None)
    monkeypatch.setattr(deals, "_job", lambda job: ("winnable", 0.0))
    win.answer_for("crew")  # the family imported before the count (traced, importing it took seconds)
    tracemalloc.start()
    try:
        result = win.winnability([1, 2, 3, 4, 5], 200_000, workers=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sum(row.winnable for row in result.rows) == 2_000_000
    assert peak < 60 * 1024 * 1024, f"{peak / 1024 / 1024:.0f} MB"


def test_iter_jobs_takes_jobs_only_as_it_needs_them() -> None:
    from crewkit.analysis.pool import iter_jobs

    taken = []

    def jobs() -> Any:
        for i in range(10**12):
            taken.append(i)
            yield i

    stream = iter(iter_jobs(abs, jobs(), total=10**12))
    assert [next(stream) for _ in range(3)] == [(0, 0), (1, 1), (2, 2)]
    assert len(taken) == 3


def test_the_default_precision_says_nothing_of_the_cap() -> None:
    run = run_bounded("compare", "--mission", "planet-nine/01", "--games", "2", "--no-solver", "bot=random",
                      timeout=60)
    assert run.returncode == 0, run.output
    assert "may need up to" not in run.stderr


def test_a_player_count_given_twice_is_run_once() -> None:
    """`check --players 3,3,...` ran the same sample once per repetition (3,000 times for 3,000 threes)."""
    from crewkit.cli.options import player_list

    assert player_list("3,3,4, 3") == [3, 4]
