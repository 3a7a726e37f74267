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
    from crewkit.engine.registry import known_action_types
    from crewkit.games import record_family
    from crewkit.spec.errors import render_issue
    from crewkit.spec.loader import source_lines
    from crewkit.spec.recordfile import load_record_file

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"{args.file}: no such file")
    record, issues = load_record_file(path, known_action_types())
    if issues:
        lines = source_lines(path)
        for issue in issues:
            print(render_issue(issue, lines), file=sys.stderr)
        return EXIT_INVALID
    family = record_family(record)  # the record's family replays it and tells it in its words
    result = family.replay(record)
    if args.format == "json":
        print(json.dumps(family.replay_json(result), indent=2, ensure_ascii=False))
    else:
        print(family.replay_text(result))
    if result.error is not None:
        print(f"{path}: {result.error}", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK
