"""The trick-taking family at the terminal (:class:`crewkit.tui.family.FamilyTUI`): a mission's attempt in a
:class:`~crewkit.families.trick_taking.tui.session.Session` at the
:class:`~crewkit.families.trick_taking.tui.table.TableScreen`; the shell asks for them here, never imports them.
Both are imported when a mission starts (a faster first screen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crewkit.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from crewkit.families.trick_taking.tui.review import ReviewScreen
    from crewkit.families.trick_taking.tui.session import Session
    from crewkit.families.trick_taking.tui.table import TableScreen
    from crewkit.games.protocol import GameInPlay
    from crewkit.net.client import TableClient
    from crewkit.tui.briefings import Table
    from crewkit.tui.family import GameSession, MissionStart
    from crewkit.tui.options import PlayOptions
    from crewkit.tui.remote import HostSeat
    from crewkit.tui.services import Services


class TrickTakingTUI:
    def session(self, ruleset: str, options: PlayOptions, services: Services) -> GameSession:
        raise UsageError(f"rule set {ruleset!r} plays missions: give --mission or --campaign")

    def mission_session(self, start: MissionStart, services: Services) -> Session:
        from crewkit.families.trick_taking.tui.session import Session

        return Session(services, mission=start.mission, ruleset=start.ruleset, players=start.players,
                       kinds=start.kinds, campaign=start.campaign, base_seed=start.base_seed,
                       readings=start.readings, ref=start.ref, version=start.version, title=start.title,
                       practice=start.practice, hints=start.hints)

    def remote_session(self, client: TableClient) -> tuple[Callable[[], HostSeat] | None, str]:
        from crewkit.families.trick_taking.tui.remote import RemoteSession, remote_setup

        setup, why = remote_setup(client.welcome)
        return (None, why) if setup is None else (lambda: RemoteSession(client, setup), "")

    def log_words(self, welcome: dict[str, Any]) -> Callable[[list[str], list[str], int], list[str]] | None:
        from crewkit.families.trick_taking.tui.remote import plain_log_words

        return plain_log_words(welcome)

    def briefing_lines(self, rs: Any, spec: Any, kinds: Sequence[str], **where: Any) -> list[str]:
        from crewkit.families.trick_taking.tui.mission_words import briefing_lines

        return briefing_lines(rs, spec, kinds, **where)

    def mission_words(self, table: Table) -> list[str]:
        from crewkit.families.trick_taking.tui.briefings import mission_words

        return mission_words(table)

    def docs_sections(self) -> list[str]:
        from crewkit.families.trick_taking.tui.briefings import docs_sections

        return docs_sections()

    def palette_entries(self, table: Any) -> list[tuple[str, str, str]]:
        """The table's commands in the shell's command palette: (title, what it does, the table's action)."""
        signal = table is not None and table.session.game is not None and getattr(table.session, "signal_rules", None)
        return [("Play", "Play the selected card of your hand", "play_selected"),
                ("Communicate", "Show one card: highest, lowest or only of its colour", "communicate"),
                *([("Signal", "Show one card of your hand during a trick", "signal")] if signal else []),
                ("Hint", "What the expert bot would play, and why", "hint"),
                ("Card tracker", "Cards played per suit, trumps out, the voids shown", "tracker"),
                ("Take back", "Take back your last card (practice games only)", "take_back"),
                ("Distress signal", "Everyone passes one card to the same neighbour", "distress"),
                ("Last trick", "Look at the last trick again", "last_trick")]

    def help_text(self, remote: bool) -> str:
        from crewkit.families.trick_taking.tui.help_text import help_text

        return help_text(remote)

    def make_bot(self, name: str, seat: int, seed: str) -> Any:
        from crewkit.families.trick_taking.bots import make_bot

        return make_bot(name, seat, seed)

    def review_screen(self, game: GameInPlay) -> ReviewScreen:
        """The review screen of a finished game (the logbook's attempts), its seats named as ``crewkit review``
        names them (Player 1, ..., JARVIS)."""
        from crewkit.families.trick_taking.review import match_of_game, seat_names
        from crewkit.families.trick_taking.tui.review import MatchReviewScreen, ReviewScreen

        screen = MatchReviewScreen if match_of_game(game.engine) else ReviewScreen
        return screen(game.engine, seat_names(game.engine))

    def table(self, session: GameSession | HostSeat, delay: float) -> TableScreen:
        from crewkit.families.trick_taking.tui.remote import RemoteSession
        from crewkit.families.trick_taking.tui.session import Session
        from crewkit.families.trick_taking.tui.table import TableScreen

        assert isinstance(session, Session | RemoteSession)
        return TableScreen(session, delay=delay)


TERMINAL = TrickTakingTUI()
