"""A joined seat on the table screen (the same screen as ``crewkit play``), until it leaves or its table ends:
what ``crewkit join`` runs in a terminal and what a browser seat's process runs (:mod:`crewkit.net.web_seat`).
The one place that decides which games a seat can play on the table screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewkit.errors import CrewkitError

if TYPE_CHECKING:
    from crewkit.net.client import TableClient

__all__ = ["NoTableScreen", "run_table_app"]


class NoTableScreen(CrewkitError):
    """The table screen cannot draw this seat's game from its view (yet): ``why``, in words."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


async def run_table_app(client: TableClient) -> tuple[int, str | None, str | None]:
    """The seat on the table screen until it leaves or the table ends: (exit code, the fatal message or None,
    the note to say at the end or None); the client is closed at the end. :class:`NoTableScreen` (the client
    still open) for a game the screen cannot draw from one seat's view."""
    from crewkit.tui.join import remote_session
    from crewkit.tui.seat import SeatApp

    session, why = remote_session(client)
    if session is None:
        raise NoTableScreen(why)
    try:
        await client.until(lambda m: m["type"] == "state", timeout=15)
    except TimeoutError:
        await client.close()
        return 1, "the host sent no table within 15 seconds", None
    seat = session()
    app = SeatApp(seat)  # the table and nothing else: none of the shell's commands
    try:
        code = await app.run_async()
    finally:
        await seat.client.close()  # the connection now (joined again after a drop: not ``client``)
    return int(code or 0), app.fatal_message or None, app.exit_note or None
