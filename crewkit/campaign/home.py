"""Where crewkit keeps its per-user data (the campaign logbook, in-progress saves).

``$CREWKIT_HOME`` wins when set (tests and CI always set it to a temporary directory); otherwise the
platform's user data directory is used:

* Linux and other POSIX systems: ``$XDG_DATA_HOME/crewkit``, else ``~/.local/share/crewkit``;
* macOS: ``~/Library/Application Support/crewkit``;
* Windows: ``%APPDATA%/crewkit`` (falling back to ``~/AppData/Roaming/crewkit``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ENV_VAR = "CREWKIT_HOME"
APP_NAME = "crewkit"


def user_data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The platform's per-user data directory for crewkit, ignoring ``$CREWKIT_HOME``. Creates nothing."""
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if plat.startswith("win"):
        appdata = env.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
        return base / APP_NAME
    if plat == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_NAME
    xdg = env.get("XDG_DATA_HOME")
    # The XDG spec says relative paths in $XDG_DATA_HOME are invalid and must be ignored.
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / APP_NAME
    return Path.home() / ".local" / "share" / APP_NAME


def crewkit_home(*, create: bool = True) -> Path:
    """crewkit's data directory: ``$CREWKIT_HOME`` if set and non-empty, else :func:`user_data_dir`.

    The directory (and its parents) is created on demand unless ``create`` is false.
    """
    override = os.environ.get(ENV_VAR)
    home = Path(override).expanduser() if override else user_data_dir()
    if create:
        home.mkdir(parents=True, exist_ok=True)
    return home
