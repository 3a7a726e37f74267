"""Wheel build hook: compile the C parts into the wheel: the solver's search
(crewkit/families/trick_taking/solve/_native.c), the fast bot's look-ahead
(crewkit/families/trick_taking/bots/_fastsim.c) and the round review's adversarial search
(crewkit/families/trick_taking/solve/_adversarial.c).

The library is a plain shared object loaded through ctypes (no Python headers). When no C compiler is
found the wheel is built without it: crewkit then compiles it on first use into the user's cache, or
searches in Python (same answers, slower). ``CREWKIT_NATIVE=0`` skips the compilation here too.
Editable installs skip it (the checkout's source is compiled on first use).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _platform_tag() -> str:
    """This machine's platform tag, as hatchling infers it (``linux_x86_64``, ``macosx_14_0_arm64``, ...).

    A plain ``linux_*`` tag, not ``manylinux``: the library is compiled here and not audited for the
    manylinux policy."""
    from packaging import tags

    return next(t.platform for t in tags.sys_tags() if "manylinux" not in t.platform and "musllinux" not in t.platform)


class NativeSearchBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._tmp: str | None = None
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("CREWKIT_NATIVE", "1").strip().lower() in ("0", "no", "off", "false"):
            return
        suffix = sysconfig.get_config_var("SHLIB_SUFFIX") or ".so"
        self._tmp = tempfile.mkdtemp(prefix="crewkit-native-")
        cc = os.environ.get("CC") or "cc"
        # (source, library name in the wheel, what it is): the solver's C search and the fast bot's look-ahead
        for package, stem, what in (("crewkit/families/trick_taking/solve", "_native", "the solver's C search"),
                                    ("crewkit/families/trick_taking/bots", "_fastsim", "the fast bot's C look-ahead"),
                                    ("crewkit/families/trick_taking/solve", "_adversarial",
                                     "the round review's C search")):
            source = Path(self.root) / package / f"{stem}.c"
            target = Path(self._tmp) / f"{stem}_lib{suffix}"
            command = [*shlex.split(cc), "-O3", "-std=c99", "-D_POSIX_C_SOURCE=199309L", "-shared", "-fPIC",
                       "-o", str(target), str(source)]
            try:
                proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
            except (OSError, subprocess.SubprocessError) as exc:
                self.app.display_warning(f"crewkit: {what} was not compiled ({exc}); "
                                         "it will be compiled on first use, or Python is used")
                continue
            if proc.returncode != 0 or not target.exists():
                self.app.display_warning(f"crewkit: {what} did not compile; it will be compiled on "
                                         f"first use, or Python is used:\n{proc.stderr.strip()[:2000]}")
                continue
            build_data["force_include"][str(target)] = f"{package}/{stem}_lib{suffix}"
            build_data["pure_python"] = False
            # the libraries are loaded through ctypes and never touch the Python ABI: any Python 3, this platform
            build_data["tag"] = f"py3-none-{_platform_tag()}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_tmp", None):
            shutil.rmtree(self._tmp, ignore_errors=True)
