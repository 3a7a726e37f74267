"""Where crewkit keeps its per-user data (the campaign logbook, in-progress saves, game records).

``$CREWKIT_HOME`` wins when set (tests and CI always set it to a temporary directory); otherwise the
platform's user data directory, as :mod:`platformdirs` names it: ``$XDG_DATA_HOME/crewkit`` or
``~/.local/share/crewkit`` on Linux, ``~/Library/Application Support/crewkit`` on macOS,
``%APPDATA%\\crewkit`` on Windows (the roaming profile: the logbook follows the user, and stays where
earlier versions kept it).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from crewkit.errors import DataFolderError
from crewkit.usercache import folder_problem

ENV_VAR = "CREWKIT_HOME"
APP_NAME = "crewkit"


def user_data_dir() -> Path:
    """The platform's per-user data directory for crewkit, ignoring ``$CREWKIT_HOME``. Creates nothing."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False, roaming=True)


def crewkit_home(*, create: bool = True) -> Path:
    """crewkit's data directory: ``$CREWKIT_HOME`` if set and non-empty, else :func:`user_data_dir`.

    The directory (and its parents) is created on demand unless ``create`` is false. Raises
    :class:`~crewkit.errors.DataFolderError` saying what is wrong when a file or a device stands where the
    folder should be, or it cannot be created; never an empty logbook read from ``/dev/null``.
    """
    home = _home_path()
    check_home(home)
    if create:
        try:
            home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataFolderError(f"{_named(home)} cannot be created: {exc.strerror or exc}{_fix()}") from None
    return home


def check_home(home: Path | None = None) -> Path:
    """The data folder (``home``, else where :func:`crewkit_home` puts it), if it is a folder or can be one;
    else :class:`~crewkit.errors.DataFolderError` (exit 1) naming it and what is wrong. Creates nothing: the
    commands call it before they start (``play`` before the app opens)."""
    home = _home_path() if home is None else home
    problem = folder_problem(home)
    if problem is not None:
        raise DataFolderError(f"{_named(home)} {problem}{_fix()}")
    return home


def _home_path() -> Path:
    override = os.environ.get(ENV_VAR)
    return Path(override).expanduser() if override else user_data_dir()


def _named(home: Path) -> str:
    override = os.environ.get(ENV_VAR)
    if override and Path(override).expanduser() == home:
        return f"crewkit's data folder ({ENV_VAR}={override})"
    return f"crewkit's data folder {home}"


def _fix() -> str:
    if os.environ.get(ENV_VAR):
        return (f"; crewkit keeps the logbook, saves and records there: set {ENV_VAR} to a folder (created when "
                f"missing), or unset it to use {user_data_dir()}")
    return f"; crewkit keeps the logbook, saves and records there: move what is in the way, or set {ENV_VAR} to a folder"
