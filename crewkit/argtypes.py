"""argparse value types shared by every ``crewkit`` sub-command (messages say what was expected and found)."""

from __future__ import annotations

import argparse
import math


def reading(text: str) -> tuple[str, str]:
    """``ID=OPTION`` (``ID:OPTION`` also accepted) selecting a reading of an unclear rule."""
    key, sep, value = text.partition("=")
    if not sep:
        key, sep, value = text.partition(":")
    if not sep or not key.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"expected ID=OPTION (e.g. commander-picks-self=yes), found {text!r}")
    return key.strip(), value.strip()


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, found {value}")
    return value


def positive_seconds(text: str) -> float:
    """A finite duration in seconds, more than 0 (``nan`` and ``inf`` are refused: a deadline must be real)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, found {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, found {text!r}")
    return value


def delay_seconds(text: str) -> float:
    """A pause in seconds: 0 or more, finite and at most a minute (``nan``, ``inf`` and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, found {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"expected a number of seconds from 0 to 60, found {text!r}")
    return value


def precision(text: str) -> float:
    """A target half-width of a 95% interval: a share (0.03) or points (3, 3%), more than 0 and below 0.5."""
    raw = text.strip().rstrip("%")
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a half-width such as 0.03 (or 3%), found {text!r}") from None
    if text.strip().endswith("%") or value >= 1:
        value /= 100
    if not math.isfinite(value) or not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"expected a half-width above 0 and below 0.5 (50%), found {text!r}")
    return value
