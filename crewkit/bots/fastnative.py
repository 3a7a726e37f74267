"""The fast bot's C look-ahead (``_fastsim.c``), loaded through ctypes like the solver's C search.

Where the library comes from, first found wins: a library built into the installed package
(``crewkit/bots/_fastsim_lib*``, by the wheel's build hook), a library compiled earlier into the user's
private cache (named by the source's hash), or compiling ``_fastsim.c`` now with the system C compiler
(``$CC``, else ``cc``). If none works the fast bot decides in Python (:mod:`crewkit.bots.fast`): the same
games, slower. ``CREWKIT_NATIVE=0`` switches C off for the bots too; :func:`status` says which is in use.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import sys
import sysconfig
import tempfile
from importlib import resources
from pathlib import Path

from crewkit.solve.native import compiler_command
from crewkit.usercache import discard, private_cache_dir, safe_cached_file

ABI = 1

_lib: ctypes.CDLL | None = None
_status = "not loaded yet"
_tried = False


def _suffix() -> str:
    return sysconfig.get_config_var("SHLIB_SUFFIX") or (".dll" if sys.platform.startswith("win") else ".so")


def _source() -> bytes:
    return resources.files("crewkit.bots").joinpath("_fastsim.c").read_bytes()


def library_name(source: bytes) -> str:
    tag = hashlib.sha256(source + sys.platform.encode() + sysconfig.get_platform().encode()).hexdigest()[:16]
    return f"crewkit-fastsim-{tag}{_suffix()}"


def compile_library(target: Path) -> None:
    """Compile ``_fastsim.c`` into ``target`` (atomically: a half-written library is never loaded)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        src = Path(tmp) / "_fastsim.c"
        src.write_bytes(_source())
        out = Path(tmp) / target.name
        proc = subprocess.run(compiler_command(src, out), capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not out.exists():
            raise OSError(f"the C compiler failed: {(proc.stderr or proc.stdout).strip()[:500]}")
        os.replace(out, target)


def _open(path: Path) -> ctypes.CDLL:
    lib = ctypes.CDLL(str(path))
    lib.fs_abi.restype = ctypes.c_int
    if lib.fs_abi() != ABI:
        raise OSError(f"{path} is built for another version of crewkit")
    lib.fs_new.restype = ctypes.c_void_p
    lib.fs_new.argtypes = [ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_free.restype = None
    lib.fs_free.argtypes = [ctypes.c_void_p]
    lib.fs_decide.restype = ctypes.c_int
    lib.fs_decide.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_ulonglong,
                              ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
    lib.fs_draft.restype = ctypes.c_int
    lib.fs_draft.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_ulonglong,
                             ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_rollout.restype = ctypes.c_int
    lib.fs_rollout.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong)]
    return lib


def load() -> ctypes.CDLL | None:
    """The C library, or None (then :func:`status` says why). Tried once per process."""
    global _lib, _status, _tried
    if _tried:
        return _lib
    _tried = True
    if os.environ.get("CREWKIT_NATIVE", "1").strip().lower() in ("0", "no", "off", "false"):
        _status = "off (CREWKIT_NATIVE=0)"
        return None
    problems: list[str] = []
    here = Path(__file__).resolve().parent
    for built in sorted(here.glob(f"_fastsim_lib*{_suffix()}")):
        try:
            _lib = _open(built)
            _status = f"C (built with the package: {built.name})"
            return _lib
        except OSError as exc:
            problems.append(str(exc))
    try:
        source = _source()
        folder = private_cache_dir()
        if folder is None:
            raise OSError("the cache folder is missing, not the user's own or writable by others")
        target = folder / library_name(source)
        how = "cached"
        if not safe_cached_file(target):
            discard(target)
            compile_library(target)
            how = "compiled now"
        try:
            _lib = _open(target)
        except OSError:
            if how != "cached":
                raise
            compile_library(target)
            how = "compiled again"
            _lib = _open(target)
        _status = f"C ({how}: {target})"
        return _lib
    except (OSError, subprocess.SubprocessError) as exc:
        problems.append(str(exc))
    _status = "Python (no C library: " + "; ".join(problems) + ")"
    return None


def status() -> str:
    """Which look-ahead the fast bot uses: "C (...)" or "Python (...)", with the reason."""
    load()
    return _status
