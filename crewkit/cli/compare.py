"""``crewkit compare``: variants on the same deals (bots, solver, paired statistics), or a campaign's curve."""

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
    players_option,
    positive_int,
    positive_seconds,
    precision,
    print_table_result,
    reading_option,
    ruleset_option,
    seed_option,
    workers_option,
)
from crewkit.cli.progress import precision_bar
from crewkit.errors import EXIT_INVALID, EXIT_OK, UsageError

_RAW = argparse.RawDescriptionHelpFormatter

COMPARE_HELP = """\
Compare variants on paired deals: every variant plays the same seeds ("SEED:0", "SEED:1", ...), so
variants that share a deck play the same hands and the bots get the same seeds. Per variant: the bot's
success rate with a 95% Wilson interval, the solver-winnable share (an upper bound for any crew; deals
the solver cannot decide within its node budget are counted as unknown), mean tricks and the most common
failure reasons. Each variant is compared with the first: the difference in success rate with a 95%
(Newcombe) interval; a paired test of the outcomes on the same deals (McNemar's: do the deals only one
variant wins lean one way more than chance would? exact below 25 such deals, else its χ² approximation);
and paired tests of the scores deal by deal (the score: tasks done, or tricks played for missions without
tasks): a rank test (Wilcoxon signed-rank) and a t-test. Each test's p is the chance of a difference at
least that large between equally hard variants. Deals are played until every variant's 95% interval is
within --precision, or until --games deals; the report says which stopped it.

variant syntax: comma-separated KEY=VALUE pairs
  ruleset=NAME (rs)   mission=ID (m)   players=N (p)   bot=NAME (b)   reading=ID:OPTION (r, repeatable)
  label=TEXT (the name shown)
  missing keys come from --ruleset/--mission/--players/--bot; --reading applies to every variant.

examples:
  crewkit compare --mission planet-nine/10 --games 200 bot=heuristic bot=rules
  crewkit compare "ruleset=crew,mission=planet-nine/16" "mission=planet-nine/16,reading=early-success:play-to-end"
  crewkit compare --campaign planet-nine --players 4 --games 50 --workers 4 --plot curve.svg
  crewkit compare --players 4 ruleset=not-alone ruleset=not-alone-advanced   (Not Alone: no mission;
      success is the Hunted's win; bot=random/heuristic sets the Creature's and the Hunted's bots)

Results are identical for any --workers (the solver's limit is a node budget; --solver-timeout trades
that for wall-clock limits). A progress bar with ETA shows on a terminal; nothing when piped.
"""


#: the most variants one comparison takes (each plays every deal)
MAX_VARIANTS = 64


def add_compare_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("compare", help="compare variants on the same deals (bots, solver, paired statistics)",
                       description=COMPARE_HELP, formatter_class=_RAW,
                       parents=[ruleset_option(None, "default rule set (default: the first rule set each variant's mission lists, crew "
                                               "without a mission; campaign: its own)"),
                                players_option(None, "default number of players (default: 4; a campaign: its "
                                                     "first allowed count)"),
                                reading_option("a reading for every variant (repeatable)"),
                                games_option(5000, "the most deals per variant (default: 5000); fewer once "
                                                   "--precision is reached"),
                                seed_option("compare"), workers_option(), cluster_option(),
                                format_option("text", "json", "csv")])
    p.add_argument("--precision", type=precision, default=None, metavar="H",
                   help="play deals in blocks of 25 until every variant's 95%% interval is at most ±H (0.03 or 3%%; "
                        "default: 0.03); a campaign's missions stop one by one")
    p.add_argument("variants", nargs="*", metavar="VARIANT", help="variant spec strings (see above)")
    p.add_argument("--campaign", metavar="PATH|NAME",
                   help="compare every mission of this campaign instead (difficulty curve): a bundled or "
                        "installed name, a folder, a campaign.yaml or a .zip")
    p.add_argument("--mission", help="default mission for variants that name none")
    p.add_argument("--bot", help="default bot: fast, heuristic, expert, rules or random (default: fast: the "
                   "heuristic's strength, about 100 times faster); Not Alone: heuristic or random, or "
                   "CREATURE/HUNTED such as random/heuristic (default: heuristic)")
    p.add_argument("--no-solver", action="store_true", help="skip the solver (no winnable share)")
    p.add_argument("--solver-nodes", type=positive_int, default=20_000, metavar="N",
                   help="solver budget per deal in searched plays (default: 20000)")
    p.add_argument("--solver-games", type=positive_int, default=None, metavar="N",
                   help="run the solver on the first N deals of each variant only (default: 200; --campaign: 60 "
                        "per mission, as crewkit check); the winnable share has its own interval")
    p.add_argument("--solver-timeout", type=positive_seconds, metavar="SEC",
                   help="also stop the solver after SEC seconds per deal (results may then vary between runs)")
    p.add_argument("--no-chart", action="store_true", help="text output without the bar chart")
    p.add_argument("--plot", metavar="FILE", help="also draw a chart to FILE.png or FILE.svg (needs matplotlib)")
    return p


# deals solved per variant, and per mission of a campaign curve (there the bot's success is the curve; the
# winnable share, an upper bound, needs fewer deals: the same sample as crewkit check)
VARIANT_SOLVER_GAMES = 200
CAMPAIGN_SOLVER_GAMES = 60


def _note(message: str) -> None:
    """A remark about how the command runs (not a result): on stderr."""
    print(f"crewkit compare: {message}", file=sys.stderr)


def cmd_compare(args: argparse.Namespace) -> int:
    from crewkit.analysis import compare as cmp_mod

    check_cluster(args)
    note_precision_cap("compare", args.precision, args.games)  # only when asked for: the default suits any --games
    args.precision = DEFAULT_PRECISION if args.precision is None else args.precision
    if args.plot:
        if Path(args.plot).suffix.lower() not in (".png", ".svg", ".pdf"):
            raise UsageError(f"--plot {args.plot}: the file must end in .png or .svg")
        try:
            cmp_mod.require_matplotlib()
        except cmp_mod.PlotUnavailable as exc:
            print(f"crewkit compare: {exc}", file=sys.stderr)
            return EXIT_INVALID
    if args.campaign and args.variants:
        raise UsageError("give variants or --campaign, not both")
    solver = not args.no_solver
    if args.campaign:
        from crewkit.spec.campaigns import load_campaign

        camp = load_campaign(args.campaign)
        players = args.players or (camp.players[0] if camp.players else 4)
        with precision_bar("compare", args.format == "text") as status:
            result = cmp_mod.compare_campaign(
                args.campaign, players, args.games, args.seed, bot=args.bot or "fast",
                ruleset=args.ruleset, workers=args.workers, solver=solver,
                solver_nodes=args.solver_nodes, solver_timeout=args.solver_timeout, status=status,
                oversubscribe=args.oversubscribe, on_note=_note, precision=args.precision, cluster=args.cluster,
                solver_games=args.solver_games or CAMPAIGN_SOLVER_GAMES)
    else:
        if not args.variants:
            raise UsageError("give at least one VARIANT (e.g. bot=heuristic bot=rules) or --campaign")
        if len(args.variants) > MAX_VARIANTS:  # each plays every deal: a list pasted by mistake is refused
            raise UsageError(f"expected at most {MAX_VARIANTS} variants, found {len(args.variants):,}")
        defaults = {"ruleset": args.ruleset, "mission": args.mission, "players": args.players or 4, "bot": args.bot,
                    "readings": list(args.reading)}
        try:
            variants = [cmp_mod.parse_variant(text, defaults, index=i) for i, text in enumerate(args.variants)]
        except cmp_mod.VariantError as exc:
            raise UsageError(str(exc)) from None
        labels = [v.label for v in variants]
        if len(set(labels)) != len(labels):
            variants = [cmp_mod.Variant(f"{v.label} #{i + 1}", v.ruleset, v.mission, v.players, v.bot, v.readings)
                        for i, v in enumerate(variants)]
        with precision_bar("compare", args.format == "text") as status:
            try:
                result = cmp_mod.compare(variants, args.games, args.seed, workers=args.workers, solver=solver,
                                         solver_nodes=args.solver_nodes, solver_timeout=args.solver_timeout,
                                         status=status, oversubscribe=args.oversubscribe, on_note=_note,
                                         precision=args.precision, cluster=args.cluster,
                                         solver_games=args.solver_games or VARIANT_SOLVER_GAMES)
            except cmp_mod.VariantError as exc:
                print(f"crewkit compare: {exc}", file=sys.stderr)
                return EXIT_INVALID
    print_table_result(result, args.format, chart=not args.no_chart, plot_to=args.plot,
                       dumps_json=cmp_mod.dumps_json, plot=cmp_mod.plot)
    return EXIT_OK

