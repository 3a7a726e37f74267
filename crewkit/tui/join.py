"""Which table screen session a seat joined with ``crewkit join`` opens: the one the family of the host's game
(its welcome names it) answers through its terminal face (:meth:`crewkit.tui.family.FamilyTUI.remote_session`);
no family is named here."""

from __future__ import annotations

from collections.abc import Callable

from crewkit.net.client import TableClient
from crewkit.tui.remote import HostSeat

__all__ = ["remote_session"]


def remote_session(client: TableClient) -> tuple[Callable[[], HostSeat] | None, str]:
    """How to open the table screen's session of a joined seat, from the host's welcome, by the game's family
    (opened once the first ``state`` came), or None with why the plain client plays it."""
    from crewkit.errors import CrewkitError
    from crewkit.games import TRICK_TAKING, family_named
    from crewkit.tui.family import terminal_of

    welcome = client.welcome
    try:
        face = terminal_of(family_named(str(welcome.get("family") or TRICK_TAKING)))
    except CrewkitError:  # a family this crewkit does not have, or one with no table at the terminal
        return None, f"the Textual table of a hosted {welcome.get('title') or 'game'} is not built yet"
    return face.remote_session(client)
