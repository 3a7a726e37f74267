"""Where the bundled rule sets, missions and schemas live.

A built wheel maps the repo's ``rulesets/``, ``missions/`` and ``schemas/`` into ``crewkit/_data/`` (see
``pyproject.toml``); a source checkout or an editable install reads them from the repository root.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from pathlib import Path


@functools.cache
def data_root() -> Path:
    # files() of a regular (non-zip) package is a real directory path.
    package_dir = Path(str(files("crewkit")))
    bundled = package_dir / "_data"
    if (bundled / "schemas").is_dir():
        return bundled
    return package_dir.parent


def data_path(rel: str) -> Path:
    return data_root() / rel
