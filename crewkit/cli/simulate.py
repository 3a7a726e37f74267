"""``crewkit simulate``: many seeded games with bots, the success rate and the common failures."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import (
    check_cluster,
    cluster_option,
    format_option,
    games_option,
    note_precision_cap,
    players_option,
    precision,
    reading_option,
    ruleset_option,
    seed_option,
    workers_option,
)
from crewkit.cli.progress import precision_bar
from crewkit.errors import EXIT_OK, UsageError


def add_simulate_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate",
        help="play many seeded games with bots and report the success rate",
        description="Play K games of a mission with bots in every seat. Per-game seeds are derived from --seed, "
        "so results are identical for any --workers. Reports the success rate with a 95% Wilson interval, "
        "mean tricks played and the most common failure reasons.",
        parents=[ruleset_option(), players_option(),
                 games_option(None, "number of games (default: 100); with --precision, the most to play "
                                    "(default: 20000)"),
                 seed_option("crewkit"), workers_option(), cluster_option(), reading_option(),
                 format_option("text", "json")],
    )
    p.add_argument("--precision", type=precision, metavar="H",
                   help="play until the 95%% interval of the success rate is at most ±H (0.03 or 3%%), in blocks "
                        "of 25 games; the same seeds give the same games whatever --workers")
    p.add_argument("--mission", help="mission id (planet-nine/10) or path (a trick-taking rule set needs one; "
                   "Not Alone has none)")
    p.add_argument("--bot", default=None, help="bot for every seat: fast, heuristic, expert, rules or random "
                   "(default: fast: the heuristic's strength, about 100 times faster); Not Alone: heuristic "
                   "(default), random or a bot registered for it, or one per side as CREATURE/HUNTED "
                   "(random/heuristic)")
    p.add_argument("--creature-bot", metavar="BOT", help="Not Alone: the Creature's bot (overrides --bot)")
    p.add_argument("--hunted-bot", metavar="BOT", help="Not Alone: the Hunted's bot (overrides --bot)")
    p.add_argument("--records", metavar="DIR", help="write every game's record into DIR (empty or new)")
    p.add_argument("--overwrite", action="store_true",
                   help="allow --records DIR to be a folder with files in it (its game-NNNNN.json are replaced)")
    return p


def cmd_simulate(args: argparse.Namespace) -> int:
    from crewkit.analysis.simulate import simulate
    from crewkit.games import family_for
    from crewkit.spec.mission_rulesets import choose_ruleset

    check_cluster(args)
    args.ruleset = choose_ruleset(args.ruleset, args.mission)
    family = family_for(args.ruleset)
    if family.needs_mission and not args.mission:
        raise UsageError("--mission is required for a trick-taking rule set (for example --mission planet-nine/10)")
    bot = family.bot_spec(args.bot, {"creature": args.creature_bot, "hunted": args.hunted_bot})
    games = args.games if args.games is not None else (20_000 if args.precision is not None else 100)
    note_precision_cap("simulate", args.precision, games)
    with precision_bar("simulating", args.format == "text") as status:
        result = simulate(
            ruleset=args.ruleset, mission=args.mission or "", players=args.players, games=games, bot=bot,
            seed=args.seed, workers=args.workers, readings=dict(args.reading),
            records_dir=Path(args.records) if args.records else None, overwrite=args.overwrite,
            oversubscribe=args.oversubscribe, on_note=lambda note: print(f"crewkit simulate: {note}", file=sys.stderr),
            precision=args.precision, cluster=args.cluster, status=status,
        )
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.format_text())
    return EXIT_OK

