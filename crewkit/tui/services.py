"""The library calls the TUI needs beyond the engine: bots, the logbook, in-progress saves, record files.

Everything is imported lazily and wrapped in a small adapter so that the app starts fast and keeps
working (with a warning) while a piece of the library is missing. Tests pass their own :class:`Services`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote, unquote

if TYPE_CHECKING:
    from crewkit.engine.actions import Action


class BotLike(Protocol):
    """What a mission's table asks of a bot (the missions' family's, :meth:`crewkit.tui.family.FamilyTUI.make_bot`)."""

    def act(self, obs: Any) -> Action: ...

    def optional(self, obs: Any) -> Action | None: ...


BotFactory = Callable[[str, int, str], BotLike]


@dataclass(frozen=True)
class Progress:
    """One mission's line of the logbook, as the TUI shows it."""

    mission: str
    attempts: int = 0
    done: bool = False
    distress_used: bool = False
    last_result: str | None = None


class LogbookLike(Protocol):
    def record_attempt(self, *, campaign: str, mission: str, players: int, ruleset: str, seed: str, result: str,
                       reason: str, distress_used: bool, record_path: str | None = None) -> Any: ...

    def progress(self, campaign: str, mission_ids: Sequence[str],
                 extra_attempts: Callable[[str], int] | None = None) -> list[Any]: ...


class MemoryLogbook:
    """A logbook kept in memory only: used when ``crewkit.campaign.store`` is not available."""

    def __init__(self) -> None:
        self.attempts: list[dict[str, Any]] = []

    def record_attempt(self, **kwargs: Any) -> None:
        from datetime import UTC, datetime

        self.attempts.append({"when": datetime.now(UTC), **kwargs})

    def attempts_of(self, campaign: str, mission: str) -> list[AttemptRow]:
        return [AttemptRow(f"@{i + 1}", a["when"], str(a.get("result")), str(a.get("reason") or ""),
                           Path(a["record_path"]) if a.get("record_path") else None)
                for i, a in enumerate(self.attempts) if a.get("campaign") == campaign and a.get("mission") == mission]

    def progress(self, campaign: str, mission_ids: Sequence[str],
                 extra_attempts: Callable[[str], int] | None = None) -> list[Progress]:
        out = []
        for mid in mission_ids:
            rows = [a for a in self.attempts if a.get("campaign") == campaign and a.get("mission") == mid]
            done_at = next((i for i, a in enumerate(rows) if a.get("result") == "success"), None)
            counted = rows if done_at is None else rows[: done_at + 1]
            distress = any(a.get("distress_used") for a in counted)
            out.append(
                Progress(
                    mission=mid,
                    attempts=len(counted) + (_extra(extra_attempts, counted[-1]) if distress and done_at is not None
                                             else 0),
                    done=done_at is not None,
                    distress_used=distress,
                    last_result=rows[-1].get("result") if rows else None,
                )
            )
        return out


    def hinted_missions(self, campaign: str) -> set[str]:
        return {str(a.get("mission")) for a in self.attempts
                if a.get("campaign") == campaign and a.get("hints_used")}


@dataclass(frozen=True)
class AttemptRow:
    """One attempt of a mission, as the logbook screen lists it (``ref``: ``@12``, as ``crewkit review`` takes it)."""

    ref: str
    when: Any  # datetime, UTC
    result: str
    reason: str
    record: Path | None  # its game record; None when none was kept (an abandoned attempt)


def mission_attempts(logbook: LogbookLike, campaign: str, mission: str) -> list[AttemptRow]:
    """Every attempt of ``mission`` in recording order (a logbook that cannot be read: none)."""
    from crewkit.campaign.attempts import attempt_ref, record_file
    from crewkit.campaign.store import Logbook

    try:
        if isinstance(logbook, Logbook):
            return [AttemptRow(attempt_ref(a), a.when, a.result, a.reason, record_file(a, logbook.path))
                    for a in logbook.attempts(campaign, mission)]
        if isinstance(logbook, MemoryLogbook):
            return logbook.attempts_of(campaign, mission)
    except Exception:  # a broken or absent store must not stop the app
        return []
    return []


def hinted_missions(logbook: LogbookLike, campaign: str) -> set[str]:
    """The missions of ``campaign`` with an attempt played with hints (a logbook without the mark: none)."""
    method = getattr(logbook, "hinted_missions", None)
    try:
        return set(method(campaign)) if method is not None else set()
    except Exception:  # a broken or absent store must not stop play
        return set()


def _extra(extra_attempts: Callable[[str], int] | None, won: dict[str, Any]) -> int:
    return extra_attempts(str(won.get("ruleset", ""))) if extra_attempts is not None else 1


def saved_missions(saves: Saves, campaign: str) -> set[str]:
    """Missions of ``campaign`` with a saved attempt (resumed from the campaign)."""
    from crewkit.campaign.saves import saved_missions as from_keys

    try:
        return from_keys(campaign, list(saves.keys()))
    except Exception:  # a save folder that cannot be read hides the marks, never stops the app
        return set()


def progress_of(logbook: LogbookLike, campaign: str, mission_ids: Sequence[str]) -> list[Progress]:
    """The logbook's progress normalised into :class:`Progress` (any object with those attributes works);
    a distress-signal success counts its rule set's ``distress.extra_attempts``."""
    from crewkit.games import logbook_extra_attempts

    try:
        rows = list(logbook.progress(campaign, list(mission_ids), logbook_extra_attempts))
    except Exception:  # a broken or absent store must not stop play
        rows = []
    by_id = {str(getattr(r, "mission", "")): r for r in rows}
    out = []
    for mid in mission_ids:
        r = by_id.get(mid)
        if r is None:
            out.append(Progress(mid))
            continue
        out.append(
            Progress(
                mission=mid,
                attempts=int(getattr(r, "attempts", 0) or 0),
                done=bool(getattr(r, "done", False)),
                distress_used=bool(getattr(r, "distress_used", False)),
                last_result=getattr(r, "last_result", None),
            )
        )
    return out


def campaign_progress(logbook: LogbookLike, info: Any) -> tuple[list[Progress], dict[str, int]]:
    """A campaign's lines (``info``: a ``CampaignInfo``) counting only each mission's current version, and per
    mission the attempts recorded for an earlier version of its file (shown as a notice, never mixed in)."""
    versions = info.versions() if hasattr(info, "versions") else {}
    method = getattr(logbook, "progress_for_versions", None)
    if not versions or not any(versions.values()) or method is None:
        return progress_of(logbook, info.key, info.missions), {}
    from crewkit.games import logbook_extra_attempts

    try:
        lines, older = method(info.key, {m: versions.get(m, "") for m in info.missions}, logbook_extra_attempts)
    except Exception:  # a broken or absent store must not stop play
        return [Progress(m) for m in info.missions], {}
    return [Progress(r.mission, r.attempts, r.done, r.distress_used, r.last_result) for r in lines], dict(older)


@dataclass(frozen=True)
class SideResults:
    """The finished games of a rule set of sides (Not Alone) at one player count, as the logbook keeps them."""

    ruleset: str
    players: int
    won: int  # games the family's success side won (the Hunted)
    lost: int  # games the other side won (the Creature)
    abandoned: int = 0

    @property
    def games(self) -> int:
        return self.won + self.lost


def side_results(logbook: LogbookLike, campaign: str, ruleset: str | None = None) -> list[SideResults]:
    """Per rule set and player count, how often each side won the games kept under ``campaign`` (a family's
    name: its games are the logbook's "missions", one per rule set). A store that cannot be read gives none."""
    try:
        found = logbook.attempts  # type: ignore[attr-defined]
        rows = found(campaign, ruleset) if callable(found) else [
            a for a in found if a.get("campaign") == campaign and (ruleset is None or a.get("mission") == ruleset)]
    except Exception:  # a broken or absent store must not stop play
        return []
    counts: dict[tuple[str, int], list[int]] = {}
    for row in rows:
        get = row.get if isinstance(row, dict) else lambda key, r=row: getattr(r, key, None)
        tally = counts.setdefault((str(get("mission")), int(get("players") or 0)), [0, 0, 0])
        tally[{"success": 0, "failure": 1}.get(str(get("result")), 2)] += 1
    return [SideResults(r, p, *c) for (r, p), c in sorted(counts.items())]


def changed_notice(older: dict[str, int], titles: Callable[[str], str]) -> str:
    """A sentence naming the missions whose file changed after attempts were recorded."""
    if not older:
        return ""
    parts = [f"{titles(m) or m} ({n} earlier attempt{'s' if n != 1 else ''})" for m, n in older.items()]
    return ("Changed since attempts were recorded: " + ", ".join(parts)
            + ". Only attempts of the current version are counted.")


class Saves(Protocol):
    def save(self, key: str, record: dict[str, Any]) -> None: ...

    def load(self, key: str) -> dict[str, Any] | None: ...

    def clear(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...


def unfinished_save(saves: Saves, key: str) -> dict[str, Any] | None:
    """The game saved under ``key`` when it is unfinished and has actions (what a table offers to resume); a
    save that cannot be read is none (the save machinery sets a damaged file aside)."""
    try:
        record = saves.load(key)
    except Exception:
        return None
    if not record or record.get("outcome") not in (None, "in-progress") or not record.get("actions"):
        return None
    return record


class FileSaves:
    """In-progress saves as JSON files under ``<home>/tui-saves`` (fallback for ``crewkit.campaign.saves``)."""

    def __init__(self, home: Callable[[], Path]) -> None:
        self._home = home

    def _path(self, key: str) -> Path:
        return self._home() / "tui-saves" / f"{quote(key, safe='')}.json"  # reversible: keys() lists them

    def save(self, key: str, record: dict[str, Any]) -> None:
        from crewkit.atomic import write_json_atomic

        write_json_atomic(self._path(key), record)

    def load(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            from crewkit.spec.yamlio import read_limited

            data = json.loads(read_limited(path).decode("utf-8"))  # a regular file of bounded size
        except (OSError, ValueError, RecursionError):
            return None
        return data if isinstance(data, dict) else None

    def clear(self, key: str) -> None:
        try:
            self._path(key).unlink()
        except OSError:
            pass

    def keys(self) -> list[str]:
        folder = self._home() / "tui-saves"
        stems = sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
        return [unquote(stem) for stem in stems]


class LibrarySaves:
    """``crewkit.campaign.saves`` behind the :class:`Saves` interface."""

    def __init__(self, module: Any) -> None:
        self._m = module

    def save(self, key: str, record: dict[str, Any]) -> None:
        self._m.save_in_progress(key, record)

    def load(self, key: str) -> dict[str, Any] | None:
        data = self._m.load_in_progress(key, set_aside=True)
        return dict(data) if data else None

    def clear(self, key: str) -> None:
        self._m.clear_in_progress(key)

    def keys(self) -> list[str]:
        return list(self._m.list_in_progress())


def default_home() -> Path:
    from crewkit.campaign.home import crewkit_home

    return crewkit_home()


@dataclass
class Services:
    """The pieces of the library the app talks to besides the engine."""

    bot_factory: BotFactory | None
    logbook: LogbookLike
    saves: Saves
    home: Callable[[], Path] = default_home
    warnings: list[str] = field(default_factory=list)
    stamp: Callable[[], str] = lambda: time.strftime("%Y%m%d-%H%M%S")  # record file names (fixed in snapshots)

    def records_dir(self) -> Path:
        path = self.home() / "records"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def write_record(self, record: dict[str, Any], name: str, seed: str) -> Path:
        """Write a finished game's record (any family's) atomically under ``<home>/records``; its path."""
        from crewkit.atomic import write_json_atomic

        stamp = self.stamp()
        # the mission and the seed only ever become one plain name part: never a separator, never `..`
        stem = f"{name_part(name, 'game', tag=False)}-{stamp}-{name_part(str(seed or ''), 'noseed')}"
        folder = self.records_dir()
        path = folder / f"{stem}.json"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"{stem}-{n}.json"
        write_json_atomic(path, record)
        return path


def name_part(text: str, default: str, limit: int = 40, *, tag: bool = True) -> str:
    """``text`` as a safe file-name fragment: letters, digits, ``_`` and ``-`` only, at most ``limit`` long.

    With ``tag``, a fragment that had to change gets a short hash of the original, so two seeds never share
    a name.
    """
    import hashlib

    part = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:limit] or default
    if tag and part != text:
        part += "-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return part


def _module_exists(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _lazy_make_bot(name: str, seat: int, seed: str) -> BotLike:
    """A bot of a mission's table: the missions' family's (a rule set that names no family is of it), asked
    through its terminal face when the first bot sits down (a faster start)."""
    from crewkit.games import TRICK_TAKING, family_named
    from crewkit.tui.family import terminal_of

    bot: BotLike = terminal_of(family_named(TRICK_TAKING)).make_bot(name, seat, seed)
    return bot


def default_services() -> Services:
    """The real library services, with in-memory/file fallbacks (and a warning) for missing pieces."""
    from crewkit.games import BUNDLED, TRICK_TAKING

    warnings: list[str] = []
    bot_factory: BotFactory | None
    missions_family = BUNDLED[TRICK_TAKING].partition(":")[0]  # its module, found without importing it
    if _module_exists(missions_family):
        bot_factory = _lazy_make_bot  # imported when the first bot sits down: a faster start
    else:
        bot_factory = None
        warnings.append(f"bots are not available ({missions_family}): every seat is played here (hotseat)")
    logbook: LogbookLike
    try:
        from crewkit.campaign.store import Logbook

        logbook = Logbook.open()
    except Exception as exc:  # ImportError, or a store that cannot be opened
        logbook = MemoryLogbook()
        warnings.append(f"the logbook is not available ({exc}); attempts are kept for this session only")
    saves: Saves
    try:
        from crewkit.campaign import saves as saves_module

        saves = LibrarySaves(saves_module)
    except ImportError:
        saves = FileSaves(default_home)
    return Services(bot_factory=bot_factory, logbook=logbook, saves=saves, warnings=warnings)
