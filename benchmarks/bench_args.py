"""What several benchmark scripts share: the mission ranges they take (``--missions 1-10,26``) and a percentile."""

from __future__ import annotations


def missions_arg(text: str) -> list[int]:
    """Mission numbers from ``1-10,26`` (ranges inclusive)."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (the value at index ``q * n`` of the sorted list); nan for none."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]
