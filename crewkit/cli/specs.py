"""``crewkit validate``, ``show``, ``list`` and ``docs``: the spec files, checked, printed and listed."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from crewkit.cli.options import format_option, players_option, reading_option, ruleset_option
from crewkit.errors import EXIT_INVALID, EXIT_OK, UsageError


def add_validate_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "validate",
        help="check rule sets, missions and campaigns (all bundled files when no path is given)",
        description="Check YAML specs against their JSON Schemas and beyond: references resolve, tokens are "
        "known, hand sizes fit the deck, DSL conditions parse and name only known words and bound roles. "
        "Every error names file:line:column. Exit 0 when all are valid, 1 when any is invalid.",
        parents=[format_option("text", "json")],
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check (default: every bundled file)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and the summary")
    return p


def add_show_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "show",
        help="print a rule set, mission or campaign (rule sets resolved through `extends:` on request; "
        "missions in words with --words)",
        description="Print a spec as YAML. For rule sets, --resolved applies `extends:` (maps merge, lists "
        "replace, null deletes) and any --reading selections. --words prints a mission's briefing as the table "
        "shows it (every mission of a campaign with `show campaign NAME --words`).",
        parents=[reading_option(), format_option("yaml", "json"),
                 ruleset_option(None, "with --words: the rule set to play the mission under (default: the "
                                "campaign's, else the mission's first)"),
                 players_option(None, "with --words: the number of players (default: 4 when allowed, else the "
                                "first allowed count)")],
    )
    p.add_argument("kind", choices=["ruleset", "mission", "campaign"], help="what to show")
    p.add_argument("name", help="bundled name (crew, planet-nine/03, planet-nine) or a file path")
    p.add_argument("--resolved", action="store_true", help="rule sets: print the merged result of `extends:`")
    p.add_argument("--words", action="store_true",
                   help="missions and campaigns: the briefing in words, as the table shows it")
    p.add_argument("--campaign", metavar="NAME", help="with --words: show the mission as this campaign plays it "
                   "(its title, chapter, rule set and fixed readings)")
    return p


def add_list_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "list",
        help="list what can be played: rule sets, campaigns, mission sets (Hammer, Persian levels), missions",
        description="List what can be played: rule sets with their player counts, campaigns (bundled and those "
        "installed packs offer through the entry-point group `crewkit.campaigns`, with their source), mission "
        "sets (a rule set that deals its own mission cards: hammer, persian, persian/level-N) with the command "
        "that plays them, and the bundled missions.",
        parents=[format_option("text", "json")],
    )
    p.add_argument("what", nargs="?", choices=["rulesets", "campaigns", "sets", "missions"], default=None)
    return p


def add_docs_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "docs",
        help="print generated reference documentation (the condition language, the effect vocabulary, the "
        "bundled missions in words)",
        description="Print the reference of the condition DSL or of the effect vocabulary, generated from the vocabularies themselves.",
    )
    p.add_argument("topic", choices=["dsl", "effects", "missions"], help="which reference: the condition "
                   "language, the effect vocabulary, or every bundled mission and card in words (docs/missions.md)")
    return p


def cmd_validate(args: argparse.Namespace) -> int:
    from crewkit.engine.files import file_issues
    from crewkit.engine.registry import known_action_types
    from crewkit.spec import bundled
    from crewkit.spec.errors import SpecIssue, issue_to_json, render_issue
    from crewkit.spec.loader import source_lines
    from crewkit.spec.yamlio import real_path_within

    paths: list[Path] = []
    folder_of: dict[Path, Path] = {}  # a file found in a folder given here: that folder (it may not lead out)
    refused: dict[Path, SpecIssue] = {}  # a zip that cannot be unpacked: an invalid file of its own
    if not args.paths:
        from crewkit.games import installed_rulesets

        paths = bundled.bundled_files() + [path for _, path in installed_rulesets().values()]
    else:
        for raw in args.paths:
            path = Path(raw)
            if path.is_file() and path.suffix.lower() == ".zip":  # a zipped campaign: check what it unpacks to
                from crewkit.spec.campaigns import unpack_zip

                try:
                    path = unpack_zip(path)
                except bundled.NotFound as exc:
                    refused[path] = SpecIssue(str(path), 1, 1, (), str(exc))
                    paths.append(path)
                    continue
            if path.is_dir():
                found = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
                if not found:
                    raise UsageError(f"{raw}: no .yaml files in this folder")
                paths.extend(found)
                folder_of.update(dict.fromkeys(found, path))
            elif path.exists():
                paths.append(path)
            else:
                raise UsageError(f"{raw}: no such file or folder")
    all_issues = []
    invalid = 0
    for path in paths:
        folder = folder_of.get(path)
        if path in refused:
            invalid += 1
            all_issues.append((path, [refused[path]]))
            continue
        if folder is not None and real_path_within(path, [folder]) is None:
            # a link out of the folder given: never read (its lines would be printed under the errors)
            issue = SpecIssue(str(path), 1, 1, (), f"not read: it is a link to {path.resolve()}, outside the folder "
                              f"{folder} given to validate; validate follows a link only when it stays inside")
            invalid += 1
            all_issues.append((path, [issue]))
            continue
        issues = file_issues(path, action_types=known_action_types())
        if issues:
            invalid += 1
        all_issues.append((path, issues))
    if args.format == "json":
        out = [issue_to_json(i) for _, issues in all_issues for i in issues]
        print(json.dumps({"files": len(paths), "invalid": invalid, "errors": out}, indent=2))
    else:
        for path, issues in all_issues:
            if issues:
                folder = folder_of.get(path)
                within = [folder] if folder is not None else [path.resolve().parent]
                lines = None if path in refused else source_lines(path, within=None if folder is None else [folder])
                others: dict[Path, list[str] | None] = {}  # a rule set's card files: their own lines
                for issue in issues:
                    where = Path(issue.file)
                    if path in refused or where.resolve() == path.resolve():
                        print(render_issue(issue, lines))
                        continue
                    if where not in others:  # read as the loader read it: no link out of the folder
                        others[where] = source_lines(where, within=within)
                    print(render_issue(issue, others[where]))
            elif not args.quiet and args.paths:
                print(f"{path}: ok")
        total = sum(len(i) for _, i in all_issues)
        status = "all valid" if not invalid else f"{invalid} invalid ({total} error{'s' if total != 1 else ''})"
        print(f"{len(paths)} file{'s' if len(paths) != 1 else ''} checked: {status}")
    return EXIT_INVALID if invalid else EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    import yaml

    from crewkit.spec.campaigns import load_campaign
    from crewkit.spec.loader import load_doc, load_mission

    readings = dict(args.reading)
    if args.words:
        return _show_words(args, readings)
    if args.ruleset or args.players or args.campaign:
        raise UsageError("--ruleset, --players and --campaign go with --words")
    data: Any
    if args.kind == "ruleset":
        if args.resolved or readings:  # every family: its own loader resolves extends and the readings
            from crewkit.analysis.diff import resolve_ruleset

            _, data = resolve_ruleset(args.name, readings)
        else:
            from crewkit.games import ruleset_file  # crewkit's rule sets and installed families'

            data = load_doc(ruleset_file(args.name)).data
    elif args.kind == "mission":
        data = dict(load_mission(args.name, readings).data)
    else:
        data = load_doc(load_campaign(args.name).path).data
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110), end="")
    return EXIT_OK


def _show_words(args: argparse.Namespace, readings: dict[str, str]) -> int:
    """``show mission ID --words`` (``show campaign NAME --words``: each of its missions in turn)."""
    from crewkit.tui.briefings import mission_words, table_for

    if args.kind == "ruleset":
        raise UsageError("--words shows a mission or a campaign (a rule set's missions: show mission hammer --words)")
    if args.resolved:
        raise UsageError("--resolved goes with rule sets, not with --words")
    if args.kind == "campaign":
        from crewkit.spec.campaigns import load_campaign

        camp = load_campaign(args.name)
        blocks = [mission_words(table_for(key, ruleset=args.ruleset, players=args.players, readings=readings,
                                          campaign=args.name)) for key in camp.missions]
    else:
        blocks = [mission_words(table_for(args.name, ruleset=args.ruleset, players=args.players,
                                          readings=readings, campaign=args.campaign))]
    if args.format == "json":
        print(json.dumps([{"lines": b} for b in blocks], indent=2, ensure_ascii=False))
    else:
        print("\n\n".join("\n".join(b) for b in blocks))
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from crewkit.games import family_named, installed_rulesets
    from crewkit.spec.listing import catalogue, format_catalogue, section

    cat = catalogue(family_named, [path for _, path in installed_rulesets().values()])
    print(json.dumps(section(cat, args.what), indent=2) if args.format == "json" else format_catalogue(cat, args.what))
    return EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    if args.topic == "missions":
        from crewkit.tui.briefings import missions_page

        print(missions_page(), end="")
        return EXIT_OK
    if args.topic == "effects":
        from crewkit.effects.docs import generate

        print(generate(), end="")
        return EXIT_OK
    from crewkit.dsl.docs import generate_markdown

    print(generate_markdown(), end="")
    return EXIT_OK

