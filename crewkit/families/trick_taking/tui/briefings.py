"""The trick-taking family's missions in plain words, outside the app: ``crewkit show mission ID --words`` (a
mission at the table ``crewkit play`` would set, or a card of a rule set's own set) and its sections of
``docs/missions.md`` (:meth:`crewkit.tui.family.FamilyTUI.mission_words` and ``docs_sections``): the same words
as the briefing screen (:func:`crewkit.families.trick_taking.tui.mission_words.briefing_lines`), Rich markup
taken out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crewkit.families.trick_taking.tui.mission_words import (
    briefing_lines,
    condition_words,
    role_names,
    scoring_words,
    setup_step_words,
)
from crewkit.tui.briefings import Table, table_for
from crewkit.tui.text import plain, player_text


def mission_words(table: Table) -> list[str]:
    """The briefing of the mission at ``table``, as plain lines (what the briefing screen shows); a single card
    of a rule set's own set (``hammer/01``) reads as the table states it when it is chosen or dealt."""
    from crewkit.games import family_for
    from crewkit.tui.catalog import in_mission_set, mission_set_of

    mission_set = in_mission_set(table.ruleset, table.shown_id)
    folder = mission_set_of(table.ruleset)
    if mission_set and table.shown_id != folder and not table.shown_id.startswith(f"{folder}/level-"):
        return card_words(table.shown_id)
    rs, spec = family_for(table.ruleset).mission_specs(table.ruleset, table.ref, len(table.kinds), table.readings)
    lines = briefing_lines(rs, spec, table.kinds, shown_id=table.shown_id, mission_set=mission_set,
                           entry=table.entry, fixed_readings=table.fixed_readings)
    return [plain(line) for line in lines]


def card_words(card: str) -> list[str]:
    """A mission card of a rule set's own set (Hammer's cards, the Persian secret missions) in words: what the
    table says of it when it is chosen or dealt."""
    from crewkit.tui.catalog import mission_spec

    spec = mission_spec(card)
    data = spec.data
    lines = [f"Mission card {spec.number}: {spec.title}   {spec.id}", ""]
    if data.get("description"):
        lines += [player_text(str(data["description"])), ""]
    if data.get("scoring"):
        words = scoring_words(data["scoring"])
        for mode in ("penalty", "challenge"):
            if mode in words:
                lines.append(f"{mode.capitalize()} mode: {_sentence(words[mode])}")
        return lines
    fixed = [str(c) for c in (data.get("tasks") or {}).get("fixed") or []]
    if fixed:
        from crewkit.dsl.words import join

        lines.append(f"Secret mission (level {spec.level}): win {join(fixed, 'and')}. Only its holder sees it; "
                     "secret missions are completed in number order.")
    names = role_names(data)
    for step in data.get("setup") or []:
        if isinstance(step, Mapping) and step:
            kind, body = next(iter(step.items()))
            lines.append(setup_step_words(str(kind), body, names))
    for cond in data.get("conditions") or []:
        if isinstance(cond, Mapping):
            lines += [f"• {line}" for line in condition_words(cond, names)]
    return lines


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def docs_sections() -> list[str]:
    """The family's part of ``docs/missions.md``: every bundled campaign's missions (Planet Nine, the duet with
    JARVIS, Mission Deep Sea and its task cards), then every mission card of Hammer's game and of the Persian
    reading."""
    from crewkit.spec import bundled
    from crewkit.tui.catalog import campaign_info, mission_set_of

    out: list[str] = []
    info = campaign_info("planet-nine")
    out += ["## The Quest for Planet Nine", ""]
    for mission in info.missions:
        out += _mission_section(table_for(mission), _mission_data(mission))
    duet = campaign_info("jarvis-duet")
    out += ["## Duet with JARVIS", "", player_text(duet.description), "",
            f"Rule set `{duet.ruleset}`, fixed readings: "
            + ", ".join(f"`{k}` = `{v}`" for k, v in sorted(duet.readings.items())) + ".", ""]
    for mission in duet.missions:
        out += _mission_section(table_for(mission, campaign="jarvis-duet"), None)
    out += _deep_sea_section()
    for ruleset in ("crew-persian", "hammer"):
        folder = mission_set_of(ruleset)
        assert folder is not None
        table = table_for(folder, ruleset=ruleset)
        out += [f"## {ruleset}: the mission cards", "", "```text", *mission_words(table), "```", ""]
        for path in sorted(bundled.missions_dir().joinpath(folder).glob("*.yaml")):
            if path.name == "campaign.yaml":
                continue
            card = f"{folder}/{path.stem.split('-', 1)[0]}"
            out += [f"### {card}", "", "```text", *card_words(card), "```", ""]
    return out


def _deep_sea_section() -> list[str]:
    """Mission Deep Sea: its 32 missions as the campaign plays them, then its 96 task cards in words with their
    difficulty for 3, 4 and 5 players."""
    from crewkit.spec.taskcards import load_task_deck
    from crewkit.tui.catalog import campaign_info

    info = campaign_info("deep-sea")
    out = ["## Mission Deep Sea", "", player_text(info.description), "", f"Rule set `{info.ruleset}`.", ""]
    for mission in info.missions:
        out += _mission_section(table_for(mission, campaign="deep-sea"), _mission_data(mission))
    deck = load_task_deck("deep-sea")
    out += ["### The task cards", "",
            "Each card in words, its difficulty for 3, 4 and 5 players, and a note where the card says more.", ""]
    for card in deck.cards:
        cost = ", ".join(f"{card.difficulty[n]} ({n} players)" for n in sorted(card.difficulty))
        note = f" {player_text(card.note)}" if card.note else ""
        out.append(f"- {player_text(card.text)}{note} Difficulty {cost}.")
    out.append("")
    return out


def _mission_data(mission: str) -> Mapping[str, Any]:
    from crewkit.tui.catalog import quick_mission_data

    return quick_mission_data(mission)


def _mission_section(table: Table, data: Mapping[str, Any] | None) -> list[str]:
    lines = mission_words(table)
    title = lines[0] if lines else table.shown_id
    if table.entry is not None and table.entry.chapter_title:
        title = next((line for line in lines if line.startswith("Mission ")), title)
    out = [f"### {title.split('   ')[0]}", "", "```text", *lines, "```", ""]
    readings = [r for r in (data or {}).get("readings") or [] if isinstance(r, Mapping)]
    if readings:
        out += ["Readings of this mission (`--reading ID=OPTION`):", ""]
        for r in readings:
            out.append(f"- {player_text(str(r.get('question', r.get('id'))))} (`{r.get('id')}`)")
            for name, option in (r.get("options") or {}).items():
                if not isinstance(option, Mapping):
                    continue
                default = " (the default)" if name == r.get("choice") else ""
                out.append(f"  - `{name}`{default}: {player_text(str(option.get('text', '')))}")
                patch = option.get("overrides") or {}
                if isinstance(patch, Mapping) and patch.get("conditions"):
                    names = role_names(data or {})
                    for cond in patch["conditions"]:
                        if isinstance(cond, Mapping):
                            out += [f"    - {line}" for line in condition_words(cond, names)]
        out.append("")
    return out


__all__ = ["card_words", "docs_sections", "mission_words"]
