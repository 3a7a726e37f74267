"""``crewkit check``: a mission (or a campaign) validated, then measured on sampled deals."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
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
from crewkit.cli.progress import progress_bar
from crewkit.errors import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK, UsageError

_RAW = argparse.RawDescriptionHelpFormatter

CHECK_HELP = """\
Check a mission file as an author: validate it first (exit 1 with every issue at file:line:column when
invalid), then play sampled deals for each allowed player count (or --players) and report the share the
solver finds winnable, the bot's success rate, which task or condition fails most, and warnings:
a condition whose fail_if/done_if is never or always true over the sample (evaluated after every trick,
and after every play for after-play conditions), a role that is never bound, a task-token order that
cannot be met, no winnable deal. A player count no deal can win is reported as impossible, with the
reason in words: from the rules alone (a task token no task can honour), or from the solver, which proves
deals lost (conditions that contradict each other; a player who must win tricks the conditions forbid).

The answer comes at once and refines: the bots play blocks of 25 deals per player count and the solver
takes two deals beside each block; a line on stderr gives the estimate at each checkpoint (the first
block, then each time the widest 95% interval falls below ±10, 7, 5, 4 and 3 points), piped or not.
Ctrl-C prints the report of the deals so far (exit 130). --watch validates and checks again on every save.

examples:
  crewkit check my-mission.yaml
  crewkit check my-mission.yaml --watch --players 4
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
    p.add_argument("--workers", type=positive_int, default=None,
                   help="parallel processes (default: every CPU this process may use; at most that many unless "
                        "--oversubscribe); the results are the same for any number")
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
                   help="solver budget per deal in plays of the Python search; the C search, about 50 times "
                        "faster, tries 50 plays per unit (default: 20000)")
    p.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    p.add_argument("--watch", action="store_true",
                   help="validate and check again every time the mission file is saved (until Ctrl-C)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def cmd_check(args: argparse.Namespace) -> int:
    from crewkit.spec.bundled import looks_like_path

    if args.campaign:
        if args.mission:
            raise UsageError("give a mission file or --campaign, not both")
        if args.watch:
            raise UsageError("--watch follows one mission file, not a campaign")
        return _check_campaign(args)
    if not args.mission:
        raise UsageError("give a mission (a file or a bundled id such as planet-nine/05) or --campaign PATH")
    if looks_like_path(args.mission) and not Path(args.mission).is_file():
        raise UsageError(f"{args.mission}: no such file")  # else a mission id (planet-nine/05), resolved by the check
    if args.watch and not Path(args.mission).is_file():
        raise UsageError(f"--watch needs a mission file, not {args.mission!r}")
    check_cluster(args)
    note_precision_cap("check", args.precision, args.games or 3000)  # only when asked for: the default suits any --games
    args.precision = DEFAULT_PRECISION if args.precision is None else args.precision
    if args.watch:
        return _watch(args)
    report = _run(args)
    _print(args, report)
    return _exit_code(args, report)


def _run(args: argparse.Namespace, stop: Callable[[], bool] | None = None) -> Any:
    """One check of ``args.mission``: progress lines on stderr (unless --quiet), the report."""
    from crewkit.analysis.check import check_mission

    def line(text: str) -> None:
        print(f"crewkit check: {text}", file=sys.stderr, flush=True)

    from crewkit.analysis.pool import available_cpus

    workers = args.workers or (1 if args.cluster else available_cpus())
    return check_mission(args.mission, games=args.games or 3000, players=args.players, ruleset=args.ruleset,
                         bot=args.bot, seed=args.seed, solver=not args.no_solver, solver_nodes=args.solver_nodes,
                         precision=args.precision, solver_games=args.solver_games, workers=workers,
                         cluster=args.cluster, oversubscribe=args.oversubscribe,
                         on_note=lambda note: print(f"crewkit check: {note}", file=sys.stderr),
                         on_line=None if args.quiet else line, stop=stop)


def _print(args: argparse.Namespace, report: Any) -> None:
    if args.format == "json":
        print(report.dumps(), flush=True)
    elif not report.valid:
        print(report.format_text(), file=sys.stderr, flush=True)
    else:
        print(report.format_text(), flush=True)


def _interrupted() -> int:
    """The estimate so far is printed; the last word on stderr is the one every interrupted command ends with."""
    print("interrupted", file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def _exit_code(args: argparse.Namespace, report: Any) -> int:
    if report.interrupted:
        return _interrupted()
    if not report.valid:
        return EXIT_INVALID
    if args.strict and report.warnings:
        return EXIT_INVALID
    return EXIT_OK


def _watch(args: argparse.Namespace) -> int:
    """``--watch``: check the file, then again each time it is saved; a save during a check stops it and starts
    the next. The file's folder is watched (editors often save by writing a new file and renaming it over the
    old). Ctrl-C ends it: the report of the check under way so far, exit 130."""
    import threading

    from watchfiles import watch

    path = Path(args.mission).resolve()
    changed = threading.Event()
    done = threading.Event()

    def follow() -> None:
        try:
            for _ in watch(path.parent, watch_filter=lambda _change, name: Path(name).name == path.name,
                           stop_event=done, debounce=200, step=50, raise_interrupt=False):
                changed.set()
        except (OSError, RuntimeError) as exc:  # the watcher's own failure (its folder gone): said once, the check goes on
            print(f"crewkit check: --watch stopped following {path}: {exc}", file=sys.stderr, flush=True)

    watcher = threading.Thread(target=follow, name="crewkit-check-watch", daemon=True)
    watcher.start()
    runs = 0
    try:
        while True:
            changed.clear()
            runs += 1
            if runs > 1:
                print(f"\n--- {args.mission} changed: checking again", flush=True)
            report = _run(args, stop=changed.is_set)
            if report.interrupted and changed.is_set():
                continue  # saved during the check: check the new version at once
            _print(args, report)
            if report.interrupted:
                return _interrupted()
            print(f"--- watching {args.mission}: save it to check again (Ctrl-C to stop)", flush=True)
            while not changed.wait(0.2):
                pass
    except KeyboardInterrupt:
        return _interrupted()
    finally:
        done.set()


def _check_campaign(args: argparse.Namespace) -> int:
    from crewkit.analysis.campaign_check import campaign_variants, check_campaign
    from crewkit.analysis.pool import available_cpus
    from crewkit.spec.campaigns import load_campaign

    try:
        total = len(campaign_variants(load_campaign(args.campaign, deep=False), args.players, args.bot,
                                      args.ruleset)) * (args.games or 20)
    except Exception:  # an invalid campaign: check_campaign reports it with positions
        total = 0
    with progress_bar("check", total, args.format == "text") as update:
        report = check_campaign(args.campaign, games=args.games or 20, players=args.players, ruleset=args.ruleset,
                                bot=args.bot, seed=args.seed, solver=not args.no_solver,
                                solver_nodes=args.solver_nodes, workers=args.workers or available_cpus(),
                                progress=update)
    if args.format == "json":
        print(report.dumps())
    else:
        print(report.format_text(), file=sys.stdout if report.valid else sys.stderr)
    if not report.valid or (args.strict and report.warnings()):
        return EXIT_INVALID
    return EXIT_OK

