"""The process behind one browser seat: ``crewkit join`` for the seat whose web page is open, drawn in the page.

:mod:`crewkit.net.web` starts one per browser connection (``python -m crewkit.net.web_seat``, never through a
shell) once the host has accepted the browser's invite code, with Textual's web driver, so the page shows the
very same table screen as ``crewkit join`` in a terminal. The join link comes in the environment, not on the
command line (another user of the machine could read a command line); the process removes it from its
environment first thing. The process runs as the host's user but is a guest's seat: it gets a private, throw-away
home (:func:`private_home`: crewkit's data and cache folders, ``HOME``, the XDG folders and its working folder in a
new temporary folder, deleted when it ends), so nothing it does lands in the host's data or working folder (and
the seat's app, :class:`crewkit.tui.seat.SeatApp`, writes nothing anyway). What the seat's end has to say (the host refused it, the table cannot be drawn here,
the game's last word) is written to the note pipe the web server reads, and shown in the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import ssl
import stat
import tempfile
from collections.abc import Iterator

LINK_ENV = "CREWKIT_WEB_SEAT_LINK"  # the seat's join link (ws://127.0.0.1:PORT/TABLE#CODE)
CAFILE_ENV = "CREWKIT_WEB_SEAT_CAFILE"  # the host's own certificate, for its wss:// on this machine
NOTE_ENV = "CREWKIT_WEB_SEAT_NOTE_FD"  # the pipe the seat's last word goes to
# the private home the web server made for the process: the server deletes it once the process has ended, so a
# process killed before its own clean-up leaves nothing behind
HOME_ENV = "CREWKIT_WEB_SEAT_HOME"
MAX_NOTE = 2000
# where a process of the host's user would keep things, each set to a folder of the seat's private home
PRIVATE_FOLDERS = {"CREWKIT_HOME": "data/crewkit", "CREWKIT_CACHE": "cache/crewkit", "HOME": ".",
                   "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache",
                   "XDG_STATE_HOME": "state"}


def new_home() -> str:
    """A new, empty private folder (mode 0700) for one seat process."""
    return tempfile.mkdtemp(prefix="crewkit-seat-")


def _usable_home(folder: str) -> bool:
    """``folder`` is a private, empty folder of this user (what :func:`new_home` made), not a path planted
    by anyone else."""
    try:
        info = os.lstat(folder)
        return (os.path.isabs(folder) and stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
                and stat.S_IMODE(info.st_mode) == 0o700 and not os.listdir(folder))
    except OSError:
        return False


@contextlib.contextmanager
def private_home(given: str | None = None) -> Iterator[str]:
    """A private folder as the process's home, data, cache and working folder, deleted at the end: the host
    user's own folders are never this process's. ``given``: the one the web server made (:data:`HOME_ENV`),
    used when it is a private, empty folder of this user; otherwise a new one."""
    folder = given if given and _usable_home(given) else new_home()
    try:
        for name, sub in PRIVATE_FOLDERS.items():
            os.environ[name] = os.path.normpath(os.path.join(folder, sub))
        os.chdir(folder)
        yield folder
    finally:
        with contextlib.suppress(OSError):
            os.chdir(tempfile.gettempdir())  # out of the folder before it goes
        shutil.rmtree(folder, ignore_errors=True)


def pinned_context(certfile: str) -> ssl.SSLContext:
    """TLS to the host's own port on this machine: its certificate (pinned: the only one trusted) is checked, its
    host name is not (a certificate for ``game.example.org`` is served on 127.0.0.1 here)."""
    context = ssl.create_default_context(cafile=certfile)
    context.check_hostname = False
    context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # a CA-issued leaf is its own anchor here
    return context


async def _seat(link: str, context: ssl.SSLContext | None) -> tuple[int, str | None]:
    from crewkit.net.client import TableClient
    from crewkit.net.table_app import NoTableScreen, run_table_app

    client = await TableClient.connect(link, None, ssl_context=context)
    try:
        code, fatal, note = await run_table_app(client)
    except NoTableScreen as exc:
        await client.close()
        return 1, (f"{exc.why}: this seat is played in a terminal for now (`crewkit join` with the same "
                   "invite code; or the person who hosts hands it to a bot: `bot NAME` on the host's console)")
    note = fatal or note
    return code, note.removeprefix("crewkit: ") if note else None  # the page is crewkit's: no need to say so


def main() -> int:
    from crewkit.errors import CrewkitError

    link = os.environ.pop(LINK_ENV, "")
    cafile = os.environ.pop(CAFILE_ENV, "") or None
    note_fd = int(os.environ.pop(NOTE_ENV, "-1") or "-1")
    home = os.environ.pop(HOME_ENV, "") or None
    context = pinned_context(cafile) if cafile else None  # read before the working folder changes
    note: str | None
    with private_home(home):
        try:
            code, note = asyncio.run(_seat(link, context))
        except CrewkitError as exc:  # the host refused the seat (taken meanwhile) or is gone
            code, note = 1, getattr(exc, "message", None) or str(exc)
        except KeyboardInterrupt:
            code, note = 130, None
    if note_fd >= 0:
        with contextlib.suppress(OSError):
            os.write(note_fd, note.encode("utf-8")[:MAX_NOTE] if note else b"")
            os.close(note_fd)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
