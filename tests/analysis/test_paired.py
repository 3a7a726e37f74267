"""Paired statistics against values computed by hand or published."""

from __future__ import annotations

import math

import pytest

from crewkit.analysis.paired import (
    PairedTable,
    betainc,
    binomial_two_sided,
    chi2_sf_1df,
    mcnemar,
    paired_difference,
    paired_t_test,
    t_ppf,
    t_sf,
    wilcoxon_signed_rank,
)


def test_mcnemar_exact_small_counts() -> None:
    # b=1, c=5: 2 * P(X <= 1 | n=6, p=1/2) = 2 * 7/64
    r = mcnemar(1, 5)
    assert r.method == "exact"
    assert r.p_value == pytest.approx(14 / 64)
    assert mcnemar(0, 0).p_value == 1.0
    assert mcnemar(3, 3).p_value == 1.0
    assert binomial_two_sided(0, 10) == pytest.approx(2 / 1024)


def test_mcnemar_chi2_with_continuity_correction() -> None:
    # (|10 - 25| - 1)^2 / 35 = 5.6, p = 0.01797 (χ² with 1 df)
    r = mcnemar(10, 25)
    assert r.method == "chi2"
    assert r.statistic == pytest.approx(5.6)
    assert r.p_value == pytest.approx(0.017960, abs=1e-6)
    uncorrected = mcnemar(10, 25, correction=False)
    assert uncorrected.statistic == pytest.approx(225 / 35)
    # the exact test on the same counts: 2 * P(X <= 10 | n=35)
    exact = mcnemar(10, 25, exact=True)
    assert exact.p_value == pytest.approx(2 * sum(math.comb(35, i) for i in range(11)) / 2**35)


def test_chi2_and_t_distribution_known_values() -> None:
    assert chi2_sf_1df(3.841458820694124) == pytest.approx(0.05, abs=1e-9)
    assert t_ppf(0.975, 4) == pytest.approx(2.776445, abs=1e-5)
    assert t_ppf(0.975, 10) == pytest.approx(2.228139, abs=1e-5)
    assert 2 * t_sf(2.228139, 10) == pytest.approx(0.05, abs=1e-6)
    assert betainc(2, 3, 0.4) == pytest.approx(0.5248)


def test_paired_t_test() -> None:
    # differences 1..5: mean 3, sd sqrt(2.5), t = 3 / sqrt(0.5) = 4.2426, df 4, p = 0.01324
    r = paired_t_test([0, 0, 0, 0, 0], [1, 2, 3, 4, 5])
    assert r.t == pytest.approx(4.242641, abs=1e-6)
    assert r.df == 4
    assert r.p_value == pytest.approx(0.013236, abs=1e-5)
    assert r.low == pytest.approx(3 - 2.776445 * math.sqrt(0.5), abs=1e-5)
    same = paired_t_test([1, 2, 3], [1, 2, 3])
    assert same.p_value == 1.0 and same.mean_difference == 0


def test_wilcoxon_signed_rank_exact_and_normal() -> None:
    # all five differences positive: W- = 0, exact two-sided p = 2/32
    r = wilcoxon_signed_rank([0] * 5, [1, 2, 3, 4, 5])
    assert (r.w_plus, r.w_minus, r.method) == (15, 0, "exact")
    assert r.p_value == pytest.approx(0.0625)
    # zero differences are dropped; ties get average ranks and the normal approximation
    tied = wilcoxon_signed_rank([0, 0, 0, 0, 0, 0], [1, 1, -1, 2, 2, 0])
    assert tied.n == 5 and tied.method == "normal"
    assert tied.w_plus + tied.w_minus == pytest.approx(15)
    assert 0 < tied.p_value <= 1


def test_paired_difference_newcombe_method_10() -> None:
    # Newcombe (1998), paired example a=36, b=12, c=2, d=0 (n=50): difference 0.2, method 10: 0.0569 to 0.3404
    table = PairedTable(both=36, only_a=2, only_b=12, neither=0)
    d = paired_difference(table)
    assert d.difference == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0569, abs=1e-4)
    assert d.high == pytest.approx(0.3404, abs=1e-4)
    # symmetric: swapping the variants flips the interval
    flipped = paired_difference(PairedTable(36, 12, 2, 0))
    assert (flipped.low, flipped.high) == pytest.approx((-d.high, -d.low))


def test_paired_table_from_outcomes() -> None:
    a = [True, True, False, False, True]
    b = [True, False, True, False, False]
    t = PairedTable.from_outcomes(a, b)
    assert (t.both, t.only_a, t.only_b, t.neither, t.n) == (1, 2, 1, 1, 5)
    with pytest.raises(ValueError):
        PairedTable.from_outcomes([True], [True, False])
