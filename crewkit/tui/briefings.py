"""Briefings outside the app: ``crewkit show mission ID --words`` and the generated page ``docs/missions.md``.

Both print what the app shows, through the same functions (:func:`crewkit.tui.text.briefing_lines`,
:func:`crewkit.tui.text.scoring_words`, :func:`crewkit.effects.words.describe`), with the Rich markup taken
out. No Textual here: this module is imported by the command line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crewkit.tui.text import (
    briefing_lines,
    condition_words,
    plain,
    player_text,
    role_names,
    scoring_words,
    setup_step_words,
)


@dataclass(frozen=True)
class Table:
    """Where a mission is played: the rule set, the seats, the readings, and its campaign entry if any."""

    ruleset: str
    ref: str  # what the loader opens
    shown_id: str  # the mission as the player chose it
    kinds: tuple[str, ...]
    readings: Mapping[str, str]
    entry: Any = None  # crewkit.spec.model.CampaignMission
    fixed_readings: Mapping[str, str] | None = None


def table_for(mission: str, *, ruleset: str | None = None, players: int | None = None,
              readings: Mapping[str, str] | None = None, campaign: str | None = None) -> Table:
    """The table ``crewkit play`` would set for ``mission`` (with ``--ruleset``, ``--players``, ``--reading``
    and ``--campaign`` as given): you in seat 0, bots elsewhere, 4 players when the mission allows them."""
    from crewkit.spec.errors import SpecError, SpecIssue
    from crewkit.tui.catalog import campaign_info, in_mission_set, ruleset_data
    from crewkit.tui.options import normalise_seats

    entry = None
    fixed: dict[str, str] = {}
    ref = mission
    allowed: list[int] = []
    if campaign is not None:
        info = campaign_info(campaign, validate=False)
        if info.note:
            raise SpecError([SpecIssue(campaign, 0, 0, (), info.note)])
        entry = info.entries.get(mission)
        if entry is None:
            known = ", ".join(info.missions)
            raise SpecError([SpecIssue(campaign, 0, 0, (), f"campaign {info.name} has no mission {mission!r} "
                                                           f"(its missions: {known})")])
        ref = str(entry.ref)
        ruleset = ruleset or str(entry.ruleset)
        fixed = dict(info.readings)
        allowed = list(entry.players or info.players)
    if ruleset is None:
        ruleset = _set_owner(mission.split("/level-")[0])  # a rule set's own set of cards: hammer, persian
        if ruleset is None:
            from crewkit.spec.mission_rulesets import default_ruleset

            ruleset = default_ruleset(mission)
    if not allowed:
        allowed = [int(p) for p in ruleset_data(ruleset).get("players") or []]
        if not in_mission_set(ruleset, mission):
            from crewkit.tui.catalog import mission_spec

            own = mission_spec(ref).player_counts
            allowed = [p for p in allowed if not own or p in own] or list(own)
    n = players or (4 if 4 in allowed or not allowed else allowed[0])
    kinds = tuple(normalise_seats(None, n, True))
    return Table(ruleset, ref, mission, kinds, {**(readings or {}), **fixed}, entry, fixed)


def _set_owner(folder: str) -> str | None:
    """The bundled rule set that deals the mission cards of ``folder`` (``persian`` → ``crew-persian``)."""
    from crewkit.spec import bundled
    from crewkit.tui.catalog import mission_set_of

    for path in bundled.bundled_rulesets():
        if mission_set_of(path.stem) == folder:
            return path.stem
    return None


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


# ----------------------------------------------------------------------------------------------- the page


def missions_page() -> str:
    """``docs/missions.md``: the briefing of every bundled mission and the words of every bundled card, for
    review (``crewkit docs missions``; a test keeps the file equal to it)."""
    from crewkit.spec import bundled
    from crewkit.tui.catalog import campaign_info

    out = [
        "# Every bundled mission, as players read it",
        "",
        "<!-- Generated by `crewkit docs missions` (crewkit/tui/briefings.py); do not edit. -->",
        "",
        "What the app shows before each attempt (the same text as `crewkit show mission ID --words`): the",
        "tasks, symbols, setup steps and conditions in words. A condition or a step reads as its mission's",
        "`text:` when the mission gives one, else as crewkit words its expressions and fields",
        "(crewkit/dsl/words.py). Then every mission card of Hammer's game and of the Persian reading, and",
        "Not Alone's places and cards: the text printed on each card, and the words of its effects as the",
        "table states them while a rule is in force.",
        "",
        "Each mission is shown at the table `crewkit play` sets by default: you and bots, four players when",
        "the mission allows four.",
        "",
    ]
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
        from crewkit.tui.catalog import mission_set_of

        folder = mission_set_of(ruleset)
        assert folder is not None
        table = table_for(folder, ruleset=ruleset)
        out += [f"## {ruleset}: the mission cards", "", "```text", *mission_words(table), "```", ""]
        for path in sorted(bundled.missions_dir().joinpath(folder).glob("*.yaml")):
            if path.name == "campaign.yaml":
                continue
            card = f"{folder}/{path.stem.split('-', 1)[0]}"
            out += [f"### {card}", "", "```text", *card_words(card), "```", ""]
    out += _board_cards()
    return "\n".join(out).rstrip("\n") + "\n"


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


def _board_cards() -> list[str]:
    """Not Alone's places, hunt cards and survival cards: the card's text, then its effects in words."""
    from crewkit.effects.cardsets import load_card_set
    from crewkit.effects.words import describe
    from crewkit.spec import bundled

    folder = bundled.rulesets_dir() / "not-alone"
    places = load_card_set(folder / "places.yaml")
    out = ["## Not Alone: places and cards", ""]
    for name, title in (("places", "Places"), ("hunt-cards", "Hunt cards"), ("survival-cards", "Survival cards")):
        cards = places if name == "places" else load_card_set(folder / f"{name}.yaml", places.place_ids())
        out += [f"### {title}", ""]
        for card in cards.cards:
            number = f"{card.number}. " if card.number is not None else ""
            out.append(f"- **{number}{card.name}**: {player_text(card.text)}")
            effects = [describe(e) for e in card.effects]
            passive = [describe(e) for e in card.passive]
            if effects:
                out.append(f"  - effects: {_sentence('; '.join(effects))}")
            if passive:
                out.append(f"  - while here: {_sentence('; '.join(passive))}")
        out.append("")
    return out


def words_of(lines: Sequence[str]) -> str:
    return "\n".join(lines) + "\n"
