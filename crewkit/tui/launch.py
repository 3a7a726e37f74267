"""Entry point for ``crewkit play``: options in, exit status out. Textual is imported only when playing."""

from __future__ import annotations

from crewkit.tui.options import DEFAULT_CAMPAIGN, DEFAULT_DELAY, PlayOptions, parse_seats

__all__ = ["DEFAULT_CAMPAIGN", "DEFAULT_DELAY", "PlayOptions", "parse_seats", "run_play"]


def run_play(options: PlayOptions) -> int:
    """Run the terminal UI until the user quits; the exit status for the CLI."""
    if options.players is not None and options.players < 1:
        print("crewkit play: --players must be at least 1")
        return 2
    from crewkit.tui.app import CrewApp

    app = CrewApp(options)
    result = app.run()
    if app.fatal_message:
        import sys

        print(f"crewkit play: {app.fatal_message}", file=sys.stderr)
    return int(result or 0)
