"""A C library crewkit compiles from its own source and loads through ctypes: one loader for every such library.

The solver's trick search (``crewkit/families/trick_taking/solve/_native.c``,
:mod:`crewkit.families.trick_taking.solve.native`) and the fast bot's look-ahead
(``crewkit/families/trick_taking/bots/_fastsim.c``, :mod:`crewkit.families.trick_taking.bots.fastnative`) are
each a :class:`NativeLibrary` with its own source file, cache name and ABI check. Where a library comes from,
first found wins:

1. a library built into the installed package next to its source (``<stem>_lib<suffix>``, by the wheel's
   build hook ``hatch_build.py``);
2. a library compiled earlier into the user's private cache folder (:mod:`crewkit.usercache`), named by the
   hash of the source and the platform, so an edited source is compiled anew;
3. compiling the source now with the system C compiler (``$CC``, else ``cc``; about half a second, once).

A shared library runs code the moment it is loaded, so a cached one is loaded only from a folder that is the
user's own and when the file is a regular file of the user's that nobody else may write; anything else there
is removed and compiled anew. A compilation writes into a temporary folder beside the target and renames the
result into place, so a half-written library is never loaded. Every library found must answer its ABI
function with the number its Python side expects; a cached library that does not is compiled again once.
If none works the caller runs its Python code (same answers, slower); ``CREWKIT_NATIVE=0`` switches C off.

A caller that must answer at once (the review's first answer) loads within :func:`without_waiting`: a library
that must be compiled first is compiled in a background thread, and the caller runs its Python code meanwhile.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import hashlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from crewkit.usercache import discard, private_cache_dir, safe_cached_file

OFF_VALUES = ("0", "no", "off", "false")


# False within without_waiting (per thread: a new thread starts with the default)
_WAIT = contextvars.ContextVar("crewkit_native_wait", default=True)


@contextlib.contextmanager
def without_waiting() -> Iterator[None]:
    """Within it, :meth:`NativeLibrary.load` never waits for a compilation: a library built with the package or
    cached is loaded as usual (milliseconds), one that must be compiled first is compiled in a background thread
    and ``load`` answers None meanwhile (the caller runs its Python code; a later ``load`` gets the library)."""
    token = _WAIT.set(False)
    try:
        yield
    finally:
        _WAIT.reset(token)


def native_enabled() -> bool:
    """False when ``CREWKIT_NATIVE`` switches the C libraries off."""
    return os.environ.get("CREWKIT_NATIVE", "1").strip().lower() not in OFF_VALUES


def shlib_suffix() -> str:
    """The platform's file suffix of a shared library (``.so``, ``.dylib``, ``.dll``)."""
    return sysconfig.get_config_var("SHLIB_SUFFIX") or (".dll" if sys.platform.startswith("win") else ".so")


def compiler_command(source: Path, target: Path) -> list[str]:
    """The command that compiles ``source`` into the shared library ``target`` (as the wheel's build hook does)."""
    cc = os.environ.get("CC") or "cc"
    return [
        *shlex.split(cc),
        "-O3",
        "-std=c99",
        "-D_POSIX_C_SOURCE=199309L",
        "-shared",
        "-fPIC",
        "-o",
        str(target),
        str(source),
    ]


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"[ \t]*$')


def _expand(path: Path, seen: set[Path]) -> bytes:
    """``path`` with each of its ``#include "file"`` lines replaced by that file, expanded the same way (once)."""
    out: list[bytes] = []
    for line in path.read_bytes().splitlines(keepends=True):
        m = _INCLUDE.match(line.rstrip(b"\r\n"))
        if m is None:
            out.append(line)
            continue
        header = (path.parent / m.group(1).decode()).resolve()
        if header not in seen:
            seen.add(header)
            out.append(_expand(header, seen))
            out.append(b"\n")
    return b"".join(out)


class NativeLibrary:
    """One C library: its source ``<folder>/<stem>.c``, a library built with the package ``<stem>_lib*``, cached
    copies ``<cache_name>-<hash><suffix>``; ``abi_symbol()`` must return ``abi``, then ``declare(lib)`` sets the
    argument and result types of its functions. Loaded once per process (:meth:`load`)."""

    def __init__(
        self,
        folder: Path,
        stem: str,
        cache_name: str,
        abi_symbol: str,
        abi: int,
        declare: Callable[[ctypes.CDLL], None],
    ) -> None:
        self.folder = folder
        self.stem = stem
        self.cache_name = cache_name
        self.abi_symbol = abi_symbol
        self.abi = abi
        self._declare = declare
        self._lib: ctypes.CDLL | None = None
        self._status = "not loaded yet"
        self._tried = False
        self._lock = threading.Lock()  # held while the library is looked for, loaded or compiled
        self._builder: threading.Thread | None = None  # the background compilation (without_waiting)
        self._builder_lock = threading.Lock()

    def source(self) -> bytes:
        """The source with its local headers (``#include "file"``, relative to the including file) written in
        place: the compiler reads it from a temporary folder, and the cache name hashes what is compiled."""
        return _expand(self.folder / f"{self.stem}.c", set())

    def library_name(self, source: bytes) -> str:
        """The cached library's file name: the source's hash with the platform's, so an edit compiles anew."""
        platform = sys.platform.encode() + sysconfig.get_platform().encode()
        tag = hashlib.sha256(source + platform).hexdigest()[:16]
        return f"{self.cache_name}-{tag}{shlib_suffix()}"

    def compile(self, target: Path) -> None:
        """Compile the source into ``target`` (atomically: a half-written library is never loaded)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            src = Path(tmp) / f"{self.stem}.c"
            src.write_bytes(self.source())
            out = Path(tmp) / target.name
            proc = subprocess.run(compiler_command(src, out), capture_output=True, text=True, timeout=120)
            if proc.returncode != 0 or not out.exists():
                raise OSError(f"the C compiler failed: {(proc.stderr or proc.stdout).strip()[:500]}")
            os.replace(out, target)

    def open(self, path: Path | str) -> ctypes.CDLL:
        """Load ``path`` and check its ABI number (OSError when it is not this library's version)."""
        lib = ctypes.CDLL(str(path))
        try:
            abi = getattr(lib, self.abi_symbol)
        except AttributeError:
            raise OSError(f"{path} is not crewkit's {self.stem} library (no {self.abi_symbol})") from None
        abi.restype = ctypes.c_int
        if abi() != self.abi:
            raise OSError(f"{path} is built for another version of crewkit")
        self._declare(lib)
        return lib

    @property
    def ready(self) -> bool:
        """Whether the library was looked for (loaded, or known to be missing): :meth:`load` answers at once."""
        return self._tried

    def load(self) -> ctypes.CDLL | None:
        """The library, or None (then :meth:`status` says why). Tried once; within :func:`without_waiting`,
        None at once while it must be compiled (in a background thread, see :meth:`build_in_background`)."""
        if self._tried:
            return self._lib
        if not _WAIT.get():
            return self._load_at_once()
        with self._lock:
            if not self._tried:
                found = self._find(build=True)
                assert found is not None
                self._lib, self._status = found
                self._tried = True
        return self._lib

    def _load_at_once(self) -> ctypes.CDLL | None:
        if not self._lock.acquire(blocking=False):
            return None  # another thread is compiling it
        try:
            if self._tried:
                return self._lib
            found = self._find(build=False)
            if found is not None:
                self._lib, self._status = found
                self._tried = True
                return self._lib
        finally:
            self._lock.release()
        self.build_in_background()
        return None

    def build_in_background(self) -> threading.Thread | None:
        """Load the library in a daemon thread (compiling it if need be), once: the thread (join it to wait),
        None when the library was already looked for."""
        with self._builder_lock:
            if self._tried:
                return None
            if self._builder is None:
                self._status = "Python for now (the C library is being compiled in the background)"
                self._builder = threading.Thread(target=self.load, name=f"crewkit {self.stem} build", daemon=True)
                self._builder.start()
            return self._builder

    def _find(self, build: bool) -> tuple[ctypes.CDLL | None, str] | None:
        """(the library or None, the status); None when ``build`` is False and it must be compiled first."""
        if not native_enabled():
            return None, "off (CREWKIT_NATIVE=0)"
        problems: list[str] = []
        for built in self._packaged():
            try:
                return self.open(built), f"C (built with the package: {built.name})"
            except OSError as exc:
                problems.append(str(exc))
        try:
            return self._from_cache(build)
        except (OSError, subprocess.SubprocessError) as exc:
            problems.append(str(exc))
        return None, "Python (no C library: " + "; ".join(problems) + ")"

    def _packaged(self) -> list[Path]:
        """Libraries built into the installed package (the wheel's build hook)."""
        return sorted(self.folder.glob(f"{self.stem}_lib*{shlib_suffix()}"))

    def _from_cache(self, build: bool = True) -> tuple[ctypes.CDLL, str] | None:
        source = self.source()
        folder = private_cache_dir()
        # a library there would be loaded as code: only from a folder that is the user's own
        if folder is None:
            raise OSError("the cache folder is missing, not the user's own or writable by others")
        target = folder / self.library_name(source)
        how = "cached"
        # absent, a link, someone else's or writable by others: build our own
        if not safe_cached_file(target):
            if not build:
                return None
            discard(target)
            self.compile(target)
            how = "compiled now"
        try:
            lib = self.open(target)
        except OSError:
            if how != "cached":
                raise
            if not build:
                return None
            self.compile(target)  # a damaged or outdated cached library: build it again once
            how = "compiled again"
            # a library that loaded but failed the ABI check stays loaded, and the dynamic loader hands back its
            # handle for the same path: the new file (a new inode, renamed into place) is opened through another
            # spelling of its path (a string: pathlib would fold the "." away)
            lib = self.open(f"{target.parent}{os.sep}.{os.sep}{target.name}")
        return lib, f"C ({how}: {target})"

    def status(self) -> str:
        """Which code runs: "C (...)" or "Python (...)" (or "off (...)"), with the reason."""
        self.load()
        return self._status
