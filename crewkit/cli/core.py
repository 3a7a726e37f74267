"""The ``crewkit`` command: its parser, the table of commands, and how a failure becomes an exit code.

Each command lives in its own module of :mod:`crewkit.cli` (``add_*_parser`` and ``cmd_*``); this module
puts them together. Imports inside the commands are lazy so that ``crewkit --help`` and ``crewkit validate``
stay fast and never load textual. Exit codes (:mod:`crewkit.errors`): 0 success, 1 invalid input / illegal
action / failed check, 2 usage error, 3 internal error (a bug), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from crewkit.cli import (
    campaign,
    check,
    compare,
    diff,
    lsp,
    online,
    play,
    records,
    review,
    simulate,
    solve,
    specs,
    winnability,
)
from crewkit.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK, EXIT_USAGE, CrewkitError

DESCRIPTION = """\
crewkit: card-game rule sets and missions as data.

The Crew: The Quest for Planet Nine (3-5 players and its variants), The Crew: Mission Deep Sea's task cards, a
Persian reading of The Crew, Hammer's mission game and Not Alone are YAML specs with a small condition language,
run by one generic engine; play them alone with bots, or host a table friends join.
"""


EPILOG = """\
examples:
  crewkit play                                  choose a campaign, then play (bots in the empty seats)
  crewkit play --campaign ./my-campaign         play your own campaign (a folder, campaign.yaml or .zip)
  crewkit validate                              check every bundled rule set, mission and campaign
  crewkit validate my-mission.yaml              check your own file (errors point at line and column)
  crewkit show ruleset crew-jarvis --resolved   a variant with everything it inherits
  crewkit simulate --mission planet-nine/10 --players 4 --games 300 --bot heuristic --seed s
  crewkit replay game.json                      replay a game record and print every trick
  crewkit solve --mission planet-nine/10 --players 4 --seed s   can the crew still win? one winning line
  crewkit review game.json                      where did the attempt go wrong? the play that lost it
  crewkit compare ruleset=crew ruleset=crew-3p-challenge --mission planet-nine/10 --players 3 --games 200
  crewkit diff crew crew-jarvis                 the rule differences of two rule sets or missions
  crewkit check my-mission.yaml                 validate, then measure how hard a new mission is
  crewkit show mission planet-nine/13 --words   a mission's briefing, as the table shows it
  crewkit lsp                                   the language server your editor starts (see README)
  crewkit host --mission planet-nine/01 --seats human,human,bot   a table friends join (prints their links)
  crewkit join 'ws://127.0.0.1:8765/TABLE#CODE' --name Ann         take your seat at a hosted table

exit codes: 0 success, 1 invalid input or illegal action, 2 usage error,
  3 internal error (a bug in crewkit: please report it), 130 interrupted (Ctrl-C)
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crewkit", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    specs.add_validate_parser(sub)
    specs.add_show_parser(sub)
    specs.add_list_parser(sub)
    records.add_replay_parser(sub)
    simulate.add_simulate_parser(sub)
    play.add_play_parser(sub)
    online.add_host_parser(sub)
    online.add_join_parser(sub)
    campaign.add_campaign_parser(sub)
    solve.add_solve_parser(sub)
    review.add_review_parser(sub)
    compare.add_compare_parser(sub)
    diff.add_diff_parser(sub)
    check.add_check_parser(sub)
    winnability.add_winnability_parser(sub)
    specs.add_docs_parser(sub)
    lsp.add_lsp_parser(sub)
    return parser


def _version() -> str:
    from crewkit import __version__

    return f"crewkit {__version__}"


#: the function that runs each command (tests replace entries to drive the error handling)
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": specs.cmd_validate,
    "show": specs.cmd_show,
    "list": specs.cmd_list,
    "replay": records.cmd_replay,
    "simulate": simulate.cmd_simulate,
    "play": play.cmd_play,
    "host": online.cmd_host,
    "join": online.cmd_join,
    "campaign": campaign.cmd_campaign,
    "docs": specs.cmd_docs,
    "solve": solve.cmd_solve,
    "review": review.cmd_review,
    "compare": compare.cmd_compare,
    "diff": diff.cmd_diff,
    "check": check.cmd_check,
    "winnability": winnability.cmd_winnability,
    "lsp": lsp.cmd_lsp,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; everything it prints goes through :func:`crewkit.safetext.escape_controls`."""
    import signal

    from crewkit.safetext import SafeStream

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err)
    handler = signal.getsignal(signal.SIGINT)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err
        if argv is not None and signal.getsignal(signal.SIGINT) != handler:
            # called from Python (tests, another program): Ctrl-C works again once the command has returned
            signal.signal(signal.SIGINT, handler)
        elif argv is None:
            _ignore_further_interrupts()  # the `crewkit` command has done its work: a Ctrl-C while the
            # interpreter shuts down (which puts back the default action, death by the signal) is ignored


def _main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    bad = _undecodable_argument(args)
    if bad is not None:
        print(f"crewkit {args.command}: --{bad} is not valid text (undecodable bytes or a lone surrogate); "
              "use printable UTF-8", file=sys.stderr)
        return EXIT_INVALID
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        _ignore_further_interrupts()  # stopping already: another Ctrl-C must not interrupt the clean-up at exit
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # every known failure becomes a message, never a traceback
        return report(exc, args.command)


def _ignore_further_interrupts() -> None:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


#: arguments that become text inside crewkit (seeds are hashed, written to records and shown), unlike paths
_TEXT_ARGUMENTS = ("seed",)


def _undecodable_argument(args: argparse.Namespace) -> str | None:
    """The name of a text argument that cannot be encoded as UTF-8 (``--seed $'\\xff'``), if any."""
    for name in _TEXT_ARGUMENTS:
        value = getattr(args, name, None)
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return name
    return None


def report(exc: Exception, command: str) -> int:
    """One message for a failure (never a traceback): the input's fault (exit 1 or 2), or a bug (exit 3)."""
    if isinstance(exc, CrewkitError):
        from crewkit.spec.errors import SpecError

        # a spec error renders its issues itself (file:line:column and the source line)
        print(exc.render() if isinstance(exc, SpecError) else f"crewkit {command}: {exc}", file=sys.stderr)
        return exc.exit_code
    if isinstance(exc, OSError):  # a file that cannot be read or written: the message names it
        print(f"crewkit {command}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        # Python refuses to convert an integer of more than 4300 digits to text (or back)
        print(f"crewkit {command}: a number in the input is too long to handle ({exc})", file=sys.stderr)
        return EXIT_INVALID
    if os.environ.get("CREWKIT_DEBUG"):
        raise exc
    print(
        f"crewkit {command}: internal error: {type(exc).__name__}: {exc}\n"
        "This is a bug in crewkit; run again with CREWKIT_DEBUG=1 to see where it happened.",
        file=sys.stderr,
    )
    return EXIT_INTERNAL

