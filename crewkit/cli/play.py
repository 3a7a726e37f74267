"""``crewkit play``: the terminal app; options it could not play are refused here, before it opens."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import delay_seconds, players_option, reading_option, ruleset_option, seed_option
from crewkit.errors import UsageError


def add_play_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "play",
        help="play in the terminal (a campaign chooser, then its missions; you in seat 0, bots elsewhere)",
        description="Open the terminal app. With no options: the campaign chooser (progress per campaign), "
        "then the chosen campaign's missions, you in seat 0 and bots in the other seats (--bot chooses them). "
        "With --ruleset not-alone (or not-alone-advanced): the Not Alone table, you on the --seat side.",
        parents=[ruleset_option(None, "rule set name or path (default: the campaign's; with "
                                "--mission outside it, the first rule set the mission lists)"),
                 players_option(None, "number of players (default: 4, or the campaign's first allowed count)"),
                 seed_option(None, "seed for the deal (default: random)"),
                 reading_option("play with another reading of an unclear rule (repeatable; see docs/variants.md)")],
    )
    p.add_argument("--campaign", metavar="PATH|NAME",
                   help="open this campaign: a folder with a campaign.yaml, the file itself, a .zip of the "
                        "folder, or a bundled or installed campaign's name (see `crewkit list campaigns`)")
    p.add_argument("--mission", help="start this mission directly (e.g. planet-nine/05, or a mission of --campaign)")
    p.add_argument("--seats", help="who sits where, e.g. human,bot,bot,bot or human,human,bot (hotseat)")
    p.add_argument("--bot", metavar="NAME",
                   help="the bot in the empty seats (and seats given as 'bot'): expert-quick, expert, fast, "
                        "heuristic, rules or random (default: expert-quick, the expert with a third of its search, "
                        "within half a second a card; expert is stronger and takes up to a second); Not Alone: "
                        "heuristic (default) or random")
    p.add_argument("--seat", choices=("creature", "hunted"),
                   help="Not Alone (--ruleset not-alone): your side; bots take the other seats (default: hunted)")
    p.add_argument("--fast", action="store_true", help="bots play instantly")
    p.add_argument("--delay", type=delay_seconds, default=None,
                   help="seconds per bot move, 0 to 60 (default: the table's bot-speed setting, 0.4 unless changed "
                        "with o at the table; Not Alone: 0.8)")
    return p


def cmd_play(args: argparse.Namespace) -> int:
    from crewkit.campaign.home import check_home
    from crewkit.tui.launch import PlayOptions, check_play_options, run_play

    check_home()  # the logbook, saves and records live there: a file or device in its place is said before the app opens

    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    from crewkit.tui.app import CrewApp

    if args.ruleset and CrewApp.plays_alone(args.ruleset):  # a game of its own (Not Alone): its table
        return _play_alone(args, seats)
    if args.seat is not None:
        raise UsageError("--seat creature|hunted is for Not Alone (--ruleset not-alone); use --seats here")
    if args.bot is not None or seats is not None:  # the family's bots (imported only then: a faster start)
        from crewkit.games import TRICK_TAKING, family_for, family_named

        # a mission's family: the rule set's, else the family of rule sets that name none (campaigns' missions)
        bot_names = (family_for(args.ruleset) if args.ruleset else family_named(TRICK_TAKING)).bot_names()
    if args.bot is not None:
        if args.bot not in bot_names:
            raise UsageError(f"--bot {args.bot}: unknown bot; available bots: {', '.join(bot_names)}")
    if seats is not None:
        kinds = {"human", "bot", *bot_names}
        bad = [s for s in seats if s not in kinds]
        if bad:
            raise UsageError(f"--seats: unknown seat kind {bad[0]!r}; use {', '.join(sorted(kinds))}")
        if args.players is not None and len(seats) != args.players:
            raise UsageError(f"--seats lists {len(seats)} seats for {args.players} players")
    campaign_ref = args.campaign
    if campaign_ref is not None:  # an unknown or broken campaign is reported here, with positions
        from crewkit.spec.campaigns import load_campaign

        camp = load_campaign(campaign_ref, deep=False)
        counts = list(camp.players)
        if args.players is not None and counts and args.players not in counts:
            raise UsageError(f"--players {args.players}: campaign {camp.name!r} is played by "
                             f"{', '.join(map(str, counts))} players")
        clash = {k: v for k, v in dict(args.reading).items() if camp.readings.get(k, v) != v}
        if clash:
            rid = next(iter(clash))
            raise UsageError(f"--reading {rid}={clash[rid]}: the campaign fixes {rid}={camp.readings[rid]}")
        if args.mission and args.mission not in camp.missions:
            given = Path(args.mission).expanduser().resolve()  # a mission file named by its path from here
            key = next((e.key for e in camp.entries if e.path is not None and e.path.resolve() == given),
                       args.mission.removeprefix("./"))
            if key not in camp.missions:
                raise UsageError(f"--mission {args.mission}: not a mission of campaign {camp.name!r}; its missions: "
                                 f"{', '.join(camp.missions)}")
            args.mission = key
        readings_ruleset = args.ruleset or camp.ruleset
    elif not args.mission and not args.ruleset:
        campaign_ref = None  # the app offers the campaign chooser
        readings_ruleset = "crew"
    else:
        from crewkit.spec.mission_rulesets import choose_ruleset

        readings_ruleset = choose_ruleset(args.ruleset, args.mission)
        from crewkit.tui.launch import DEFAULT_CAMPAIGN

        campaign_ref = DEFAULT_CAMPAIGN
    readings = dict(args.reading)
    if readings:  # an unknown reading or option is a usage error before the app opens
        from crewkit.spec.errors import SpecError
        from crewkit.spec.loader import load_ruleset

        try:
            data = load_ruleset(readings_ruleset, readings).data
        except SpecError as exc:
            raise UsageError(exc.issues[0].message) from None
        known = {r.get("id") for r in data.get("readings", []) or []}
        unknown = [r for r in readings if r not in known]
        if unknown and not args.mission:
            raise UsageError(f"--reading: the rule set has no reading {unknown[0]!r}; readings: {', '.join(sorted(known))}")
    from crewkit.safetext import raw

    players = args.players if args.players is not None else (len(seats) if seats else None)
    options = PlayOptions(mission=args.mission, ruleset=args.ruleset, players=players, seats=seats,
                          seed=args.seed, fast=args.fast, delay=args.delay, readings=readings, campaign=campaign_ref,
                          bot=args.bot)
    check_play_options(options)  # refused here (exit 1), not on an error screen inside the app
    sys.stdout, sys.stderr = raw(sys.stdout), raw(sys.stderr)  # the terminal app draws with escape sequences
    return run_play(options)



def _play_alone(args: argparse.Namespace, seats: list[str] | None) -> int:
    """A game of its own (Not Alone, an installed family's game): its family's table opens in the app (a saved
    unfinished game is offered first); options it does not take are refused here (exit 2)."""
    from crewkit.games import family_for
    from crewkit.safetext import raw
    from crewkit.tui.family import family_tui
    from crewkit.tui.launch import PlayOptions, check_play_options, run_play

    for given, flag in ((args.campaign, "--campaign"), (args.mission, "--mission")):
        if given:
            raise UsageError(f"{flag} is not used by {family_for(args.ruleset).title} (--ruleset {args.ruleset})")
    family_tui(args.ruleset)  # a family with no table at the terminal is refused in words before the app opens
    if seats is not None and args.seat is not None:
        raise UsageError("give --seat or --seats, not both")
    players = args.players if args.players is not None else (len(seats) if seats else 4)
    options = PlayOptions(ruleset=args.ruleset, players=players, seats=seats, seed=args.seed, fast=args.fast,
                          delay=args.delay, campaign=None, bot=args.bot, readings=dict(args.reading),
                          side=args.seat)
    check_play_options(options)  # players, seats, bot and readings are checked before the app opens
    sys.stdout, sys.stderr = raw(sys.stdout), raw(sys.stderr)  # the terminal app draws with escape sequences
    return run_play(options)
