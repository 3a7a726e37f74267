"""``crewkit diff``: the rule differences between two rule sets or two missions."""

from __future__ import annotations

import argparse
from typing import Any

from crewkit.cli.options import format_option, reading
from crewkit.errors import EXIT_OK, UsageError

_RAW = argparse.RawDescriptionHelpFormatter

DIFF_HELP = """\
Show the rule differences between two rule sets or two missions (bundled names or file paths), computed
from the resolved specs (extends: applied, the chosen readings applied): added (+), removed (-) and
changed (~) keys as dotted paths with their old and new values, and the readings whose choice, options
or question differ. Names, titles and descriptions are listed last.

examples:
  crewkit diff crew crew-3p-challenge
  crewkit diff planet-nine/16 planet-nine/17 --format json
  crewkit diff crew crew --reading-b distress-after-failure=...   (a reading against the default)
"""


def add_diff_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("diff", help="rule differences between two rule sets or two missions",
                       description=DIFF_HELP, formatter_class=_RAW,
                       parents=[format_option("text", "json")])
    p.add_argument("a", metavar="A", help="rule set or mission (name or path)")
    p.add_argument("b", metavar="B", help="rule set or mission (name or path)")
    p.add_argument("--kind", choices=["ruleset", "mission"], help="what A and B are (default: guessed)")
    p.add_argument("--reading-a", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option of A (repeatable)")
    p.add_argument("--reading-b", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option of B (repeatable)")
    return p


def cmd_diff(args: argparse.Namespace) -> int:
    from crewkit.analysis.diff import diff_specs

    try:
        result = diff_specs(args.a, args.b, kind=args.kind, readings_a=dict(args.reading_a) or None,
                            readings_b=dict(args.reading_b) or None)
    except ValueError as exc:  # two different kinds, or a file that is neither
        raise UsageError(str(exc)) from None
    print(result.dumps() if args.format == "json" else result.format_text())
    return EXIT_OK

