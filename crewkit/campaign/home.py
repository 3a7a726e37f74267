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

ENV_VAR = "CREWKIT_HOME"
APP_NAME = "crewkit"


def user_data_dir() -> Path:
    """The platform's per-user data directory for crewkit, ignoring ``$CREWKIT_HOME``. Creates nothing."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False, roaming=True)


def crewkit_home(*, create: bool = True) -> Path:
    """crewkit's data directory: ``$CREWKIT_HOME`` if set and non-empty, else :func:`user_data_dir`.

    The directory (and its parents) is created on demand unless ``create`` is false.
    """
    override = os.environ.get(ENV_VAR)
    home = Path(override).expanduser() if override else user_data_dir()
    if create:
        home.mkdir(parents=True, exist_ok=True)
    return home
