"""``crewkit replay``: a game record rebuilt through the engine, every trick printed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crewkit.cli.options import format_option
from crewkit.errors import EXIT_INVALID, EXIT_OK, UsageError


def add_replay_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "replay",
        help="replay a game record and print its tricks, tasks, communications and outcome",
        description="Rebuild a game from a crewkit-record/1 JSON file and apply its actions through the engine. "
        "Exit 0 when every action was legal, 1 when one is illegal or the file is malformed.",
        parents=[format_option("text", "json")],
    )
    p.add_argument("file", help="a game record (.json)")
    return p


def cmd_replay(args: argparse.Namespace) -> int:
    from crewkit.engine.record_file import read_record
    from crewkit.engine.registry import known_action_types
    from crewkit.spec.errors import render_issue
    from crewkit.spec.loader import source_lines

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"{args.file}: no such file")
    read = read_record(path, known_action_types())  # the reader `crewkit validate` uses too

    def report_issues() -> None:
        lines = source_lines(path)
        for issue in read.issues:
            print(render_issue(issue, lines), file=sys.stderr)

    if read.replay is None or read.family is None:
        report_issues()
        return EXIT_INVALID
    for note in read.notes:  # a carried mission text that differs from the file here: which one is replayed
        print(f"crewkit replay: note: {note}", file=sys.stderr)
    # the record's family tells the game in its words, as far as its actions were applied
    if args.format == "json":
        data = read.family.replay_json(read.replay)
        if read.notes:
            data = {**data, "notes": list(read.notes)}
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(read.family.replay_text(read.replay))
    if read.issues:
        report_issues()
        return EXIT_INVALID
    return EXIT_OK
