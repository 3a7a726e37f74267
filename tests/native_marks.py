"""When a test of the C libraries may be skipped: only on a machine without a C compiler (and no library built
with the package), or where ``CREWKIT_NATIVE`` switches C off. A compiler that is there but fails to build
the library is a failure, not a skip."""

from __future__ import annotations

import os
import shlex
import shutil
from typing import Any, Protocol

import pytest

from crewkit.nativelib import native_enabled


class _Library(Protocol):
    def load(self) -> Any: ...


def c_compiler() -> str | None:
    words = shlex.split(os.environ.get("CC") or "cc")
    return shutil.which(words[0]) if words else None


def needs_c(library: _Library) -> pytest.MarkDecorator:
    if not native_enabled():
        return pytest.mark.skip(reason="CREWKIT_NATIVE switches the C libraries off")
    # a library shipped in the wheel loads without a compiler; otherwise no compiler is the one reason to skip
    missing = c_compiler() is None and library.load() is None
    return pytest.mark.skipif(missing, reason="no C compiler ($CC or cc) on this machine")
