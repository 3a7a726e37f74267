"""The fast bot's C look-ahead (``_fastsim.c``), loaded through ctypes like the solver's C search.

The library is found, compiled and checked by :class:`crewkit.nativelib.NativeLibrary` (first found wins: a
library built into the installed package, ``crewkit/families/trick_taking/bots/_fastsim_lib*``, by the wheel's build hook; one
compiled earlier into the user's private cache, named by the source's hash; compiling ``_fastsim.c`` now with
the system C compiler, ``$CC`` else ``cc``). If none works the fast bot decides in Python
(:mod:`crewkit.families.trick_taking.bots.fast`): the same games, slower. ``CREWKIT_NATIVE=0`` switches C off for the bots too;
:func:`status` says which is in use.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

from crewkit.nativelib import NativeLibrary

ABI = 11


def _declare(lib: ctypes.CDLL) -> None:
    lib.fs_new.restype = ctypes.c_void_p
    lib.fs_new.argtypes = [ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_free.restype = None
    lib.fs_free.argtypes = [ctypes.c_void_p]
    lib.fs_decide.restype = ctypes.c_int
    lib.fs_decide.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_ulonglong,
                              ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
    lib.fs_draft.restype = ctypes.c_int
    lib.fs_draft.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.c_ulonglong,
                             ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_rollout.restype = ctypes.c_int
    lib.fs_rollout.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_decide_cond.restype = ctypes.c_int
    lib.fs_decide_cond.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong),
                                   ctypes.c_ulonglong, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                   ctypes.POINTER(ctypes.c_int)]
    lib.fs_rollout_cond.restype = ctypes.c_int
    lib.fs_rollout_cond.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_rollout_batch.restype = None
    lib.fs_rollout_batch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong),
                                     ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    lib.fs_cond_ops.restype = ctypes.c_int
    lib.fs_cond_ops.argtypes = []
    lib.fs_cond_new.restype = ctypes.c_void_p
    lib.fs_cond_new.argtypes = [ctypes.POINTER(ctypes.c_longlong)]
    lib.fs_cond_free.restype = None
    lib.fs_cond_free.argtypes = [ctypes.c_void_p]
    lib.fs_cond_eval.restype = ctypes.c_int
    lib.fs_cond_eval.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_longlong), ctypes.POINTER(ctypes.c_int)]


LIBRARY = NativeLibrary(Path(__file__).resolve().parent, "_fastsim", "crewkit-fastsim", "fs_abi", ABI, _declare)


def library_name(source: bytes) -> str:
    """The cached library's file name for ``source`` (see :class:`crewkit.nativelib.NativeLibrary`)."""
    return LIBRARY.library_name(source)


def load() -> ctypes.CDLL | None:
    """The C library, or None (then :func:`status` says why). Tried once per process."""
    return LIBRARY.load()


def status() -> str:
    """Which look-ahead the fast bot uses: "C (...)" or "Python (...)", with the reason."""
    return LIBRARY.status()
