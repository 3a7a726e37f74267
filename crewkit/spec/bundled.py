"""Finding bundled rule sets, missions and campaigns by name, and user files by path.

Rule sets are named by file stem (``crew``); missions by ``campaign/number`` (``planet-nine/3`` and
``planet-nine/03`` are the same) or ``campaign/NN-slug``; campaigns by their folder name. Anything that looks
like a path (contains a path separator or ends in ``.yaml``/``.yml``) is taken as a file path.
"""

from __future__ import annotations

import re
from pathlib import Path

from crewkit.errors import CrewkitError
from crewkit.spec import overlay
from crewkit.spec.resources import data_path
from crewkit.spec.yamlio import read_limited, real_path_within

_NUMBERED = re.compile(r"^(\d+)(?:-.*)?$")


class NotFound(CrewkitError, LookupError):
    """A name that matches no bundled file (the message lists what exists)."""


def looks_like_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml", ".json")) or ref.startswith((".", "/", "~")) or "\\" in ref


def rulesets_dir() -> Path:
    return data_path("rulesets")


def missions_dir() -> Path:
    return data_path("missions")


TRICK_TAKING = "trick-taking"
FAMILY_SCHEMAS = {TRICK_TAKING: "ruleset", "not-alone": "not-alone-ruleset"}
"""The schema each game family's rule sets are checked against (``family:``; trick-taking when absent)."""

_FAMILY_LINE = re.compile(r"^family:\s*['\"]?([A-Za-z0-9_-]+)")


def ruleset_family(path: Path) -> str:
    """The ``family:`` a rule set file declares at its top level (trick-taking when it declares none).

    Read from the file's lines, not its YAML, so listing the bundled rule sets stays cheap; a family of a
    rule set that ``extends:`` another is declared again in the file."""
    return family_in(family_file_lines(path))


def family_in(lines: list[str]) -> str:
    """The ``family:`` declared by a rule set's lines (trick-taking when none is)."""
    for line in lines:
        found = _FAMILY_LINE.match(line)
        if found:
            return found.group(1)
    return TRICK_TAKING


def family_file_lines(path: Path) -> list[str]:
    """The lines of ``path`` read with the loader's limits (regular files only, bounded size), or none: a file
    that cannot be read that way is left to the loader, which says why."""
    try:
        return read_limited(path).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def bundled_rulesets(family: str | None = TRICK_TAKING) -> list[Path]:
    """The bundled rule sets of ``family`` (every family with None)."""
    found = sorted(rulesets_dir().glob("*.yaml"))
    return found if family is None else [p for p in found if ruleset_family(p) == family]


def bundled_card_sets() -> list[Path]:
    """Card set files of the rule sets of other families (``rulesets/<folder>/*.yaml``)."""
    return sorted(rulesets_dir().glob("*/*.yaml"))


def bundled_campaigns() -> list[Path]:
    return sorted(missions_dir().glob("*/campaign.yaml"))


TASK_DECK_FILE = "tasks.yaml"
"""The name of a campaign folder's deck of task cards (Mission Deep Sea: ``missions/deep-sea/tasks.yaml``)."""


def bundled_missions() -> list[Path]:
    return sorted(p for p in missions_dir().glob("*/*.yaml") if p.name not in ("campaign.yaml", TASK_DECK_FILE))


def bundled_task_decks() -> list[Path]:
    """The bundled decks of task cards (``missions/NAME/tasks.yaml``)."""
    return sorted(missions_dir().glob(f"*/{TASK_DECK_FILE}"))


def bundled_files() -> list[Path]:
    return bundled_rulesets(None) + bundled_card_sets() + bundled_missions() + bundled_task_decks() + \
        bundled_campaigns()


def reference_roots(referrer_folder: Path) -> list[Path]:
    """The folders a file in ``referrer_folder`` may name files in: its own folder (and below) and the bundled
    rule sets and missions."""
    return [referrer_folder, rulesets_dir(), missions_dir()]


def confined(path: Path, referrer_folder: Path) -> bool:
    """True when ``path`` (links followed) is in ``referrer_folder`` or below it, or among the bundled files.

    A file names other files only there: a mission or rule set from someone else cannot make crewkit read
    ``/etc/passwd``, ``../secret/creds.yaml`` or a device (see docs/trust.md). The same test as the reader's
    (:func:`crewkit.spec.yamlio.read_limited` with ``within=reference_roots(folder)``).
    """
    return real_path_within(path, reference_roots(referrer_folder)) is not None


def ruleset_path(ref: str, relative_to: Path | None = None) -> Path:
    """The file of a rule set named by ``ref``: a bundled name, or a path.

    ``relative_to`` is the folder of the file that contains the reference (``extends:``, a mission's
    ``rulesets:``, a campaign's ``ruleset:``): the path is read relative to it and must stay inside it (or
    among the bundled files). Without ``relative_to`` (a name typed on the command line) any path is allowed.
    """
    if "\x00" in ref:
        raise NotFound(f"rule set {ref!r} is not a valid name or path")
    if looks_like_path(ref) or "/" in ref:
        if relative_to is not None:
            path = relative_to / Path(ref)  # an absolute or ~ path stays what it says, and is refused below
            if ref.startswith("~") or not confined(path, relative_to):
                raise NotFound(
                    f"rule set file {ref!r} is outside the folder of the file that names it; a reference may "
                    "name a bundled rule set or a file in that folder or below it"
                )
            path = path.resolve()
        else:
            path = Path(ref).expanduser()
        if not path.exists() and overlay.text_of(path) is None:  # (an editor's unsaved file exists too)
            raise NotFound(f"rule set file {ref!r} does not exist")
        return path
    path = rulesets_dir() / f"{ref}.yaml"
    if path.is_file():
        return path
    beside = relative_to / f"{ref}.yaml" if relative_to is not None else None
    if beside is not None and relative_to is not None and (beside.is_file() or overlay.text_of(beside) is not None) \
            and confined(beside, relative_to):
        return beside
    known = ", ".join(p.stem for p in bundled_rulesets(None))
    raise NotFound(f"unknown rule set {ref!r}; bundled rule sets: {known}")


def mission_path(ref: str) -> Path:
    if looks_like_path(ref):
        path = Path(ref).expanduser()
        if not path.exists() and overlay.text_of(path) is None:  # (an editor's unsaved file, a record's copy)
            raise NotFound(f"mission file {ref!r} does not exist")
        return path
    campaign, _, name = ref.partition("/")
    folder = missions_dir() / campaign
    if not name or not folder.is_dir():
        known = ", ".join(sorted(p.name for p in missions_dir().iterdir() if p.is_dir()))
        raise NotFound(
            f"unknown mission {ref!r}: expected CAMPAIGN/NUMBER such as 'planet-nine/3'; campaigns: {known}"
        )
    exact = folder / f"{name}.yaml"
    if exact.is_file() and exact.name not in ("campaign.yaml", TASK_DECK_FILE):
        return exact
    m = _NUMBERED.match(name)
    if m:
        number = int(m.group(1))
        for path in sorted(folder.glob("*.yaml")):
            pm = _NUMBERED.match(path.stem)
            if pm and int(pm.group(1)) == number:
                return path
    numbers = sorted(
        int(pm.group(1)) for p in folder.glob("*.yaml") if (pm := _NUMBERED.match(p.stem)) is not None
    )
    raise NotFound(f"no mission {name!r} in campaign {campaign!r}; it has {_ranges(numbers)}")


def mission_id_for(path: Path) -> str:
    """The canonical id of a bundled mission file (``planet-nine/03``), or the path for user files."""
    try:
        rel = path.resolve().relative_to(missions_dir().resolve())
    except ValueError:
        return str(path)
    m = _NUMBERED.match(rel.stem)
    if m and len(rel.parts) == 2:
        return f"{rel.parts[0]}/{int(m.group(1)):02d}"
    return str(rel.with_suffix(""))


def campaign_path(ref: str) -> Path:
    if looks_like_path(ref):
        path = Path(ref).expanduser()
        if not path.exists():
            raise NotFound(f"campaign file {ref!r} does not exist")
        return path
    path = missions_dir() / ref / "campaign.yaml"
    if path.is_file():
        return path
    known = ", ".join(p.parent.name for p in bundled_campaigns())
    raise NotFound(f"unknown campaign {ref!r}; bundled campaigns: {known}")


def _ranges(numbers: list[int]) -> str:
    if not numbers:
        return "no missions"
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return "missions " + ", ".join(parts)


def task_deck_path(ref: str, relative_to: Path | None = None) -> Path:
    """The file of the task-card deck named ``ref``: a bundled name (``deep-sea``: ``missions/deep-sea/tasks.yaml``)
    or a path, read relative to the folder of the file that names it and confined to it (or the bundled files)."""
    if "\x00" in ref:
        raise NotFound(f"task deck {ref!r} is not a valid name or path")
    if looks_like_path(ref) or "/" in ref:
        if relative_to is not None:
            path = relative_to / Path(ref)
            if ref.startswith("~") or not confined(path, relative_to):
                raise NotFound(f"task deck file {ref!r} is outside the folder of the file that names it; a "
                                "reference may name a bundled deck or a file in that folder or below it")
            path = path.resolve()
        else:
            path = Path(ref).expanduser()
        if not path.is_file():
            raise NotFound(f"task deck file {ref!r} does not exist")
        return path
    path = missions_dir() / ref / "tasks.yaml"
    if path.is_file():
        return path
    known = ", ".join(p.parent.name for p in bundled_task_decks()) or "none"
    raise NotFound(f"unknown task deck {ref!r}; bundled task decks: {known}")
