"""Statistics for paired comparisons (the same deals played under two variants), standard library only.

- :func:`mcnemar`: McNemar's test on paired success/failure outcomes, exact (binomial) or χ² with
  Edwards' continuity correction.
- :func:`paired_difference`: the difference of two paired proportions with Newcombe's (1998) method-10
  95% interval (Wilson score intervals combined through the φ correlation of the pairs).
- :func:`paired_t_test` and :func:`wilcoxon_signed_rank` for paired scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from crewkit.analysis.stats import wilson_interval

Z95 = 1.959963984540054


# ---------------------------------------------------------------------------- distributions
def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def chi2_sf_1df(x: float) -> float:
    """P(X > x) for a χ² variable with one degree of freedom."""
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(x / 2.0))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(c) > tiny else 1.0 + aa / tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(c) > tiny else 1.0 + aa / tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-14:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2.0, 0.5, x)
    return tail if t >= 0 else 1.0 - tail


def t_ppf(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t (bisection on :func:`t_sf`)."""
    if not 0.0 < q < 1.0:
        raise ValueError("q must be between 0 and 1")
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if 1.0 - t_sf(mid, df) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


# ---------------------------------------------------------------------------- McNemar
@dataclass(frozen=True)
class McNemarResult:
    b: int  # pairs where only the first variant succeeded
    c: int  # pairs where only the second variant succeeded
    statistic: float  # χ² statistic (chi2) or the smaller discordant count (exact)
    p_value: float  # two-sided
    method: str  # exact | chi2

    def to_json(self) -> dict[str, object]:
        return {"b": self.b, "c": self.c, "statistic": round(self.statistic, 6), "p_value": self.p_value,
                "method": self.method}


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of ``k`` successes in ``n`` fair coin flips (doubling the smaller tail)."""
    if n == 0:
        return 1.0
    k = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def mcnemar(b: int, c: int, *, exact: bool | None = None, correction: bool = True) -> McNemarResult:
    """McNemar's test on the discordant pair counts ``b`` and ``c``.

    ``exact=None`` chooses the exact binomial test when ``b + c < 25`` and the χ² test otherwise;
    ``correction`` applies Edwards' continuity correction to the χ² statistic.
    """
    if b < 0 or c < 0:
        raise ValueError("counts cannot be negative")
    n = b + c
    if exact is None:
        exact = n < 25
    if exact:
        return McNemarResult(b, c, float(min(b, c)), binomial_two_sided(b, n), "exact")
    if n == 0:
        return McNemarResult(b, c, 0.0, 1.0, "chi2")
    diff: float = abs(b - c)
    if correction:
        diff = max(0.0, diff - 1.0)
    stat = diff * diff / n
    return McNemarResult(b, c, stat, chi2_sf_1df(stat), "chi2")


# ---------------------------------------------------------------------------- paired proportions
@dataclass(frozen=True)
class PairedTable:
    """Counts of paired binary outcomes: both succeed, only A, only B, neither."""

    both: int
    only_a: int
    only_b: int
    neither: int

    @classmethod
    def from_outcomes(cls, a: Sequence[bool], b: Sequence[bool]) -> PairedTable:
        if len(a) != len(b):
            raise ValueError("paired outcomes need the same number of deals")
        both = sum(1 for x, y in zip(a, b, strict=True) if x and y)
        only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
        only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
        return cls(both, only_a, only_b, len(a) - both - only_a - only_b)

    @property
    def n(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither


@dataclass(frozen=True)
class PairedDifference:
    difference: float  # p_B - p_A
    low: float
    high: float
    method: str = "newcombe"

    def to_json(self) -> dict[str, object]:
        return {"difference": round(self.difference, 6), "interval95": [round(self.low, 6), round(self.high, 6)],
                "method": self.method}


def paired_difference(table: PairedTable, z: float = Z95) -> PairedDifference:
    """``p_B - p_A`` for paired outcomes with Newcombe's method-10 interval (95% for the default ``z``)."""
    n = table.n
    if n == 0:
        return PairedDifference(0.0, -1.0, 1.0)
    a, b, c, d = table.both, table.only_a, table.only_b, table.neither
    succ_a, succ_b = a + b, a + c
    p_a, p_b = succ_a / n, succ_b / n
    l_a, u_a = wilson_interval(succ_a, n, z)
    l_b, u_b = wilson_interval(succ_b, n, z)
    # φ between the two outcomes (0 when a margin is empty)
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(denom) if denom > 0 else 0.0
    diff = p_b - p_a
    # interval for p_B - p_A: lower uses B's lower and A's upper distances
    dl = math.sqrt(max(0.0, (p_b - l_b) ** 2 - 2 * phi * (p_b - l_b) * (u_a - p_a) + (u_a - p_a) ** 2))
    du = math.sqrt(max(0.0, (u_b - p_b) ** 2 - 2 * phi * (u_b - p_b) * (p_a - l_a) + (p_a - l_a) ** 2))
    return PairedDifference(diff, max(-1.0, diff - dl), min(1.0, diff + du))


# ---------------------------------------------------------------------------- paired scores
@dataclass(frozen=True)
class TTestResult:
    mean_difference: float  # mean of b - a
    t: float
    df: int
    p_value: float  # two-sided
    low: float  # 95% interval of the mean difference
    high: float

    def to_json(self) -> dict[str, object]:
        return {"mean_difference": round(self.mean_difference, 6), "t": round(self.t, 6), "df": self.df,
                "p_value": self.p_value, "interval95": [round(self.low, 6), round(self.high, 6)]}


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> TTestResult:
    """Student's paired t-test of ``b - a`` against zero (two-sided), with a 95% interval."""
    if len(a) != len(b):
        raise ValueError("paired samples need the same length")
    d = [y - x for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n < 2:
        mean = d[0] if d else 0.0
        return TTestResult(mean, 0.0, max(0, n - 1), 1.0, -math.inf, math.inf)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    df = n - 1
    if var == 0:
        p = 1.0 if mean == 0 else 0.0
        t = 0.0 if mean == 0 else math.copysign(math.inf, mean)
        return TTestResult(mean, t, df, p, mean, mean)
    se = math.sqrt(var / n)
    t = mean / se
    p = min(1.0, 2.0 * t_sf(abs(t), df))
    q = t_ppf(0.975, df)
    return TTestResult(mean, t, df, p, mean - q * se, mean + q * se)


@dataclass(frozen=True)
class WilcoxonResult:
    n: int  # non-zero differences
    w_plus: float  # sum of ranks of positive differences (b > a)
    w_minus: float
    p_value: float  # two-sided
    method: str  # exact | normal

    def to_json(self) -> dict[str, object]:
        return {"n": self.n, "w_plus": self.w_plus, "w_minus": self.w_minus, "p_value": self.p_value,
                "method": self.method}


def wilcoxon_signed_rank(a: Sequence[float], b: Sequence[float], *, exact: bool | None = None) -> WilcoxonResult:
    """Wilcoxon's signed-rank test of ``b - a`` (zero differences dropped, average ranks for ties).

    Exact (enumerated null distribution) when ``n <= 25`` and there are no ties, normal approximation with
    tie and continuity corrections otherwise.
    """
    if len(a) != len(b):
        raise ValueError("paired samples need the same length")
    d = [y - x for x, y in zip(a, b, strict=True) if y != x]
    n = len(d)
    if n == 0:
        return WilcoxonResult(0, 0.0, 0.0, 1.0, "exact")
    order = sorted(range(n), key=lambda i: abs(d[i]))
    ranks = [0.0] * n
    i = 0
    tie_term = 0.0
    while i < n:
        j = i
        while j + 1 < n and abs(d[order[j + 1]]) == abs(d[order[i]]):
            j += 1
        avg = (i + j) / 2.0 + 1.0
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        t = j - i + 1
        tie_term += t**3 - t
        i = j + 1
    w_plus = sum(r for r, x in zip(ranks, d, strict=True) if x > 0)
    w_minus = sum(r for r, x in zip(ranks, d, strict=True) if x < 0)
    ties = tie_term > 0
    if exact is None:
        exact = n <= 25 and not ties
    if exact and not ties:
        # number of subsets of {1..n} with each rank sum
        total = n * (n + 1) // 2
        counts = [0] * (total + 1)
        counts[0] = 1
        for r in range(1, n + 1):
            for s in range(total, r - 1, -1):
                counts[s] += counts[s - r]
        w = int(min(w_plus, w_minus))
        tail = sum(counts[: w + 1]) / 2.0**n
        return WilcoxonResult(n, w_plus, w_minus, min(1.0, 2.0 * tail), "exact")
    mean = n * (n + 1) / 4.0
    var = n * (n + 1) * (2 * n + 1) / 24.0 - tie_term / 48.0
    if var <= 0:
        return WilcoxonResult(n, w_plus, w_minus, 1.0, "normal")
    z = (abs(w_plus - mean) - 0.5) / math.sqrt(var)
    return WilcoxonResult(n, w_plus, w_minus, min(1.0, 2.0 * normal_sf(max(0.0, z))), "normal")


__all__ = [
    "McNemarResult",
    "PairedDifference",
    "PairedTable",
    "TTestResult",
    "WilcoxonResult",
    "betainc",
    "binomial_two_sided",
    "chi2_sf_1df",
    "mcnemar",
    "normal_sf",
    "paired_difference",
    "paired_t_test",
    "t_ppf",
    "t_sf",
    "wilcoxon_signed_rank",
]
