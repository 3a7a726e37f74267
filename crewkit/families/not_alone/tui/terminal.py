"""Not Alone at the terminal (:class:`crewkit.tui.family.FamilyTUI`): a game of its own in a
:class:`HuntSession` at the :class:`HuntTableScreen`; the shell asks for them here, never imports them."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from crewkit.errors import UsageError
from crewkit.families.not_alone.tui.session import HuntSession, seat_kinds

if TYPE_CHECKING:
    from collections.abc import Callable

    from crewkit.families.not_alone.tui.table import HuntTableScreen
    from crewkit.net.client import TableClient
    from crewkit.tui.family import GameSession, MissionStart
    from crewkit.tui.options import PlayOptions
    from crewkit.tui.remote import HostSeat
    from crewkit.tui.services import Services


class NotAloneTUI:
    def session(self, ruleset: str, options: PlayOptions, services: Services) -> HuntSession:
        players = options.players if options.players is not None else (len(options.seats) if options.seats else 4)
        kinds = seat_kinds(players, options.side, options.seats, options.bot)
        return HuntSession(ruleset, players, kinds, options.seed or secrets.token_hex(4),
                           readings=dict(options.readings), services=services, base_seed=options.seed)

    def mission_session(self, start: MissionStart, services: Services) -> GameSession:
        raise UsageError(f"rule set {start.ruleset!r} is a game of its own: it plays no mission")

    def remote_session(self, client: TableClient) -> tuple[Callable[[], HostSeat] | None, str]:
        from crewkit.families.not_alone.tui.remote import RemoteHuntSession, hunt_setup

        hunt, why = hunt_setup(client.welcome)
        return (None, why) if hunt is None else (lambda: RemoteHuntSession(client, *hunt), "")

    def make_bot(self, name: str, seat: int, seed: str) -> Any:
        raise UsageError("a Not Alone table seats its own bots")

    def docs_sections(self) -> list[str]:
        from crewkit.families.not_alone.tui.docs_words import docs_sections

        return docs_sections()

    def help_text(self, remote: bool) -> str:
        from crewkit.families.not_alone.tui.end import HELP

        return HELP

    def table(self, session: GameSession | HostSeat, delay: float) -> HuntTableScreen:
        from crewkit.families.not_alone.tui.remote import RemoteHuntSession
        from crewkit.families.not_alone.tui.table import HuntTableScreen

        assert isinstance(session, HuntSession | RemoteHuntSession)
        return HuntTableScreen(session, delay=delay)


TERMINAL = NotAloneTUI()
