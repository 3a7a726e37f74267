"""``crewkit check``: a mission (or a campaign) validated, then measured on sampled deals."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import (
    DEFAULT_PRECISION,
    check_cluster,
    cluster_option,
    format_option,
    games_option,
    note_precision_cap,
    player_list,
    positive_int,
    precision,
    ruleset_option,
    seed_option,
)
from crewkit.cli.progress import precision_bar, progress_bar
from crewkit.errors import EXIT_INVALID, EXIT_OK, UsageError

_RAW = argparse.RawDescriptionHelpFormatter

CHECK_HELP = """\
Check a mission file as an author: validate it first (exit 1 with every issue at file:line:column when
invalid), then play sampled deals for each allowed player count (or --players) and report the share the
solver finds winnable, the bot's success rate, which task or condition fails most, and warnings:
a condition whose fail_if/done_if is never or always true over the sample (evaluated after every trick,
and after every play for after-play conditions), a role that is never bound, a task-token order that
cannot be met, no winnable deal.

examples:
  crewkit check my-mission.yaml
  crewkit check missions/planet-nine/44-countdown-rockets.yaml --games 50 --players 3,4 --format json
"""


def add_check_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("check", help="validate a mission, then sample deals: winnability, bot success, warnings",
                       description=CHECK_HELP, formatter_class=_RAW,
                       parents=[games_option(None, "the most deals per player count (default: 3000; --campaign: "
                                                   "20); fewer once --precision is reached"),
                                ruleset_option(None, "rule set (default: the mission's first)"),
                                seed_option("check"), cluster_option(), format_option("text", "json")])
    p.add_argument("mission", metavar="MISSION", nargs="?",
                   help="a mission file, or a bundled mission's id (planet-nine/05)")
    p.add_argument("--campaign", metavar="PATH|NAME",
                   help="check a whole campaign instead (a folder, campaign.yaml, .zip or name): its difficulty "
                        "curve per mission and player count, with warnings where it goes the wrong way")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="parallel processes (default: 1; at most the number of CPUs unless --oversubscribe)")
    p.add_argument("--oversubscribe", action="store_true", help="allow --workers above the number of CPUs")
    p.add_argument("--precision", type=precision, default=None, metavar="H",
                   help="play deals in blocks of 25 until the bot's 95%% interval is at most ±H per player count "
                        "(0.03 or 3%%; default: 0.03)")
    p.add_argument("--solver-games", type=positive_int, default=60, metavar="N",
                   help="solve only the first N deals of each player count (default: 60): the winnable share "
                        "comes from this smaller sample, with its own interval")
    p.add_argument("--players", type=player_list, metavar="N[,N...]",
                   help="player counts to sample (default: every count the mission allows)")
    p.add_argument("--bot", default="fast", help="bot for every seat: fast, heuristic, expert, rules or random "
                   "(default: fast: the heuristic's strength, about 100 times faster)")
    p.add_argument("--no-solver", action="store_true", help="skip the solver")
    p.add_argument("--solver-nodes", type=positive_int, default=20_000, metavar="N",
                   help="solver budget per deal in searched plays (default: 20000)")
    p.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    return p


def cmd_check(args: argparse.Namespace) -> int:
    from crewkit.analysis.check import check_mission
    from crewkit.spec.bundled import looks_like_path

    if args.campaign:
        if args.mission:
            raise UsageError("give a mission file or --campaign, not both")
        return _check_campaign(args)
    if not args.mission:
        raise UsageError("give a mission (a file or a bundled id such as planet-nine/05) or --campaign PATH")
    if looks_like_path(args.mission) and not Path(args.mission).is_file():
        raise UsageError(f"{args.mission}: no such file")  # else a mission id (planet-nine/05), resolved by the check
    check_cluster(args)
    note_precision_cap("check", args.precision, args.games or 3000)  # only when asked for: the default suits any --games
    args.precision = DEFAULT_PRECISION if args.precision is None else args.precision
    with precision_bar("check", args.format == "text") as status:
        report = check_mission(args.mission, games=args.games or 3000, players=args.players, ruleset=args.ruleset,
                               bot=args.bot, seed=args.seed, solver=not args.no_solver,
                               solver_nodes=args.solver_nodes, status=status, precision=args.precision,
                               solver_games=args.solver_games, workers=args.workers, cluster=args.cluster,
                               oversubscribe=args.oversubscribe,
                               on_note=lambda note: print(f"crewkit check: {note}", file=sys.stderr))
    if args.format == "json":
        print(report.dumps())
    elif not report.valid:
        print(report.format_text(), file=sys.stderr)
    else:
        print(report.format_text())
    if not report.valid:
        return EXIT_INVALID
    if args.strict and report.warnings:
        return EXIT_INVALID
    return EXIT_OK


def _check_campaign(args: argparse.Namespace) -> int:
    from crewkit.analysis.campaign_check import campaign_variants, check_campaign
    from crewkit.spec.campaigns import load_campaign

    try:
        total = len(campaign_variants(load_campaign(args.campaign, deep=False), args.players, args.bot,
                                      args.ruleset)) * (args.games or 20)
    except Exception:  # an invalid campaign: check_campaign reports it with positions
        total = 0
    with progress_bar("check", total, args.format == "text") as update:
        report = check_campaign(args.campaign, games=args.games or 20, players=args.players, ruleset=args.ruleset,
                                bot=args.bot, seed=args.seed, solver=not args.no_solver,
                                solver_nodes=args.solver_nodes, workers=args.workers, progress=update)
    if args.format == "json":
        print(report.dumps())
    else:
        print(report.format_text(), file=sys.stdout if report.valid else sys.stderr)
    if not report.valid or (args.strict and report.warnings()):
        return EXIT_INVALID
    return EXIT_OK

