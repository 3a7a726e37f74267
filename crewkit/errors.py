"""crewkit's exit codes and the common base of the errors that a user's input can cause.

Every error raised for a bad file, argument, record, save, bot name or action derives from
:class:`CrewkitError`: the CLI prints it as one message (never a traceback) and exits with its
``exit_code``. Anything else that escapes a command is a bug in crewkit: exit 3.
"""

from __future__ import annotations

from typing import Any

EXIT_OK = 0
EXIT_INVALID = 1  # invalid input, an illegal action, a failed check
EXIT_USAGE = 2  # a command line that cannot be carried out as given
EXIT_INTERNAL = 3  # a bug in crewkit
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


class CrewkitError(Exception):
    """A failure caused by the input, not by crewkit: reported as a message, exit ``exit_code``."""

    exit_code: int = EXIT_INVALID

    def __reduce__(self) -> tuple[Any, ...]:
        # Worker processes (``--workers``, a Dask cluster) send errors back pickled. The default rebuilds an
        # exception by calling its class with ``args`` (the message), which fails or loses the file, line and
        # issues of the subclasses that take more: rebuild from the attributes instead.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[CrewkitError], args: tuple[Any, ...], state: dict[str, Any]) -> CrewkitError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class UsageError(CrewkitError):
    """A command line that cannot be carried out as given (exit 2)."""

    exit_code = EXIT_USAGE


class DataFolderError(CrewkitError):
    """crewkit's data folder (``$CREWKIT_HOME``, else the user's data folder) cannot be used: a file or a
    device stands where the folder should be, or it cannot be created (exit 1)."""
