"""Which missions exist and what they are called (the campaign file, or the mission files while it is missing)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from crewkit.tui.safe import shown_plain


@dataclass(frozen=True)
class CampaignInfo:
    name: str
    title: str
    ruleset: str
    missions: tuple[str, ...]  # logbook keys, in order
    note: str = ""  # why the list is a fallback, if it is
    identity: str = ""  # the logbook's campaign key (see crewkit.spec.campaigns)
    description: str = ""
    unlock: str = "free"
    players: tuple[int, ...] = ()
    readings: Mapping[str, str] = field(default_factory=dict)
    entries: Mapping[str, Any] = field(default_factory=dict)  # key -> crewkit.spec.model.CampaignMission
    source: str = "bundled"
    ref: str = ""  # what opens it again (--campaign)
    hints: str = "allowed"  # allowed | forbidden (campaign.yaml's ``hints:``)

    @property
    def key(self) -> str:
        return self.identity or self.name

    def versions(self) -> dict[str, str]:
        return {k: str(getattr(e, "version", "") or "") for k, e in self.entries.items()}


def campaign_info(ref: str, *, validate: bool = False) -> CampaignInfo:
    """The campaign's missions; without a (valid) campaign file, the bundled missions of its folder.

    For the start screen the campaign file is checked against its schema and its references resolved, but
    the missions are not validated (``validate=True`` does that too); each mission is loaded through the
    loader before it is played."""
    note = ""
    try:
        from crewkit.spec.campaigns import load_campaign

        camp = load_campaign(ref, deep=validate)
        return CampaignInfo(camp.name, camp.title, camp.ruleset, tuple(camp.missions), "", camp.identity,
                            camp.description, camp.unlock, tuple(camp.players), dict(camp.readings),
                            {e.key: e for e in camp.entries}, camp.source, ref, camp.hints)
    except Exception as exc:  # missing or invalid campaign file: fall back to what exists
        note = f"the campaign cannot be opened ({_first_line(exc)}); showing the missions that exist"
    return CampaignInfo(shown_plain(ref), shown_plain(_title_of(ref)), "crew", tuple(bundled_mission_ids(ref)),
                        shown_plain(note), ref=ref)


def _read_yaml(path: Any) -> Any:
    """A spec file's data through the spec layer's one YAML loader (YAML 1.2 scalars: `yes` stays a string)."""
    from crewkit.spec.yamlio import load_yaml_file

    return load_yaml_file(path).data


@dataclass(frozen=True)
class KnownCampaign:
    """A line of the campaign chooser."""

    ref: str
    name: str
    title: str
    source: str
    missions: int
    problem: str = ""
    description: str = ""
    game: str = ""  # a rule set that is a game of its own (Not Alone: no missions), opened by name


def known_games() -> list[KnownCampaign]:
    """The rule sets that are games of their own (a family without missions: Not Alone; an installed family's,
    source ``installed``), as chooser lines; their families are imported here, when the chooser opens."""
    from crewkit.games import family_for, installed_rulesets
    from crewkit.spec import bundled

    out: list[KnownCampaign] = []
    found = [(path, "bundled") for path in bundled.bundled_rulesets(None)]
    found += [(path, "installed") for _, path in installed_rulesets().values()]
    for path, source in found:
        try:
            if family_for(str(path)).needs_mission:
                continue
            data = _read_yaml(path)
        except Exception as exc:
            out.append(KnownCampaign(path.stem, path.stem, path.stem, source, 0, _first_line(exc), game=path.stem))
            continue
        out.append(KnownCampaign(path.stem, path.stem, str(data.get("title") or path.stem), source, 0,
                                 description=" ".join(str(data.get("description") or "").split()),
                                 game=path.stem))
    return out


def known_campaigns(extra: str | None = None, extra_source: str = "folder") -> list[KnownCampaign]:
    """Every bundled and installed campaign (and ``extra``, a campaign given by path), read quickly."""
    from crewkit.spec.campaigns import known_campaign_names

    out: list[KnownCampaign] = []
    entries: list[tuple[str, str, Any]] = list(known_campaign_names())
    if extra and extra not in [n for n, _, _ in entries]:
        entries.append((extra, extra_source, None))
    for name, source, path in entries:
        try:
            if path is None:
                from crewkit.spec.campaigns import find_campaign

                path = find_campaign(name).path
            data = _read_yaml(path)
            out.append(KnownCampaign(name, shown_plain(data.get("name") or name), shown_plain(data.get("title") or name),
                                     source, len(data.get("missions") or []),
                                     description=" ".join(str(data.get("description") or "").split())))
        except Exception as exc:  # a name or path typed, and an error naming files: shown, never as controls
            out.append(KnownCampaign(name, shown_plain(name), shown_plain(name), source, 0,
                                     shown_plain(_first_line(exc))))
    return out


@functools.lru_cache(maxsize=512)
def quick_title(mission: str) -> str:
    """The ``title:`` of a bundled mission file, read without validation (for lists); empty if unknown."""
    try:
        from crewkit.spec import bundled

        data = _read_yaml(bundled.mission_path(mission))
        return str(data.get("title") or "")
    except Exception:
        return ""


def mission_title_in(info: CampaignInfo | None, mission: str) -> str:
    """A mission's title as its campaign names it (the entry's title), else read from its file."""
    entry = info.entries.get(mission) if info is not None else None
    if entry is not None:
        return str(entry.title)
    try:
        return quick_title(mission)
    except Exception:
        return ""


def _canonical(ref: str) -> str:
    try:
        from crewkit.spec import bundled

        return bundled.mission_id_for(bundled.mission_path(ref))
    except Exception:
        return ref


def bundled_mission_ids(campaign: str) -> list[str]:
    try:
        from crewkit.spec import bundled

        folder = bundled.missions_dir() / campaign
        paths = sorted(p for p in folder.glob("*.yaml") if p.name != "campaign.yaml")
        ids = [bundled.mission_id_for(p) for p in paths]
    except Exception:
        return []
    return sorted(set(ids))


def _title_of(name: str) -> str:
    return {"planet-nine": "The Quest for Planet Nine"}.get(name, name.replace("-", " ").title())


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:80] if text else type(exc).__name__


@functools.lru_cache(maxsize=256)
def mission_spec(mission: str) -> Any:
    """The loaded mission (``crewkit.spec.model.Mission``); raises the loader's error."""
    from crewkit.spec.loader import load_mission

    return load_mission(mission)


def mission_title(mission: str) -> str:
    """The mission's title, read quickly from its file (display only)."""
    return quick_title(mission)


def mission_number(mission: str) -> str:
    tail = mission.rsplit("/", 1)[-1]
    return tail.split("-", 1)[0]


def campaign_of(mission: str) -> str | None:
    """``planet-nine`` for ``planet-nine/03``; ``None`` for a mission file outside the bundled campaigns."""
    if "/" not in mission or mission.endswith((".yaml", ".yml")) or mission.startswith((".", "/", "~")):
        return None
    name = mission.split("/", 1)[0]
    try:
        from crewkit.spec import bundled

        if (bundled.missions_dir() / name).is_dir():
            return name
    except Exception:
        return None
    return None


def canonical_mission(ref: str) -> str:
    return _canonical(ref)


# ---------------------------------------------------------------------- rule sets and mission sets
@functools.lru_cache(maxsize=32)
def ruleset_data(ruleset: str) -> dict[str, Any]:
    """The rule set's merged data (``{}`` when it cannot be loaded: the briefing then shows the error)."""
    try:
        from crewkit.spec.loader import load_ruleset

        return dict(load_ruleset(ruleset).data)
    except Exception:
        return {}


def ruleset_title(ruleset: str) -> str:
    """A rule set's ``title:`` (of any family), else its name."""
    from crewkit.spec import bundled

    try:
        return str(_read_yaml(bundled.ruleset_path(ruleset)).get("title") or ruleset)
    except Exception:  # a name that finds no file: the name itself
        return ruleset


def mission_set_of(ruleset: str) -> str | None:
    """The mission folder a rule set deals from (Hammer's cards, Persian secret cards), else ``None``."""
    data = ruleset_data(ruleset)
    folder = (data.get("scoring") or {}).get("missions")
    if folder:
        return str(folder)
    secret = (data.get("tasks") or {}).get("secret")
    if isinstance(secret, dict) and secret.get("missions"):
        return str(secret["missions"])
    return None


def in_mission_set(ruleset: str, mission: str) -> bool:
    """True when ``mission`` names the rule set's mission set or a part of it (``hammer``, ``persian/level-2``)."""
    folder = mission_set_of(ruleset)
    return folder is not None and (mission == folder or mission.startswith(folder + "/"))


@functools.lru_cache(maxsize=64)
def quick_mission_data(mission: str) -> dict[str, Any]:
    """A bundled mission file read without validation (display only); ``{}`` if unknown."""
    try:
        from crewkit.spec import bundled

        data = _read_yaml(bundled.mission_path(mission))
    except Exception:
        return {}
    return data if isinstance(data, dict) else {}
