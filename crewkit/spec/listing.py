"""What can be played: ``crewkit list`` (text and JSON).

Rule sets with their player counts, campaigns (bundled and installed packs) with the command that plays them,
mission sets (a rule set that deals its own mission cards: Hammer's, the Persian levels), and the bundled missions.
One data structure (:func:`catalogue`) for both outputs; a file that cannot be read is listed with its problem.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkit.games.protocol import Family

SECTIONS = ("rulesets", "campaigns", "sets", "missions")  # `crewkit list WHAT`; "sets" is mission_sets in JSON


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def _campaign_row(name: str, ref: str, source: str) -> dict[str, Any]:
    from crewkit.spec.campaigns import load_campaign

    try:
        camp = load_campaign(ref, deep=False)
    except Exception as exc:  # a broken campaign (or pack) is listed with its problem, never a traceback
        return {"name": name, "title": "", "source": source, "ruleset": None, "players": [], "missions": 0,
                "play": None, "problem": f"cannot be read: {_first_line(exc)}"}
    players = list(camp.players)
    if not players:  # the campaign leaves it to its rule set
        from crewkit.spec.loader import load_ruleset

        try:
            players = [int(p) for p in load_ruleset(camp.ruleset).data.get("players") or []]
        except Exception:  # the rule set's own problem shows in the rule sets section
            players = []
    return {"name": name, "title": camp.title, "source": source, "ruleset": camp.ruleset,
            "players": players, "missions": len(camp.missions),
            "play": f"crewkit play --campaign {name}", "problem": None}


def _campaigns() -> list[dict[str, Any]]:
    from crewkit.spec import bundled
    from crewkit.spec.campaigns import installed_campaigns

    rows = [_campaign_row(path.parent.name, path.parent.name, "bundled") for path in bundled.bundled_campaigns()]
    for name, dist, pack_path, problem in installed_campaigns():
        if pack_path is None:
            rows.append({"name": name, "title": "", "source": f"pack {dist}", "ruleset": None, "players": [],
                         "missions": 0, "play": None, "problem": f"cannot be opened: {problem}"})
        else:
            rows.append(_campaign_row(name, name, f"pack {dist}"))
    return rows


def catalogue(family_of: Callable[[str], Family], more: Sequence[Path] = ()) -> dict[str, Any]:
    """``{"rulesets", "campaigns", "mission_sets", "missions"}``: lists of plain dicts (JSON-ready).

    ``family_of``: the family called by a name (:func:`crewkit.games.family_named`, passed in: the spec layer
    imports no game); each rule set's family says what it plays. ``more``: rule set files installed families
    ship in their own packages."""
    from crewkit.spec import bundled
    from crewkit.spec.loader import load_doc

    missions: list[dict[str, Any]] = []
    levels: dict[str, set[int]] = {}
    for path in bundled.bundled_missions():
        data = load_doc(path).data or {}
        mid = bundled.mission_id_for(path)
        missions.append({"id": mid, "title": str(data.get("title", "")),
                         "rulesets": [str(r) for r in data.get("rulesets") or []],
                         "players": [int(p) for p in data.get("players") or []]})
        if isinstance(data.get("level"), int):
            levels.setdefault(mid.split("/", 1)[0], set()).add(int(data["level"]))
    rulesets: list[dict[str, Any]] = []
    mission_sets: list[dict[str, Any]] = []
    for path in [*bundled.bundled_rulesets(None), *more]:
        raw = load_doc(path).data or {}
        family = bundled.ruleset_family(path)
        try:
            shown = family_of(family).listing(path)
        except Exception as exc:  # a broken rule set is listed with its problem
            rulesets.append({"name": path.stem, "title": str(raw.get("title", "")), "extends": raw.get("extends"),
                             "family": family, "players": [], "plays": None,
                             "problem": f"cannot be read: {_first_line(exc)}"})
            continue
        players = list(shown.players)
        rulesets.append({"name": path.stem, "title": str(raw.get("title", "")), "extends": raw.get("extends"),
                         "family": family, "players": players, "plays": shown.plays, "problem": None})
        folder = shown.mission_set
        if folder:
            for name in [folder] + [f"{folder}/level-{n}" for n in sorted(levels.get(folder, ()))]:
                level = name.rsplit("level-", 1)[1] if "/level-" in name else None
                mission_sets.append({"name": name, "ruleset": path.stem, "players": players,
                                     "level": int(level) if level else None,
                                     "play": f"crewkit play --ruleset {path.stem} --mission {name}"})
    return {"rulesets": rulesets, "campaigns": _campaigns(), "mission_sets": mission_sets, "missions": missions}


def section(cat: dict[str, Any], what: str | None) -> dict[str, Any]:
    """The catalogue, or one section of it (``what`` as given on the command line)."""
    if what is None:
        return cat
    key = "mission_sets" if what == "sets" else what
    return {key: cat[key]}


def players_text(counts: list[int]) -> str:
    """``3-5 players``, ``2 players``, ``1 player``, ``? players``."""
    if not counts:
        return "? players"
    counts = sorted(counts)  # a campaign lists its default count first ([4, 3, 5])
    run = len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1))
    text = f"{counts[0]}-{counts[-1]}" if run else ", ".join(map(str, counts))
    return f"{text} player{'' if counts == [1] else 's'}"


def format_catalogue(cat: dict[str, Any], what: str | None = None) -> str:
    lines: list[str] = []
    if what in (None, "rulesets"):
        lines.append("rule sets (crewkit play --ruleset NAME):")
        for r in cat["rulesets"]:
            base = f" (extends {r['extends']})" if r.get("extends") else ""
            tail = r["problem"] or f"plays {r['plays']}"
            lines.append(f"  {r['name']:<20} {players_text(r['players']):<12} {r['title']}{base}; {tail}")
    if what in (None, "campaigns"):
        lines.append("campaigns (crewkit play --campaign NAME):")
        for c in cat["campaigns"]:
            if c["problem"]:
                lines.append(f"  {c['name']:<20} {c['problem']}  [{c['source']}]")
                continue
            n = c["missions"]
            lines.append(f"  {c['name']:<20} {players_text(c['players']):<12} {c['title']} "
                         f"({n} mission{'' if n == 1 else 's'})  [{c['source']}]")
    if what in (None, "sets"):
        lines.append("mission sets (a rule set that deals its own mission cards):")
        for m in cat["mission_sets"]:
            lines.append(f"  {m['name']:<20} {players_text(m['players']):<12} {m['play']}")
    if what in (None, "missions"):
        lines.append("missions (crewkit play --mission ID; crewkit check ID):")
        for m in cat["missions"]:
            lines.append(f"  {m['id']:<20} {m['title']}")
    return "\n".join(lines)


__all__ = ["SECTIONS", "catalogue", "format_catalogue", "players_text", "section"]
