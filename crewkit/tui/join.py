"""Which table screen session a seat joined with ``crewkit join`` opens, by the game's family (the host's welcome
names it): :class:`~crewkit.tui.remote.RemoteSession` for the trick-taking games (The Crew and its variants,
Hammer, Mission Deep Sea), :class:`~crewkit.families.not_alone.tui.remote.RemoteHuntSession` for Not Alone."""

from __future__ import annotations

from collections.abc import Callable

from crewkit.families.not_alone.tui.remote import RemoteHuntSession, hunt_setup
from crewkit.net.client import TableClient
from crewkit.tui.remote import HostSeat, RemoteSession, remote_setup

__all__ = ["remote_session"]


def remote_session(client: TableClient) -> tuple[Callable[[], HostSeat] | None, str]:
    """How to open the table screen's session of a joined seat, from the host's welcome, by the game's family
    (The Crew and its variants, Hammer, Mission Deep Sea: :class:`RemoteSession`; Not Alone: its own; opened
    once the first ``state`` came), or None with why the plain client plays it."""
    family = client.welcome.get("family")
    if family == "not-alone":
        hunt, why = hunt_setup(client.welcome)
        return (None, why) if hunt is None else (lambda: RemoteHuntSession(client, *hunt), "")
    setup, why = remote_setup(client.welcome)
    return (None, why) if setup is None else (lambda: RemoteSession(client, setup), "")
