"""The Crew's mission format in words (a trick-taking family's mission briefing): tasks, task tokens, symbols,
setup steps, conditions, communication modes and a mission card's chip scoring, for the briefing screen
(:meth:`crewkit.tui.family.FamilyTUI.briefing_lines`), ``crewkit show mission --words`` and the table. Rich markup
where a line is drawn; presentation only: no rule is decided here."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from crewkit.tui.safe import shown
from crewkit.tui.text import player_text, seat_label

TOKEN_WORDS: dict[str, str] = {
    "1": "must be completed 1st",
    "2": "must be completed 2nd",
    "3": "must be completed 3rd",
    "4": "must be completed 4th",
    "5": "must be completed 5th",
    "omega": "must be completed last of all",
    ">": "first among the arrow tasks",
    ">>": "second among the arrow tasks",
    ">>>": "third among the arrow tasks",
    ">>>>": "fourth among the arrow tasks",
}

def token_text(token: str | None) -> str:
    if token is None:
        return ""
    return "Ω" if token == "omega" else token


def token_words(token: str | None) -> str:
    if token is None:
        return "no order"
    return TOKEN_WORDS.get(token, f"token {token}")


def commander_word(rules: Any) -> str:
    """What the rule set calls the player who commands (``commander: {called: captain}`` in Mission Deep Sea),
    else ``commander``. ``rules``: the compiled rules (their ``raw_ruleset``) or a rule set's data."""
    data = rules if isinstance(rules, Mapping) else getattr(rules, "raw_ruleset", None) or {}
    called = (data.get("commander") or {}).get("called") if isinstance(data.get("commander"), Mapping) else None
    return str(called) if called else "commander"


def scoring_words(scoring: Mapping[str, Any]) -> dict[str, str]:
    """A mission card's scoring in words per mode: ``penalty`` (with the hidden mission) and ``challenge``.

    Each part is the card's own ``text:`` when it gives one, else its formulas in words; the player being
    scored and the dealer read "they"/"them" (:func:`crewkit.dsl.words.words`)."""
    out: dict[str, str] = {}
    pen = scoring.get("penalty") or {}
    hidden = scoring.get("hidden") or {}
    ch = scoring.get("challenge") or {}
    if isinstance(pen, Mapping):
        if pen.get("text"):
            out["penalty"] = _sentence_words(pen["text"])
        elif pen.get("score"):
            out["penalty"] = f"each player scores {expr_words(pen['score'], {'p': 'them'})}"
        else:
            out["penalty"] = "everyone scores"
    if isinstance(hidden, Mapping) and (hidden.get("text") or hidden.get("achieved_if")):
        what = (_sentence_words(hidden["text"]) if hidden.get("text")
                else f"a player other than the dealer receives {hidden.get('payment', 0)} from each other player "
                     f"if {expr_words(hidden['achieved_if'], {'p': 'them'})}")
        out["penalty"] = out.get("penalty", "") + f"; hidden mission: {what}"
    if isinstance(ch, Mapping) and (ch.get("text") or ch.get("success_if")):
        out["challenge"] = (_sentence_words(ch["text"]) if ch.get("text")
                            else f"the dealer bets that {expr_words(ch['success_if'], {'dealer': 'them'})}; success: "
                                 f"the dealer receives {ch.get('success_payment', 0)} from each other player, "
                                 f"failure: the dealer pays {ch.get('failure_payment', 0)} to each other player")
    return out


def mission_briefing_lines(
    data: Mapping[str, Any], players: int | None = None, roles: Mapping[str, str] | None = None,
    task_texts: Mapping[str, str] | None = None, commander: str = "commander",
) -> list[str]:
    """The mission in words: description, tasks, tokens, symbols, setup steps and conditions (Rich markup).

    ``roles`` names the players already bound to the mission's roles (``{"sick": "Bot 2"}``); ``task_texts``
    are the words of the rule set's task cards by id (Mission Deep Sea), for the cards a mission names;
    ``commander`` what the rule set calls the commander (:func:`commander_word`)."""
    lines: list[str] = []
    names = role_names(data, roles)
    if commander != "commander":
        names = {"commander": f"the {commander}", **names}
    if data.get("description"):
        lines += [shown(" ".join(str(data["description"]).split())), ""]
    tasks = data.get("tasks") or {}
    count = int(tasks.get("count", 0) or 0)
    tokens = list(tasks.get("tokens") or [])
    fixed = list(tasks.get("fixed") or [])
    symbols = data.get("symbols") or {}
    what = "task card is" if count == 1 else "task cards are"
    draws = [s["draw_tasks"] for s in data.get("setup") or [] if isinstance(s, Mapping) and "draw_tasks" in s]
    if draws:
        given = any(isinstance(s, Mapping) and ("distribute_tasks" in s) for s in data.get("setup") or [])
        how = "given out as the steps below say" if given else f"taken in turn, starting with the {commander}"
        lines.append(f"[b]Tasks:[/] task cards with objectives, shown in words at the table, {how}.")
    elif count == 0:
        lines.append("[b]Tasks:[/] none — this mission is about its conditions.")
    elif symbols.get("commander_decision"):
        lines.append(f"[b]Tasks:[/] {count} {what} revealed; the commander gives them all to one other player.")
    elif symbols.get("commander_distribution"):
        lines.append(f"[b]Tasks:[/] {count} {what} revealed one at a time; the commander hands each to a player.")
    else:
        lines.append(f"[b]Tasks:[/] {count} {what} revealed and drafted, starting with the commander.")
    if fixed:
        lines.append("  Fixed task cards: " + ", ".join(shown(str(c)) for c in fixed))
    if draws:
        pass
    elif tokens:
        lines.append("[b]Task tokens[/] (placed on the revealed tasks from left to right):")
        for tok in tokens:
            lines.append(f"  [b]{shown(token_text(str(tok)))}[/]  {token_words(str(tok))}")
    elif count:
        lines.append("[b]Task tokens:[/] none — tasks may be completed in any order.")
    sym_lines = _communication_words(data.get("communication"), names)
    if symbols.get("dead_zone"):
        sym_lines.append(
            "Dead zone: you may still communicate a highest/lowest/only card, but the others do not learn which."
        )
    if symbols.get("disruption"):
        sym_lines.append(f"Disruption: nobody may communicate before trick {symbols['disruption']}.")
    if symbols.get("commander_decision"):
        sym_lines.append("Commander's decision: the commander gives all tasks to one other player.")
    if symbols.get("commander_distribution"):
        sym_lines.append("Commander's distribution: the commander hands out the tasks one by one, balanced.")
    if symbols.get("gold_frame"):
        note = "" if players in (None, 5) else " (applies with 5 players only)"
        sym_lines.append(f"Gold frame: one task may be handed to another player before the first trick{note}.")
    for key, value in symbols.items():
        if key not in ("dead_zone", "disruption", "commander_decision", "commander_distribution", "gold_frame"):
            if value:
                sym_lines.append(f"{_key_words(str(key)).capitalize()}: {_value_words(value)}.")
    if sym_lines:
        lines.append("[b]Symbols:[/]")
        lines.extend("  " + shown(s) for s in sym_lines)
    else:
        lines.append("[b]Symbols:[/] none.")
    setup = [s for s in data.get("setup") or [] if isinstance(s, Mapping) and s]
    before = [s for s in setup if "draw_from_neighbour" not in s]
    during = [s for s in setup if "draw_from_neighbour" in s]
    if before:
        lines.append("[b]Before the draft:[/]")
        for step in before:
            kind, body = next(iter(step.items()))
            lines.append("  " + shown(setup_step_words(str(kind), body, names, task_texts)))
    if during:
        lines.append("[b]During the tricks:[/]")
        for step in during:
            kind, body = next(iter(step.items()))
            lines.append("  " + shown(setup_step_words(str(kind), body, names, task_texts)))
    conditions = data.get("conditions") or []
    if conditions:
        lines.append("[b]Conditions:[/]")
        for cond in conditions:
            if not isinstance(cond, Mapping):
                continue
            lines.extend("  • " + shown(line) for line in condition_words(cond, names))
    return lines


def _task_texts(rs: Any) -> dict[str, str]:
    """The words of the rule set's task cards by id (Mission Deep Sea), empty without a deck of them."""
    deck_ref = getattr(getattr(rs, "tasks", None), "deck", None)
    if not deck_ref:
        return {}
    from crewkit.spec.taskcards import load_task_deck

    deck = load_task_deck(deck_ref, None, rs, relative_to=rs.path.parent)
    return {c.id: c.text for c in deck.cards}


def briefing_lines(rs: Any, spec: Any, kinds: Sequence[str], *, shown_id: str, mission_set: bool,
                   entry: Any = None, fixed_readings: Mapping[str, str] | None = None) -> list[str]:
    """The briefing of a mission as the app shows it before an attempt (Rich markup): its title, the crew,
    the mission in words (:func:`mission_briefing_lines`) and the readings in force.

    ``rs``/``spec`` are the loaded rule set and mission
    (:func:`crewkit.families.trick_taking.engine.setup.specs_for`), ``kinds`` the seats (``human``, a bot
    name, ``jarvis``), ``shown_id`` the mission as the player chose it, ``mission_set`` whether it is a rule
    set's own set of mission cards (``hammer``, ``persian/level-2``), ``entry`` its campaign entry (title and
    chapter), ``fixed_readings`` the campaign's fixed readings. The briefing screen and ``crewkit show mission
    --words`` both print this."""
    data = rs.data
    lines: list[str] = []
    if mission_set:
        lines += [f"[b]{shown(str(data.get('title') or rs.name))}[/]   [dim]{shown(shown_id)}[/]", ""]
        description = player_text(str(data.get("description") or ""))
        level = re.fullmatch(r".+/level-(\d+)", shown_id)
        if level:  # the rule set's description names its default level; this game deals another
            description = re.sub(r"\blevel-\d+\b", f"level-{level.group(1)}", description)
            lines[0] = lines[0].replace(shown(shown_id), f"{shown(shown_id)} · level {level.group(1)}")
        if description:
            lines += [shown(description), ""]
    else:
        if entry is not None and (entry.chapter_title or entry.chapter_text):
            if entry.chapter_title:
                lines.append(f"[b]{shown(entry.chapter_title)}[/]")
            if entry.chapter_text:
                lines.append(f"[i]{shown(entry.chapter_text)}[/]")
            lines.append("")
        number = spec.number if spec.number is not None else "?"
        title = entry.title if entry is not None else spec.title
        id_shown = shown_id if entry is not None else spec.id
        lines += [f"[b]Mission {number}: {shown(title)}[/]   [dim]{shown(id_shown)}[/]", ""]
    seats = "in playing order " + ", ".join(seat_label(s, kinds) for s in range(len(kinds)))
    crew = "Players" if data.get("scoring") else "Crew"
    lines.append(f"[b]{crew}:[/] {len(kinds)} players under the [b]{shown(rs.name)}[/] rules — {shown(seats)}")
    if data.get("dummy"):
        lines.append("[b]JARVIS[/] takes a third seat: its face-up cards are public; the commander decides "
                     "where it sits, its tasks and its cards. Face-down cards turn up as the cards above "
                     "them are played.")
    if data.get("scoring"):
        lines.append("Each round the dealer chooses a mission card and its mode (penalty: everyone scores; "
                     "challenge: the dealer's bet). The chips are shown after every round.")
    elif (data.get("tasks") or {}).get("secret"):
        lines.append("Each player holds secret mission cards: only you see yours. They must be completed "
                     "in number order. The commander may signal one card during a trick (key s).")
    elif not mission_set and (data.get("tasks") or {}).get("deck"):
        holder = shown(str((data.get("commander") or {}).get("holder_of") or "the commander's card"))
        lines.append(f"The holder of {holder} is {shown(commander_word(data))}, leads the first trick and takes the "
                     "first task card.")
    elif not mission_set:
        lines.append("The holder of rocket 4 is commander, leads the first trick and chooses the first task.")
    if not mission_set:
        lines.append("")
        lines.extend(mission_briefing_lines(spec.data, len(kinds), task_texts=_task_texts(rs),
                                            commander=commander_word(data)))
    fixed = fixed_readings or {}
    readings = [r for r in data.get("readings") or [] if isinstance(r, dict)
                if rs.name != "crew" or r.get("id") in fixed]
    if readings:
        lines.append("")
        lines.append("[b]Readings[/] (how this rule set reads the unclear rules):")
        for r in readings:
            choice = str(r.get("choice", ""))
            text = ((r.get("options") or {}).get(choice) or {}).get("text", "") if choice else ""
            lines.append(f"  • {shown(player_text(str(r.get('question', r.get('id', '')))))}")
            lines.append(f"    [dim]{shown(choice)}:[/] {shown(player_text(str(text)))}")
    return lines


def role_names(data: Mapping[str, Any], roles: Mapping[str, str] | None = None) -> dict[str, str]:
    """Words for each role of the mission: the player's name once bound, else "the player chosen as X"."""
    from crewkit.dsl.words import with_roles
    from crewkit.spec.dslsites import mission_roles

    return with_roles(roles, tuple(mission_roles(data)))


def expr_words(source: Any, names: Mapping[str, str] | None = None) -> str:
    """A condition or score formula in English (:func:`crewkit.dsl.words.words`).

    A text that does not parse (a file not validated yet) reads as what it is: a rule crewkit cannot word."""
    from crewkit.dsl import DslError
    from crewkit.dsl.words import words

    try:
        return words(str(source), names)
    except DslError:
        return "a rule crewkit cannot read (run crewkit validate on the mission)"


def condition_words(cond: Mapping[str, Any], names: Mapping[str, str] | None = None) -> list[str]:
    """A mission condition in words: the mission's own ``text:``, else when it fails and when it is met."""
    if cond.get("text"):
        return [_sentence_words(cond["text"])]
    fail, done = cond.get("fail_if"), cond.get("done_if")
    out = []
    if fail:
        out.append("The mission fails if " + expr_words(fail, names) + ".")
    if done and fail:
        out.append("The condition is met once " + expr_words(done, names)
                   + "; the mission fails if the hands run out before that.")
    elif done:
        out.append("The mission fails if the hands run out before " + expr_words(done, names) + ".")
    if not out:
        out.append(_key_words(str(cond.get("id", "a condition"))).capitalize() + ".")
    return out


def role_phrase(role: str) -> str:
    from crewkit.dsl.words import role_phrase as phrase

    return phrase(role)


_MODE_WORDS = {
    "currents": "currents: you may communicate, but the others do not learn whether the card is your highest, "
                "lowest or only one of its colour",
    "rapture": "rapture of the deep: the crew shares two sonar tokens fewer than there are players",
    "silence": "no communication at all",
}


def _communication_words(comm: Any, names: Mapping[str, str] | None = None) -> list[str]:
    """A mission's communication mode (Mission Deep Sea's logbook symbols) in words (``names``: the words for
    the mission's roles)."""
    if not isinstance(comm, Mapping):
        return []
    out = []
    if comm.get("mode"):
        out.append("Communication: " + _MODE_WORDS.get(str(comm["mode"]), str(comm["mode"])) + ".")
    drawn = comm.get("drawn_mode")
    if isinstance(drawn, Mapping) and drawn:
        parts = [f"{', '.join(map(str, ranks))}: {_MODE_WORDS.get(str(mode), str(mode))}"
                 for mode, ranks in drawn.items() if isinstance(ranks, list)]
        out.append("Unfamiliar terrain: a colour card drawn before the attempt sets the communication (" +
                   "; ".join(parts) + "; any other rank: as usual).")
    if comm.get("closed_if"):
        out.append("Nobody may communicate while " + expr_words(comm["closed_if"], names) + ".")
    return out


def setup_step_words(kind: str, body: Any, names: Mapping[str, str] | None = None,
                     task_texts: Mapping[str, str] | None = None) -> str:
    """One setup step of a mission in words (``kind`` is its key: ``ask``, ``choose_player``, ...): the step's
    own ``text:``, else crewkit's words for its fields. ``names`` are the words for the mission's roles
    (:func:`role_names`); ``task_texts`` the words of task cards by id (a ``draw_tasks`` that names cards)."""
    from crewkit.dsl.words import join, role_phrase

    names = names or {}

    def role(name: Any) -> str:
        return str(names.get(str(name)) or role_phrase(str(name)))

    def as_role(name: Any) -> str:
        return f"a player as {str(name).replace('_', ' ')}"

    if not isinstance(body, Mapping):
        return f"{_key_words(kind).capitalize()}."
    if body.get("text"):
        return _sentence_words(body["text"])
    # the commander under the rule set's name for it (Mission Deep Sea: the captain)
    commander = str(names.get("commander") or "the commander")

    def player(name: Any) -> str:
        return commander if str(name) == "commander" else role(name)

    chooser = {"commander": commander[:1].upper() + commander[1:], "crew": "Together, the crew",
               "dealer": "The dealer"}
    if kind == "draw_tasks":
        if body.get("fixed"):
            texts = task_texts or {}
            cards = [f"\u201c{texts[str(c)].rstrip('.')}\u201d" if str(c) in texts else _key_words(str(c))
                     for c in body["fixed"]]
            return "The task cards are set: " + "; ".join(cards) + "."
        return (f"Task cards are drawn until their difficulty for this number of players adds up to exactly "
                f"{body.get('difficulty')}.")
    if kind == "distribute_tasks":
        to = [player(r) for r in body.get("to") or []]
        who = join(to, "or") if to else "any player (one may take several or none)"
        return f"The crew gives out the task cards instead of drafting them: each goes to {who}."
    if kind == "volunteer":
        roles = ", then ".join(str(r).replace("_", " ") for r in body.get("roles") or [])
        return (f"{chooser['commander']} asks each player in turn whether they take the tasks: the first yes is "
                f"the {roles} (the last players asked must say yes).")
    if kind == "hardest_first":
        return "The first task card taken must be one of the most difficult drawn."
    if kind == "draft_without":
        who = join([player(r) for r in body.get("exclude") or []], "and")
        return f"{who[:1].upper() + who[1:]} takes no task card."
    if kind == "ask":
        answers = join([f"\u201c{a}\u201d" for a in body.get("answers", []) or []], "or")
        who = {"others": "every other player", "all": "every player"}.get(str(body.get("who", "others")),
                                                                         "every other player")
        return f"The commander asks {who}: \u201c{body.get('question', '')}\u201d (answer {answers})."
    if kind == "choose_player":
        by = chooser.get(str(body.get("by", "commander")), "The commander")
        barred = [("the dealer" if str(e) == "dealer" else player(e))
                  for e in body.get("exclude") or []]
        excluded = f" (not {join(barred, 'nor')})" if barred else ""
        return f"{by} chooses {as_role(body.get('role', 'player'))}{excluded}."
    if kind == "choose_roles":
        by = chooser.get(str(body.get("by", "crew")), "Together, the crew")
        roles_ = [as_role(r) for r in body.get("roles", []) or []]
        distinct = body.get("distinct", True) and len(roles_) > 1
        return f"{by} chooses {join(roles_, 'and')}" + (" (different players)." if distinct else ".")
    if kind == "role_from_holder":
        card = str(body.get("card", "the card"))
        offset = str(body.get("offset", "self"))
        who = {"left": "the player to their left", "right": "the player to their right"}.get(offset, "they")
        chosen = "is" if who != "they" else "are"
        return f"Whoever holds {card} says so; {who} {chosen} chosen as {str(body.get('role', '')).replace('_', ' ')}."
    if kind == "swap_tokens":
        may = "may" if body.get("optional", True) else "must"
        return f"Before the tasks are taken, the crew {may} swap the tokens of two tasks."
    if kind == "move_token":
        may = "may" if body.get("optional", True) else "must"
        return f"Before the tasks are taken, the crew {may} move one token onto a task that has none."
    if kind == "draw_from_neighbour":
        side = "right" if str(body.get("from", "right")) == "right" else "left"
        return (f"Right after trick {body.get('after_trick', 1)}, every player draws a random card from the hand "
                f"of the player on their {side}.")
    # a step of an installed package: its name and its fields, in words
    parts = [f"{_key_words(str(k))} {_value_words(v)}" for k, v in body.items()]
    return _key_words(kind).capitalize() + (f" ({'; '.join(parts)})" if parts else "") + "."


def _key_words(key: str) -> str:
    """A key of a file as words: ``after_trick`` → ``after trick``."""
    return re.sub(r"[_\-]+", " ", key).strip()


def _value_words(value: Any) -> str:
    """A value of a file as words, never a Python repr: lists joined, booleans as yes/no."""
    from crewkit.dsl.words import join

    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{_key_words(str(k))} {_value_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return join([_value_words(v) for v in value], "and")
    return _key_words(str(value)) if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", value) else str(value)


def _sentence_words(text: Any) -> str:
    """An author's ``text:`` as one sentence: one paragraph, a capital first and a full stop at the end."""
    out = " ".join(str(text).split())
    if out and out[0].islower():
        out = out[0].upper() + out[1:]
    return out if not out or out[-1] in ".!?" else out + "."
