"""``crewkit simulate``: many seeded games with bots, the success rate and the common failures."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import (
    format_option,
    games_option,
    players_option,
    reading_option,
    ruleset_option,
    seed_option,
    workers_option,
)
from crewkit.cli.progress import progress_bar
from crewkit.errors import EXIT_OK


def add_simulate_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate",
        help="play many seeded games with bots and report the success rate",
        description="Play K games of a mission with bots in every seat. Per-game seeds are derived from --seed, "
        "so results are identical for any --workers. Reports the success rate with a 95% Wilson interval, "
        "mean tricks played and the most common failure reasons.",
        parents=[ruleset_option(), players_option(), games_option(100, "number of games (default: 100)"),
                 seed_option("crewkit"), workers_option(), reading_option(), format_option("text", "json")],
    )
    p.add_argument("--mission", required=True, help="mission id (planet-nine/10) or path")
    p.add_argument("--bot", default="heuristic", help="bot for every seat: heuristic or random (default: heuristic)")
    p.add_argument("--records", metavar="DIR", help="write every game's record into DIR (empty or new)")
    p.add_argument("--overwrite", action="store_true",
                   help="allow --records DIR to be a folder with files in it (its game-NNNNN.json are replaced)")
    return p


def cmd_simulate(args: argparse.Namespace) -> int:
    from crewkit.analysis.simulate import simulate

    with progress_bar("simulating", args.games, args.format == "text") as update:
        result = simulate(
            ruleset=args.ruleset, mission=args.mission, players=args.players, games=args.games, bot=args.bot,
            seed=args.seed, workers=args.workers, readings=dict(args.reading),
            records_dir=Path(args.records) if args.records else None, progress=update, overwrite=args.overwrite,
            oversubscribe=args.oversubscribe, on_note=lambda note: print(f"crewkit simulate: {note}", file=sys.stderr),
        )
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.format_text())
    return EXIT_OK

