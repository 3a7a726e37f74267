"""Entry point for ``crewkit play``: options in, exit status out. Textual is imported only when playing."""

from __future__ import annotations

from crewkit.tui.options import DEFAULT_CAMPAIGN, DEFAULT_DELAY, PlayOptions, parse_seats

__all__ = ["DEFAULT_CAMPAIGN", "DEFAULT_DELAY", "PlayOptions", "parse_seats", "run_play"]


def check_play_options(options: PlayOptions) -> None:
    """Refuse, before the app opens, what it could not play (exit 1 through the CLI, like ``simulate``): a
    player count the rule set does not allow, an unknown mission, a mission the rule set does not play.
    Raises the loader's or the engine's error, which names what was expected."""
    from crewkit.games import family_for
    from crewkit.tui.app import CrewApp
    from crewkit.tui.catalog import mission_set_of
    from crewkit.tui.services import FileSaves, MemoryLogbook, Services, default_home

    # the app's own choice of rule set per mission (one implementation); nothing is opened or written
    app = CrewApp(options, services=Services(bot_factory=None, logbook=MemoryLogbook(), saves=FileSaves(default_home)))
    if options.ruleset and app.plays_alone(options.ruleset):
        app.game_session(options.ruleset)  # raises what the table could not seat (players, seats, bot, readings)
        return
    mission = options.mission
    if mission is None and options.ruleset:
        mission = mission_set_of(options.ruleset)  # Hammer, Persian: the rule set's own mission cards
    if mission is None:
        mission = app.campaign.missions[0] if app.campaign.missions else None
    if mission is None:
        return
    start = app.mission_start(mission)
    family_for(start.ruleset).mission_specs(start.ruleset, start.ref, start.players, start.readings)


def run_play(options: PlayOptions) -> int:
    """Run the terminal UI until the user quits; the exit status for the CLI."""
    if options.players is not None and options.players < 1:
        print("crewkit play: --players must be at least 1")
        return 2
    from crewkit.tui.app import CrewApp

    app = CrewApp(options)
    result = app.run()
    # printed once the app has closed, to a terminal without its escaping stream: file names, a condition, a
    # record's path are written out as every command writes them (crewkit.safetext)
    from crewkit.safetext import escape_controls

    if app.exit_note:
        print(escape_controls(app.exit_note))
    if app.fatal_message:
        import sys

        print(f"crewkit play: {escape_controls(app.fatal_message)}", file=sys.stderr)
    return int(result or 0)
