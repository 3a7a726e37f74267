"""Not Alone at the terminal (:class:`crewkit.tui.family.FamilyTUI`): a game of its own in a
:class:`HuntSession` at the :class:`HuntTableScreen`; the shell asks for them here, never imports them."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from crewkit.errors import UsageError
from crewkit.families.not_alone.tui.session import HuntSession, seat_kinds

if TYPE_CHECKING:
    from crewkit.families.not_alone.tui.table import HuntTableScreen
    from crewkit.tui.family import GameSession, MissionStart
    from crewkit.tui.options import PlayOptions
    from crewkit.tui.services import Services


class NotAloneTUI:
    def session(self, ruleset: str, options: PlayOptions, services: Services) -> HuntSession:
        players = options.players if options.players is not None else (len(options.seats) if options.seats else 4)
        kinds = seat_kinds(players, options.side, options.seats, options.bot)
        return HuntSession(ruleset, players, kinds, options.seed or secrets.token_hex(4),
                           readings=dict(options.readings), services=services, base_seed=options.seed)

    def mission_session(self, start: MissionStart, services: Services) -> GameSession:
        raise UsageError(f"rule set {start.ruleset!r} is a game of its own: it plays no mission")

    def make_bot(self, name: str, seat: int, seed: str) -> Any:
        raise UsageError("a Not Alone table seats its own bots")

    def table(self, session: GameSession, delay: float) -> HuntTableScreen:
        from crewkit.families.not_alone.tui.table import HuntTableScreen

        assert isinstance(session, HuntSession)
        return HuntTableScreen(session, delay=delay)


TERMINAL = NotAloneTUI()
