"""Simulation: worker-count independence, statistics, failure-reason grouping, records that replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit.analysis.simulate import SimulationResult, normalise_reason, simulate
from crewkit.analysis.stats import wilson_interval


def _comparable(r: SimulationResult) -> dict[str, object]:
    data = r.to_json()
    for key in ("seconds", "games_per_second", "workers"):
        data.pop(key)
    return data


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (90, 100, 0.8256, 0.9448), (10, 10, 0.7225, 1.0),
     (1, 3, 0.0615, 0.7923)],
)
def test_wilson_interval_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert round(lo, 4) == low
    assert round(hi, 4) == high


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    lo, hi = wilson_interval(50, 100, z=2.576)
    assert lo < 0.3779 < 0.6221 < hi  # wider than the 95% interval


@pytest.mark.parametrize(
    ("reason", "group"),
    [
        ("failed in trick 3: pink 7 won by seat 2, task of seat 0", "a task card was won by another player"),
        ("failed in trick 9: blue 1 won by seat 0, task of seat 3", "a task card was won by another player"),
        ("failed in trick 4: task order broken by green 2 (token 1, seat 1): it had to be task number 1 to be "
         "completed, but was number 2", "the task order was broken"),
        ("failed after trick 10: the hands ran out with tasks undone: yellow 9 (seat 2)", "the hands ran out with tasks undone"),
        ("failed after trick 13: the hands ran out with tasks undone: pink 1 (seat 0), blue 2 (seat 1)",
         "the hands ran out with tasks undone"),
        ("failed in trick 2: a trick was won by a 9 (seat 1 with blue 9)", "a trick was won by a 9"),
    ],
)
def test_failure_reasons_group(reason: str, group: str) -> None:
    assert normalise_reason(reason) == group


def test_same_results_for_any_worker_count() -> None:
    one = simulate("crew", "planet-nine/04", 4, 24, "random", "w", workers=1)
    two = simulate("crew", "planet-nine/04", 4, 24, "random", "w", workers=2)
    assert _comparable(one) == _comparable(two)
    assert one.games == 24
    assert two.workers == 2


def test_result_fields_and_text() -> None:
    seen: list[tuple[int, int]] = []
    r = simulate("crew", "planet-nine/01", 4, 12, "rules", "t", progress=lambda d, n: seen.append((d, n)))
    assert seen[-1] == (12, 12) and len(seen) == 12
    assert r.successes + r.failures == 12
    assert 0 <= r.success_rate <= 1
    low, high = r.interval
    assert low <= r.success_rate <= high
    assert r.mean_tricks > 0
    assert sum(c for _, c in r.reasons) == r.failures
    assert r.games_per_second > 0
    text = r.format_text()
    assert "success" in text and "planet-nine/01" in text
    json.dumps(r.to_json())


def test_simulate_does_not_print(capsys: pytest.CaptureFixture[str]) -> None:
    simulate("crew", "planet-nine/02", 4, 5, "random", "quiet")
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_unknown_bot_fails_early() -> None:
    with pytest.raises(ValueError, match="available bots"):
        simulate("crew", "planet-nine/01", 4, 3, "nobody", "s")


def test_records_replay_to_the_same_outcome(tmp_path: Path) -> None:
    from crewkit.families.trick_taking.engine.record import replay_record

    r = simulate("crew", "planet-nine/04", 4, 6, "random", "rec", workers=2, records_dir=tmp_path)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(1, 7)]
    successes = 0
    for f in files:
        record = json.loads(f.read_text(encoding="utf-8"))
        replay = replay_record(record)
        assert replay.error is None
        assert replay.game is not None
        assert replay.game.outcome().result == record["outcome"]
        assert replay.game.outcome().reason == record["reason"]
        successes += record["outcome"] == "success"
    assert successes == r.successes
