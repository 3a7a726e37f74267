"""The ``crewkit`` command line's argument types and the parent parsers of the options its commands share.

Types say what was expected and what was found. A parent parser (``argparse``'s ``parents=``) carries one
option that several commands repeat (``--ruleset``, ``--players``, ``--seed``, ``--reading``, ``--games``,
``--workers``, ``--format``), so each is declared once, with the same type and wording everywhere; a command
passes its own default, and its own help where the meaning differs.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import Any

#: the longest text a name-like option takes (a reading's id or option, a seed): a bound on what is echoed back
MAX_NAME = 200


def reading(text: str) -> tuple[str, str]:
    """``ID=OPTION`` (``ID:OPTION`` also accepted) selecting a reading of an unclear rule."""
    if len(text) > 2 * MAX_NAME + 1:
        raise argparse.ArgumentTypeError(f"expected ID=OPTION of at most {MAX_NAME} characters each, found "
                                         f"{len(text):,} characters")
    key, sep, value = text.partition("=")
    if not sep:
        key, sep, value = text.partition(":")
    if not sep or not key.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"expected ID=OPTION (e.g. commander-picks-self=yes), found {text!r}")
    if len(key.strip()) > MAX_NAME or len(value.strip()) > MAX_NAME:
        raise argparse.ArgumentTypeError(f"expected ID=OPTION of at most {MAX_NAME} characters each, found "
                                         f"{len(key.strip()):,} and {len(value.strip()):,}")
    return key.strip(), value.strip()


def seed_text(text: str) -> str:
    """A master seed: any text of at most :data:`MAX_NAME` characters (it is printed with every result)."""
    if len(text) > MAX_NAME:
        raise argparse.ArgumentTypeError(f"expected a seed of at most {MAX_NAME} characters, found "
                                         f"{len(text):,} characters")
    return text


#: the largest count any option takes (games, nodes, workers, ...): a bound on what a typo can ask for
MAX_COUNT = 1_000_000_000


def bounded_int(low: int, high: int, what: str = "") -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high`` (``what`` says what it counts, for the message)."""

    def parse(text: str) -> int:
        raw = text.strip()
        if len(raw) > 30:  # refused before Python converts a number of thousands of digits
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high:,}, found {len(raw)} "
                                             "characters")
        try:
            value = int(raw)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}") from None
        if not low <= value <= high:
            about = f" ({what})" if what else ""
            raise argparse.ArgumentTypeError(f"expected a number from {low} to {high:,}{about}, found {value:,}")
        return value

    parse.__name__ = "number"  # argparse names the type in its own messages
    return parse


positive_int = bounded_int(1, MAX_COUNT)


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


#: the finest --precision: ±0.1 points already takes up to 960,400 games per stream (at a 50% rate)
MIN_PRECISION = 0.001
#: --precision of check and compare when none is given
DEFAULT_PRECISION = 0.03


def precision(text: str) -> float:
    """A target half-width of a 95% interval: a share (0.03) or points (3, 3%), from :data:`MIN_PRECISION`
    (0.1%) to below 0.5 (the number of games a half-width needs grows as its inverse square)."""
    raw = text.strip().rstrip("%")
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a half-width such as 0.03 (or 3%), found {text!r}") from None
    if text.strip().endswith("%") or value >= 1:
        value /= 100
    if not math.isfinite(value) or not MIN_PRECISION <= value < 0.5:
        raise argparse.ArgumentTypeError(
            f"expected a half-width from {MIN_PRECISION} (0.1%) to below 0.5 (50%), found {text!r}; a finer one "
            "needs millions of games per player count")
    return value


def games_for(precision: float) -> int:
    """About how many games a stream needs for a 95% interval of ±``precision`` at a 50% rate (the most)."""
    return math.ceil(0.25 * (1.96 / precision) ** 2)


def note_precision_cap(command: str, precision: float | None, cap: int) -> None:
    """Say before a run starts when ``--precision`` may need more games than the run may play (``cap``)."""
    if precision is None or games_for(precision) <= cap:
        return
    import sys

    print(f"crewkit {command}: --precision {precision:g} may need up to {games_for(precision):,} games per "
          f"stream, more than the {cap:,} this run may play (--games): it stops at that cap if it is not "
          "reached", file=sys.stderr)


#: the most players any option names (no rule set seats more; the rule set's own range is checked later)
MAX_PLAYERS = 100


def player_list(text: str) -> list[int]:
    """Player counts such as ``3,4,5``: each from 1 to :data:`MAX_PLAYERS`, each once (a count given twice is
    run once)."""
    parts = [x for x in text.replace(" ", "").split(",") if x]
    if not parts or len(parts) > MAX_PLAYERS or any(len(x) > 3 or not x.isdecimal() for x in parts):
        found = f"{len(parts):,} counts" if len(parts) > MAX_PLAYERS else repr(text[:60])
        raise argparse.ArgumentTypeError(f"expected player counts such as 3,4,5 (each from 1 to {MAX_PLAYERS}), "
                                         f"found {found}")
    out = list(dict.fromkeys(int(x) for x in parts))
    if any(not 1 <= n <= MAX_PLAYERS for n in out):
        raise argparse.ArgumentTypeError(f"expected player counts such as 3,4,5 (each from 1 to {MAX_PLAYERS}), "
                                         f"found {text!r}")
    return out


# ---------------------------------------------------------------------------- parent parsers
def _parent() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(add_help=False)


#: what --ruleset defaults to when a command plays a mission (crewkit.spec.mission_rulesets.choose_ruleset)
RULESET_DEFAULT_HELP = "rule set name or path (default: the first rule set the mission lists; crew without a mission)"


def ruleset_option(default: str | None = None, help: str | None = None) -> argparse.ArgumentParser:
    """``--ruleset NAME|PATH``; without a default, a command resolves it with
    :func:`crewkit.spec.mission_rulesets.choose_ruleset` (the mission's first listed rule set)."""
    parent = _parent()
    text = help or (RULESET_DEFAULT_HELP if default is None else f"rule set name or path (default: {default})")
    parent.add_argument("--ruleset", default=default, help=text)
    return parent


def players_option(default: int | None = 4, help: str | None = None) -> argparse.ArgumentParser:
    """``--players N`` (a whole number of at least 1)."""
    parent = _parent()
    parent.add_argument("--players", type=positive_int, default=default,
                        help=help or f"number of players (default: {default})")
    return parent


def seed_option(default: str | None, help: str | None = None) -> argparse.ArgumentParser:
    """``--seed TEXT``: the master seed games are seeded from (``SEED:0``, ``SEED:1``, ...)."""
    parent = _parent()
    parent.add_argument("--seed", type=seed_text, default=default, help=help or f"master seed (default: {default})")
    return parent


def reading_option(help: str = "select a reading option (repeatable)") -> argparse.ArgumentParser:
    """``--reading ID=OPTION``, repeatable: a reading of an unclear rule."""
    parent = _parent()
    parent.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION", help=help)
    return parent


def games_option(default: int | None, help: str) -> argparse.ArgumentParser:
    """``--games N``: how many games (or deals)."""
    parent = _parent()
    parent.add_argument("--games", type=positive_int, default=default, help=help)
    return parent


def workers_option() -> argparse.ArgumentParser:
    """``--workers N`` and ``--oversubscribe``: parallel processes, at most the CPUs unless asked."""
    parent = _parent()
    parent.add_argument("--workers", type=positive_int, default=1,
                        help="parallel processes (default: 1; at most the number of CPUs unless --oversubscribe)")
    parent.add_argument("--oversubscribe", action="store_true", help="allow --workers above the number of CPUs")
    return parent


def format_option(*choices: str) -> argparse.ArgumentParser:
    """``--format``: the first choice is the default (``text``, or ``yaml`` for ``show``)."""
    parent = _parent()
    parent.add_argument("--format", choices=list(choices), default=choices[0],
                        help=f"output format (default: {choices[0]})")
    return parent


def cluster_option() -> argparse.ArgumentParser:
    """``--cluster ADDRESS|local``: run the games on a Dask cluster (``--precision`` is per command: its default
    differs)."""
    parent = _parent()
    parent.add_argument("--cluster", metavar="ADDRESS", type=cluster_address,
                        help="run the games on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' for "
                             "a LocalCluster of --workers processes here (needs pip install \"crewkit[dask]\"); "
                             "results are identical to --workers")
    return parent


_ADDRESS = re.compile(r"(?:(?P<scheme>tcp|tls|ws|wss)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})")


def cluster_address(text: str) -> str:
    """``local``, or a Dask scheduler's address: ``[tcp|tls|ws|wss://]HOST:PORT`` (an IPv6 host in brackets,
    ``tcp://[::1]:8786``), checked here so a malformed one is a usage error before anything starts."""
    value = text.strip()
    if value == "local":
        return value
    found = _ADDRESS.fullmatch(value)
    if found is None or not 1 <= int(found["port"]) <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected 'local' or a scheduler address such as tcp://host:8786 (an IPv6 host in brackets: "
            f"tcp://[::1]:8786), found {text!r}")
    return value if found["scheme"] else f"tcp://{value}"


def check_cluster(args: argparse.Namespace) -> None:
    """A usage error (exit 2) when ``--cluster`` is given without Dask distributed installed."""
    if getattr(args, "cluster", None):
        from crewkit.analysis.pool import ClusterUnavailable, require_distributed
        from crewkit.errors import UsageError

        try:
            require_distributed()
        except ClusterUnavailable as exc:
            raise UsageError(str(exc)) from None


def print_table_result(result: Any, fmt: str, *, chart: bool, plot_to: str | None,
                       dumps_json: Callable[[Any], str], plot: Callable[[Any, str], None]) -> None:
    """A compare or winnability result on standard output in ``fmt`` (json, csv or text, with its chart unless
    ``chart`` is off), and its plot written to ``plot_to`` when asked (said in text output only, so a script's
    json or csv stays clean)."""
    if fmt == "json":
        print(dumps_json(result))
    elif fmt == "csv":
        print(result.to_csv(), end="")
    else:
        print(result.format_text(chart=chart))
    if plot_to:
        plot(result, plot_to)
        if fmt == "text":
            print(f"chart written to {plot_to}")

