"""``crewkit review``: where did a recorded attempt go wrong? The turning point, with every hand known."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import format_option, positive_int, positive_seconds
from crewkit.errors import EXIT_INVALID, EXIT_OK

_RAW = argparse.RawDescriptionHelpFormatter

REVIEW_HELP = """\
Review a finished attempt from its game record: with every hand known, the solver finds the turning point,
the first action after which the crew could no longer win ("Trick 3: Player 2 played the pink 7. Before it
the mission could still be won, for example if Player 2 had played the pink 2"), and prints one winning
line from the position before it. Winnability only changes from "can win" to "cannot" along a game, so the
turning point is found by bisection over the positions (a handful of solver calls).

At the turning point the play is also judged with what its player could know: worlds consistent with that
seat's view are sampled (seeded from the record: the same record gives the same figures) and each legal
play is solved in each of them ("with what Player 2 could know, the pink 2 kept the mission winnable in 71%
of the possible deals and the pink 7 in 12%").

Other outcomes: never-winnable (the deal could not be won from the first card: the solver's reason in
words), won (with the closest call: the last play that was the only one keeping the mission winnable) and
unknown (positions the solver could not decide within --timeout/--nodes: which ones; never a guess).
Not Alone records have no review (no solver): exit 1 with a message.

A Hammer match is reviewed round by round (--round N: that round alone), by a search in which each side plays
for itself. A challenge round: can the dealer force the bet's success against the other three? A failed bet's
turning point is the dealer's first play after which the others could stop it (only the dealer's own plays
can lose a forced bet), with a play that kept it forced and a line; a bet that succeeded, the others' first
play after which it was forced. A penalty round: each player's guarantee (the most chips they could make sure
of if the other three played against them) at the round's start, what they got, and their plays that lowered
it, the costliest first. --nodes and --timeout bound each position's search (undecided beyond them, never
guessed); JSON: {"status": "reviewed"|"unknown", "rounds": [{"round", "dealer", "mission", "mode", "result",
"status", "turning_point", "positions", "players", "words"}], ...} (docs/review.md).

JSON (--format json): {"status": "lost"|"won"|"never-winnable"|"unknown", "turning_point": null|{
"action_index", "trick", "seat", "action", "words", "instead", "line", "known"}, "positions": [{
"action_index", "trick", "winnable"}], "reason"}. A position's action_index is the number of actions
played before it (the position before that action).

Every attempt of a campaign keeps its record under the user's data folder: `crewkit campaign status` lists
each with its reference (@12), date and outcome, and `crewkit review @12` reviews it.

examples:
  crewkit review game.json
  crewkit review @12
  crewkit review game.json --names Ann,Bob,Cem,Dee --format json
"""


def add_review_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("review", help="where did an attempt go wrong? the turning point and what would have won",
                       description=REVIEW_HELP, formatter_class=_RAW, parents=[format_option("text", "json")])
    p.add_argument("record", metavar="RECORD",
                   help="a game record (.json), or an attempt of the logbook by its reference (@12), as `crewkit "
                        "campaign status` lists them")
    p.add_argument("--logbook", type=Path, metavar="FILE",
                   help="find @N in this logbook instead of yours (a host's: crewkit-tables/logbook.sqlite3)")
    p.add_argument("--names", metavar="A,B,...", help="the players' names, in seat order (default: Player 1, ...)")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SEC",
                   help="solver time per position (default: 10); a position not decided in it stays undecided")
    p.add_argument("--nodes", type=positive_int, metavar="N", help="solver budget per position in searched plays")
    p.add_argument("--total", type=positive_seconds, default=120.0, metavar="SEC",
                   help="time for the whole bisection (default: 120); positions not tried by then stay open")
    p.add_argument("--worlds", type=positive_int, default=32, metavar="N",
                   help="worlds sampled for the judgement with the player's knowledge (default: 32)")
    p.add_argument("--no-blame", action="store_true", help="skip the judgement with the player's knowledge")
    p.add_argument("--round", type=positive_int, metavar="N", dest="only_round",
                   help="a match played in rounds (Hammer): review round N alone")
    return p


def cmd_review(args: argparse.Namespace) -> int:
    from crewkit.campaign.attempts import AttemptRefError, find_record, ref_number
    from crewkit.campaign.store import LogbookError
    from crewkit.cli.solve import read_record_checked

    if ref_number(args.record) is not None or args.logbook is not None:
        try:
            _, path = find_record(args.record, args.logbook)
        except (AttemptRefError, LogbookError) as exc:
            print(f"crewkit review: {exc}", file=sys.stderr)
            return EXIT_INVALID
        args.record = str(path)
    read = read_record_checked(args.record, "review")
    if read is None:
        return EXIT_INVALID
    from crewkit.games import review_of
    from crewkit.games.protocol import NoReview

    answer = review_of(read.family)
    if answer is None:
        print(f"crewkit review: {args.record}: a record of {read.family.title}; there is no review for it "
              "(the review uses the solver, which searches trick-taking games)", file=sys.stderr)
        return EXIT_INVALID
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    try:
        rv = answer.of_record(read.record, read.replay.game, names=names, timeout=args.timeout,
                              max_nodes=args.nodes, total=args.total, blame=not args.no_blame,
                              blame_worlds=args.worlds,
                              **({} if args.only_round is None else {"only_round": args.only_round}))
    except NoReview as exc:
        print(f"crewkit review: {args.record}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    if args.format == "json":
        print(json.dumps(rv.to_json(), indent=2, ensure_ascii=False))
        return EXIT_OK
    print(rv.text())
    return EXIT_OK

