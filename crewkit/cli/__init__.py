"""The ``crewkit`` command line. Thin: parse arguments, call the library, print results.

One module per group of commands, each with its ``add_*_parser`` and ``cmd_*``:
``specs`` (validate, show, list, docs), ``records`` (replay), ``simulate``, ``play``, ``campaign``,
``solve``, ``compare``, ``diff``, ``check``, ``winnability``. ``core`` builds the parser, holds the table
of commands and turns failures into exit codes; ``options`` has the argument types and the parent parsers
of the options several commands share; ``progress`` the one progress bar. The library never imports this
package. Exit codes and the error base are :mod:`crewkit.errors`.
"""

from __future__ import annotations

try:
    from crewkit.cli.core import COMMANDS, build_parser, main, report
    from crewkit.errors import (
        EXIT_INTERNAL,
        EXIT_INTERRUPTED,
        EXIT_INVALID,
        EXIT_OK,
        EXIT_USAGE,
        CrewkitError,
        UsageError,
    )
except KeyboardInterrupt:  # Ctrl-C while `crewkit` is still starting: the same quiet stop as later
    import sys

    print("interrupted", file=sys.stderr)
    raise SystemExit(130) from None

__all__ = [
    "COMMANDS",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_USAGE",
    "CrewkitError",
    "UsageError",
    "build_parser",
    "main",
    "report",
]
