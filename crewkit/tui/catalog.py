"""Which missions exist and what they are called (the campaign file, or the mission files while it is missing)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CampaignInfo:
    name: str
    title: str
    ruleset: str
    missions: tuple[str, ...]
    note: str = ""  # why the list is a fallback, if it is


def campaign_info(name: str, *, validate: bool = False) -> CampaignInfo:
    """The campaign's missions; without a (valid) campaign file, the bundled missions of its folder.

    For the start screen the campaign file is only read (fast); ``validate=True`` goes through the spec
    loader (schema and cross-checks). Missions are always loaded through the loader before they are played.
    """
    if not validate:
        fast = _campaign_fast(name)
        if fast is not None:
            return fast
    note = ""
    try:
        from crewkit.spec.loader import load_campaign

        camp = load_campaign(name)
        if camp.missions:
            return CampaignInfo(camp.name or name, camp.title or _title_of(name), camp.ruleset or "crew",
                                tuple(_canonical(m) for m in camp.missions))
        note = "the campaign file lists no missions"
    except Exception as exc:  # missing or invalid campaign file: fall back to what exists
        note = f"no campaign file ({_first_line(exc)}); showing the missions that exist"
    return CampaignInfo(name, _title_of(name), "crew", tuple(bundled_mission_ids(name)), note)


def _read_yaml(path: Any) -> Any:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    from crewkit.spec.yamlio import read_limited

    # bounded, regular files only: `play --mission` may name any path
    return yaml.load(read_limited(path).decode("utf-8"), Loader=loader)


def _campaign_fast(name: str) -> CampaignInfo | None:
    try:
        from crewkit.spec import bundled

        data = _read_yaml(bundled.campaign_path(name))
        missions = tuple(str(m) for m in data.get("missions") or [])
    except Exception:
        return None
    if not missions:
        return None
    return CampaignInfo(str(data.get("name") or name), str(data.get("title") or _title_of(name)),
                        str(data.get("ruleset") or "crew"), missions)


@functools.lru_cache(maxsize=512)
def quick_title(mission: str) -> str:
    """The ``title:`` of a bundled mission file, read without validation (for lists); empty if unknown."""
    try:
        from crewkit.spec import bundled

        data = _read_yaml(bundled.mission_path(mission))
        return str(data.get("title") or "")
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
