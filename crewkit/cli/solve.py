"""``crewkit solve``: can the crew still win with every hand known? One winning line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import (
    MAX_COUNT,
    bounded_int,
    format_option,
    players_option,
    positive_int,
    positive_seconds,
    reading_option,
    ruleset_option,
    seed_option,
)
from crewkit.errors import EXIT_INVALID, EXIT_OK, UsageError

_RAW = argparse.RawDescriptionHelpFormatter

SOLVE_HELP = """\
Decide whether the crew can still succeed when every hand is known (perfect information), and print one
winning line. Give a game record (the position after its actions, or after the first N with --after), or a
deal by --mission/--players/--seed (the position right after the deal).

Pending choices are searched too: setup steps (questions are answered with their first answer), the task
draft (searched as the tricks are played, a task going to whoever wins it within the number of tasks each
seat drafts; with mission conditions or draws, every distinct assignment, easiest-looking first) and, on
5-player gold-frame missions, handing a task on. Communication and the distress signal are never searched: they cannot change the answer.

Missions without conditions or neighbour draws are searched by a C version of the search (built with the
package, or compiled once into your user cache folder with the system C compiler); it finds the same answer and
line as the Python search, about fifty times faster. Without a C compiler the Python search runs.
Mission conditions run in the C search when it can check them itself: "every card of a set won by one
seat" (its cards become that seat's tasks) and conditions that read only who won which trick (an
automaton over trick winners); others are evaluated through the DSL in the Python search. The output
says which search ran ("search" in JSON: core-c, core or engine) and, per condition, how it was checked
and why it took a slower path ("conditions" in JSON: id, path, how, why).

environment:
  CREWKIT_NATIVE=0   always use the Python search
  CREWKIT_CACHE=DIR  where the compiled C search is kept (default: the user cache folder, ~/.cache/crewkit on Linux)
  CC=COMPILER        the C compiler to use (default: cc)

examples:
  crewkit solve --mission planet-nine/10 --players 4 --seed 7
  crewkit solve game.json --after 12 --timeout 30 --format json
  crewkit solve game.json --names Ann,Bob,Cem,Dee
"""


def add_solve_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("solve", help="can the crew still win with all hands known? print a winning line",
                       description=SOLVE_HELP, formatter_class=_RAW,
                       parents=[players_option(), seed_option("", "seed of the deal (default: empty)"), ruleset_option(),
                                reading_option(), format_option("text", "json")])
    p.add_argument("record", nargs="?", metavar="RECORD", help="a game record (.json) to solve from")
    p.add_argument("--after", type=bounded_int(0, MAX_COUNT, "actions of the record"), metavar="N", help="use only the record's first N actions")
    p.add_argument("--mission", help="mission id (planet-nine/10) or path, instead of a record")
    p.add_argument("--timeout", type=positive_seconds, metavar="SEC", help="stop after SEC seconds (status unknown)")
    p.add_argument("--nodes", type=positive_int, metavar="N", help="stop after N searched plays (status unknown)")
    p.add_argument("--names", metavar="A,B,...",
                   help="the players' names in seat order, for the winning line (default: Player 1, ...)")
    return p


def read_record_checked(name: str, command: str = "solve") -> Any:
    """The record file ``name`` read and replayed by the one reader (`crewkit replay` and `validate` use it);
    its notes (a carried mission that differs from the file) said on stderr; None after printing its issues,
    each at file:line:column."""
    from crewkit.engine.record_file import read_record
    from crewkit.engine.registry import known_action_types
    from crewkit.spec.errors import render_issue
    from crewkit.spec.loader import source_lines

    path = Path(name)
    if not path.is_file():
        raise UsageError(f"{name}: no such file")
    read = read_record(path, known_action_types())
    for note in read.notes:
        print(f"crewkit {command}: note: {note}", file=sys.stderr)
    if read.issues or read.replay is None or read.family is None:
        lines = source_lines(path)
        for issue in read.issues:
            print(render_issue(issue, lines), file=sys.stderr)
        return None
    return read


def _game_from_args(args: argparse.Namespace) -> Any:
    """The position to solve (a game of any family: the family says whether it has a solver), or None after an
    error printed for the person."""
    from crewkit.games import open_game

    if args.record and args.mission:
        raise UsageError("give either a RECORD or --mission, not both")
    if args.record:
        read = read_record_checked(args.record)
        if read is None:
            return None
        if not read.family.solvable:
            raise UsageError(f"{args.record}: a record of {read.family.title}; the solver searches trick-taking games")
        replayed = read.replay
        if args.after is not None:  # the position after the first N actions
            record = {**read.record, "actions": list(read.record.get("actions") or [])[: args.after]}
            replayed = read.family.replay(record)
        if replayed.error is not None or replayed.game is None:
            print(f"crewkit solve: {args.record}: {replayed.error}", file=sys.stderr)
            return None
        return replayed.game
    if args.after is not None:
        raise UsageError("--after needs a RECORD")
    if not args.mission:
        raise UsageError("give a RECORD or --mission (with --players and --seed)")
    from crewkit.spec.mission_rulesets import choose_ruleset

    ruleset = choose_ruleset(args.ruleset, args.mission)
    _refuse_unsolvable(ruleset)
    return open_game(ruleset, args.mission, args.players, args.seed, dict(args.reading) or None)


def _refuse_unsolvable(ruleset: str) -> None:
    """A rule set whose family has no solver: the SpecError at its ``family:`` line naming the families that
    have one (``crewkit.games.refuse_other_family``)."""
    from crewkit.games import (
        UnknownFamily,
        family_for,
        family_named,
        family_names,
        refuse_other_family,
        solve_report_of,
    )

    if solve_report_of(family_for(ruleset)) is not None:
        return

    def solvable(name: str) -> bool:
        try:
            return solve_report_of(family_named(name)) is not None
        except UnknownFamily:
            return False

    refuse_other_family(ruleset, " or ".join(n for n in family_names() if solvable(n)))


def cmd_solve(args: argparse.Namespace) -> int:
    from crewkit.games import solve_report_of

    game = _game_from_args(args)
    if game is None:
        return EXIT_INVALID
    report = solve_report_of(game.family)
    if report is None:
        raise UsageError(f"a game of {game.family.title}; the solver searches trick-taking games")
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    print(report(game, timeout=args.timeout, max_nodes=args.nodes, names=names, as_json=args.format == "json"))
    return EXIT_OK
