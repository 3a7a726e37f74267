"""A joined seat on the table screen (the same screen as ``crewkit play``), until it leaves or its table ends:
what ``crewkit join`` runs in a terminal and what a browser seat's process runs (:mod:`crewkit.net.web_seat`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crewkit.net.client import TableClient
    from crewkit.tui.remote import JoinSetup

__all__ = ["run_table_app"]


async def run_table_app(client: TableClient, setup: JoinSetup) -> tuple[int, str | None, str | None]:
    """A joined seat on the table screen until it leaves or the table ends: (exit code, the fatal message or
    None, the note to say at the end or None). The terminal's ``crewkit join`` and a browser seat
    (:mod:`crewkit.net.web_seat`) run it; the client is closed at the end."""
    from crewkit.tui.app import CrewApp
    from crewkit.tui.remote import RemoteSession

    try:
        await client.until(lambda m: m["type"] == "state", timeout=15)
    except TimeoutError:
        await client.close()
        return 1, "the host sent no table within 15 seconds", None
    app = CrewApp(remote=RemoteSession(client, setup))
    try:
        code = await app.run_async()
    finally:
        await client.close()
    return int(code or 0), app.fatal_message or None, app.exit_note or None
