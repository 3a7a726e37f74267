"""``crewkit campaign status`` and ``campaign reset``: the logbook, as the terminal app shows it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from crewkit.cli.options import format_option
from crewkit.errors import EXIT_OK, UsageError


def add_campaign_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "campaign",
        help="the campaign logbook: status, or reset",
        description="The logbook is kept in SQLite under the user's data directory ($CREWKIT_HOME overrides it).",
    )
    csub = p.add_subparsers(dest="campaign_command", metavar="ACTION")
    cs = csub.add_parser("status", help="missions done, attempts per mission, the current mission",
                         parents=[format_option("text", "json")])
    cs.add_argument("--campaign", default="planet-nine", metavar="PATH|NAME",
                    help="a bundled or installed name, a folder, a campaign.yaml or a .zip (default: planet-nine)")
    cs.add_argument("--logbook", type=Path, metavar="FILE",
                    help="read this logbook instead of yours, e.g. a host's: crewkit-tables/logbook.sqlite3 (the "
                         "crew's campaign played at tables hosted with `crewkit host --dir crewkit-tables`)")
    cr = csub.add_parser("reset", help="start the logbook over (the old file is kept as a backup)")
    cr.add_argument("--campaign", metavar="PATH|NAME",
                    help="forget only this campaign's attempts (default: the whole logbook)")
    cr.add_argument("--yes", action="store_true", help="really reset (required)")
    return p


def cmd_campaign(args: argparse.Namespace) -> int:
    from crewkit.campaign.report import format_status
    from crewkit.campaign.store import Logbook
    from crewkit.spec.campaigns import load_campaign
    from crewkit.spec.loader import load_mission

    if args.campaign_command == "reset":
        if not args.yes:
            raise UsageError("campaign reset deletes your progress: add --yes to confirm (a backup is kept)")
        if args.campaign:
            campaign = load_campaign(args.campaign, deep=False)
            with Logbook.open() as book:
                backup, removed = book.reset_campaign(campaign.identity)
            print(f"campaign {campaign.name}: {removed} attempt{'s' if removed != 1 else ''} forgotten; the old "
                  f"logbook is kept at {backup}")
            return EXIT_OK
        with Logbook.open() as book:
            backup = book.reset()
        print(f"logbook reset; the old one is kept at {backup}")
        return EXIT_OK
    if args.campaign_command != "status":
        raise UsageError("campaign needs an action: status or reset")
    campaign = load_campaign(args.campaign, deep=False, write_cache=False)  # status writes nothing
    titles = {}
    checked: dict[str, bool] = {}  # each file checked once, however often the campaign lists it
    for entry in campaign.entries:
        if entry.ref not in checked:
            try:
                load_mission(entry.ref)
                checked[entry.ref] = True
            except Exception:  # a broken mission file still shows up in the table
                checked[entry.ref] = False
        titles[entry.key] = entry.title if checked[entry.ref] else "?"
    from crewkit.games import logbook_extra_attempts

    versions = {e.key: e.version for e in campaign.entries}
    if args.logbook is not None and not args.logbook.is_file():
        raise UsageError(f"--logbook {args.logbook}: no such file (a host keeps its crew's logbook as "
                         "logbook.sqlite3 in its --dir folder)")
    with Logbook.open(args.logbook, read_only=True) as book:  # status never writes (a read-only home is fine)
        progress, older = book.progress_for_versions(campaign.identity, versions, logbook_extra_attempts)
        hinted = book.hinted_missions(campaign.identity)  # attempts played with hints: marked in the status
        from crewkit.campaign.attempts import attempt_json, attempts_text, by_mission

        each = by_mission(book.attempts(campaign.identity))  # every attempt, each reviewable by its reference
        where = book.path
    current = next((line.mission for line in progress if not line.done), None)
    from crewkit.campaign.report import status_json
    from crewkit.campaign.saves import saved_missions

    # attempts saved by the terminal app, resumed from the campaign (a host's unfinished tables are in its folder)
    saved = saved_missions(campaign.identity) if args.logbook is None else set()
    if args.format == "json":
        print(json.dumps({"campaign": campaign.name, "title": campaign.title, "source": campaign.source,
                          **status_json(progress, titles, current, saved, hinted),
                          "attempts": {key: [attempt_json(a, where) for a in rows] for key, rows in each.items()},
                          "changed_missions": [{"mission": key, "uncounted_attempts": count}
                                               for key, count in older.items()]}, indent=2))
        return EXIT_OK
    if campaign.source != "bundled":
        print(f"campaign {campaign.name}: {campaign.title} [{campaign.source}: {campaign.path.parent}]")
    print(format_status(progress, titles, current, saved, hinted))
    for key, count in older.items():
        attempts = f"{count} attempt{'s' if count != 1 else ''} {'was' if count == 1 else 'were'}"
        print(f"notice: {key} ({titles.get(key, '')}) changed after {attempts} recorded; the logbook counts "
              "only the attempts of the current version of the file")
    print()
    print(attempts_text([line.mission for line in progress], each, titles, where))
    return EXIT_OK

