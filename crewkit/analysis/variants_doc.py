"""Generate ``docs/variants.md`` from the bundled rule sets: how each differs from ``crew``, and every reading
(of the rule sets, then of the bundled missions).

``python -m crewkit.analysis.variants_doc > docs/variants.md``; a test keeps the file equal to the output.
"""

from __future__ import annotations

import json
from typing import Any

from crewkit.games import family_for, family_named
from crewkit.spec import bundled
from crewkit.spec.loader import load_mission
from crewkit.spec.merge import diff

BASE = "crew"
SKIP = {"name", "title", "description", "readings", "extends"}


def _value(v: Any) -> str:
    if v is None:
        return "–"
    text = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 90 else text[:87] + "..."


def _path(path: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in path)


def generate_markdown() -> str:
    base = family_for(BASE).ruleset_data(BASE)[1]
    out = [
        "# Rule variants",
        "",
        "Generated from the rule sets in `rulesets/` by `python -m crewkit.analysis.variants_doc`; do not edit by",
        "hand. For each rule set: the keys whose resolved value differs from `crew`, then every unclear point of",
        "its sources with the reading it implements and the alternatives a user can switch to",
        "(`--reading ID=OPTION` on `play`, `simulate`, `show`; `readings:` in YAML).",
        "",
    ]
    base_family = family_for(BASE).name  # its rule sets first, each against BASE; then every other family's
    for path in bundled.bundled_rulesets(base_family):
        name, data = family_named(base_family).ruleset_data(path.stem)
        out.append(f"## `{name}`: {data.get('title', '')}")
        out.append("")
        if data.get("description"):
            out.append(str(data["description"]).strip())
            out.append("")
        if name != BASE:
            base_note = f" (extends `{data['extends']}`)" if data.get("extends") else " (a rule set of its own)"
            out.append(f"Differences from `{BASE}`{base_note}:")
            out.append("")
            _differences(out, BASE, base, data, heading=False)
        readings = data.get("readings") or []
        if readings:
            out.append("Readings:")
            out.append("")
            _readings(out, readings)
    for path in bundled.bundled_rulesets(None):
        family = bundled.ruleset_family(path)
        if family == base_family:
            continue  # above
        name, data = family_named(family).ruleset_data(str(path))
        out.append(f"## `{name}`: {data.get('title', '')}")
        out.append("")
        if data.get("description"):
            out.append(str(data["description"]).strip())
            out.append("")
        out.append(f"A rule set of the `{family}` family, run by the machine of games that are not trick-taking "
                   "(docs/architecture.md)" + (f"; it extends `{data['extends']}`." if data.get("extends") else
                                                 "; its phases: " + ", ".join(
                                                     f"`{e['block'] if isinstance(e, dict) else e}`"
                                                     for e in data.get("flow", [])) + "."))
        out.append("")
        if data.get("extends"):
            base_name, base_data = family_named(family).ruleset_data(str(path.parent / str(data["extends"])))
            _differences(out, base_name, base_data, data)
        if data.get("readings"):
            out.append("Readings:")
            out.append("")
            _readings(out, data["readings"])
    out += ["## Mission readings", "",
            "Unclear points of single missions, selected the same way (`--reading ID=OPTION`).", ""]
    for path in bundled.bundled_missions():
        mission = load_mission(str(path))
        readings = mission.data.get("readings") or []
        if readings:
            out.append(f"### `{bundled.mission_id_for(path)}`: {mission.title}")
            out.append("")
            _readings(out, readings)
    return "\n".join(out).rstrip() + "\n"


def _differences(out: list[str], base_name: str, base: dict[str, Any], data: dict[str, Any],
                 heading: bool = True) -> None:
    """The keys whose resolved value differs from ``base``'s, as a table (readings listed apart)."""
    if heading:
        out.append(f"Differences from `{base_name}`:")
        out.append("")
    rows = [d for d in diff(base, data) if d[1] and d[1][0] not in SKIP]
    if rows:
        out.append(f"| key | change | `{base_name}` | this rule set |")
        out.append("|---|---|---|---|")
        for kind, p, old, new in rows:
            out.append(f"| `{_path(p)}` | {kind} | {_value(old)} | {_value(new)} |")
    else:
        out.append("None.")
    out.append("")


def _readings(out: list[str], readings: list[Any]) -> None:
    for r in readings:
        out.append(f"- **{r['id']}**: {r['question']}")
        out.append(f"  - source: {r.get('source', '')}")
        for name, option in (r.get("options") or {}).items():
            mark = " (implemented by default)" if name == r.get("choice") else ""
            out.append(f"  - `{r['id']}={name}`{mark}: {(option or {}).get('text', '')}")
    out.append("")


if __name__ == "__main__":
    print(generate_markdown(), end="")
