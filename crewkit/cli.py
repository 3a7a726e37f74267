"""The ``crewkit`` command line. Thin: parse arguments, call the library, print results.

Imports are lazy so that ``crewkit --help`` and ``crewkit validate`` stay fast and never load textual.
Exit codes: 0 success, 1 invalid input / illegal action / failed check, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crewkit.argtypes import delay_seconds, positive_int, precision, reading

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

DESCRIPTION = """\
crewkit: card-game rule sets and missions as data.

The Crew: The Quest for Planet Nine (3-5 players and its variants), a Persian reading of The Crew and
Hammer's mission game are YAML specs with a small condition language, run by one generic engine.
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
  crewkit compare ruleset=crew ruleset=crew-3p-challenge --mission planet-nine/10 --players 3 --games 200
  crewkit diff crew crew-jarvis                 the rule differences of two rule sets or missions
  crewkit check my-mission.yaml                 validate, then measure how hard a new mission is

exit codes: 0 success, 1 invalid input or illegal action, 2 usage error
"""


class UsageError(Exception):
    """A command line that cannot be carried out as given (exit 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crewkit", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "validate",
        help="check rule sets, missions and campaigns (all bundled files when no path is given)",
        description="Check YAML specs against their JSON Schemas and beyond: references resolve, tokens are "
        "known, hand sizes fit the deck, DSL conditions parse and name only known words and bound roles. "
        "Every error names file:line:column. Exit 0 when all are valid, 1 when any is invalid.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check (default: every bundled file)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and the summary")

    p = sub.add_parser(
        "show",
        help="print a rule set, mission or campaign (rule sets resolved through `extends:` on request)",
        description="Print a spec as YAML. For rule sets, --resolved applies `extends:` (maps merge, lists "
        "replace, null deletes) and any --reading selections.",
    )
    p.add_argument("kind", choices=["ruleset", "mission", "campaign"], help="what to show")
    p.add_argument("name", help="bundled name (crew, planet-nine/03, planet-nine) or a file path")
    p.add_argument("--resolved", action="store_true", help="rule sets: print the merged result of `extends:`")
    p.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option (repeatable)")
    p.add_argument("--format", choices=["yaml", "json"], default="yaml", help="output format (default: yaml)")

    p = sub.add_parser(
        "list",
        help="list the bundled rule sets, campaigns (bundled and installed) and missions",
        description="List what is bundled: rule sets with their player counts, campaigns, and missions. "
        "Campaigns also lists those installed packs offer (entry-point group `crewkit.campaigns`), with "
        "their source.",
    )
    p.add_argument("what", nargs="?", choices=["rulesets", "missions", "campaigns"], default=None)

    p = sub.add_parser(
        "replay",
        help="replay a game record and print its tricks, tasks, communications and outcome",
        description="Rebuild a game from a crewkit-record/1 JSON file and apply its actions through the engine. "
        "Exit 0 when every action was legal, 1 when one is illegal or the file is malformed.",
    )
    p.add_argument("file", help="a game record (.json)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")

    p = sub.add_parser(
        "simulate",
        help="play many seeded games with bots and report the success rate",
        description="Play K games of a mission with bots in every seat. Per-game seeds are derived from --seed, "
        "so results are identical for any --workers. Reports the success rate with a 95%% Wilson interval, "
        "mean tricks played and the most common failure reasons.",
    )
    p.add_argument("--ruleset", default="crew", help="rule set name or path (default: crew)")
    p.add_argument("--mission", required=True, help="mission id (planet-nine/10) or path")
    p.add_argument("--players", type=positive_int, default=4, help="number of players (default: 4)")
    p.add_argument("--games", type=positive_int, default=None,
                   help="number of games (default: 100); with --precision, the most to play (default: 20000)")
    p.add_argument("--precision", type=precision, metavar="H",
                   help="play until the 95%% interval of the success rate is at most ±H (0.03 or 3%%), in blocks "
                        "of 25 games; the same seeds give the same games whatever --workers")
    p.add_argument("--bot", default="heuristic", help="bot for every seat: heuristic, expert, rules or random "
                   "(default: heuristic)")
    p.add_argument("--seed", default="crewkit", help="master seed (default: crewkit)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="parallel processes (default: 1; at most the number of CPUs unless --oversubscribe)")
    p.add_argument("--oversubscribe", action="store_true", help="allow --workers above the number of CPUs")
    p.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option (repeatable)")
    from crewkit.analysis.commands import add_cluster_options  # argparse only: cheap to import

    add_cluster_options(p)
    p.add_argument("--records", metavar="DIR", help="write every game's record into DIR (empty or new)")
    p.add_argument("--overwrite", action="store_true",
                   help="allow --records DIR to be a folder with files in it (its game-NNNNN.json are replaced)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")

    p = sub.add_parser(
        "play",
        help="play in the terminal (a campaign chooser, then its missions; you in seat 0, bots elsewhere)",
        description="Open the terminal app. With no options: the campaign chooser (progress per campaign), "
        "then the chosen campaign's missions, you in seat 0 and bots in the other seats (--bot chooses them).",
    )
    p.add_argument("--campaign", metavar="PATH|NAME",
                   help="open this campaign: a folder with a campaign.yaml, the file itself, a .zip of the "
                        "folder, or a bundled or installed campaign's name (see `crewkit list campaigns`)")
    p.add_argument("--mission", help="start this mission directly (e.g. planet-nine/05, or a mission of --campaign)")
    p.add_argument("--ruleset", help="rule set name or path (default: the campaign's)")
    p.add_argument("--players", type=positive_int, default=None,
                   help="number of players (default: 4, or the campaign's first allowed count)")
    p.add_argument("--seats", help="who sits where, e.g. human,bot,bot,bot or human,human,bot (hotseat)")
    p.add_argument("--seed", help="seed for the deal (default: random)")
    p.add_argument("--bot", metavar="NAME",
                   help="the bot in the empty seats (and seats given as 'bot'): expert, heuristic, rules or random "
                        "(default: expert, the strongest that still decides well within a second)")
    p.add_argument("--fast", action="store_true", help="bots play instantly")
    p.add_argument("--delay", type=delay_seconds, default=0.6, help="seconds per bot move, 0 to 60 (default: 0.6)")
    p.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="play with another reading of an unclear rule (repeatable; see docs/variants.md)")

    p = sub.add_parser(
        "campaign",
        help="the campaign logbook: status, or reset",
        description="The logbook is kept in SQLite under the user's data directory ($CREWKIT_HOME overrides it).",
    )
    csub = p.add_subparsers(dest="campaign_command", metavar="ACTION")
    cs = csub.add_parser("status", help="missions done, attempts per mission, the current mission")
    cs.add_argument("--campaign", default="planet-nine", metavar="PATH|NAME",
                    help="a bundled or installed name, a folder, a campaign.yaml or a .zip (default: planet-nine)")
    cr = csub.add_parser("reset", help="start the logbook over (the old file is kept as a backup)")
    cr.add_argument("--campaign", metavar="PATH|NAME",
                    help="forget only this campaign's attempts (default: the whole logbook)")
    cr.add_argument("--yes", action="store_true", help="really reset (required)")

    from crewkit.analysis import commands as analysis_commands  # argparse only: cheap to import

    analysis_commands.add_solve_parser(sub)
    analysis_commands.add_compare_parser(sub)
    analysis_commands.add_diff_parser(sub)
    analysis_commands.add_check_parser(sub)
    analysis_commands.add_winnability_parser(sub)

    p = sub.add_parser(
        "docs",
        help="print generated reference documentation (the condition language)",
        description="Print the reference of the condition DSL, generated from the vocabulary itself.",
    )
    p.add_argument("topic", choices=["dsl"], help="which reference")
    return parser


def _version() -> str:
    from crewkit import __version__

    return f"crewkit {__version__}"


# ---------------------------------------------------------------------------- commands
def cmd_validate(args: argparse.Namespace) -> int:
    from crewkit.spec import bundled
    from crewkit.spec.errors import issue_to_json, render_issue
    from crewkit.spec.loader import check_file, source_lines

    paths: list[Path] = []
    if not args.paths:
        paths = bundled.bundled_files()
    else:
        for raw in args.paths:
            path = Path(raw)
            if path.is_file() and path.suffix.lower() == ".zip":  # a zipped campaign: check what it unpacks to
                from crewkit.spec.campaigns import unpack_zip

                try:
                    path = unpack_zip(path)
                except bundled.NotFound as exc:
                    raise UsageError(str(exc)) from None
            if path.is_dir():
                found = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
                if not found:
                    raise UsageError(f"{raw}: no .yaml files in this folder")
                paths.extend(found)
            elif path.exists():
                paths.append(path)
            else:
                raise UsageError(f"{raw}: no such file or folder")
    all_issues = []
    invalid = 0
    for path in paths:
        issues = check_file(path)
        if issues:
            invalid += 1
        all_issues.append((path, issues))
    if args.format == "json":
        out = [issue_to_json(i) for _, issues in all_issues for i in issues]
        print(json.dumps({"files": len(paths), "invalid": invalid, "errors": out}, indent=2))
    else:
        for path, issues in all_issues:
            if issues:
                lines = source_lines(path)
                for issue in issues:
                    print(render_issue(issue, lines))
            elif not args.quiet and args.paths:
                print(f"{path}: ok")
        total = sum(len(i) for _, i in all_issues)
        status = "all valid" if not invalid else f"{invalid} invalid ({total} error{'s' if total != 1 else ''})"
        print(f"{len(paths)} file{'s' if len(paths) != 1 else ''} checked: {status}")
    return EXIT_INVALID if invalid else EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    import yaml

    from crewkit.spec.loader import load_campaign, load_doc, load_mission, load_ruleset

    readings = dict(args.reading)
    data: Any
    if args.kind == "ruleset":
        if args.resolved or readings:
            data = dict(load_ruleset(args.name, readings).data)
        else:
            from crewkit.spec import bundled

            data = load_doc(bundled.ruleset_path(args.name)).data
    elif args.kind == "mission":
        data = dict(load_mission(args.name, readings).data)
    else:
        data = load_doc(load_campaign(args.name).path).data
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110), end="")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from crewkit.spec import bundled
    from crewkit.spec.loader import load_doc

    if args.what in (None, "rulesets"):
        print("rule sets:")
        for path in bundled.bundled_rulesets():
            data = load_doc(path).data or {}
            base = f" (extends {data['extends']})" if data.get("extends") else ""
            print(f"  {path.stem:<22} {data.get('title', '')}{base}")
    if args.what in (None, "campaigns"):
        from crewkit.spec.campaigns import installed_campaigns

        print("campaigns:")
        rows: list[tuple[str, str, str]] = []
        for path in bundled.bundled_campaigns():
            data = load_doc(path).data or {}
            rows.append((path.parent.name, f"{data.get('title', '')} ({len(data.get('missions', []))} missions)",
                         "bundled"))
        for name, dist, pack_path, problem in installed_campaigns():
            if pack_path is None:
                rows.append((name, f"cannot be opened: {problem}", f"pack {dist}"))
                continue
            try:
                data = load_doc(pack_path).data or {}
                text = f"{data.get('title', '')} ({len(data.get('missions', []))} missions)"
            except Exception as exc:  # a broken pack is listed with its problem, not a traceback
                text = f"cannot be read: {str(exc).splitlines()[0]}"
            rows.append((name, text, f"pack {dist}"))
        for name, text, source in rows:
            print(f"  {name:<22} {text}  [{source}]")
    if args.what in (None, "missions"):
        print("missions:")
        for path in bundled.bundled_missions():
            data = load_doc(path).data or {}
            print(f"  {bundled.mission_id_for(path):<22} {data.get('title', '')}")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from crewkit.engine.record import replay_record
    from crewkit.engine.replay_text import replay_json, replay_text
    from crewkit.spec.errors import render_issue
    from crewkit.spec.loader import source_lines

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"{args.file}: no such file")
    record, issues = load_record_file(path)
    if issues:
        lines = source_lines(path)
        for issue in issues:
            print(render_issue(issue, lines), file=sys.stderr)
        return EXIT_INVALID
    result = replay_record(record)
    if args.format == "json":
        print(json.dumps(replay_json(result), indent=2, ensure_ascii=False))
    else:
        print(replay_text(result))
    if result.error is not None:
        print(f"{path}: {result.error}", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK


def load_record_file(path: Path) -> tuple[dict[str, Any], list[Any]]:
    from crewkit.spec.errors import SpecError
    from crewkit.spec.schema import load_json_file, validate_document

    try:
        doc = load_json_file(path)
    except SpecError as exc:
        return {}, list(exc.issues)
    issues = list(validate_document(doc, "record"))
    data = doc.data if isinstance(doc.data, dict) else {}
    if not issues:
        issues = _record_reference_issues(doc, path)
    return data, issues


def _record_reference_issues(doc: Any, path: Path) -> list[Any]:
    """A record names its rule set and mission as the command line does (bundled names, or paths from the
    working folder); a path must lead into the working folder or the record's own folder (or below them),
    so that a record from someone else cannot make crewkit read any file of yours (docs/trust.md)."""
    from crewkit.spec import bundled
    from crewkit.spec.errors import SpecIssue

    out = []
    for key in ("ruleset", "mission"):
        ref = doc.data.get(key)
        if not isinstance(ref, str):
            continue
        is_path = bundled.looks_like_path(ref) or (key == "ruleset" and "/" in ref)
        if not is_path:
            continue
        target = Path(ref).expanduser()
        if "\x00" not in ref and (bundled.confined(target, Path.cwd()) or bundled.confined(target, path.parent)):
            continue
        line, column = doc.position_of((key,))
        out.append(SpecIssue(doc.filename, line, column, (key,),
                             f"the record's {key} file {ref!r} is outside the working folder and the record's "
                             "folder; a record may name bundled specs or files there"))
    return out


def cmd_simulate(args: argparse.Namespace) -> int:
    from crewkit.analysis.commands import check_cluster, precision_bar
    from crewkit.analysis.simulate import simulate

    check_cluster(args)
    games = args.games if args.games is not None else (20_000 if args.precision is not None else 100)
    bar, status = precision_bar("simulating", args.format == "text" and sys.stderr.isatty())
    try:
        result = simulate(
            ruleset=args.ruleset, mission=args.mission, players=args.players, games=games, bot=args.bot,
            seed=args.seed, workers=args.workers, readings=dict(args.reading),
            records_dir=Path(args.records) if args.records else None, overwrite=args.overwrite,
            oversubscribe=args.oversubscribe, on_note=lambda note: print(f"crewkit simulate: {note}", file=sys.stderr),
            precision=args.precision, cluster=args.cluster, status=status,
        )
    finally:
        if bar is not None:
            bar.stop()
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.format_text())
    return EXIT_OK


def _stderr_console() -> Any:
    from rich.console import Console

    from crewkit.safetext import raw

    return Console(file=raw(sys.stderr))  # the bar draws with escape sequences: bypass the escaping


def cmd_play(args: argparse.Namespace) -> int:
    from crewkit.tui.launch import PlayOptions, run_play

    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    if args.bot is not None:
        from crewkit.bots.registry import bot_names

        if args.bot not in bot_names():
            raise UsageError(f"--bot {args.bot}: unknown bot; available bots: {', '.join(bot_names())}")
    if seats is not None:
        from crewkit.bots.registry import bot_names

        kinds = {"human", "bot", *bot_names()}
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
        readings_ruleset = args.ruleset or "crew"
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

    sys.stdout, sys.stderr = raw(sys.stdout), raw(sys.stderr)  # the terminal app draws with escape sequences
    players = args.players if args.players is not None else (len(seats) if seats else None)
    return run_play(PlayOptions(mission=args.mission, ruleset=args.ruleset, players=players, seats=seats,
                                seed=args.seed, fast=args.fast, delay=args.delay, readings=readings,
                                campaign=campaign_ref, bot=args.bot))


def cmd_campaign(args: argparse.Namespace) -> int:
    from crewkit.campaign.report import format_status
    from crewkit.campaign.store import Logbook
    from crewkit.spec.loader import load_campaign, load_mission

    if args.campaign_command == "reset":
        if not args.yes:
            raise UsageError("campaign reset deletes your progress: add --yes to confirm (a backup is kept)")
        if args.campaign:
            campaign = load_campaign(args.campaign, deep=False)
            with Logbook.open() as book:
                backup, removed = book.reset_campaign(campaign.identity)
            print(f"campaign {campaign.name}: {removed} attempt(s) forgotten; the old logbook is kept at {backup}")
            return EXIT_OK
        with Logbook.open() as book:
            backup = book.reset()
        print(f"logbook reset; the old one is kept at {backup}")
        return EXIT_OK
    if args.campaign_command != "status":
        raise UsageError("campaign needs an action: status or reset")
    campaign = load_campaign(args.campaign, deep=False)
    titles = {}
    for entry in campaign.entries:
        try:
            load_mission(entry.ref)
            titles[entry.key] = entry.title
        except Exception:  # a broken mission file still shows up in the table
            titles[entry.key] = "?"
    from crewkit.engine.setup import logbook_extra_attempts

    versions = {e.key: e.version for e in campaign.entries}
    with Logbook.open(read_only=True) as book:  # status never writes (a read-only home is fine)
        progress, older = book.progress_for_versions(campaign.identity, versions, logbook_extra_attempts)
    current = next((line.mission for line in progress if not line.done), None)
    if campaign.source != "bundled":
        print(f"campaign {campaign.name}: {campaign.title} [{campaign.source}: {campaign.path.parent}]")
    print(format_status(progress, titles, current))
    for key, count in older.items():
        print(f"notice: {key} ({titles.get(key, '')}) changed after {count} attempt(s) were recorded; they are "
              "not counted (the logbook counts the attempts of the current version of the file)")
    return EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    from crewkit.dsl.docs import generate_markdown

    print(generate_markdown(), end="")
    return EXIT_OK


def cmd_analysis(args: argparse.Namespace) -> int:
    from crewkit.analysis import commands as analysis_commands

    handler = {
        "solve": analysis_commands.cmd_solve,
        "compare": analysis_commands.cmd_compare,
        "diff": analysis_commands.cmd_diff,
        "check": analysis_commands.cmd_check,
        "winnability": analysis_commands.cmd_winnability,
    }[args.command]
    return int(handler(args))


COMMANDS = {
    "validate": cmd_validate,
    "show": cmd_show,
    "list": cmd_list,
    "replay": cmd_replay,
    "simulate": cmd_simulate,
    "play": cmd_play,
    "campaign": cmd_campaign,
    "docs": cmd_docs,
    "solve": cmd_analysis,
    "compare": cmd_analysis,
    "diff": cmd_analysis,
    "check": cmd_analysis,
    "winnability": cmd_analysis,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; everything it prints goes through :func:`crewkit.safetext.escape_controls`."""
    from crewkit.safetext import SafeStream

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err)  # type: ignore[assignment]
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


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
    except UsageError as exc:
        print(f"crewkit {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # every known failure becomes a message, never a traceback
        return _report(exc, args.command)


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


def _report(exc: Exception, command: str) -> int:
    from crewkit.spec.errors import SpecError

    if isinstance(exc, SpecError):
        print(exc.render(), file=sys.stderr)
        return EXIT_INVALID
    from crewkit.engine.errors import IllegalAction, SetupError

    if isinstance(exc, (SetupError, IllegalAction)):
        print(f"crewkit {command}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    dsl_errors = sys.modules.get("crewkit.dsl.errors")
    if dsl_errors is not None and isinstance(exc, dsl_errors.DslError):
        # a condition of a mission failed while it was evaluated: the error names the file and condition
        print(f"crewkit {command}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    known = _known_errors()
    if isinstance(exc, known):
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


def _known_errors() -> tuple[type[BaseException], ...]:
    out: list[type[BaseException]] = [OSError]
    for module, name in (
        ("crewkit.campaign.store", "LogbookError"),
        ("crewkit.campaign.saves", "SaveError"),
        ("crewkit.bots", "UnknownBot"),
        ("crewkit.cards", "CardError"),
        ("crewkit.spec.bundled", "NotFound"),
        ("crewkit.bots.driver", "BotError"),  # a game that does not end within the driver's action limit
    ):
        mod = sys.modules.get(module)
        err = getattr(mod, name, None) if mod is not None else None
        if isinstance(err, type) and issubclass(err, BaseException):
            out.append(err)
    return tuple(out)


if __name__ == "__main__":
    sys.exit(main())
