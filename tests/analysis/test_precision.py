"""--precision: play in blocks until the 95% interval is narrow enough, with results independent of workers."""

from __future__ import annotations

import argparse
import hashlib

import pytest

from crewkit.analysis.pool import Target, half_width, run_streams
from crewkit.analysis.simulate import simulate
from crewkit.cli.options import precision


def _coin(job: tuple[int, int]) -> tuple[int, int, bool]:
    """A deterministic 'game': stream 0 wins 90% of the time, stream 1 about half the time."""
    s, i = job
    h = int(hashlib.sha256(f"{s}:{i}".encode()).hexdigest(), 16) % 100
    return (s, i, h < (90 if s == 0 else 50))


def _won(r: tuple[int, int, bool]) -> bool:
    return r[2]


def test_target_stops_at_checkpoints_only() -> None:
    t = Target(max_games=1000, precision=0.1, checkpoint=25)
    assert not t.reached(0, 0)
    assert t.reached(1000, 1000)  # the cap
    assert not t.reached(12, 24)  # ±0.19 at 24 games
    assert t.reached(90, 100) and half_width(90, 100) <= 0.1
    assert not Target(max_games=1000, precision=0.09).reached(50, 100) and half_width(50, 100) > 0.09
    assert Target(max_games=40).reached(3, 40) and not Target(max_games=40).reached(3, 39)


def test_streams_stop_on_their_own_and_results_do_not_depend_on_workers() -> None:
    target = Target(max_games=2000, precision=0.05, checkpoint=25)
    one, _ = run_streams(_coin, [0, 1], _won, target, workers=1)
    two, used = run_streams(_coin, [0, 1], _won, target, workers=2, oversubscribe=True)
    assert one == two
    for s in (0, 1):
        games = len(one[s])
        assert games % 25 == 0
        assert [r[1] for r in one[s]] == list(range(games))  # every index once, in order
        wins = sum(r[2] for r in one[s])
        assert half_width(wins, games) <= 0.05
        # and it did not stop at an earlier checkpoint
        prefix = one[s][: games - 25]
        assert half_width(sum(r[2] for r in prefix), len(prefix)) > 0.05
    # the 90% stream needs far fewer games than the 50% one
    assert len(one[0]) < len(one[1])


def test_a_background_stream_waits_behind_the_others_and_keeps_its_results() -> None:
    """``crewkit check``'s solver runs behind the bots: while a foreground stream is open, a background stream is
    fed one block every BACKGROUND_EVERY rounds (from the first); then all of it. Its results are the same."""
    from crewkit.analysis.pool import BACKGROUND_EVERY

    fore = Target(max_games=2000, precision=0.03, checkpoint=25)
    back = Target(max_games=60, checkpoint=2, blocks=True, background=True)
    order: list[tuple[int, int]] = []

    def game(job: tuple[int, int]) -> tuple[int, int, bool]:
        order.append(job)
        return _coin(job)

    out, _ = run_streams(game, [1, 0], _won, {1: fore, 0: back}, workers=1)
    fore_games = len(out[1])
    assert fore_games > 25 * BACKGROUND_EVERY * 2  # long enough to see the pacing
    during = [job for job in order[: order.index((1, fore_games - 1))] if job[0] == 0]
    rounds = -(-fore_games // 25)
    assert len(during) <= 2 * (-(-rounds // BACKGROUND_EVERY))  # one block of 2 per BACKGROUND_EVERY rounds
    assert order[1] != (0, 0) and (0, 0) in order[:27]  # from the first round, after the round's own block
    assert [r[1] for r in out[0]] == list(range(60))  # all of it in the end, every index once
    plain, _ = run_streams(_coin, [1, 0], _won, {1: fore, 0: Target(max_games=60, checkpoint=2, blocks=True)},
                           workers=1)
    assert plain == out


def test_paired_streams_stop_together() -> None:
    target = Target(max_games=2000, precision=0.05, checkpoint=25)
    out, _ = run_streams(_coin, [0, 1], _won, target, paired=True, workers=1)
    assert len(out[0]) == len(out[1])
    alone, _ = run_streams(_coin, [1], _won, target, workers=1)
    assert len(out[1]) == len(alone[1])  # the slower stream decides


def test_cap_wins_over_precision() -> None:
    out, _ = run_streams(_coin, [1], _won, Target(max_games=60, precision=0.01, checkpoint=25), workers=1)
    assert len(out[1]) == 60


def test_simulate_precision_same_for_any_workers() -> None:
    kw = dict(ruleset="crew", mission="planet-nine/01", players=4, games=400, bot="rules", seed="prec")
    a = simulate(**kw, precision=0.08, workers=1)  # type: ignore[arg-type]
    b = simulate(**kw, precision=0.08, workers=2, oversubscribe=True)  # type: ignore[arg-type]
    assert (a.games, a.successes, a.reasons) == (b.games, b.successes, b.reasons)
    assert a.games % 25 == 0 and a.games < 400
    low, high = a.interval
    assert (high - low) / 2 <= 0.08
    assert "reached" in a.precision_text()
    fixed = simulate(**{**kw, "games": a.games}, workers=1)  # type: ignore[arg-type]
    assert (fixed.games, fixed.successes) == (a.games, a.successes)  # the same seeded games


def test_compare_precision_keeps_variants_paired() -> None:
    from crewkit.analysis.compare import Variant, compare

    variants = [Variant("rules", "crew", "planet-nine/01", 4, "rules"),
                Variant("random", "crew", "planet-nine/01", 4, "random")]
    cmp = compare(variants, 300, "prec", solver=True, solver_games=10, precision=0.1)
    assert cmp.results[0].games == cmp.results[1].games
    assert cmp.results[0].games % 25 == 0
    assert sum(cmp.results[0].solver_counts().values()) == 10  # the solver ran on the first 10 deals only
    assert all(half_width(r.successes, r.games) <= 0.1 for r in cmp.results) or cmp.results[0].games == 300


def test_check_precision_and_solver_sample(tmp_path: object) -> None:
    from crewkit.analysis.check import check_mission

    report = check_mission("missions/planet-nine/01-first-contact.yaml", games=500, players=[4], bot="rules",
                           seed="prec", precision=0.1, solver_games=8)
    pc = report.counts[0]
    assert pc.games % 25 == 0 and pc.games < 500
    assert half_width(pc.bot_successes, pc.games) <= 0.1
    assert sum(pc.solver.values()) == 8
    assert "95%" in report.format_text()
    two = check_mission("missions/planet-nine/01-first-contact.yaml", games=500, players=[4], bot="rules",
                        seed="prec", precision=0.1, solver_games=8, workers=2, oversubscribe=True)
    assert two.to_json()["player_counts"] == report.to_json()["player_counts"]


@pytest.mark.parametrize(("text", "value"), [("0.03", 0.03), ("3%", 0.03), ("3", 0.03), ("0.5%", 0.005)])
def test_precision_argument(text: str, value: float) -> None:
    assert precision(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["0", "-1", "abc", "50", "nan"])
def test_precision_argument_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="half-width"):
        precision(text)
