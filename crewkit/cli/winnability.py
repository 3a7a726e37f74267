"""``crewkit winnability``: the winnable share of random deals per number of tasks (the solver)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import (
    bounded_int,
    format_option,
    players_option,
    positive_seconds,
    print_table_result,
    reading_option,
    ruleset_option,
    seed_option,
    workers_option,
)
from crewkit.cli.progress import progress_bar
from crewkit.errors import EXIT_INVALID, EXIT_OK, UsageError

_RAW = argparse.RawDescriptionHelpFormatter
#: the most deals per task count and draft (each is a solver search of up to --timeout seconds)
MAX_DEALS = 10_000

WINNABILITY_HELP = """\
The winnable share of random deals per number of tasks, decided by the perfect-information solver: the
curves of de Jong's analysis of The Crew (Leiden, 2021, Figure 3) for any rule set and mission shape. For
each task count, --deals random deals of the mission's rules with that many plain tasks (its task tokens
dropped) are solved with a free draft (the players divide the tasks, each keeping the number the draft
gives it; the solver searches the division) and/or with fixed owners (the draft in its normal order, each
seat taking a task at random). Deal I of K tasks is seeded "SEED:K:I", the same deal for both drafts.
The deals follow planet-nine/10's rules unless --mission names another mission (under task cards with
objectives, see below); the output says when the default was used.

Under a rule set of task cards with objectives (crew-deep-sea) K is a difficulty total instead: the cards
are drawn by difficulty as the mission draws them (default mission: the rule set's first bundled mission
that draws and drafts them), the free draft tries every way of taking them, fixed owners take them at random.

Per task count and draft: the winnable share of the decided deals with a 95% Wilson interval, and how many
deals the solver could not decide within --timeout seconds (undecided). A text chart follows the table;
--plot also draws both curves to a PNG or SVG file (needs matplotlib: pip install "crewkit[plot]", or ".[plot]" from a checkout).
With a time limit, a deal near the limit may be decided in one run and not in another.

examples:
  crewkit winnability --players 4 --tasks 1-40 --deals 200 --workers 2 --plot figure3.svg
  crewkit winnability --tasks 4,8,12 --deals 20 --draft fixed --format csv
  crewkit winnability --ruleset crew-deep-sea --tasks 1-12 --deals 20 --draft free
"""


def add_winnability_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("winnability", help="winnable share of random deals per number of tasks (solver)",
                       description=WINNABILITY_HELP, formatter_class=_RAW,
                       parents=[players_option(), ruleset_option(), reading_option(), seed_option("winnability"),
                                workers_option(), format_option("text", "json", "csv")])
    p.add_argument("--tasks", default="1-40", metavar="RANGE",
                   help="task counts (or difficulty totals of task cards): 1-40, 4,8,12 or 1-10,20 (default: "
                        "1-40; at most the rule set's task cards)")
    p.add_argument("--deals", type=bounded_int(1, MAX_DEALS, "deals per task count, each a solver search"),
                   default=100, metavar="N", help=f"deals per task count, 1 to {MAX_DEALS} (default: 100)")
    p.add_argument("--draft", choices=["free", "fixed", "both"], default="both",
                   help="free draft, fixed owners or both (default: both)")
    p.add_argument("--mission", default=None,
                   help="mission whose rules shape the deals (default: planet-nine/10, or the rule set's first "
                        "mission of task cards drawn by difficulty; its task count and tokens, or its difficulty "
                        "total, are replaced)")
    p.add_argument("--timeout", type=positive_seconds, default=20.0, metavar="SEC",
                   help="solver time limit per deal; later deals count as undecided (default: 20)")
    p.add_argument("--no-chart", action="store_true", help="text output without the chart")
    p.add_argument("--plot", metavar="FILE", help="also draw both curves to FILE.png or FILE.svg (needs matplotlib)")
    return p


def cmd_winnability(args: argparse.Namespace) -> int:
    from crewkit.analysis import compare as cmp_mod
    from crewkit.analysis import winnability as win_mod

    if args.plot:
        if Path(args.plot).suffix.lower() not in (".png", ".svg", ".pdf"):
            raise UsageError(f"--plot {args.plot}: the file must end in .png or .svg")
        try:
            cmp_mod.require_matplotlib()
        except cmp_mod.PlotUnavailable as exc:
            print(f"crewkit winnability: {exc}", file=sys.stderr)
            return EXIT_INVALID
    try:
        counts = win_mod.parse_tasks(args.tasks)
    except ValueError as exc:
        raise UsageError(f"--tasks: {exc}") from None
    drafts = win_mod.DRAFTS if args.draft == "both" else (args.draft,)
    from crewkit.spec.mission_rulesets import choose_ruleset

    args.ruleset = choose_ruleset(args.ruleset, args.mission)
    answer = win_mod.answer_for(args.ruleset)  # its family's (a SpecError naming those that have one)
    mission_default = args.mission is None
    if mission_default:
        args.mission = answer.default_mission(args.ruleset)
    readings = dict(args.reading) or None
    usable: list[int] = []
    too_many: list[int] = []
    try:
        for k in counts:
            try:
                answer.shape(args.ruleset, args.mission, args.players, k, readings)
                usable.append(k)
            except win_mod.TooManyTasks as exc:
                reason = str(exc).split(": ", 1)[-1]
                too_many = [c for c in counts if c >= k]  # counts are sorted: every larger one is too many too
                break
    except win_mod.WinnabilityError as exc:
        raise UsageError(f"--mission {args.mission}: {exc}") from None
    if too_many:
        if not usable:
            raise UsageError(f"--tasks {args.tasks}: {reason}")
        print(f"crewkit winnability: task counts {too_many[0]}-{too_many[-1]} skipped: {reason}", file=sys.stderr)
    counts = usable
    with progress_bar("winnability", len(counts) * len(drafts) * args.deals, args.format == "text") as update:
        result = win_mod.winnability(counts, args.deals, ruleset=args.ruleset, mission=args.mission,
                                     players=args.players, drafts=drafts, seed=args.seed, timeout=args.timeout,
                                     workers=args.workers, readings=readings, progress=update,
                                     oversubscribe=args.oversubscribe,
                                     on_note=lambda note: print(f"crewkit winnability: {note}", file=sys.stderr))
    result.mission_default = mission_default
    print_table_result(result, args.format, chart=not args.no_chart, plot_to=args.plot,
                       dumps_json=win_mod.dumps_json, plot=win_mod.plot)
    return EXIT_OK

